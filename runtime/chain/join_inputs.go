package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/expr"
	"github.com/sluice-project/sluice/exec/join"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// joinSide is how a join reads one input: its rows' BinaryRowData (the state keeps them), key
// rows and key groups, and its time column (a window end, or an event time).
type joinSide struct {
	names    []string
	types    []catalog.Type
	keys     []int
	time     int
	encoder  *binaryrow.Encoder
	decoder  *binaryrow.Decoder
	assigner *keygroup.Assigner
	groups   []int32
	offsets  []int32
	// rowBuf holds the rows of the last batch when the join copies what it keeps of them
	// (joinInputs.reuseRows); nullKeys the last batch's NULL-key flags.
	rowBuf   []byte
	nullKeys []bool
}

// joinInputs is what the join stages share: both inputs' batches read into rows, keys and key
// groups, the join condition evaluated on pairs of rows, and pairs written as output rows.
type joinInputs struct {
	spec   *plan.JoinSpec
	what   string // "window join", "interval join": for messages
	mem    memory.Allocator
	sides  [2]joinSide
	keyGrp keygroup.Range
	outEnc *binaryrow.Encoder
	// The output rows of the last call, as pairs (nil: NULL-padded) with their RowKinds (none:
	// all inserts), and their encoding.
	lefts, rights [][]byte
	kinds         []int8
	identity      []int32
	out           []byte
	offsets       []int32
	// more and moreOffsets encode the pairs drained after the call's first ones.
	more        []byte
	moreOffsets []int32
	// reuseRows says the join copies what it keeps of a batch's rows (the window and regular
	// joins; the interval join keeps them as they are): a batch's rows then reuse the last
	// one's buffer instead of a new one per batch, which the Go collector would have to collect.
	reuseRows bool
}

// inputBatch is a batch of one input read for a join.
type inputBatch struct {
	side       join.Side
	n          int
	cols       []arrow.Array
	rows       []byte // the rows' BinaryRowData, at side.offsets
	keys       []byte // the key rows, at keyOffsets
	keyOffsets []int32
	nullKeys   []bool // a NULL in a key the join filters nulls on
	kinds      []int8 // the rows' RowKinds, nil when all insert
}

func (s *inputBatch) row(js *joinSide, r int) []byte {
	return s.rows[js.offsets[r]:js.offsets[r+1]:js.offsets[r+1]]
}

func (s *inputBatch) key(r int) []byte {
	return s.keys[s.keyOffsets[r]:s.keyOffsets[r+1]:s.keyOffsets[r+1]]
}

