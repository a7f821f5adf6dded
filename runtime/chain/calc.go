package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/calc"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// RowPipeline runs an island between two row edges: BinaryRowData in, BinaryRowData out.
//
// It materializes late: the columns the condition reads are decoded for every row, the columns
// the projections read only for the rows that pass, straight from their bytes.
type RowPipeline struct {
	decoder            *binaryrow.Decoder
	calc               *calc.Calc
	encoder            *binaryrow.Encoder
	arity              int
	inArity            int
	condCols, projCols []int
	mem                memory.Allocator
	outNames           []string
	outTypes           []catalog.Type

	// keepBatch: ProcessBatch keeps its output as outBatch (of outSchema) instead of rows.
	keepBatch bool
	outSchema *arrow.Schema
	outBatch  arrow.RecordBatch

	// Output of the last batch, kept until it is drained.
	out       []byte
	offsets   []int32
	selection []int32
}

// OpenRowPipeline compiles an island of one Calc node into a pipeline.
func OpenRowPipeline(data []byte) (*RowPipeline, error) {
	is, err := plan.Decode(data)
	if err != nil {
		return nil, err
	}
	if len(is.Nodes) != 1 {
		return nil, fmt.Errorf("row pipeline: %d nodes, only single-node islands are built yet", len(is.Nodes))
	}
	node, err := plan.CompileNative(&is.Nodes[0], is.Options)
	if err != nil {
		return nil, fmt.Errorf("row pipeline: %w", err)
	}
	cp, ok := node.(*plan.Calc)
	if !ok {
		return nil, fmt.Errorf("row pipeline: node %s is a %s, not a Calc", is.Nodes[0].Name, node.ExecType())
	}
	return newRowPipeline(cp)
}

func newRowPipeline(cp *plan.Calc) (*RowPipeline, error) {
	var err error
	// The pipeline's buffers are recycled batch to batch (one pool per pipeline: one task thread).
	mem := bufpool.New()
	p := &RowPipeline{arity: len(cp.OutTypes), inArity: len(cp.InTypes), condCols: cp.CondCols, projCols: cp.ProjCols,
		outNames: cp.OutNames, outTypes: cp.OutTypes}
	if p.decoder, err = binaryrow.NewDecoder(cp.InNames, cp.InTypes, mem); err != nil {
		return nil, err
	}
	p.calc = cp.Operator(mem)
	p.mem = mem
	if p.encoder, err = binaryrow.NewEncoder(cp.OutTypes); err != nil {
		return nil, err
	}
	return p, nil
}

