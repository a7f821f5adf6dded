package chain

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/exchange"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// Marker is a watermark in a chain's output: it follows the first Pos output rows.
type Marker struct {
	Pos       int32
	Watermark int64
}

// Chain runs a chain of island nodes in one Flink operator: the nodes between two
// exchanges (or edges), each node's output rows feeding the next inside Go. A chain may start
// with a watermark assigner, whose emission rules (a watermark as soon as it is more than the
// auto watermark interval ahead of the last one, and periodically) then live here: the rows
// before a watermark reach the later nodes before the watermark does. A keyed node (a window
// aggregation after a hash exchange) can only start a chain.
type Chain struct {
	wa *WatermarkPipeline // nil when the chain has no watermark assigner
	// preWatermark is the number of stages before the watermark assigner (a Calc between a
	// native scan and the assigner), which run before it.
	preWatermark int
	// scan is set when the chain starts with a native scan: it then reads Arrow batches
	// (ProcessBatch); scanRows encodes them when no stage reads batches itself.
	scan     []catalog.Type // the scan's column types; nil without a scan
	scanRows *binaryrow.Encoder
	// batchIn is set when the chain reads the batches of a columnar exchange.
	batchIn bool
	// split partitions the output for a columnar hash exchange (nil without one).
	split *exchange.Splitter
	// side is the window join input the exchange feeds ("" for none): the parts carry it.
	side string
	// batchOut is set when the chain feeds a native sink: its output rows are handed over as
	// Arrow batches (OutputBatch), decoded by outDecoder.
	batchOut   bool
	outDecoder *binaryrow.Decoder
	// outBatch is the output of the last call when it stayed columnar (a scan, or a scan and
	// a Calc, feeding a native sink): no rows were encoded.
	outBatch arrow.RecordBatch
	stages   []Pipeline
	// miniBatchAt is the number of stages before the chain's mini-batch assigner (-1 for
	// none): event-time watermarks stop there, except the final one, and the mini-batch
	// watermarks the Java operator emits by the clock (MiniBatchWatermark) start there.
	miniBatchAt int
	// rowTimeBatches is the chain's mini-batch assigner on event time (nil for none), before
	// stage rowTimeAt: the watermarks it lets through go on from there.
	rowTimeBatches *rowTimeBatches
	rowTimeAt      int
	interval       int64
	// Watermark assigner state (WatermarkAssignerOperator's currentWatermark, lastWatermark).
	current, last int64
	// forwarded is the last watermark the chain emitted.
	forwarded int64
	// rowMapping: every stage maps output rows to input rows (Calc), so output rows keep the
	// record timestamps of their input rows.
	rowMapping bool
	// batchWatermarks is set when a native scan's batches stay columnar through the watermark
	// assigner into the stage after it (a local window aggregation): the Calc before the
	// assigner, if any, keeps its output as a batch, the assigner reads its columns, and the
	// stage after it gets slices of the batch between the watermarks.
	batchWatermarks bool

	out     []byte
	offsets []int32
	sel     []int32
	markers []Marker
}

