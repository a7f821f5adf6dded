package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/expr"
	"github.com/sluice-project/sluice/exec/join"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// joinSide is how the window join reads one input: its rows' BinaryRowData (the state keeps
// them), key rows and key groups, and window ends.
type joinSide struct {
	names    []string
	types    []catalog.Type
	keys     []int
	end      int
	encoder  *binaryrow.Encoder
	decoder  *binaryrow.Decoder
	assigner *keygroup.Assigner
	groups   []int32
	offsets  []int32
}

// joinStage runs a window join at the start of a chain. Its input is the batches of two
// columnar exchanges, each batch marked with its side (plan.JoinSideMetadata); a watermark fires
// windows, whose joined rows are the stage's output.
type joinStage struct {
	plan    *plan.WindowJoin
	op      *join.WindowJoin
	mem     memory.Allocator
	sides   [2]joinSide
	outEnc  *binaryrow.Encoder
	lefts   [][]byte // the output rows of the last call, as pairs (nil: NULL-padded)
	rights  [][]byte
	matched []bool
	out     []byte
	offsets []int32
}

func openJoinStage(p *plan.WindowJoin, options map[string]string) (*joinStage, error) {
	var rt [3]int
	var err error
	for i, k := range []string{plan.OptMaxParallelism, plan.OptKeyGroupStart, plan.OptKeyGroupEnd} {
		if rt[i], err = intOption(options, k); err != nil {
			return nil, fmt.Errorf("window join: %w", err)
		}
	}
	op, err := join.NewWindowJoin(join.WindowConfig{Type: p.Type, Zone: p.Zone, KeyGroups: keygroup.Range{Start: rt[1], End: rt[2]}})
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	s := &joinStage{plan: p, op: op, mem: mem}
	for i, side := range []struct {
		names []string
		types []catalog.Type
		keys  []int
		end   int
	}{{p.LeftNames, p.LeftTypes, p.LeftKeys, p.LeftWindowEnd}, {p.RightNames, p.RightTypes, p.RightKeys, p.RightWindowEnd}} {
		js := &s.sides[i]
		js.names, js.types, js.keys, js.end = side.names, side.types, side.keys, side.end
		if js.encoder, err = binaryrow.NewEncoder(side.types); err != nil {
			return nil, fmt.Errorf("window join: %w", err)
		}
		if js.decoder, err = binaryrow.NewDecoder(side.names, side.types, mem); err != nil {
			return nil, fmt.Errorf("window join: %w", err)
		}
		if js.assigner, err = keygroup.NewAssigner(p.KeyTypes, rt[0]); err != nil {
			return nil, fmt.Errorf("window join: %w", err)
		}
	}
	if s.outEnc, err = binaryrow.NewEncoder(p.OutTypes); err != nil {
		return nil, fmt.Errorf("window join: %w", err)
	}
	return s, nil
}

// Process refuses rows: both inputs of a native window join are columnar exchanges.
func (s *joinStage) Process([]byte, []int32) error {
	return fmt.Errorf("window join: it reads the batches of columnar exchanges, not rows")
}

// ProcessBatch keeps the rows of one input's batch in their keys' windows (or drops them as late).
func (s *joinStage) ProcessBatch(b arrow.RecordBatch) error {
	s.reset()
	v, _ := b.Schema().Metadata().GetValue(plan.JoinSideMetadata)
	var side join.Side
	switch v {
	case plan.JoinSideLeft:
		side = join.LeftSide
	case plan.JoinSideRight:
		side = join.RightSide
	default:
		return fmt.Errorf("window join: a batch without its side (%s = %q)", plan.JoinSideMetadata, v)
	}
	js := &s.sides[side]
	all := make([]int, len(js.types))
	for i := range all {
		all[i] = i
	}
	if err := checkBatchColumns("window join "+v+" input", b, js.names, js.types, all); err != nil {
		return err
	}
	n := int(b.NumRows())
	cols := b.Columns()
	// The rows as BinaryRowData: what the state keeps and snapshots.
	js.offsets = append(js.offsets[:0], make([]int32, n+1)...)
	if err := js.encoder.Layout(cols, n, js.offsets); err != nil {
		return fmt.Errorf("window join: %w", err)
	}
	data := make([]byte, js.offsets[n])
	if err := js.encoder.Encode(cols, nil, n, js.offsets, data); err != nil {
		return fmt.Errorf("window join: %w", err)
	}
	keyCols := make([]arrow.Array, len(js.keys))
	for i, k := range js.keys {
		keyCols[i] = cols[k]
	}
	js.groups = grown(js.groups, n)
	if err := js.assigner.Assign(keyCols, n, js.groups, nil); err != nil {
		return fmt.Errorf("window join: %w", err)
	}
	keys, keyOffsets := js.assigner.KeyRows() // the join copies a key when it keeps it
	ends := column.Values[int64](cols[js.end])
	for r := 0; r < n; r++ {
		nullKey := false
		for i, c := range keyCols {
			if s.plan.FilterNulls[i] && c.IsNull(r) {
				nullKey = true
			}
		}
		row := data[js.offsets[r]:js.offsets[r+1]:js.offsets[r+1]]
		key := keys[keyOffsets[r]:keyOffsets[r+1]:keyOffsets[r+1]]
		if _, err := s.op.Add(side, int(js.groups[r]), key, nullKey, ends[r], row); err != nil {
			return err
		}
	}
	return nil
}

// AdvanceWatermark fires the windows the watermark passes; their joined rows are the output.
func (s *joinStage) AdvanceWatermark(wm int64) error {
	s.reset()
	err := s.op.AdvanceWatermark(wm, s.match, func(l, r []byte) error {
		s.lefts, s.rights = append(s.lefts, l), append(s.rights, r)
		return nil
	})
	if err != nil {
		return err
	}
	return s.encodeOutput()
}