// openJoinInputs prepares the reading of both inputs of a join whose time columns (window
// ends, or event times) are leftTime and rightTime.
func openJoinInputs(spec *plan.JoinSpec, leftTime, rightTime int, options map[string]string, what string) (*joinInputs, error) {
	maxP, kgs, err := keyedRuntime(options)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	mem := bufpool.New()
	in := &joinInputs{spec: spec, what: what, mem: mem, keyGrp: kgs}
	for i, side := range []struct {
		names []string
		types []catalog.Type
		keys  []int
		time  int
	}{{spec.LeftNames, spec.LeftTypes, spec.LeftKeys, leftTime}, {spec.RightNames, spec.RightTypes, spec.RightKeys, rightTime}} {
		js := &in.sides[i]
		js.names, js.types, js.keys, js.time = side.names, side.types, side.keys, side.time
		if js.encoder, err = binaryrow.NewEncoder(side.types); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if js.decoder, err = binaryrow.NewDecoder(side.names, side.types, mem); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if js.assigner, err = keygroup.NewAssigner(spec.KeyTypes, maxP); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	if in.outEnc, err = binaryrow.NewEncoder(spec.OutTypes); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return in, nil
}

// read reads a batch of one input, marked with its side (plan.JoinSideMetadata): its rows as
// BinaryRowData (their RowKinds INSERT), their keys and key groups, and the RowKinds of a
// changelog (a last catalog.RowKindColumn), which only a join reading changelogs takes
// (changes true).
func (in *joinInputs) read(b arrow.RecordBatch, changes bool) (*inputBatch, error) {
	v, _ := b.Schema().Metadata().GetValue(plan.JoinSideMetadata)
	sb := &inputBatch{}
	switch v {
	case plan.JoinSideLeft:
		sb.side = join.LeftSide
	case plan.JoinSideRight:
		sb.side = join.RightSide
	default:
		return nil, fmt.Errorf("%s: a batch without its side (%s = %q)", in.what, plan.JoinSideMetadata, v)
	}
	js := &in.sides[sb.side]
	all := make([]int, len(js.types))
	for i := range all {
		all[i] = i
	}
	b, kinds, split, err := changelog.Split(in.what+" "+v+" input", b, len(js.types))
	switch {
	case err != nil:
		return nil, err
	case split && !changes:
		b.Release()
		return nil, fmt.Errorf("%s: its %s input is a changelog (a %s column); it reads inserts only", in.what, v, catalog.RowKindColumn)
	case split:
		defer b.Release()
	}
	sb.kinds = kinds
	if err := checkBatchColumns(in.what+" "+v+" input", b, js.names, js.types, all); err != nil {
		return nil, err
	}
	n := int(b.NumRows())
	sb.n, sb.cols = n, b.Columns()
	// The rows as BinaryRowData: what the state keeps and snapshots.
	js.offsets = append(js.offsets[:0], make([]int32, n+1)...)
	if err := js.encoder.Layout(sb.cols, n, js.offsets); err != nil {
		return nil, fmt.Errorf("%s: %w", in.what, err)
	}
	if in.reuseRows {
		js.rowBuf = grown(js.rowBuf, int(js.offsets[n]))
		sb.rows = js.rowBuf[:js.offsets[n]]
	} else {
		sb.rows = make([]byte, js.offsets[n])
	}
	if err := js.encoder.Encode(sb.cols, nil, n, js.offsets, sb.rows); err != nil {
		return nil, fmt.Errorf("%s: %w", in.what, err)
	}
	keyCols := make([]arrow.Array, len(js.keys))
	for i, k := range js.keys {
		keyCols[i] = sb.cols[k]
	}
	js.groups = grown(js.groups, n)
	if err := js.assigner.Assign(keyCols, n, js.groups, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", in.what, err)
	}
	sb.keys, sb.keyOffsets = js.assigner.KeyRows() // the join copies a key when it keeps it
	js.nullKeys = grown(js.nullKeys, n)
	sb.nullKeys = js.nullKeys[:n]
	clear(sb.nullKeys)
	for i, c := range keyCols {
		if in.spec.FilterNulls[i] && c.NullN() > 0 {
			for r := 0; r < n; r++ {
				sb.nullKeys[r] = sb.nullKeys[r] || c.IsNull(r)
			}
		}
	}
	return sb, nil
}

// times returns the side's time column of a batch (window ends or event times, milliseconds).
func (in *joinInputs) times(sb *inputBatch) []int64 {
	return column.Values[int64](sb.cols[in.sides[sb.side].time])
}

// reset forgets the output of the last call. The rows' slices are cleared, not only cut: they
// point into the operators' state, whose old arenas a stale slice would keep alive.
func (in *joinInputs) reset() {
	clear(in.lefts)
	clear(in.rights)
	in.lefts, in.rights, in.kinds = in.lefts[:0], in.rights[:0], in.kinds[:0]
	in.out, in.offsets = in.out[:0], append(in.offsets[:0], 0)
}

// collect adds a pair to the output of the call.
func (in *joinInputs) collect(l, r []byte) error {
	in.lefts, in.rights = append(in.lefts, l), append(in.rights, r)
	return nil
}

// collectChange adds a pair with its RowKind to the output of the call.
func (in *joinInputs) collectChange(kind int8, l, r []byte) error {
	in.kinds = append(in.kinds, kind)
	return in.collect(l, r)
}

// matchPairs evaluates the join condition on pairs of rows: out[i] for the left row ls[i] of
// lefts and the right row rs[i] of rights.
func (in *joinInputs) matchPairs(lefts, rights [][]byte, ls, rs []int32, out []bool) error {
	if in.spec.Condition == nil {
		for i := range out {
			out[i] = true
		}
		return nil
	}
	l, err := decodeRows(in.sides[0].decoder, lefts)
	if err != nil {
		return err
	}
	defer l.Release()
	r, err := decodeRows(in.sides[1].decoder, rights)
	if err != nil {
		return err
	}
	defer r.Release()
	pairs, err := concatTaken(in.mem, l, ls, r, rs)
	if err != nil {
		return fmt.Errorf("%s: %w", in.what, err)
	}
	defer releaseArrays(pairs)
	ctx := expr.NewCtx(in.mem, len(out))
	res, err := in.spec.Condition.Eval(ctx, &sparseBatch{cols: pairs, n: int64(len(out))})
	if err != nil {
		return fmt.Errorf("%s condition: %w", in.what, err)
	}
	defer res.Release()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s condition: %w", in.what, err)
	}
	b := res.(*array.Boolean)
	for i := range out {
		out[i] = b.IsValid(i) && b.Value(i)
	}
	return nil
}

