package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// Ctx carries what one evaluation needs: the allocator, the batch length and the rows whose
// evaluation failed. A failing row (integer division by zero, say) does not stop evaluation at
// once: Flink evaluates AND, OR, CASE and COALESCE lazily, so a failure counts only for rows
// where Flink would have evaluated the failing operand. Combinators evaluate operands in a
// scope and keep only the failures of rows that Flink evaluates; Err reports what is left.
type Ctx struct {
	Mem memory.Allocator
	N   int
	// Now is the clock's reading for this batch in epoch milliseconds, which the clock
	// functions give every row (see Env.Clock).
	Now int64

	errRows  []byte // bitmap of failed rows in the current scope, nil when none
	firstErr error
}

// NewCtx returns a context for evaluating batches of n rows.
func NewCtx(mem memory.Allocator, n int) *Ctx { return &Ctx{Mem: mem, N: n} }

// fail records that row i failed with err.
func (c *Ctx) fail(i int, err error) {
	if c.errRows == nil {
		c.errRows = make([]byte, bitutil.BytesForBits(int64(c.N)))
	}
	bitutil.SetBit(c.errRows, i)
	if c.firstErr == nil {
		c.firstErr = err
	}
}

// Err returns the error of the first failed row, or nil.
func (c *Ctx) Err() error {
	if c.errRows == nil {
		return nil
	}
	for i := 0; i < c.N; i++ {
		if bitutil.BitIsSet(c.errRows, i) {
			return c.firstErr
		}
	}
	return nil
}

// errScope is the saved failure state of an enclosing scope.
type errScope struct {
	rows  []byte
	first error
}

// enter starts a new failure scope and returns the enclosing one.
func (c *Ctx) enter() errScope {
	s := errScope{c.errRows, c.firstErr}
	c.errRows, c.firstErr = nil, nil
	return s
}

// leave ends the current scope: its failures count in the enclosing scope only for rows set in
// keep (all rows when keep is nil).
func (c *Ctx) leave(outer errScope, keep []byte) {
	inner, innerErr := c.errRows, c.firstErr
	c.errRows, c.firstErr = outer.rows, outer.first
	if inner == nil {
		return
	}
	for i := 0; i < c.N; i++ {
		if bitutil.BitIsSet(inner, i) && (keep == nil || bitutil.BitIsSet(keep, i)) {
			c.fail(i, innerErr)
		}
	}
}

// Batch is what an expression reads: input columns by index. arrow.RecordBatch is a Batch; a
// pipeline may pass a batch that holds only the columns an expression references.
type Batch interface {
	Column(i int) arrow.Array
	NumRows() int64
}

// Expr is a compiled scalar expression.
type Expr interface {
	// Type is the Flink type of the result.
	Type() catalog.Type
	// Eval computes the expression for every row of in. The caller releases the result.
	Eval(ctx *Ctx, in Batch) (arrow.Array, error)
}

// fixed is every Go type stored in a fixed-width Arrow buffer that kernels compute on.
type fixed interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// andValidity returns the validity bitmap that is set where every input is valid, or nil when
// no input has nulls.
func andValidity(mem memory.Allocator, n int, inputs ...arrow.Array) *memory.Buffer {
	var out *memory.Buffer
	for _, a := range inputs {
		if a.NullN() == 0 {
			continue
		}
		d := a.Data()
		bits := d.Buffers()[0].Bytes()
		if out == nil {
			out = column.NewBitmap(mem, n)
			bitutil.CopyBitmap(bits, d.Offset(), n, out.Bytes(), 0)
			continue
		}
		bitutil.BitmapAnd(out.Bytes(), bits, 0, int64(d.Offset()), out.Bytes(), 0, int64(n))
	}
	return out
}

// isValid reports whether row i of a is not null, for arrays whose validity may be absent.
func isValid(a arrow.Array, i int) bool { return a.NullN() == 0 || a.IsValid(i) }

// arrowType is catalog.ArrowType for types that compile already checked.
func arrowType(t catalog.Type) arrow.DataType {
	at, err := catalog.ArrowType(t)
	if err != nil {
		panic("expr: " + err.Error())
	}
	return at
}

// nullArray returns an all-null array of type t.
func nullArray(mem memory.Allocator, t catalog.Type, n int) arrow.Array {
	return array.MakeArrayOfNull(mem, arrowType(t), n)
}

// unary is the common part of one-operand expressions: the operand, the result type, and the
// evaluation of the operand around a kernel.
type unary struct {
	arg Expr
	typ catalog.Type
}

// Type is the result type.
func (u *unary) Type() catalog.Type { return u.typ }

// eval evaluates the operand and applies kernel to it; the operand is released afterwards.
func (u *unary) eval(ctx *Ctx, in Batch, kernel func(*Ctx, arrow.Array) (arrow.Array, error)) (arrow.Array, error) {
	a, err := u.arg.Eval(ctx, in)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return kernel(ctx, a)
}

// evalAll evaluates every expression; on error the columns evaluated so far are released.
func evalAll(ctx *Ctx, in Batch, args []Expr) ([]arrow.Array, error) {
	cols := make([]arrow.Array, 0, len(args))
	for _, a := range args {
		c, err := a.Eval(ctx, in)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, nil
}

// releaseAll releases every array.
func releaseAll(cols []arrow.Array) {
	for _, c := range cols {
		c.Release()
	}
}

// evalBoth evaluates two operands over the batch; the caller releases both.
func evalBoth(ctx *Ctx, in Batch, l, r Expr) (la, ra arrow.Array, err error) {
	if la, err = l.Eval(ctx, in); err != nil {
		return nil, nil, err
	}
	if ra, err = r.Eval(ctx, in); err != nil {
		la.Release()
		return nil, nil, err
	}
	return la, ra, nil
}
