package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// literal is a constant, materialized once per batch length.
type literal struct {
	typ   catalog.Type
	value any
	n     int
	cache arrow.Array
}

func newLiteral(n *Node) (Expr, error) {
	switch n.Value.(type) {
	case *Sarg, Symbol:
		return nil, unsupported("%s literal used as a value", n.Type)
	}
	return &literal{typ: n.Type, value: n.Value}, nil
}

func (e *literal) Type() catalog.Type { return e.typ }

func (e *literal) Eval(ctx *Ctx, _ Batch) (arrow.Array, error) {
	if e.cache == nil || e.n != ctx.N {
		if e.cache != nil {
			e.cache.Release()
		}
		a, err := constant(ctx.Mem, e.typ, e.value, ctx.N)
		if err != nil {
			return nil, err
		}
		e.cache, e.n = a, ctx.N
	}
	e.cache.Retain()
	return e.cache, nil
}

// constant builds an array of n copies of v (nil for NULL) of type t.
func constant(mem memory.Allocator, t catalog.Type, v any, n int) (arrow.Array, error) {
	if v == nil {
		return nullArray(mem, t, n), nil
	}
	b := array.NewBuilder(mem, arrowType(t))
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if err := appendValue(b, t, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

// appendValue appends one Go value of the form Node.Value uses to a builder of type t.
func appendValue(b array.Builder, t catalog.Type, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		bb.Append(v.(bool))
	case *array.Int8Builder:
		bb.Append(int8(v.(int64)))
	case *array.Int16Builder:
		bb.Append(int16(v.(int64)))
	case *array.Int32Builder:
		bb.Append(int32(v.(int64)))
	case *array.Int64Builder:
		bb.Append(v.(int64))
	case *array.Float32Builder:
		bb.Append(float32(v.(float64)))
	case *array.Float64Builder:
		bb.Append(v.(float64))
	case *array.Decimal128Builder:
		bb.Append(v.(decimal128.Num))
	case *array.StringBuilder:
		bb.Append(v.(string))
	case *array.BinaryBuilder:
		bb.Append(v.([]byte))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v.(int64)))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(v.(int64)))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(v.(int64)))
	case *array.DurationBuilder:
		bb.Append(arrow.Duration(v.(int64)))
	case *array.StructBuilder:
		ts, ok := v.(NanoTimestamp)
		if !ok {
			return fmt.Errorf("literal of type %s: %T value", t, v)
		}
		bb.Append(true)
		bb.FieldBuilder(0).(*array.Int64Builder).Append(ts.Millis)
		bb.FieldBuilder(1).(*array.Int32Builder).Append(ts.NanoOfMilli)
	default:
		return fmt.Errorf("literal of type %s: no builder for %T", t, b)
	}
	return nil
}
