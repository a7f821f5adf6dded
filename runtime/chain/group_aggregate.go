package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/statettl"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// groupAggStage runs a group aggregation: in one phase or in the global phase at the start of
// a chain, reading a columnar exchange's batches (or, after Flink's row exchange, rows with
// their RowKinds) keyed by the grouping keys, each input row's change to its key's result an
// output row (+I, -U, +U, -D) in the input's order, or with mini-batches each bundle key's;
// in the local phase anywhere in a chain, each bundle's partial accumulators per key.
type groupAggStage struct {
	plan     *plan.GroupAggregate
	op       *agg.GroupAggregate      // one phase and global phase
	local    *agg.LocalGroupAggregate // local phase
	mem      memory.Allocator
	decoder  *binaryrow.Decoder
	assigner *keygroup.Assigner
	encoder  *binaryrow.Encoder
	groups   []int32
	// bundle buffers the rows of a mini-batch (nil without mini-batches).
	bundle *groupBundle
	// out gathers the rows of one call.
	out rowOutput
	// encoded holds the rows of one run before they are appended to out.
	encoded        []byte
	encodedOffsets []int32
}

func openGroupAggStage(p *plan.GroupAggregate, options map[string]string) (*groupAggStage, error) {
	mem := bufpool.New()
	s := &groupAggStage{plan: p, mem: mem}
	var err error
	maxP := localKeyGroups
	if p.Phase == plan.LocalPhase {
		// No state: the key rows only order the bundle.
		if s.local, err = agg.NewLocalGroupAggregate(p.Calls); err != nil {
			return nil, err
		}
	} else {
		var kgs keygroup.Range
		if maxP, kgs, err = keyedRuntime(options); err != nil {
			return nil, fmt.Errorf("group aggregate: %w", err)
		}
		if s.op, err = agg.NewGroupAggregate(agg.GroupConfig{Calls: p.Calls, GenerateUpdateBefore: p.GenerateUpdateBefore,
			Retractions: p.Retractions, RecordCount: p.RecordCount, HiddenCalls: p.HiddenCalls, KeyGroups: kgs, StateTTL: statettl.TTL{Millis: p.StateTTL}}); err != nil {
			return nil, err
		}
	}
	if s.decoder, err = binaryrow.NewDecoder(p.InNames, p.InTypes, mem); err != nil {
		return nil, fmt.Errorf("group aggregate: %w", err)
	}
	if s.assigner, err = keygroup.NewAssigner(p.KeyTypes, maxP); err != nil {
		return nil, fmt.Errorf("group aggregate: %w", err)
	}
	if s.encoder, err = binaryrow.NewEncoder(p.OutTypes); err != nil {
		return nil, fmt.Errorf("group aggregate: %w", err)
	}
	if p.MiniBatchSize > 0 {
		if s.bundle, err = newGroupBundle(p, mem); err != nil {
			return nil, fmt.Errorf("group aggregate: %w", err)
		}
	} else if p.Phase != plan.OnePhase {
		return nil, fmt.Errorf("group aggregate: a %s without mini-batches", p.ExecType())
	}
	return s, nil
}

// localKeyGroups is the number of key groups the local phase computes its key rows with: any
// number would do, the key groups are not used.
const localKeyGroups = 128

// Process aggregates rows of Flink's row exchange, with their RowKinds.
func (s *groupAggStage) Process(data []byte, offsets []int32) error {
	b, err := s.decoder.Decode(data, offsets)
	if err != nil {
		return fmt.Errorf("group aggregate: %w", err)
	}
	defer b.Release()
	kinds := column.Values[int8](b.Column(int(b.NumCols()) - 1))
	cols := b.Columns()[:len(s.plan.InTypes)]
	return s.aggregate(cols, kinds, int(b.NumRows()))
}

// ProcessBatch aggregates a batch of a columnar exchange: inserts, or a changelog whose last
// column holds the RowKinds (catalog.RowKindColumn).
func (s *groupAggStage) ProcessBatch(b arrow.RecordBatch) error {
	all := make([]int, len(s.plan.InTypes))
	for i := range all {
		all[i] = i
	}
	b, kinds, split, err := changelog.Split("group aggregate", b, len(s.plan.InTypes))
	if err != nil {
		return err
	}
	if split {
		defer b.Release()
	}
	if err := checkBatchColumns("group aggregate", b, s.plan.InNames, s.plan.InTypes, all); err != nil {
		return err
	}
	return s.aggregate(b.Columns(), kinds, int(b.NumRows()))
}

