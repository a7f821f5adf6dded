// Package calc is the Calc operator: a filter and a projection over Arrow batches, evaluated
// with the compiled expressions of exec/expr. Batches carry the RowKind column last; Calc keeps
// each selected row's RowKind.
package calc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/expr"
)

// Calc filters rows by a condition and computes projections of the rows that pass.
type Calc struct {
	projections []expr.Expr
	condition   expr.Expr // nil: every row passes
	schema      *arrow.Schema
	mem         memory.Allocator
}

// New returns a Calc producing columns with the given names. The output schema ends with the
// RowKind column.
func New(projections []expr.Expr, condition expr.Expr, names []string, mem memory.Allocator) (*Calc, error) {
	types := make([]catalog.Type, len(projections))
	for i, p := range projections {
		types[i] = p.Type()
	}
	s, err := catalog.ArrowSchema(names, types)
	if err != nil {
		return nil, fmt.Errorf("calc: %w", err)
	}
	fields := append(s.Fields(), arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8})
	return &Calc{projections: projections, condition: condition, schema: arrow.NewSchema(fields, nil), mem: mem}, nil
}

// Process returns the output batch and, for each output row, the index of its input row.
func (c *Calc) Process(in arrow.RecordBatch) (arrow.RecordBatch, []int32, error) {
	n := int(in.NumRows())
	sel := make([]int32, 0, n)
	filtered := in
	if c.condition != nil {
		ctx := expr.NewCtx(c.mem, n)
		cond, err := c.condition.Eval(ctx, in)
		if err != nil {
			return nil, nil, fmt.Errorf("calc condition: %w", err)
		}
		if err := ctx.Err(); err != nil {
			cond.Release()
			return nil, nil, fmt.Errorf("calc condition: %w", err)
		}
		b := cond.(*array.Boolean)
		for i := 0; i < n; i++ {
			if b.IsValid(i) && b.Value(i) {
				sel = append(sel, int32(i))
			}
		}
		cond.Release()
		if len(sel) < n {
			filtered, err = take(c.mem, in, sel)
			if err != nil {
				return nil, nil, err
			}
			defer filtered.Release()
		}
	} else {
		for i := 0; i < n; i++ {
			sel = append(sel, int32(i))
		}
	}
	m := len(sel)
	ctx := expr.NewCtx(c.mem, m)
	cols := make([]arrow.Array, 0, len(c.projections)+1)
	release := func() {
		for _, col := range cols {
			col.Release()
		}
	}
	for i, p := range c.projections {
		col, err := p.Eval(ctx, filtered)
		if err != nil {
			release()
			return nil, nil, fmt.Errorf("calc projection %d: %w", i, err)
		}
		cols = append(cols, col)
	}
	if err := ctx.Err(); err != nil {
		release()
		return nil, nil, fmt.Errorf("calc projection: %w", err)
	}
	kinds := filtered.Column(int(filtered.NumCols()) - 1)
	kinds.Retain()
	cols = append(cols, kinds)
	out := array.NewRecordBatch(c.schema, cols, int64(m))
	release()
	return out, sel, nil
}

// take returns the rows sel of every column of in.
func take(mem memory.Allocator, in arrow.RecordBatch, sel []int32) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, in.NumCols())
	for i := range cols {
		c, err := takeColumn(mem, in.Column(i), sel)
		if err != nil {
			for _, p := range cols[:i] {
				p.Release()
			}
			return nil, fmt.Errorf("calc filter column %d: %w", i, err)
		}
		cols[i] = c
	}
	rec := array.NewRecordBatch(in.Schema(), cols, int64(len(sel)))
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