// matchEach evaluates the join condition on pairs listed side by side: out[i] for lefts[i] and
// rights[i] (a join.PairMatcher).
func (in *joinInputs) matchEach(lefts, rights [][]byte, out []bool) error {
	in.identity = grown(in.identity, len(out))
	sel := in.identity[:len(out)]
	for i := range sel {
		sel[i] = int32(i)
	}
	return in.matchPairs(lefts, rights, sel, sel, out)
}

// encodeOutput writes the pairs of the last call as output rows: the left row's fields and the
// right row's (NULLs for a padded side); semi and anti joins write the left rows alone.
func (in *joinInputs) encodeOutput() error {
	m := len(in.lefts)
	if m == 0 {
		return nil
	}
	l, err := decodeRows(in.sides[0].decoder, in.lefts)
	if err != nil {
		return err
	}
	defer l.Release()
	ls := pairIndex(in.lefts)
	var fields []arrow.Array
	if in.spec.Type == join.Semi || in.spec.Type == join.Anti {
		fields, err = concatTaken(in.mem, l, ls, nil, nil)
	} else {
		var r arrow.RecordBatch
		if r, err = decodeRows(in.sides[1].decoder, in.rights); err != nil {
			return err
		}
		defer r.Release()
		fields, err = concatTaken(in.mem, l, ls, r, pairIndex(in.rights))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in.what, err)
	}
	defer releaseArrays(fields)
	var kinds []int8 // none: every row an insert
	if len(in.kinds) > 0 {
		kinds = in.kinds
	}
	if len(in.offsets) <= 1 {
		if in.out, in.offsets, err = encodeRows(in.outEnc, fields, kinds, m, in.out, in.offsets); err != nil {
			return fmt.Errorf("%s: %w", in.what, err)
		}
		return nil
	}
	// Rows of the call are already encoded (a mini-batch join's earlier flushes): these go
	// after them.
	if in.more, in.moreOffsets, err = encodeRows(in.outEnc, fields, kinds, m, in.more, in.moreOffsets); err != nil {
		return fmt.Errorf("%s: %w", in.what, err)
	}
	base := int32(len(in.out))
	in.out = append(in.out, in.more...)
	for _, o := range in.moreOffsets[1:] {
		in.offsets = append(in.offsets, base+o)
	}
	return nil
}

// drainPairs encodes the pairs collected so far after the rows of the call already encoded,
// and forgets them: their rows may point into state that the next join call changes.
func (in *joinInputs) drainPairs() error {
	if err := in.encodeOutput(); err != nil {
		return err
	}
	clear(in.lefts)
	clear(in.rights)
	in.lefts, in.rights, in.kinds = in.lefts[:0], in.rights[:0], in.kinds[:0]
	return nil
}

// Output returns the rows of the last call.
func (in *joinInputs) Output() ([]byte, []int32, []int32) { return in.out, in.offsets, nil }

// Process refuses rows: both inputs of a native join are columnar exchanges.
func (in *joinInputs) Process([]byte, []int32) error {
	return fmt.Errorf("%s: it reads the batches of columnar exchanges, not rows", in.what)
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
				return nil, err
			}
			out = append(out, t)
		}
	}
	return out, nil
}
