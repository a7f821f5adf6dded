package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/over"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// overStage runs an OVER aggregation at the start of a chain: rows of Flink's row exchange or
// batches of a columnar exchange, keyed by the partition keys. Rows wait in state as
// BinaryRowData bytes; when the watermark fires them they are decoded, aggregated and encoded
// again with their aggregates as the last fields.
type overStage struct {
	plan    *plan.OverAggregate
	op      *over.Over
	mem     memory.Allocator
	in      *keyedRows
	output  *binaryrow.Encoder // the input fields and the aggregates
	rows    []over.Row
	out     []byte
	outOffs []int32
}

func openOverStage(p *plan.OverAggregate, options map[string]string) (*overStage, error) {
	maxP, kgs, err := keyedRuntime(options)
	if err != nil {
		return nil, fmt.Errorf("over aggregate: %w", err)
	}
	op, err := over.New(over.Config{Calls: p.Calls, ArgCols: p.ArgCols, Rows: p.Rows, Bounded: p.Bounded,
		Preceding: p.Preceding, TimerPerTimestamp: p.Version != 1, ProcTime: p.ProcTime, KeyGroups: kgs})
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	s := &overStage{plan: p, op: op, mem: mem}
	cols := append([]int(nil), p.KeyCols...)
	if !p.ProcTime {
		cols = append(cols, p.RowtimeCol)
	}
	if s.in, err = newKeyedRows("over aggregate", p.InNames, p.InTypes, p.KeyCols, p.KeyTypes, cols, maxP, mem); err != nil {
		return nil, err
	}
	outTypes := append([]catalog.Type(nil), p.InTypes...)
	for _, c := range p.Calls {
		outTypes = append(outTypes, c.Result)
	}
	if s.output, err = binaryrow.NewEncoder(outTypes); err != nil {
		return nil, fmt.Errorf("over aggregate: %w", err)
	}
	return s, nil
}

// Process takes rows of Flink's row exchange.
func (s *overStage) Process(data []byte, offsets []int32) error {
	s.resetOutput()
	return s.in.rows(data, offsets, s.run)
}

// ProcessBatch takes a batch of a columnar exchange, encoding its rows for the state.
func (s *overStage) ProcessBatch(b arrow.RecordBatch) error {
	s.resetOutput()
	return s.in.batch(b, s.run)
}

// run hands a batch's rows to the aggregation.
func (s *overStage) run(b *keyedBatch) error {
	s.rows = s.rows[:0]
	if s.plan.ProcTime {
		for r := 0; r < b.N; r++ {
			s.rows = append(s.rows, over.Row{KeyGroup: int(b.Groups[r]), Key: b.Key(r), Row: b.Row(r)})
		}
		f, err := s.op.EmitProcTime(s.mem, s.rows, s.decode)
		clear(s.rows)
		if err != nil || f == nil {
			return err
		}
		defer f.Release()
		return s.emit(f)
	}
	t := b.Col(s.plan.RowtimeCol)
	times := column.Values[int64](t)
	for r := 0; r < b.N; r++ {
		row := over.Row{KeyGroup: int(b.Groups[r]), Key: b.Key(r), Row: b.Row(r)}
		if t.IsValid(r) {
			row.Rowtime = times[r] // Flink reads a NULL time attribute as 0
		}
		s.rows = append(s.rows, row)
	}
	err := s.op.Process(s.rows)
	clear(s.rows)
	return err
}

// decode decodes kept rows into a batch of the input's columns.
func (s *overStage) decode(rows [][]byte) (arrow.RecordBatch, error) {
	return decodeRows(s.in.decoder, rows)
}

func (s *overStage) resetOutput() { s.out, s.outOffs = s.out[:0], append(s.outOffs[:0], 0) }

// AdvanceWatermark fires the rows whose time the watermark passed, with their aggregates.
func (s *overStage) AdvanceWatermark(w int64) error {
	s.resetOutput()
	f, err := s.op.AdvanceWatermark(s.mem, w, s.decode)
	if err != nil || f == nil {
		return err
	}
	defer f.Release()
	return s.emit(f)
}

// emit encodes the rows an aggregation emits, each with its aggregate values.
func (s *overStage) emit(f *over.Fired) error {
	taken, err := column.TakeBatch(f.Batch, f.Rows, s.mem)
	if err != nil {
		return fmt.Errorf("over aggregate: %w", err)
	}
	defer taken.Release()
	fields := append(append([]arrow.Array(nil), taken.Columns()[:len(s.plan.InTypes)]...), f.Values...)
	if s.out, s.outOffs, err = encodeRows(s.output, fields, nil, len(f.Rows), s.out, s.outOffs); err != nil {
		return fmt.Errorf("over aggregate: %w", err)
	}
	return nil
}

// PrepareCheckpoint has nothing to flush: rows are in state as they arrive.
func (s *overStage) PrepareCheckpoint() error {
	s.resetOutput()
	return nil
}

// Output returns the rows of the last call (inserts).
func (s *overStage) Output() ([]byte, []int32, []int32) { return s.out, s.outOffs, nil }

// InitializeWatermark restores the event time.
func (s *overStage) InitializeWatermark(w int64) { s.op.InitializeWatermark(w) }

// Snapshot serializes one key group of the aggregation's state.
func (s *overStage) Snapshot(kg int) ([]byte, error) { return s.op.Snapshot(kg) }

// Restore loads one key group of the aggregation's state.
func (s *overStage) Restore(kg int, blob []byte) error { return s.op.Restore(kg, blob) }

// LateDropped counts the late rows dropped.
func (s *overStage) LateDropped() int64 { return s.op.LateDropped() }

// StateBytes is the size of the keys and rows in state.
func (s *overStage) StateBytes() int64 { return s.op.StateBytes() }

// StateKeys is the number of keys in state.
func (s *overStage) StateKeys() int64 { return s.op.StateKeys() }