// openChain opens each node of a multi-node island and chains them.
func openChain(is *plan.Island) (*Chain, error) {
	c := &Chain{rowMapping: true, forwarded: -1 << 63, miniBatchAt: -1}
	if len(is.Nodes) == 0 {
		return nil, fmt.Errorf("chain: the island has no nodes")
	}
	nodes := make([]plan.Node, len(is.Nodes))
	for i := range is.Nodes {
		var err error
		if nodes[i], err = plan.CompileNative(&is.Nodes[i], is.Options); err != nil {
			return nil, fmt.Errorf("chain node %d: %w", i, err)
		}
	}
	_, exchanged := is.Options[plan.OptExchangeKeys]
	if is.Options[plan.OptBatchOutput] == "true" || exchanged {
		d, err := outputDecoder(&is.Nodes[len(is.Nodes)-1], nodes[len(nodes)-1])
		if err != nil {
			return nil, err
		}
		c.batchOut, c.outDecoder = true, d
	}
	if exchanged {
		s, err := openSplitter(is, c.outDecoder)
		if err != nil {
			return nil, err
		}
		c.split = s
	}
	startsWithJoin := false
	switch nodes[0].(type) {
	case *plan.WindowJoin, *plan.IntervalJoin, *plan.RegularJoin:
		startsWithJoin = true
	}
	if side, ok := is.Options[plan.OptExchangeSide]; ok {
		if side != plan.JoinSideLeft && side != plan.JoinSideRight {
			return nil, fmt.Errorf("chain: option %s = %q", plan.OptExchangeSide, side)
		}
		c.side = side
	}
	if startsWithJoin {
		// The join reads the batches of its two columnar exchanges itself.
		c.batchIn, c.rowMapping = true, false
	} else if is.Options[plan.OptBatchInput] == "true" {
		_, types, err := is.Nodes[0].RowFields()
		if err != nil {
			return nil, fmt.Errorf("chain: batch input: %w", err)
		}
		if c.scanRows, err = binaryrow.NewEncoder(types); err != nil {
			return nil, fmt.Errorf("chain: batch input: %w", err)
		}
		// Rows come out of batches, not input rows: no row mapping.
		c.batchIn, c.rowMapping = true, false
	}
	for i, node := range nodes {
		if s, ok := node.(plan.Scan); ok {
			if i != 0 {
				return nil, fmt.Errorf("chain node %d (%s): a scan must start its chain", i, is.Nodes[i].Name)
			}
			types := s.Columns()
			var err error
			c.scan = types
			// Rows come out of batches, not input rows: no row mapping.
			c.rowMapping = false
			if c.scanRows, err = binaryrow.NewEncoder(types); err != nil {
				return nil, fmt.Errorf("chain node 0 (%s): %w", is.Nodes[i].Name, err)
			}
			continue
		}
		if a, ok := node.(*plan.MiniBatchAssigner); ok {
			if c.miniBatchAt >= 0 || c.rowTimeBatches != nil {
				return nil, fmt.Errorf("chain node %d (%s): a second mini-batch assigner", i, is.Nodes[i].Name)
			}
			if a.RowTime {
				b, err := newRowTimeBatches(a.IntervalMillis)
				if err != nil {
					return nil, fmt.Errorf("chain node %d (%s): %w", i, is.Nodes[i].Name, err)
				}
				c.rowTimeBatches = b
				c.rowTimeAt = len(c.stages)
				continue
			}
			// Rows pass unchanged; the Java operator owns the assigner's clock and timer.
			c.miniBatchAt = len(c.stages)
			continue
		}
		p, err := openStage(node, is.Options)
		if err != nil {
			return nil, fmt.Errorf("chain node %d (%s): %w", i, is.Nodes[i].Name, err)
		}
		switch s := p.(type) {
		case *WatermarkPipeline:
			// After a native scan, a Calc may come first (a computed event-time column): its
			// output rows are what the watermark expression reads.
			afterScanCalc := c.scan != nil && i == 2 && len(c.stages) == 1
			if afterScanCalc {
				_, afterScanCalc = c.stages[0].(*RowPipeline)
			}
			if i != 0 && !(i == 1 && c.scan != nil) && !afterScanCalc {
				return nil, fmt.Errorf("chain node %d (%s): a watermark assigner must start its chain (or follow its native scan, or a Calc on it)", i, is.Nodes[i].Name)
			}
			c.wa, c.preWatermark = s, len(c.stages)
			iv, err := intOption(is.Options, plan.OptAutoWatermarkInterval)
			if err != nil {
				return nil, fmt.Errorf("chain: %w", err)
			}
			c.interval = int64(iv)
			continue
		case *groupAggStage:
			if i != 0 && s.plan.Phase != plan.LocalPhase {
				return nil, fmt.Errorf("chain node %d (%s): a keyed aggregation must start its chain", i, is.Nodes[i].Name)
			}
		case *WindowPipeline:
			if i != 0 {
				return nil, fmt.Errorf("chain node %d (%s): a keyed aggregation must start its chain", i, is.Nodes[i].Name)
			}
		case *joinStage, *intervalStage, *regularJoinStage:
			if i != 0 {
				return nil, fmt.Errorf("chain node %d (%s): a join must start its chain", i, is.Nodes[i].Name)
			}
		}
		if _, ok := p.(*RowPipeline); !ok {
			c.rowMapping = false
		}
		c.stages = append(c.stages, p)
	}
	if c.columnar() && len(c.stages) == 1 {
		if err := c.stages[0].(*RowPipeline).keepBatches(); err != nil {
			return nil, fmt.Errorf("chain: %w", err)
		}
	}
	if c.scan != nil && c.wa != nil && c.preWatermark < len(c.stages) {
		if _, ok := c.stages[c.preWatermark].(BatchPipeline); ok {
			c.batchWatermarks = true
			if c.preWatermark == 1 {
				if err := c.stages[0].(*RowPipeline).keepBatches(); err != nil {
					return nil, fmt.Errorf("chain: %w", err)
				}
			}
		}
	}
	return c, nil
}

