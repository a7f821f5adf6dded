package chain

import (
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/expr"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/window"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// Pipeline is a native operator between row edges: BinaryRowData batches in, BinaryRowData out.
type Pipeline interface {
	// Process consumes one batch; row r is data[offsets[r]:offsets[r+1]].
	Process(data []byte, offsets []int32) error
	// Output returns the rows produced by the last call: bytes, row offsets and, when rows map
	// to input rows (Calc), the input row of each output row.
	Output() (data []byte, offsets []int32, selection []int32)
}

// Open compiles an island (one node, or a chain of nodes between two exchanges) into the
// pipeline that one Flink operator runs.
func Open(data []byte) (*Chain, error) {
	is, err := plan.Decode(data)
	if err != nil {
		return nil, err
	}
	return openChain(is)
}

// openStage opens the stage that runs a compiled node inside a chain; options are the island's.
// Every node kind of plan's registry that can stand inside a chain has a stage here (scans
// start a chain and are read by it; sinks and exchanges end it).
func openStage(node plan.Node, options map[string]string) (Pipeline, error) {
	switch p := node.(type) {
	case *plan.Calc:
		return newRowPipeline(p)
	case *plan.WindowAggregate:
		if p.Phase == plan.LocalPhase {
			return openLocalWindowPipeline(p)
		}
		return openWindowPipeline(p, options)
	case *plan.WatermarkAssigner:
		return openWatermarkPipeline(p)
	case *plan.WindowTableFunction:
		return openTVFStage(p)
	case *plan.WindowJoin:
		return openJoinStage(p, options)
	case *plan.IntervalJoin:
		return openIntervalStage(p, options)
	case *plan.RegularJoin:
		return openRegularJoinStage(p, options)
	case *plan.GroupAggregate:
		return openGroupAggStage(p, options)
	case *plan.Deduplicate:
		return openDedupStage(p, options)
	case *plan.Rank:
		return openTopNStage(p, options)
	case *plan.OverAggregate:
		return openOverStage(p, options)
	case *plan.DropUpdateBefore:
		return &dropUpdateBeforeStage{}, nil
	}
	return nil, fmt.Errorf("a %s node cannot run inside a chain", node.ExecType())
}

// WindowPipeline runs a window aggregation between row edges. Rows are aggregated as they
// arrive; results appear when a watermark fires windows.
type WindowPipeline struct {
	plan    *plan.WindowAggregate
	op      window.Aggregation
	mem     memory.Allocator
	decoder *binaryrow.Decoder
	keys    *binaryrow.Decoder
	encoder *binaryrow.Encoder
	cols    []int // input columns to decode
	// arrivals are the arrival times of the next batch's rows (processing-time windows).
	arrivals []Arrival
	times    []int64 // the arrival times of a batch's rows, reused

	out     []byte
	offsets []int32
}

// Arrival is a run of rows of a batch that arrived at the same processing time: rows from
// FirstRow on (up to the next run's) arrived at Time (epoch milliseconds).
type Arrival struct {
	FirstRow int64
	Time     int64
}

// arrivalTimes spreads the arrival runs of a batch of n rows over its rows, in dst's memory
// when it has room (the caller's buffer, reused from batch to batch).
func arrivalTimes(dst []int64, runs []Arrival, n int) ([]int64, error) {
	if len(runs) == 0 || runs[0].FirstRow != 0 {
		return nil, fmt.Errorf("processing time without the arrival times of its %d rows", n)
	}
	times := grown(dst, n)[:n]
	for i, run := range runs {
		end := int64(n)
		if i+1 < len(runs) {
			end = runs[i+1].FirstRow
		}
		if end < run.FirstRow || end > int64(n) {
			return nil, fmt.Errorf("arrival run %d covers rows [%d, %d) of %d", i, run.FirstRow, end, n)
		}
		for r := run.FirstRow; r < end; r++ {
			times[r] = run.Time
		}
	}
	return times, nil
}

// SetArrivals gives the arrival times of the next batch's rows to a processing-time window.
func (w *WindowPipeline) SetArrivals(runs []Arrival) {
	w.arrivals = append(w.arrivals[:0], runs...)
}

// procTimeInput sets a processing-time window's time column: the rows' arrival times.
func (w *WindowPipeline) procTimeInput(in *window.Input, n int) (func(), error) {
	if !w.plan.Spec.ProcTime {
		return func() {}, nil
	}
	times, err := arrivalTimes(w.times, w.arrivals, n)
	w.arrivals = w.arrivals[:0]
	if err != nil {
		return nil, fmt.Errorf("window pipeline: %w", err)
	}
	w.times = times
	col, err := int64Column(w.mem, catalog.TimestampType(3, false), times) // copies them
	if err != nil {
		return nil, err
	}
	in.Rowtime = col
	return col.Release, nil
}

// keyedRuntime reads the runtime options of a keyed stage: the job's max parallelism and the
// subtask's key-group range.
func keyedRuntime(options map[string]string) (int, keygroup.Range, error) {
	var rt [3]int
	var err error
	for i, k := range []string{plan.OptMaxParallelism, plan.OptKeyGroupStart, plan.OptKeyGroupEnd} {
		if rt[i], err = intOption(options, k); err != nil {
			return 0, keygroup.Range{}, err
		}
	}
	return rt[0], keygroup.Range{Start: rt[1], End: rt[2]}, nil
}

func intOption(options map[string]string, key string) (int, error) {
	v, ok := options[key]
	if !ok {
		return 0, fmt.Errorf("option %s is missing (set by the operator at runtime)", key)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("option %s: %w", key, err)
	}
	return n, nil
}

// EventTimePipeline is a pipeline driven by watermarks, with a buffer that Flink flushes before
// checkpoint barriers.
type EventTimePipeline interface {
	Pipeline
	// AdvanceWatermark moves event time; its output rows are the pipeline's Output.
	AdvanceWatermark(wm int64) error
	// PrepareCheckpoint flushes the buffer; its output rows (if any) are the pipeline's Output.
	PrepareCheckpoint() error
}

func openWindowPipeline(p *plan.WindowAggregate, options map[string]string) (*WindowPipeline, error) {
	maxP, kgs, err := keyedRuntime(options)
	if err != nil {
		return nil, fmt.Errorf("window pipeline: %w", err)
	}
	op, err := window.Open(p.RuntimeSpec(maxP, kgs.Start, kgs.End))
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	wp := &WindowPipeline{plan: p, op: op, mem: mem}
	if wp.decoder, err = binaryrow.NewDecoder(p.InNames, p.InTypes, mem); err != nil {
		return nil, err
	}
	if wp.keys, err = keyDecoder(p, mem); err != nil {
		return nil, err
	}
	if wp.encoder, err = binaryrow.NewEncoder(p.OutTypes); err != nil {
		return nil, err
	}
	wp.cols = p.InputColumns()
	return wp, nil
}

// Process aggregates one batch of input rows.
func (w *WindowPipeline) Process(data []byte, offsets []int32) error {
	w.out, w.offsets = w.out[:0], w.offsets[:0]
	in, release, err := windowInput(w.plan, w.decoder, data, offsets, w.cols)
	if err != nil {
		return err
	}
	defer release()
	releaseTimes, err := w.procTimeInput(&in, len(offsets)-1)
	if err != nil {
		return err
	}
	defer releaseTimes()
	return w.op.Process(in)
}

// ProcessBatch aggregates one Arrow batch of input rows (from a columnar exchange). The batch
// is borrowed: the operator copies what it keeps.
func (w *WindowPipeline) ProcessBatch(b arrow.RecordBatch) error {
	w.out, w.offsets = w.out[:0], w.offsets[:0]
	in, err := windowBatchInput(w.plan, b, w.cols)
	if err != nil {
		return err
	}
	releaseTimes, err := w.procTimeInput(&in, int(b.NumRows()))
	if err != nil {
		return err
	}
	defer releaseTimes()
	return w.op.Process(in)
}

// AdvanceWatermark fires the windows that the watermark completes and encodes their rows as
// the pipeline's output. Processing-time windows ignore watermarks (Flink's WindowAggOperator
// only forwards them).
func (w *WindowPipeline) AdvanceWatermark(wm int64) error {
	w.out, w.offsets = w.out[:0], w.offsets[:0]
	if w.plan.Spec.ProcTime {
		return nil
	}
	w.op.AdvanceWatermark(wm)
	return w.emitFired()
}

// ProcTime reports whether the pipeline aggregates processing-time windows.
func (w *WindowPipeline) ProcTime() bool { return w.plan.Spec.ProcTime }

// AdvanceProcessingTime fires the processing-time windows due at t (epoch milliseconds) and
// encodes their rows as the pipeline's output.
func (w *WindowPipeline) AdvanceProcessingTime(t int64) error {
	w.out, w.offsets = w.out[:0], w.offsets[:0]
	if !w.plan.Spec.ProcTime {
		return fmt.Errorf("window pipeline: an event-time window has no processing-time timers")
	}
	w.op.AdvanceProcessingTime(t)
	return w.emitFired()
}

// NextTimer is the processing time at which the next processing-time window fires (MaxInt64:
// none pending).
func (w *WindowPipeline) NextTimer() int64 {
	if !w.plan.Spec.ProcTime {
		return 1<<63 - 1
	}
	return w.op.NextTimer()
}

// emitFired encodes the rows of the windows that fired as the pipeline's output.
func (w *WindowPipeline) emitFired() error {
	f, err := w.op.TakeFired(w.mem)
	if err != nil {
		return err
	}
	defer f.Release()
	m := f.Len()
	keys, err := w.keys.Decode(f.KeyRows, f.KeyOffsets)
	if err != nil {
		return fmt.Errorf("window pipeline: fired keys: %w", err)
	}
	defer keys.Release()
	fields := make([]arrow.Array, 0, len(w.plan.OutTypes))
	fields = append(fields, keys.Columns()[:len(w.plan.KeyCols)]...) // without the RowKind column
	fields = append(fields, f.Aggs...)
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	for i, prop := range w.plan.Props {
		t := w.plan.OutTypes[len(w.plan.KeyCols)+len(f.Aggs)+i]
		vals := make([]int64, m)
		for r := range vals {
			switch prop {
			case plan.WindowStart:
				vals[r] = f.Starts[r]
			case plan.WindowEnd:
				vals[r] = f.Ends[r]
			case plan.WindowTime:
				// An instant: the epoch of the window's last millisecond (toEpochMills).
				vals[r] = w.plan.Spec.Zone.Epoch(f.Ends[r] - 1)
			}
		}
		a, err := int64Column(w.mem, t, vals)
		if err != nil {
			return err
		}
		owned = append(owned, a)
		fields = append(fields, a)
	}
	var encErr error
	w.out, w.offsets, encErr = encodeRows(w.encoder, fields, nil, m, w.out, w.offsets)
	return encErr
}

// int64Column builds a column of Flink type t (BIGINT or TIMESTAMP(3)) without nulls.
func int64Column(mem memory.Allocator, t catalog.Type, vals []int64) (arrow.Array, error) {
	dt, err := catalog.ArrowType(t)
	if err != nil {
		return nil, err
	}
	buf, out := column.NewValues[int64](mem, len(vals))
	copy(out, vals)
	return column.MakeArray(dt, len(vals), nil, buf), nil
}

// PrepareCheckpoint flushes the window buffer into state; it has no output.
func (w *WindowPipeline) PrepareCheckpoint() error {
	w.op.PrepareCheckpoint()
	w.out, w.offsets = w.out[:0], w.offsets[:0]
	return nil
}

// Output returns the rows of the windows fired by the last AdvanceWatermark.
func (w *WindowPipeline) Output() ([]byte, []int32, []int32) {
	if len(w.offsets) == 0 {
		return nil, []int32{0}, nil
	}
	return w.out, w.offsets, nil
}

// InitializeWatermark sets the event-time progress restored from a checkpoint (processing-time
// windows have none).
func (w *WindowPipeline) InitializeWatermark(wm int64) {
	if !w.plan.Spec.ProcTime {
		w.op.InitializeWatermark(wm)
	}
}

// Snapshot serializes one key group's state (nil when it has none).
func (w *WindowPipeline) Snapshot(kg int) ([]byte, error) { return w.op.Snapshot(kg) }

// Restore loads one key group's state.
func (w *WindowPipeline) Restore(kg int, blob []byte) error { return w.op.Restore(kg, blob) }

// LateDropped counts late rows dropped so far.
func (w *WindowPipeline) LateDropped() int64 { return w.op.LateDropped() }

// StateBytes estimates the memory of the aggregation's state.
func (w *WindowPipeline) StateBytes() int64 { return w.op.StateBytes() }

// StateKeys is the number of keys with state.
func (w *WindowPipeline) StateKeys() int64 { return int64(w.op.Keys()) }

// LocalWindowPipeline runs the local phase of a two-phase window aggregation: partial
// aggregates per key and slice come out when its buffer flushes.
type LocalWindowPipeline struct {
	plan    *plan.WindowAggregate
	op      *window.LocalOperator
	mem     memory.Allocator
	decoder *binaryrow.Decoder
	keys    *binaryrow.Decoder
	encoder *binaryrow.Encoder
	cols    []int

	out     []byte
	offsets []int32
}

func openLocalWindowPipeline(p *plan.WindowAggregate) (*LocalWindowPipeline, error) {
	op, err := window.NewLocal(p.Spec)
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	lp := &LocalWindowPipeline{plan: p, op: op, mem: mem}
	if lp.decoder, err = binaryrow.NewDecoder(p.InNames, p.InTypes, mem); err != nil {
		return nil, err
	}
	if lp.keys, err = keyDecoder(p, mem); err != nil {
		return nil, err
	}
	if lp.encoder, err = binaryrow.NewEncoder(p.OutTypes); err != nil {
		return nil, err
	}
	lp.cols = p.InputColumns()
	return lp, nil
}

// Process buffers one batch of input rows.
func (l *LocalWindowPipeline) Process(data []byte, offsets []int32) error {
	l.out, l.offsets = l.out[:0], l.offsets[:0]
	in, release, err := windowInput(l.plan, l.decoder, data, offsets, l.cols)
	if err != nil {
		return err
	}
	defer release()
	return l.op.Process(in)
}

// ProcessBatch buffers one Arrow batch of the input row type (the rows of a native scan, or of
// a Calc on it, that a watermark assigner let through): no rows are decoded.
func (l *LocalWindowPipeline) ProcessBatch(b arrow.RecordBatch) error {
	l.out, l.offsets = l.out[:0], l.offsets[:0]
	in, err := windowBatchInput(l.plan, b, l.cols)
	if err != nil {
		return err
	}
	return l.op.Process(in)
}

// AdvanceWatermark flushes the buffer when the watermark calls for it.
func (l *LocalWindowPipeline) AdvanceWatermark(wm int64) error {
	l.op.AdvanceWatermark(wm)
	return l.encodeOutput()
}

// PrepareCheckpoint flushes the buffer.
func (l *LocalWindowPipeline) PrepareCheckpoint() error {
	l.op.PrepareCheckpoint()
	return l.encodeOutput()
}

func (l *LocalWindowPipeline) encodeOutput() error {
	o, err := l.op.TakeOutput(l.mem)
	if err != nil {
		return err
	}
	defer o.Release()
	m := o.Len()
	keys, err := l.keys.Decode(o.KeyRows, o.KeyOffsets)
	if err != nil {
		return fmt.Errorf("local window pipeline: keys: %w", err)
	}
	defer keys.Release()
	fields := append(append([]arrow.Array{}, keys.Columns()[:len(l.plan.KeyCols)]...), o.Fields...)
	ends, err := int64Column(l.mem, catalog.BigIntType(true), o.SliceEnds)
	if err != nil {
		return err
	}
	defer ends.Release()
	fields = append(fields, ends)
	var encErr error
	l.out, l.offsets, encErr = encodeRows(l.encoder, fields, nil, m, l.out, l.offsets)
	return encErr
}

// Output returns the partial aggregates of the last flush.
func (l *LocalWindowPipeline) Output() ([]byte, []int32, []int32) {
	if len(l.offsets) == 0 {
		return nil, []int32{0}, nil
	}
	return l.out, l.offsets, nil
}

// encodeRows encodes m rows of fields with their RowKinds (nil: inserts) into out, reusing its
// buffers.
func encodeRows(enc *binaryrow.Encoder, fields []arrow.Array, kinds []int8, m int, out []byte, offsets []int32) ([]byte, []int32, error) {
	offsets = append(offsets[:0], make([]int32, m+1)...)
	if err := enc.Layout(fields, m, offsets); err != nil {
		return out, offsets, err
	}
	size := int(offsets[m])
	if cap(out) < size {
		out = make([]byte, size)
	}
	out = out[:size]
	return out, offsets, enc.Encode(fields, kinds, m, offsets, out)
}

// keyDecoder decodes the key rows of a window plan.
func keyDecoder(p *plan.WindowAggregate, mem memory.Allocator) (*binaryrow.Decoder, error) {
	names := make([]string, len(p.KeyCols))
	for i, k := range p.KeyCols {
		names[i] = p.InNames[k]
	}
	return binaryrow.NewDecoder(names, p.Spec.KeyTypes, mem)
}

// input decodes a batch of rows into a window operator's input; release frees the columns.
func windowInput(p *plan.WindowAggregate, d *binaryrow.Decoder, data []byte, offsets []int32, cols []int) (window.Input, func(), error) {
	n := len(offsets) - 1
	if n < 0 {
		return window.Input{}, nil, fmt.Errorf("window pipeline: no offsets")
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := d.Check(data, starts, ends); err != nil {
		return window.Input{}, nil, err
	}
	b, err := decodeSparse(d, len(p.InTypes), data, starts, ends, cols)
	if err != nil {
		return window.Input{}, nil, err
	}
	return windowInputOf(p, b.Column), b.release, nil
}

// batchInput is the window operator's input read from an Arrow batch of the input row type
// (a columnar exchange's batch, or a native scan's): its columns are checked against the plan's
// types.
func windowBatchInput(p *plan.WindowAggregate, b arrow.RecordBatch, cols []int) (window.Input, error) {
	if err := checkBatchColumns("window pipeline", b, p.InNames, p.InTypes, cols); err != nil {
		return window.Input{}, err
	}
	return windowInputOf(p, b.Column), nil
}

// checkBatchColumns checks that a batch has the fields of a row type and that the columns a
// stage reads have their Arrow types.
func checkBatchColumns(stage string, b arrow.RecordBatch, names []string, types []catalog.Type, cols []int) error {
	if int(b.NumCols()) != len(types) {
		return fmt.Errorf("%s: a batch of %d columns for an input of %d fields", stage, b.NumCols(), len(types))
	}
	for _, c := range cols {
		want, err := catalog.ArrowType(types[c])
		if err != nil {
			return fmt.Errorf("%s: field %s: %w", stage, names[c], err)
		}
		if got := b.Column(c).DataType(); !arrow.TypeEqual(got, want) {
			return fmt.Errorf("%s: field %s of the batch is %s, the plan reads %s (%s)", stage, names[c], got, want, types[c])
		}
	}
	return nil
}

// inputOf assembles a window operator's input from the input's columns.
func windowInputOf(p *plan.WindowAggregate, col func(int) arrow.Array) window.Input {
	in := window.Input{Rowtime: col(p.TimeCol)}
	for _, k := range p.KeyCols {
		in.Keys = append(in.Keys, col(k))
	}
	for _, a := range p.ArgCols {
		var c arrow.Array
		if a >= 0 {
			c = col(a)
		}
		in.Args = append(in.Args, c)
	}
	if p.Spec.Sliced {
		return in
	}
	for _, f := range p.FilterCols {
		var c arrow.Array
		if f >= 0 {
			c = col(f)
		}
		in.Filters = append(in.Filters, c)
	}
	return in
}

// WatermarkPipeline evaluates a watermark expression per row; the operator keeps Flink's
// watermark emission rules and passes the rows on unchanged.
type WatermarkPipeline struct {
	plan    *plan.WatermarkAssigner
	mem     memory.Allocator
	decoder *binaryrow.Decoder
	marks   []int64
}

func openWatermarkPipeline(p *plan.WatermarkAssigner) (*WatermarkPipeline, error) {
	mem := bufpool.New()
	d, err := binaryrow.NewDecoder(p.InNames, p.InTypes, mem)
	if err != nil {
		return nil, err
	}
	return &WatermarkPipeline{plan: p, mem: mem, decoder: d}, nil
}

// NoWatermark marks a row whose watermark expression is null.
const NoWatermark = math.MinInt64

// Process computes each row's watermark (NoWatermark when the expression is null).
func (w *WatermarkPipeline) Process(data []byte, offsets []int32) error {
	n := len(offsets) - 1
	if n < 0 {
		return fmt.Errorf("watermark pipeline: no offsets")
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := w.decoder.Check(data, starts, ends); err != nil {
		return err
	}
	b, err := decodeSparse(w.decoder, len(w.plan.InTypes), data, starts, ends, w.plan.Cols)
	if err != nil {
		return err
	}
	defer b.release()
	return w.watermarks(b)
}

// ProcessBatch computes the watermark of each row of an Arrow batch of the input row type.
func (w *WatermarkPipeline) ProcessBatch(b arrow.RecordBatch) error {
	if err := checkBatchColumns("watermark pipeline", b, w.plan.InNames, w.plan.InTypes, w.plan.Cols); err != nil {
		return err
	}
	return w.watermarks(&sparseBatch{cols: b.Columns(), n: b.NumRows()})
}

// watermarks evaluates the watermark expression over the input's columns.
func (w *WatermarkPipeline) watermarks(b *sparseBatch) error {
	n := int(b.n)
	if rt := b.cols[w.plan.Rowtime]; rt.NullN() > 0 {
		return fmt.Errorf("RowTime field should not be null, please convert it to a non-null long value.")
	}
	ctx := expr.NewCtx(w.mem, n)
	res, err := w.plan.Expr.Eval(ctx, b)
	if err != nil {
		return err
	}
	defer res.Release()
	if err := ctx.Err(); err != nil {
		return err
	}
	w.marks = grown(w.marks, n)
	vals := column.Values[int64](res)
	bits, off := column.ValidBits(res)
	for r := 0; r < n; r++ {
		if column.Valid(bits, off, r) {
			w.marks[r] = vals[r]
		} else {
			w.marks[r] = NoWatermark
		}
	}
	return nil
}

// Watermarks returns the watermark of each row of the last batch.
func (w *WatermarkPipeline) Watermarks() []int64 { return w.marks }

// Output is empty: the operator forwards the input rows itself.
func (w *WatermarkPipeline) Output() ([]byte, []int32, []int32) { return nil, []int32{0}, nil }

// grown returns s with length n, reusing its array when it is large enough (contents undefined).
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