// PrepareCheckpoint has nothing to flush: rows are in state as they arrive.
func (s *joinStage) PrepareCheckpoint() error {
	s.reset()
	return nil
}

func (s *joinStage) reset() {
	s.lefts, s.rights = s.lefts[:0], s.rights[:0]
	s.out, s.offsets = s.out[:0], append(s.offsets[:0], 0)
}

// match evaluates the join condition on a window's pairs of one key.
func (s *joinStage) match(lefts, rights [][]byte, out []bool) error {
	if s.plan.Condition == nil {
		for i := range out {
			out[i] = true
		}
		return nil
	}
	l, err := decodeRows(s.sides[0].decoder, lefts)
	if err != nil {
		return err
	}
	defer l.Release()
	r, err := decodeRows(s.sides[1].decoder, rights)
	if err != nil {
		return err
	}
	defer r.Release()
	ls, rs := make([]int32, len(out)), make([]int32, len(out))
	for i := range out {
		ls[i], rs[i] = int32(i/len(rights)), int32(i%len(rights))
	}
	pairs, err := concatTaken(s.mem, l, ls, r, rs)
	if err != nil {
		return err
	}
	defer releaseArrays(pairs)
	ctx := expr.NewCtx(s.mem, len(out))
	res, err := s.plan.Condition.Eval(ctx, &sparseBatch{cols: pairs, n: int64(len(out))})
	if err != nil {
		return fmt.Errorf("window join condition: %w", err)
	}
	defer res.Release()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("window join condition: %w", err)
	}
	b := res.(*array.Boolean)
	for i := range out {
		out[i] = b.IsValid(i) && b.Value(i)
	}
	return nil
}

// encodeOutput writes the pairs of the last call as output rows: the left row's fields and the
// right row's (NULLs for a padded side); semi and anti joins write the left rows alone.
func (s *joinStage) encodeOutput() error {
	m := len(s.lefts)
	if m == 0 {
		return nil
	}
	l, err := decodeRows(s.sides[0].decoder, s.lefts)
	if err != nil {
		return err
	}
	defer l.Release()
	ls := pairIndex(s.lefts)
	var fields []arrow.Array
	if s.plan.Type == join.Semi || s.plan.Type == join.Anti {
		fields, err = concatTaken(s.mem, l, ls, nil, nil)
	} else {
		var r arrow.RecordBatch
		if r, err = decodeRows(s.sides[1].decoder, s.rights); err != nil {
			return err
		}
		defer r.Release()
		fields, err = concatTaken(s.mem, l, ls, r, pairIndex(s.rights))
	}
	if err != nil {
		return err
	}
	defer releaseArrays(fields)
	s.out, s.offsets, err = encodeRows(s.outEnc, fields, m, s.out, s.offsets)
	return err
}

// pairIndex numbers the rows of a pair list that are not NULL (-1 for those that are), in the
// order decodeRows decodes them.
func pairIndex(rows [][]byte) []int32 {
	idx := make([]int32, len(rows))
	k := int32(0)
	for i, r := range rows {
		if r == nil {
			idx[i] = -1
			continue
		}
		idx[i] = k
		k++
	}
	return idx
}

// decodeRows decodes the rows that are not nil into a batch (its last column the RowKinds).
func decodeRows(d *binaryrow.Decoder, rows [][]byte) (arrow.RecordBatch, error) {
	size := 0
	for _, r := range rows {
		size += len(r)
	}
	data := make([]byte, 0, size)
	offsets := []int32{0}
	for _, r := range rows {
		if r != nil {
			data = append(data, r...)
			offsets = append(offsets, int32(len(data)))
		}
	}
	return d.Decode(data, offsets)
}

// concatTaken returns the columns of l taken at ls followed by those of r taken at rs (r nil:
// none), a negative index taking a NULL; the batches' RowKind columns are left out.
func concatTaken(mem memory.Allocator, l arrow.RecordBatch, ls []int32, r arrow.RecordBatch, rs []int32) ([]arrow.Array, error) {
	var out []arrow.Array
	for _, part := range []struct {
		b   arrow.RecordBatch
		sel []int32
	}{{l, ls}, {r, rs}} {
		if part.b == nil {
			continue
		}
		for c := 0; c < int(part.b.NumCols())-1; c++ {
			t, err := column.TakeOrNull(part.b.Column(c), part.sel, mem)
			if err != nil {
				releaseArrays(out)
				return nil, fmt.Errorf("window join: %w", err)
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// Snapshot serializes one key group of the join's state.
func (s *joinStage) Snapshot(kg int) ([]byte, error) { return s.op.Snapshot(kg) }

// Restore loads one key group of the join's state.
func (s *joinStage) Restore(kg int, blob []byte) error { return s.op.Restore(kg, blob) }

// InitializeWatermark keeps the join's event time where a restore leaves it: Flink's
// WindowJoinOperator keeps no watermark in its state, so after a restore no row is late until a
// watermark arrives, and restored windows fire on that watermark.
func (s *joinStage) InitializeWatermark(int64) {}

// LateDropped counts the rows of both inputs dropped as late.
func (s *joinStage) LateDropped() int64 { return s.op.LateLeft + s.op.LateRight }

// StateBytes is the size of the rows and keys in the join's state.
func (s *joinStage) StateBytes() int64 { return s.op.StateBytes() }

// StateKeys is the number of keys with rows in the join's state.
func (s *joinStage) StateKeys() int64 { return s.op.StateKeys() }

// Output returns the rows of the last call.
func (s *joinStage) Output() ([]byte, []int32, []int32) { return s.out, s.offsets, nil }