func (c *Chain) reset() {
	c.out, c.offsets, c.sel, c.markers = c.out[:0], append(c.offsets[:0], 0), c.sel[:0], c.markers[:0]
	if c.outBatch != nil {
		c.outBatch.Release()
		c.outBatch = nil
	}
}

// columnar reports whether a batch-output chain can hand over its output without encoding
// rows: it has no watermark assigner and at most one stage, a Calc.
func (c *Chain) columnar() bool {
	if !c.batchOut || c.scan == nil || c.wa != nil || len(c.stages) > 1 {
		return false
	}
	if len(c.stages) == 1 {
		_, ok := c.stages[0].(*RowPipeline)
		return ok
	}
	return true
}

// push runs rows through the stages from stage k on and appends what comes out of the last
// stage. base is the index of the rows' first input row (for the selection).
func (c *Chain) push(k int, data []byte, offsets []int32, sel []int32) error {
	if len(offsets) <= 1 {
		return nil
	}
	for ; k < len(c.stages); k++ {
		st := c.stages[k]
		if err := st.Process(data, offsets); err != nil {
			return err
		}
		var s []int32
		data, offsets, s = st.Output()
		if c.rowMapping {
			composed := make([]int32, len(s))
			for j, r := range s {
				composed[j] = sel[r]
			}
			sel = composed
		}
		if len(offsets) <= 1 {
			return nil
		}
	}
	c.appendRows(data, offsets, sel)
	return nil
}

// appendRows adds rows to the chain's output.
func (c *Chain) appendRows(data []byte, offsets []int32, sel []int32) {
	base := int32(len(c.out))
	m := len(offsets) - 1
	c.out = append(c.out, data[offsets[0]:offsets[m]]...)
	for r := 1; r <= m; r++ {
		c.offsets = append(c.offsets, base+offsets[r]-offsets[0])
	}
	if c.rowMapping {
		c.sel = append(c.sel, sel...)
	}
}

// SetArrivals gives the arrival times of the next batch's rows to the chain's processing-time
// stage.
func (c *Chain) SetArrivals(runs []Arrival) error {
	k := c.procTimeStage()
	if k == nil {
		return fmt.Errorf("chain: no processing-time stage to give arrival times to")
	}
	k.SetArrivals(runs)
	return nil
}

// AdvanceProcessingTime fires the processing-time timers due at t (windows, a join's cleanups)
// and runs their rows through the later stages. No watermark comes out: processing time is not
// event time.
func (c *Chain) AdvanceProcessingTime(t int64) error {
	c.reset()
	k := c.procTimeStage()
	if k == nil {
		return fmt.Errorf("chain: no processing-time stage")
	}
	if err := k.AdvanceProcessingTime(t); err != nil {
		return err
	}
	data, offsets, _ := k.Output()
	return c.push(1, data, offsets, nil)
}

