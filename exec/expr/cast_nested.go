package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/javatext"
)

// heldArray is an operand whose value is set before each evaluation: the elements, fields,
// keys or values of a nested column, which the scalar cast kernels turn into text.
type heldArray struct {
	typ catalog.Type
	a   arrow.Array
}

func (h *heldArray) Type() catalog.Type { return h.typ }

func (h *heldArray) Eval(*Ctx, Batch) (arrow.Array, error) {
	h.a.Retain()
	return h.a, nil
}

// partText is the cast to STRING of one part of a nested type (elements, a field, keys or
// values), evaluated over that part's whole child array.
type partText struct {
	held *heldArray
	cast Expr
}

func newPartText(t catalog.Type, env Env) (*partText, error) {
	held := &heldArray{typ: t}
	c, err := compileCast(&Node{Kind: Call, Op: "CAST", Type: catalog.StringType(true)}, []Expr{held}, env)
	if err != nil {
		return nil, err
	}
	return &partText{held: held, cast: c}, nil
}

// texts casts child (all of it) to strings; the caller releases the result.
func (p *partText) texts(ctx *Ctx, child arrow.Array) (*array.String, error) {
	p.held.a = child
	defer func() { p.held.a = nil }()
	sub := NewCtx(ctx.Mem, child.Len())
	out, err := p.cast.Eval(sub, nil)
	if err == nil {
		err = sub.Err()
	}
	if err != nil {
		if out != nil {
			out.Release()
		}
		return nil, fmt.Errorf("CAST of %s to STRING: %w", p.held.typ, err)
	}
	return out.(*array.String), nil
}

// nestedToString is the CAST of an ARRAY, MAP or ROW to a string type (ArrayToStringCastRule,
// MapAndMultisetToStringCastRule, RowToStringCastRule): '[e1, e2]', '{k1=v1, k2=v2}' and
// '(f1, f2)', each part as its own cast to STRING writes it and NULL as 'NULL', the whole read
// as a Java String (malformed UTF-8 in a part decoded as Java does), cut to n UTF-16 units for
// CHAR(n)/VARCHAR(n) and padded with spaces for CHAR(n).
type nestedToString struct {
	unary
	parts []*partText // elements; keys, values; or one per field
}

func compileNestedToString(arg Expr, to catalog.Type, env Env) (Expr, error) {
	from := arg.Type()
	var types []catalog.Type
	switch from.Kind {
	case catalog.Array:
		types = []catalog.Type{*from.Elem}
	case catalog.Map:
		types = []catalog.Type{*from.Elem, *from.Value}
	case catalog.Row:
		for _, f := range from.Fields {
			types = append(types, f.Type)
		}
	default:
		return nil, unsupported("CAST from %s to %s is not supported natively yet", from, to)
	}
	e := &nestedToString{unary: unary{arg, to}}
	for _, t := range types {
		p, err := newPartText(t, env)
		if err != nil {
			return nil, err
		}
		e.parts = append(e.parts, p)
	}
	return e, nil
}

func (e *nestedToString) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	return e.eval(ctx, in, e.apply)
}

func (e *nestedToString) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	// An ARRAY is a list of its elements, a MAP a list of {key, value} structs, a ROW a struct.
	var children []arrow.Array
	var offs []int32
	kind := e.arg.Type().Kind
	switch v := a.(type) {
	case *array.List:
		offs = column.ListOffsets(v)
		if kind == catalog.Map {
			entries := v.ListValues().(*array.Struct)
			children = []arrow.Array{entries.Field(0), entries.Field(1)}
		} else {
			children = []arrow.Array{v.ListValues()}
		}
	case *array.Struct:
		for k := 0; k < v.NumField(); k++ {
			children = append(children, v.Field(k))
		}
	default:
		return nil, fmt.Errorf("CAST of %s to %s: unexpected column %T", e.arg.Type(), e.typ, a)
	}
	texts := make([]*array.String, len(children))
	defer func() {
		for _, t := range texts {
			if t != nil {
				t.Release()
			}
		}
	}()
	for k, c := range children {
		t, err := e.parts[k].texts(ctx, c)
		if err != nil {
			return nil, err
		}
		texts[k] = t
	}
	part := func(dst []byte, k, j int) []byte {
		if texts[k].IsNull(j) {
			return append(dst, "NULL"...)
		}
		return append(dst, javaDecoded([]byte(texts[k].Value(j)))...)
	}
	n := a.Len()
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	offBuf, outOffs := column.NewValues[int32](ctx.Mem, n+1)
	var data, row []byte
	var units []uint16
	for i := 0; i < n; i++ {
		outOffs[i] = int32(len(data))
		if a.IsNull(i) {
			continue
		}
		bitutil.SetBit(vbits, i)
		row = row[:0]
		switch kind {
		case catalog.Row:
			row = append(row, '(')
			for k := range texts {
				if k > 0 {
					row = append(row, ", "...)
				}
				row = part(row, k, i)
			}
			row = append(row, ')')
		case catalog.Map:
			row = append(row, '{')
			for j := offs[i]; j < offs[i+1]; j++ {
				if j > offs[i] {
					row = append(row, ", "...)
				}
				row = append(part(row, 0, int(j)), '=')
				row = part(row, 1, int(j))
			}
			row = append(row, '}')
		default:
			row = append(row, '[')
			for j := offs[i]; j < offs[i+1]; j++ {
				if j > offs[i] {
					row = append(row, ", "...)
				}
				row = part(row, 0, int(j))
			}
			row = append(row, ']')
		}
		if e.typ.Length == catalog.MaxVarLength {
			data = append(data, row...)
			continue
		}
		units = javatext.AppendDecodedUTF8(units[:0], row)
		if len(units) > e.typ.Length {
			units = units[:e.typ.Length]
		}
		data = appendJavaUTF16(data, units)
		for k := len(units); e.typ.Kind == catalog.Char && k < e.typ.Length; k++ {
			data = append(data, ' ')
		}
	}
	outOffs[n] = int32(len(data))
	return column.MakeArray(arrowType(e.typ), n, valid, offBuf, memory.NewBufferBytes(data)), nil
}
