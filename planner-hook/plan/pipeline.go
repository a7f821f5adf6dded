package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/calc"
	sinkrows "github.com/sluice-project/sluice/sinks/rowdata"
	sourcerows "github.com/sluice-project/sluice/sources/rowdata"
)

// RowPipeline runs an island between two row edges: BinaryRowData in, BinaryRowData out.
type RowPipeline struct {
	decoder *sourcerows.Decoder
	calc    *calc.Calc
	encoder *sinkrows.Encoder
	arity   int

	// Output of the last batch, kept until it is drained.
	out       []byte
	offsets   []int32
	selection []int32
}

// OpenRowPipeline compiles an island of one Calc node into a pipeline.
func OpenRowPipeline(data []byte) (*RowPipeline, error) {
	is, err := Decode(data)
	if err != nil {
		return nil, err
	}
	if len(is.Nodes) != 1 {
		return nil, fmt.Errorf("row pipeline: %d nodes, only single-node islands are built yet", len(is.Nodes))
	}
	n := &is.Nodes[0]
	h, err := n.Header()
	if err != nil {
		return nil, err
	}
	if h.Type != CalcType {
		return nil, fmt.Errorf("row pipeline: node %s of type %s cannot run natively", n.Name, h.Type)
	}
	cp, reasons, err := compileCalc(n)
	if err != nil {
		return nil, err
	}
	if len(reasons) > 0 {
		return nil, fmt.Errorf("row pipeline: node %s is not supported: %v", n.Name, reasons)
	}
	mem := memory.DefaultAllocator
	p := &RowPipeline{arity: len(cp.outTypes)}
	if p.decoder, err = sourcerows.NewDecoder(cp.inNames, cp.inTypes, mem); err != nil {
		return nil, err
	}
	if p.calc, err = cp.operator(mem); err != nil {
		return nil, err
	}
	if p.encoder, err = sinkrows.NewEncoder(cp.outTypes); err != nil {
		return nil, err
	}
	return p, nil
}

// Process runs one batch: rows is the number of input rows, offsets has rows+1 entries. The
// output stays in the pipeline; Output returns it.
func (p *RowPipeline) Process(data []byte, offsets []int32) error {
	in, err := p.decoder.Decode(data, offsets)
	if err != nil {
		return err
	}
	defer in.Release()
	out, sel, err := p.calc.Process(in)
	if err != nil {
		return err
	}
	defer out.Release()
	m := int(out.NumRows())
	cols := out.Columns()
	fields := cols[:p.arity]
	kinds := cols[p.arity]
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
	kindVals := kindsOf(kinds)
	if err := p.encoder.Encode(fields, kindVals, m, p.offsets, p.out); err != nil {
		return err
	}
	p.selection = sel
	return nil
}

// Output returns the encoded rows of the last batch: bytes, m+1 row offsets and, per output
// row, the input row it came from.
func (p *RowPipeline) Output() ([]byte, []int32, []int32) { return p.out, p.offsets, p.selection }

func kindsOf(a interface{ Len() int }) []int8 {
	type int8s interface{ Int8Values() []int8 }
	if k, ok := a.(int8s); ok {
		return k.Int8Values()
	}
	return nil
}