// NextProcessingTimer is the processing time (epoch milliseconds) at which the chain's
// processing-time stage fires next; MaxInt64 when nothing is pending or the chain has no such
// stage.
func (c *Chain) NextProcessingTimer() int64 {
	if k := c.procTimeStage(); k != nil {
		return k.NextTimer()
	}
	return 1<<63 - 1
}

// watermark moves event time through the stages from stage k on (a stage's output rows go on
// through the later stages), then records the watermark the chain forwards. A mini-batch
// assigner at or after stage k stops every watermark but the final one, as
// ProcTimeMiniBatchAssignerOperator#processWatermark (the stages before it keep no event time).
func (c *Chain) watermark(k int, w int64) error {
	if c.miniBatchAt >= k && w != math.MaxInt64 {
		return nil
	}
	return c.forward(k, w)
}

// MiniBatchWatermark emits a watermark of the chain's mini-batch assigner (the start of a new
// interval of processing time): it finishes the bundles of the stages after the assigner,
// whose output rows come out before it.
func (c *Chain) MiniBatchWatermark(w int64) error {
	c.reset()
	if c.miniBatchAt < 0 {
		return fmt.Errorf("chain: no mini-batch assigner to emit a watermark")
	}
	return c.forward(c.miniBatchAt, w)
}

// forward moves a watermark through the stages from stage k on and records it. An event-time
// mini-batch assigner on the way holds it back unless it ends the current mini-batch.
func (c *Chain) forward(k int, w int64) error {
	for ; k <= len(c.stages); k++ {
		if c.rowTimeBatches != nil && k == c.rowTimeAt {
			var pass bool
			if w, pass = c.rowTimeBatches.watermark(w); !pass {
				return nil
			}
		}
		if k == len(c.stages) {
			break
		}
		st, ok := c.stages[k].(EventTimePipeline)
		if !ok {
			continue
		}
		if err := st.AdvanceWatermark(w); err != nil {
			return err
		}
		data, offsets, _ := st.Output()
		if err := c.push(k+1, data, offsets, nil); err != nil {
			return err
		}
		if d, ok := st.(watermarkDelaying); ok {
			w -= d.WatermarkDelay()
		}
	}
	c.forwarded = max(c.forwarded, w)
	c.markers = append(c.markers, Marker{Pos: int32(len(c.offsets) - 1), Watermark: c.forwarded})
	return nil
}

// watermarkDelaying is a stage that holds back the watermarks it passes on (an interval join):
// the later stages and the chain's output get the watermark less the delay.
type watermarkDelaying interface {
	WatermarkDelay() int64
}