// aggregate aggregates n rows (kinds nil: all inserts), or with mini-batches adds them to the
// bundle, which is finished after every row that fills it.
func (s *groupAggStage) aggregate(cols []arrow.Array, kinds []int8, n int) error {
	s.out.reset()
	if n == 0 {
		return nil
	}
	keys := make([]arrow.Array, len(s.plan.KeyCols))
	for i, k := range s.plan.KeyCols {
		keys[i] = cols[k]
	}
	s.groups = grown(s.groups, n)
	if err := s.assigner.Assign(keys, n, s.groups, nil); err != nil {
		return fmt.Errorf("group aggregate: %w", err)
	}
	keyRows, keyOffsets := s.assigner.KeyRows()
	if s.bundle != nil {
		return s.bundle.add(s, cols, kinds, n, keyRows, keyOffsets)
	}
	in := &agg.GroupInput{N: n, Kinds: kinds, KeyGroups: s.groups, Keys: keyRows, KeyOffsets: keyOffsets}
	return s.run(in, cols)
}

// run aggregates in, whose input columns are cols, and appends the changes as output rows.
func (s *groupAggStage) run(in *agg.GroupInput, cols []arrow.Array) error {
	for i := range s.plan.Calls {
		var arg, filter arrow.Array
		if c := s.plan.ArgCols[i]; c >= 0 {
			arg = cols[c]
		}
		if c := s.plan.FilterCols[i]; c >= 0 {
			filter = cols[c]
		}
		in.Args, in.Filters = append(in.Args, arg), append(in.Filters, filter)
	}
	ch, err := s.op.Process(s.mem, in)
	if err != nil {
		return err
	}
	defer ch.Release()
	if len(ch.Kinds) == 0 {
		return nil
	}
	return s.emit(cols, ch.Rows, ch.Values, ch.Kinds)
}

// emit appends output rows: the key columns of cols at rows, then the values (one column per
// aggregate, or the partial accumulators' fields); kinds nil for inserts.
func (s *groupAggStage) emit(cols []arrow.Array, rows []int32, values []arrow.Array, kinds []int8) error {
	m := len(rows)
	var taken []arrow.Array
	defer func() { releaseArrays(taken) }()
	for _, k := range s.plan.KeyCols {
		t, err := column.TakeOrNull(cols[k], rows, s.mem)
		if err != nil {
			return fmt.Errorf("group aggregate: %w", err)
		}
		taken = append(taken, t)
	}
	fields := append(append([]arrow.Array(nil), taken...), values...)
	var err error
	if s.encoded, s.encodedOffsets, err = encodeRows(s.encoder, fields, kinds, m, s.encoded, s.encodedOffsets); err != nil {
		return fmt.Errorf("group aggregate: %w", err)
	}
	s.out.append(s.encoded, s.encodedOffsets)
	return nil
}

// AdvanceWatermark finishes the mini-batch bundle (AbstractMapBundleOperator#processWatermark);
// without mini-batches there is nothing to fire and the watermark passes on.
func (s *groupAggStage) AdvanceWatermark(int64) error {
	s.out.reset()
	if s.bundle != nil {
		return s.bundle.finish(s)
	}
	return nil
}

// PrepareCheckpoint finishes the mini-batch bundle before a checkpoint barrier
// (AbstractMapBundleOperator#prepareSnapshotPreBarrier); without mini-batches every row's
// change was emitted as it was aggregated.
func (s *groupAggStage) PrepareCheckpoint() error {
	s.out.reset()
	if s.bundle != nil {
		return s.bundle.finish(s)
	}
	return nil
}

// Output returns the changes of the last call as rows with their RowKinds.
func (s *groupAggStage) Output() ([]byte, []int32, []int32) { return s.out.data, s.out.offsets, nil }

// InitializeWatermark does nothing: a group aggregation has no event time.
func (s *groupAggStage) InitializeWatermark(int64) {}

// Snapshot serializes one key group of the aggregation's state (the local phase has none).
func (s *groupAggStage) Snapshot(kg int) ([]byte, error) {
	if s.op == nil {
		return nil, nil
	}
	return s.op.Snapshot(kg)
}

// Restore loads one key group of the aggregation's state.
func (s *groupAggStage) Restore(kg int, blob []byte) error {
	if s.op == nil {
		return fmt.Errorf("local group aggregate: no state to restore")
	}
	return s.op.Restore(kg, blob)
}

// LateDropped is 0: a group aggregation drops no row.
func (s *groupAggStage) LateDropped() int64 { return 0 }

// StateBytes estimates the memory of the accumulators.
func (s *groupAggStage) StateBytes() int64 {
	if s.op == nil {
		return 0
	}
	return s.op.StateBytes()
}

// StateKeys is the number of keys in state.
func (s *groupAggStage) StateKeys() int64 {
	if s.op == nil {
		return 0
	}
	return s.op.StateKeys()
}