func takeColumn(mem memory.Allocator, c arrow.Array, sel []int32) (arrow.Array, error) {
	switch a := c.(type) {
	case *array.Int8:
		return takeFixed(mem, a, a.Int8Values(), sel), nil
	case *array.Int16:
		return takeFixed(mem, a, a.Int16Values(), sel), nil
	case *array.Int32:
		return takeFixed(mem, a, a.Int32Values(), sel), nil
	case *array.Int64:
		return takeFixed(mem, a, a.Int64Values(), sel), nil
	case *array.Float32:
		return takeFixed(mem, a, a.Float32Values(), sel), nil
	case *array.Float64:
		return takeFixed(mem, a, a.Float64Values(), sel), nil
	case *array.Date32:
		return takeFixed(mem, a, a.Date32Values(), sel), nil
	case *array.Time32:
		return takeFixed(mem, a, a.Time32Values(), sel), nil
	case *array.Timestamp:
		return takeFixed(mem, a, a.TimestampValues(), sel), nil
	case *array.Decimal128:
		return takeFixed(mem, a, a.Values(), sel), nil
	case *array.String:
		return takeVarLen(mem, a, a.ValueOffsets(), a.ValueBytes(), sel), nil
	case *array.Binary:
		return takeVarLen(mem, a, a.ValueOffsets(), a.ValueBytes(), sel), nil
	}
	b := array.NewBuilder(mem, c.DataType())
	defer b.Release()
	b.Reserve(len(sel))
	for _, i := range sel {
		if c.IsNull(int(i)) {
			b.AppendNull()
			continue
		}
		switch a := c.(type) {
		case *array.Boolean:
			b.(*array.BooleanBuilder).Append(a.Value(int(i)))
		case *array.String:
			b.(*array.StringBuilder).Append(a.Value(int(i)))
		case *array.Binary:
			b.(*array.BinaryBuilder).Append(a.Value(int(i)))
		default:
			return nil, fmt.Errorf("cannot filter %s", c.DataType())
		}
	}
	return b.NewArray(), nil
}

// takeVarLen gathers rows of a string or binary column; offs are the array's value offsets and
// data its value bytes (which start at offs[0]).
func takeVarLen(mem memory.Allocator, c arrow.Array, offs []int32, data []byte, sel []int32) arrow.Array {
	m := len(sel)
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((m + 1) * 4)
	out := castSlice[int32](offBuf.Bytes(), m+1)
	base := offs[0]
	total := int32(0)
	for j, i := range sel {
		out[j] = total
		total += offs[i+1] - offs[i]
	}
	out[m] = total
	valBuf := memory.NewResizableBuffer(mem)
	valBuf.Resize(int(total))
	vals := valBuf.Bytes()
	for j, i := range sel {
		copy(vals[out[j]:out[j+1]], data[offs[i]-base:offs[i+1]-base])
	}
	valid, nulls := takeValidity(mem, c, sel)
	a := array.MakeFromData(array.NewData(c.DataType(), m, []*memory.Buffer{valid, offBuf, valBuf}, nil, nulls, 0))
	offBuf.Release()
	valBuf.Release()
	if valid != nil {
		valid.Release()
	}
	return a
}

// takeValidity gathers the validity bits of rows sel, or returns nil when c has no nulls.
func takeValidity(mem memory.Allocator, c arrow.Array, sel []int32) (*memory.Buffer, int) {
	if c.NullN() == 0 {
		return nil, 0
	}
	m := len(sel)
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(m))))
	bits := valid.Bytes()
	clear(bits)
	nulls := 0
	for j, i := range sel {
		if c.IsValid(int(i)) {
			bitutil.SetBit(bits, j)
		} else {
			nulls++
		}
	}
	return valid, nulls
}

func takeFixed[T any](mem memory.Allocator, c arrow.Array, vals []T, sel []int32) arrow.Array {
	m := len(sel)
	var zero T
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(m * sizeOf(zero))
	out := castSlice[T](buf.Bytes(), m)
	for j, i := range sel {
		out[j] = vals[i]
	}
	valid, nulls := takeValidity(mem, c, sel)
	a := array.MakeFromData(array.NewData(c.DataType(), m, []*memory.Buffer{valid, buf}, nil, nulls, 0))
	buf.Release()
	if valid != nil {
		valid.Release()
	}
	return a
}
