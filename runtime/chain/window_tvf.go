package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/window"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// tvfStage runs a window table function in a chain: each input row once per window it belongs
// to, with window_start, window_end and window_time appended. It reads rows or Arrow batches
// and writes rows; the rows do not map to input rows one to one, so the chain keeps no record
// timestamps after it (Flink's operator erases them too).
type tvfStage struct {
	plan    *plan.WindowTableFunction
	fn      *window.TableFunction
	mem     memory.Allocator
	decoder *binaryrow.Decoder
	encoder *binaryrow.Encoder
	windows window.Windows
	kinds   []int8
	out     []byte
	offsets []int32
}

func openTVFStage(p *plan.WindowTableFunction) (*tvfStage, error) {
	if p.Assigner != nil && p.Assigner.Kind == window.Session {
		return nil, fmt.Errorf("window table function: SESSION windows are not supported natively")
	}
	mem := bufpool.New()
	s := &tvfStage{plan: p, fn: p.Function(), mem: mem}
	var err error
	if s.decoder, err = binaryrow.NewDecoder(p.InNames, p.InTypes, mem); err != nil {
		return nil, err
	}
	if s.encoder, err = binaryrow.NewEncoder(p.OutTypes); err != nil {
		return nil, err
	}
	return s, nil
}

// Process assigns the windows of BinaryRowData rows.
func (s *tvfStage) Process(data []byte, offsets []int32) error {
	b, err := s.decoder.Decode(data, offsets)
	if err != nil {
		return fmt.Errorf("window table function: %w", err)
	}
	defer b.Release()
	n := len(s.plan.InTypes)
	kinds := column.Values[int8](b.Column(n))
	return s.apply(b.Columns()[:n], kinds)
}

// ProcessBatch assigns the windows of an Arrow batch's rows (a native scan's: all inserts).
func (s *tvfStage) ProcessBatch(b arrow.RecordBatch) error {
	all := make([]int, len(s.plan.InTypes))
	for i := range all {
		all[i] = i
	}
	if err := checkBatchColumns("window table function", b, s.plan.InNames, s.plan.InTypes, all); err != nil {
		return err
	}
	return s.apply(b.Columns(), nil)
}

// apply writes the output rows of input columns cols (kinds: their RowKinds, nil for inserts).
func (s *tvfStage) apply(cols []arrow.Array, kinds []int8) error {
	ts := cols[s.plan.TimeCol]
	var valid func(int) bool
	if ts.NullN() > 0 {
		valid = ts.IsValid
	}
	s.windows.Reset()
	s.fn.Apply(column.Values[int64](ts), valid, &s.windows)
	m := len(s.windows.Rows)
	fields := make([]arrow.Array, 0, len(s.plan.OutTypes))
	defer func() {
		for _, f := range fields {
			f.Release()
		}
	}()
	for _, c := range cols {
		t, err := column.Take(c, s.windows.Rows, s.mem)
		if err != nil {
			return fmt.Errorf("window table function: %w", err)
		}
		fields = append(fields, t)
	}
	n := len(cols)
	for i, vals := range [][]int64{s.windows.Starts, s.windows.Ends, s.windows.Times} {
		c, err := int64Column(s.mem, s.plan.OutTypes[n+i], vals)
		if err != nil {
			return fmt.Errorf("window table function: %w", err)
		}
		fields = append(fields, c)
	}
	var outKinds []int8
	if kinds != nil {
		s.kinds = s.kinds[:0]
		for _, r := range s.windows.Rows {
			s.kinds = append(s.kinds, kinds[r])
		}
		outKinds = s.kinds
	}
	s.offsets = append(s.offsets[:0], make([]int32, m+1)...)
	if err := s.encoder.Layout(fields, m, s.offsets); err != nil {
		return fmt.Errorf("window table function: %w", err)
	}
	size := int(s.offsets[m])
	if cap(s.out) < size {
		s.out = make([]byte, size)
	}
	s.out = s.out[:size]
	if err := s.encoder.Encode(fields, outKinds, m, s.offsets, s.out); err != nil {
		return fmt.Errorf("window table function: %w", err)
	}
	return nil
}

// Output returns the rows of the last call; they map to no single input row each.
func (s *tvfStage) Output() ([]byte, []int32, []int32) { return s.out, s.offsets, nil }

var _ BatchPipeline = (*tvfStage)(nil)