// identity returns the selection 0..n-1.
func identity(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// Process runs one batch of input rows through the chain.
func (c *Chain) Process(data []byte, offsets []int32) error {
	c.reset()
	return c.processRows(data, offsets)
}

// processRows runs rows through the watermark assigner (if any) and the stages.
func (c *Chain) processRows(data []byte, offsets []int32) error {
	n := len(offsets) - 1
	if n < 0 {
		return fmt.Errorf("chain: no offsets")
	}
	sel := identity(n)
	if c.wa == nil {
		return c.push(0, data, offsets, sel)
	}
	if c.preWatermark == 1 {
		// The Calc before the watermark assigner runs first (rows of a native scan's batch).
		st := c.stages[0]
		if err := st.Process(data, offsets); err != nil {
			return err
		}
		data, offsets, _ = st.Output()
		return c.assignWatermarks(1, data, offsets, identity(len(offsets)-1))
	}
	return c.assignWatermarks(0, data, offsets, sel)
}

// assignWatermarks runs rows through the watermark assigner, then through the stages from
// stage k on, emitting a watermark wherever the assigner's rules emit one (on a jump past the
// auto-watermark interval).
func (c *Chain) assignWatermarks(k int, data []byte, offsets []int32, sel []int32) error {
	if err := c.wa.Process(data, offsets); err != nil {
		return err
	}
	return c.splitAtWatermarks(k, len(offsets)-1, func(from, to int) error {
		return c.push(k, data, offsets[from:to+1], sel[from:to])
	})
}

// splitAtWatermarks walks the watermarks the assigner computed for n rows: the rows up to each
// watermark it emits go through the stages from stage k on (push), then the watermark does.
func (c *Chain) splitAtWatermarks(k, n int, push func(from, to int) error) error {
	marks := c.wa.Watermarks()
	start := 0
	for r := 0; r < n; r++ {
		if marks[r] != NoWatermark {
			c.current = max(c.current, marks[r])
		}
		if c.current-c.last > c.interval && c.current > c.last {
			if err := push(start, r+1); err != nil {
				return err
			}
			start = r + 1
			c.last = c.current
			if err := c.watermark(k, c.current); err != nil {
				return err
			}
		}
	}
	return push(start, n)
}

// BatchPipeline is a stage that can read Arrow batches directly (a Calc after a native scan).
type BatchPipeline interface {
	Pipeline
	ProcessBatch(b arrow.RecordBatch) error
}

// ProcessBatch runs an Arrow batch of a native scan through the chain. The batch is borrowed:
// stages copy what they keep. A changelog scan's batch (its RowKinds in a last column, see
// exec/changelog) goes through the chain's row stages as rows of those kinds.
func (c *Chain) ProcessBatch(b arrow.RecordBatch) error {
	c.reset()
	if c.scan == nil && !c.batchIn {
		return fmt.Errorf("chain: it reads rows, not batches")
	}
	if c.scan != nil {
		fields, kinds, split, err := changelog.Split("chain", b, c.scanRows.Fields())
		if err != nil {
			return err
		}
		if split {
			defer fields.Release()
			data, offsets, err := c.encodeBatch(fields, kinds)
			if err != nil {
				return err
			}
			return c.processRows(data, offsets)
		}
	}
	if c.columnar() {
		if len(c.stages) == 0 {
			b.Retain()
			c.outBatch = b
			return nil
		}
		calc := c.stages[0].(*RowPipeline)
		if err := calc.ProcessBatch(b); err != nil {
			return err
		}
		c.outBatch = calc.TakeBatch()
		return nil
	}
	if c.batchWatermarks {
		return c.watermarkBatch(b)
	}
	if len(c.stages) > 0 && (c.wa == nil || c.preWatermark == 1) {
		if st, ok := c.stages[0].(BatchPipeline); ok {
			if err := st.ProcessBatch(b); err != nil {
				return err
			}
			data, offsets, _ := st.Output()
			if c.wa != nil {
				// The Calc before the watermark assigner: its rows get the watermarks.
				return c.assignWatermarks(1, data, offsets, identity(len(offsets)-1))
			}
			return c.push(1, data, offsets, nil)
		}
	}
	// No stage reads batches: encode the batch's rows for the chain's row stages (or output).
	data, offsets, err := c.encodeBatch(b, nil)
	if err != nil {
		return err
	}
	return c.processRows(data, offsets)
}

// encodeBatch encodes a scan batch's rows as BinaryRowData of the given RowKinds (nil:
// inserts), for the chain's row stages: the rows' bytes and their offsets.
func (c *Chain) encodeBatch(b arrow.RecordBatch, kinds []int8) ([]byte, []int32, error) {
	if err := c.checkBatch(b); err != nil {
		return nil, nil, err
	}
	n := int(b.NumRows())
	if kinds == nil {
		kinds = make([]int8, n)
	}
	offsets := make([]int32, n+1)
	if err := c.scanRows.Layout(b.Columns(), n, offsets); err != nil {
		return nil, nil, err
	}
	data := make([]byte, offsets[n])
	if err := c.scanRows.Encode(b.Columns(), kinds, n, offsets, data); err != nil {
		return nil, nil, err
	}
	return data, offsets, nil
}

// watermarkBatch runs a native scan's batch through the Calc before the watermark assigner (if
// any), the assigner and the later stages without encoding its rows (batchWatermarks).
func (c *Chain) watermarkBatch(b arrow.RecordBatch) error {
	in := b
	if c.preWatermark == 1 {
		calc := c.stages[0].(*RowPipeline)
		if err := calc.ProcessBatch(b); err != nil {
			return err
		}
		in = calc.TakeBatch()
		defer in.Release()
	} else if err := c.checkBatch(b); err != nil {
		return err
	}
	if err := c.wa.ProcessBatch(in); err != nil {
		return err
	}
	k := c.preWatermark
	return c.splitAtWatermarks(k, int(in.NumRows()), func(from, to int) error {
		return c.pushBatch(k, in, from, to)
	})
}

// pushBatch runs rows [from, to) of a batch through stage k (which reads batches) and its
// output rows through the later stages.
func (c *Chain) pushBatch(k int, b arrow.RecordBatch, from, to int) error {
	if to <= from {
		return nil
	}
	part := b.NewSlice(int64(from), int64(to))
	defer part.Release()
	st := c.stages[k].(BatchPipeline)
	if err := st.ProcessBatch(part); err != nil {
		return err
	}
	data, offsets, _ := st.Output()
	return c.push(k+1, data, offsets, nil)
}

// AdvanceWatermark handles a watermark from upstream. After a watermark assigner only the
// final watermark (end of input) passes, as in Flink's WatermarkAssignerOperator.
func (c *Chain) AdvanceWatermark(w int64) error {
	c.reset()
	if c.wa != nil {
		if w != 1<<63-1 || c.current == 1<<63-1 {
			return nil
		}
		c.current = w
	}
	return c.watermark(0, w)
}

// EmitPeriodicWatermark is the watermark assigner's periodic emission: the current watermark
// goes out if it advanced since the last one.
func (c *Chain) EmitPeriodicWatermark() error {
	c.reset()
	if c.wa == nil || c.current <= c.last {
		return nil
	}
	c.last = c.current
	return c.watermark(0, c.current)
}

// PrepareCheckpoint flushes the stages' buffers before a checkpoint barrier.
func (c *Chain) PrepareCheckpoint() error {
	c.reset()
	for k, s := range c.stages {
		st, ok := s.(EventTimePipeline)
		if !ok {
			continue
		}
		if err := st.PrepareCheckpoint(); err != nil {
			return err
		}
		data, offsets, _ := st.Output()
		if err := c.push(k+1, data, offsets, nil); err != nil {
			return err
		}
	}
	return nil
}

// Output returns the rows of the last call, and for a row-mapping chain the input row of each.
func (c *Chain) Output() ([]byte, []int32, []int32) {
	if len(c.offsets) == 0 {
		return nil, []int32{0}, nil
	}
	if c.rowMapping {
		return c.out, c.offsets, c.sel
	}
	return c.out, c.offsets, nil
}

// BatchOutput reports whether the chain hands its output to a native sink as Arrow batches.
func (c *Chain) BatchOutput() bool { return c.batchOut }

// OutputRows is the number of output rows of the last call.
func (c *Chain) OutputRows() int {
	if c.outBatch != nil {
		return int(c.outBatch.NumRows())
	}
	return len(c.offsets) - 1
}

// OutputBatch returns output rows [from, to) of the last call as an Arrow batch. Rows of a
// changelog (a RowKind other than +I among them) come with their RowKinds, as a last int8
// column (see exec/changelog), for the native sinks that take changes.
func (c *Chain) OutputBatch(from, to int) (arrow.RecordBatch, error) {
	if !c.batchOut {
		return nil, fmt.Errorf("chain: it outputs rows, not batches")
	}
	return c.outputBatch(from, to)
}

// outputBatch returns output rows [from, to) of the last call as an Arrow batch, a changelog's
// with their RowKinds.
func (c *Chain) outputBatch(from, to int) (arrow.RecordBatch, error) {
	if c.outBatch != nil {
		if from < 0 || to < from || int64(to) > c.outBatch.NumRows() {
			return nil, fmt.Errorf("chain: output rows [%d, %d) of %d", from, to, c.outBatch.NumRows())
		}
		return c.outBatch.NewSlice(int64(from), int64(to)), nil
	}
	if from < 0 || to < from || to >= len(c.offsets) {
		return nil, fmt.Errorf("chain: output rows [%d, %d) of %d", from, to, len(c.offsets)-1)
	}
	if c.changes(from, to) {
		return c.outDecoder.Decode(c.out, c.offsets[from:to+1])
	}
	return decodeFields(c.outDecoder, c.out, c.offsets[from:to+1])
}

// Partition splits output rows [from, to) of the last call into one Arrow batch per target
// channel of the chain's columnar hash exchange. Rows of a changelog (a RowKind other than
// +I among them) cross with their RowKinds, as a last int8 column (catalog.RowKindColumn). The
// caller releases the parts' batches.
func (c *Chain) Partition(from, to int) ([]exchange.Part, error) {
	if c.split == nil {
		return nil, fmt.Errorf("chain: it feeds no columnar exchange")
	}
	b, err := c.outputBatch(from, to)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	parts, err := c.split.Split(b)
	if err != nil || c.side == "" {
		return parts, err
	}
	for i := range parts {
		parts[i].Batch = withSide(parts[i].Batch, c.side)
	}
	return parts, nil
}

// changes says whether output rows [from, to) hold a RowKind other than INSERT.
func (c *Chain) changes(from, to int) bool {
	for r := max(from, 0); r < to && r+1 < len(c.offsets); r++ {
		if c.out[c.offsets[r]] != 0 {
			return true
		}
	}
	return false
}

// withSide returns the batch with its schema marked as the given window join input (the
// batch's reference moves to the result).
func withSide(b arrow.RecordBatch, side string) arrow.RecordBatch {
	meta := arrow.NewMetadata([]string{plan.JoinSideMetadata}, []string{side})
	out := array.NewRecordBatch(arrow.NewSchema(b.Schema().Fields(), &meta), b.Columns(), b.NumRows())
	b.Release()
	return out
}

// Channels is the number of target channels of the chain's columnar exchange (0 without one).
func (c *Chain) Channels() int {
	if c.split == nil {
		return 0
	}
	return c.split.Parallelism()
}

// checkBatch verifies that an input batch has the columns the row encoder expects.
func (c *Chain) checkBatch(b arrow.RecordBatch) error {
	if n := c.scanRows.Fields(); int(b.NumCols()) != n {
		return fmt.Errorf("chain: a batch of %d columns for an input of %d fields", b.NumCols(), n)
	}
	return nil
}

// openSplitter builds the splitter of a chain that feeds a columnar hash exchange: the key
// fields come from the plan, the consumer's parallelism from the runtime options.
func openSplitter(is *plan.Island, out *binaryrow.Decoder) (*exchange.Splitter, error) {
	var keys []int
	if err := json.Unmarshal([]byte(is.Options[plan.OptExchangeKeys]), &keys); err != nil {
		return nil, fmt.Errorf("chain: option %s: %w", plan.OptExchangeKeys, err)
	}
	fields := out.Types()
	keyTypes := make([]catalog.Type, len(keys))
	for i, k := range keys {
		if k < 0 || k >= len(fields) {
			return nil, fmt.Errorf("chain: exchange key field %d of an output with %d fields", k, len(fields))
		}
		keyTypes[i] = fields[k]
	}
	p, err := intOption(is.Options, plan.OptExchangeParallelism)
	if err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	maxP, err := intOption(is.Options, plan.OptExchangeMaxParallelism)
	if err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	return exchange.NewSplitter(keys, keyTypes, p, maxP, memory.DefaultAllocator)
}

// decodeFields decodes rows into a batch of their fields (no RowKind column: insert-only).
func decodeFields(d *binaryrow.Decoder, data []byte, offsets []int32) (arrow.RecordBatch, error) {
	n := len(offsets) - 1
	starts, ends := offsets[:n], offsets[1:]
	if err := d.Check(data, starts, ends); err != nil {
		return nil, err
	}
	fields := d.Schema().Fields()
	sch := arrow.NewSchema(fields[:len(fields)-1], nil) // without the RowKind column
	all := make([]int, len(sch.Fields()))
	for i := range all {
		all[i] = i
	}
	cols, err := d.DecodeColumns(data, starts, ends, all)
	if err != nil {
		return nil, err
	}
	rec := array.NewRecordBatch(sch, cols, int64(n))
	for _, col := range cols {
		col.Release()
	}
	return rec, nil
}

// Markers returns the watermarks of the last call, in order, with the rows they follow.
func (c *Chain) Markers() []Marker { return c.markers }

// keyedStage is a stage with keyed state per key group, which starts its chain: a window
// aggregation or a window join.
type keyedStage interface {
	EventTimePipeline
	InitializeWatermark(wm int64)
	Snapshot(kg int) ([]byte, error)
	Restore(kg int, blob []byte) error
	LateDropped() int64
	StateBytes() int64
	StateKeys() int64
}

// keyed returns the chain's keyed stage, or nil.
func (c *Chain) keyed() keyedStage {
	if len(c.stages) > 0 {
		if k, ok := c.stages[0].(keyedStage); ok {
			return k
		}
	}
	return nil
}

// procTimeKeyed is a keyed stage that can run on processing time (a window aggregation, an
// interval join): its rows take the clock when they arrive, and its timers fire on the clock.
type procTimeKeyed interface {
	keyedStage
	// ProcTime reports whether the stage runs on processing time.
	ProcTime() bool
	// SetArrivals gives the arrival times of the next batch's rows.
	SetArrivals(runs []Arrival)
	// AdvanceProcessingTime fires the timers due at t; their rows are the stage's Output.
	AdvanceProcessingTime(t int64) error
	// NextTimer is the time of the earliest pending timer (MaxInt64: none).
	NextTimer() int64
}

// procTimeStage returns the chain's keyed stage when it runs on processing time, or nil.
func (c *Chain) procTimeStage() procTimeKeyed {
	if k, ok := c.keyed().(procTimeKeyed); ok && k.ProcTime() {
		return k
	}
	return nil
}

// InitializeWatermark restores the event time of the keyed stage.
func (c *Chain) InitializeWatermark(w int64) error {
	k := c.keyed()
	if k == nil {
		return fmt.Errorf("chain: no keyed window aggregation to restore a watermark into")
	}
	k.InitializeWatermark(w)
	c.forwarded = w
	return nil
}

// Snapshot serializes one key group of the keyed stage (nil when it has no state).
func (c *Chain) Snapshot(kg int) ([]byte, error) {
	k := c.keyed()
	if k == nil {
		return nil, fmt.Errorf("chain: no keyed state")
	}
	return k.Snapshot(kg)
}

// Restore loads one key group of the keyed stage.
func (c *Chain) Restore(kg int, blob []byte) error {
	k := c.keyed()
	if k == nil {
		return fmt.Errorf("chain: no keyed state")
	}
	return k.Restore(kg, blob)
}

// LateDropped counts the late rows the keyed stage dropped.
func (c *Chain) LateDropped() int64 {
	if k := c.keyed(); k != nil {
		return k.LateDropped()
	}
	return 0
}

// StateBytes estimates the memory of the keyed stage's state (0 without one).
func (c *Chain) StateBytes() int64 {
	if k := c.keyed(); k != nil {
		return k.StateBytes()
	}
	return 0
}

// StateKeys is the number of keys with state in the keyed stage.
func (c *Chain) StateKeys() int64 {
	if k := c.keyed(); k != nil {
		return k.StateKeys()
	}
	return 0
}
