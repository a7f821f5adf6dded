// Package calc is the Calc operator: a filter and a projection over Arrow columns, evaluated
// with the compiled expressions of exec/expr.
package calc

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/expr"
)

// Calc filters rows by a condition and computes projections of the rows that pass. Filter and
// Project are separate so that a pipeline can materialize the projected columns of the passing
// rows only.
type Calc struct {
	projections []expr.Expr
	condition   expr.Expr // nil: every row passes
	mem         memory.Allocator
	// clock reads the clock in epoch milliseconds; now is its reading for the current batch.
	clock func() int64
	now   int64
}

// New returns a Calc whose expressions may read the clock (compiled with expr.Env.Clock).
func New(projections []expr.Expr, condition expr.Expr, mem memory.Allocator) *Calc {
	return &Calc{projections: projections, condition: condition, mem: mem,
		clock: func() int64 { return time.Now().UnixMilli() }}
}

// Filter starts a batch: it reads the clock once for the condition and the projections of the
// batch (as Flink's Calc reads it once per record for both), then evaluates the condition over
// n rows and returns the indices of the rows where it is TRUE (every row when there is no
// condition).
func (c *Calc) Filter(in expr.Batch, n int) ([]int32, error) {
	c.now = c.clock()
	sel := make([]int32, 0, n)
	if c.condition == nil {
		for i := 0; i < n; i++ {
			sel = append(sel, int32(i))
		}
		return sel, nil
	}
	ctx := expr.NewCtx(c.mem, n)
	ctx.Now = c.now
	cond, err := c.condition.Eval(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("calc condition: %w", err)
	}
	defer cond.Release()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("calc condition: %w", err)
	}
	d := cond.Data()
	vals, off := d.Buffers()[1].Bytes(), d.Offset()
	var valid []byte
	if cond.NullN() > 0 {
		valid = d.Buffers()[0].Bytes()
	}
	for i := 0; i < n; i++ {
		if bitutil.BitIsSet(vals, off+i) && (valid == nil || bitutil.BitIsSet(valid, off+i)) {
			sel = append(sel, int32(i))
		}
	}
	return sel, nil
}

// Project computes the projections over the m rows of in (the rows that passed the last
// Filter).
// The caller releases the returned columns.
func (c *Calc) Project(in expr.Batch, m int) ([]arrow.Array, error) {
	ctx := expr.NewCtx(c.mem, m)
	ctx.Now = c.now
	cols := make([]arrow.Array, 0, len(c.projections))
	release := func() {
		for _, col := range cols {
			col.Release()
		}
	}
	for i, p := range c.projections {
		col, err := p.Eval(ctx, in)
		if err != nil {
			release()
			return nil, fmt.Errorf("calc projection %d: %w", i, err)
		}
		cols = append(cols, col)
	}
	if err := ctx.Err(); err != nil {
		release()
		return nil, fmt.Errorf("calc projection: %w", err)
	}
	return cols, nil
}