// Process runs one batch: offsets has rows+1 entries, row r is data[offsets[r]:offsets[r+1]].
// The output stays in the pipeline; Output returns it.
func (p *RowPipeline) Process(data []byte, offsets []int32) error {
	n := len(offsets) - 1
	if n < 0 {
		return fmt.Errorf("row pipeline: no offsets")
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := p.decoder.Check(data, starts, ends); err != nil {
		return err
	}
	cond, err := p.columns(data, starts, ends, p.condCols)
	if err != nil {
		return err
	}
	sel, err := p.calc.Filter(cond, n)
	cond.release()
	if err != nil {
		return err
	}
	m := len(sel)
	selStarts, selEnds := starts, ends
	if m < n {
		selStarts, selEnds = make([]int32, m), make([]int32, m)
		for j, r := range sel {
			selStarts[j], selEnds[j] = starts[r], ends[r]
		}
	}
	proj, err := p.columns(data, selStarts, selEnds, p.projCols)
	if err != nil {
		return err
	}
	fields, err := p.calc.Project(proj, m)
	proj.release()
	if err != nil {
		return err
	}
	defer releaseArrays(fields)
	kinds := make([]int8, m)
	for j, s := range selStarts {
		kinds[j] = int8(data[s])
	}
	if err := p.encode(fields, m, kinds); err != nil {
		return err
	}
	p.selection = sel
	return nil
}

// ProcessBatch runs one Arrow batch of insert-only rows (a native scan's) through the Calc:
// the condition over every row, the projections over the rows that pass. The output rows are
// encoded as Process encodes them.
func (p *RowPipeline) ProcessBatch(b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if int(b.NumCols()) != p.inArity {
		return fmt.Errorf("row pipeline: a batch of %d columns for a Calc over %d", b.NumCols(), p.inArity)
	}
	in := &sparseBatch{cols: b.Columns(), n: int64(n)}
	sel, err := p.calc.Filter(in, n)
	if err != nil {
		return err
	}
	m := len(sel)
	proj := in
	if m < n {
		// Only the passing rows reach the projections (they may fail on other rows).
		taken := &sparseBatch{cols: make([]arrow.Array, p.inArity), n: int64(m)}
		for _, c := range p.projCols {
			if taken.cols[c], err = column.Take(in.cols[c], sel, p.mem); err != nil {
				taken.release()
				return err
			}
		}
		defer taken.release()
		proj = taken
	}
	fields, err := p.calc.Project(proj, m)
	if err != nil {
		return err
	}
	p.selection = sel
	if p.keepBatch {
		// The output stays columnar for a native sink: no rows are encoded.
		if p.outBatch != nil {
			p.outBatch.Release()
		}
		p.outBatch = array.NewRecordBatch(p.outSchema, fields, int64(m))
		p.offsets = p.offsets[:0]
		releaseArrays(fields)
		return nil
	}
	defer releaseArrays(fields)
	return p.encode(fields, m, make([]int8, m))
}

// keepBatches makes ProcessBatch keep its output as an Arrow batch (TakeBatch) instead of
// encoding rows: for the last stage of a chain that feeds a native sink.
func (p *RowPipeline) keepBatches() error {
	sch, err := catalog.ArrowSchema(p.outNames, p.outTypes)
	if err != nil {
		return err
	}
	p.keepBatch, p.outSchema = true, sch
	return nil
}

// TakeBatch returns the output batch of the last ProcessBatch (kept by keepBatches) and gives
// up the pipeline's reference to it.
func (p *RowPipeline) TakeBatch() arrow.RecordBatch {
	b := p.outBatch
	p.outBatch = nil
	return b
}

// encode writes m output rows of the given kinds as BinaryRowData into the pipeline's output.
func (p *RowPipeline) encode(fields []arrow.Array, m int, kinds []int8) error {
	if cap(p.offsets) < m+1 {
		p.offsets = make([]int32, m+1)
	}
	p.offsets = p.offsets[:m+1]
	if err := p.encoder.Layout(fields, m, p.offsets); err != nil {
		return err
	}
	total := int(p.offsets[m])
	if cap(p.out) < total {
		p.out = make([]byte, total)
	}
	p.out = p.out[:total]
	return p.encoder.Encode(fields, kinds, m, p.offsets, p.out)
}

func releaseArrays(cols []arrow.Array) {
	for _, c := range cols {
		if c != nil {
			c.Release()
		}
	}
}

// columns decodes the input columns cols of the given rows into a batch where the other columns
// are absent (expressions read only the columns they reference).
func (p *RowPipeline) columns(data []byte, starts, ends []int32, cols []int) (*sparseBatch, error) {
	return decodeSparse(p.decoder, p.inArity, data, starts, ends, cols)
}

// decodeSparse decodes the columns cols of the given rows into a batch of arity columns where
// the other columns are absent.
func decodeSparse(d *binaryrow.Decoder, arity int, data []byte, starts, ends []int32, cols []int) (*sparseBatch, error) {
	arrays, err := d.DecodeColumns(data, starts, ends, cols)
	if err != nil {
		return nil, err
	}
	b := &sparseBatch{cols: make([]arrow.Array, arity), n: int64(len(starts))}
	for k, c := range cols {
		b.cols[c] = arrays[k]
	}
	return b, nil
}

// sparseBatch is an expr.Batch holding only some input columns.
type sparseBatch struct {
	cols []arrow.Array
	n    int64
}

func (b *sparseBatch) Column(i int) arrow.Array { return b.cols[i] }
func (b *sparseBatch) NumRows() int64           { return b.n }

func (b *sparseBatch) release() {
	for _, c := range b.cols {
		if c != nil {
			c.Release()
		}
	}
}

// Output returns the encoded rows of the last batch: bytes, m+1 row offsets and, per output
// row, the input row it came from.
func (p *RowPipeline) Output() ([]byte, []int32, []int32) { return p.out, p.offsets, p.selection }
