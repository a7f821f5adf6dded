package expr

import (
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javahash"
	"github.com/sluice-project/sluice/javacompat/javatext"
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

// nestedPart is the cast of one part of a nested type (elements, a field, keys or values) to
// a target type, evaluated over that part's whole child array in a context of its own.
type nestedPart struct {
	held *heldArray
	cast Expr
}

func newNestedPart(op string, from, to catalog.Type, env Env) (*nestedPart, error) {
	held := &heldArray{typ: from}
	c, err := compileCast(&Node{Kind: Call, Op: op, Type: to}, []Expr{held}, env)
	if err != nil {
		return nil, err
	}
	return &nestedPart{held: held, cast: c}, nil
}

// eval casts child (all of it); sub holds the rows that failed. The caller releases out.
func (p *nestedPart) eval(ctx *Ctx, child arrow.Array) (out arrow.Array, sub *Ctx, err error) {
	p.held.a = child
	defer func() { p.held.a = nil }()
	sub = NewCtx(ctx.Mem, child.Len())
	out, err = p.cast.Eval(sub, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("CAST of %s to %s: %w", p.held.typ, p.cast.Type(), err)
	}
	return out, sub, nil
}

// texts casts child to strings, which cannot fail; the caller releases the result.
func (p *nestedPart) texts(ctx *Ctx, child arrow.Array) (*array.String, error) {
	out, sub, err := p.eval(ctx, child)
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

// nestedParts splits a nested column into the child columns its casts work on: an ARRAY is a
// list of its elements, a MAP a list of {key, value} structs, a ROW a struct of its fields. offs
// are the element ranges per row of an ARRAY or MAP, nil for a ROW.
func nestedParts(a arrow.Array, kind catalog.Kind) (children []arrow.Array, offs []int32, err error) {
	switch v := a.(type) {
	case *array.List:
		offs = column.ListOffsets(v)
		if kind == catalog.Map {
			entries := v.ListValues().(*array.Struct)
			return []arrow.Array{entries.Field(0), entries.Field(1)}, offs, nil
		}
		return []arrow.Array{v.ListValues()}, offs, nil
	case *array.Struct:
		for k := 0; k < v.NumField(); k++ {
			children = append(children, v.Field(k))
		}
		return children, nil, nil
	}
	return nil, nil, fmt.Errorf("unexpected column %T", a)
}

// nestedToString is the CAST of an ARRAY, MAP or ROW to a string type (ArrayToStringCastRule,
// MapAndMultisetToStringCastRule, RowToStringCastRule): '[e1, e2]', '{k1=v1, k2=v2}' and
// '(f1, f2)', each part as its own cast to STRING writes it and NULL as 'NULL', the whole read
// as a Java String (malformed UTF-8 in a part decoded as Java does), cut to n UTF-16 units for
// CHAR(n)/VARCHAR(n) and padded with spaces for CHAR(n).
type nestedToString struct {
	unary
	parts []*nestedPart // elements; keys, values; or one per field
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
		p, err := newNestedPart("CAST", t, catalog.StringType(true), env)
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
	kind := e.arg.Type().Kind
	children, offs, err := nestedParts(a, kind)
	if err != nil {
		return nil, fmt.Errorf("CAST of %s to %s: %w", e.arg.Type(), e.typ, err)
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
		v := texts[k].Value(j)
		if utf8.ValidString(v) {
			return append(dst, v...)
		}
		return append(dst, javaDecoded([]byte(v))...)
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

// nestedCast is ArrayToArrayCastRule, RowToRowCastRule and MapToMapAndMultisetToMultisetCastRule:
// every element, field, key or value cast to its target type by the scalar kernels, NULLs
// kept. ARRAYs and ROWs keep their structure; a MAP's cast entries are put into a
// java.util.HashMap as Flink does, whose iteration order they take, equal cast keys merged
// (see rehash). A part that fails fails its row (CAST) or makes the whole value NULL (TRY_CAST,
// whose catch surrounds the whole cast).
type nestedCast struct {
	unary
	parts []*nestedPart
	try   bool
}

func compileNestedCast(n *Node, arg Expr, env Env) (Expr, error) {
	from, to := arg.Type(), n.Type
	var pairs [][2]catalog.Type
	switch {
	case from.Kind == catalog.Array && to.Kind == catalog.Array:
		pairs = [][2]catalog.Type{{*from.Elem, *to.Elem}}
	case from.Kind == catalog.Map && to.Kind == catalog.Map:
		// MapToMapAndMultisetToMultisetCastRule puts the cast entries into a java.util.HashMap:
		// the result's entries come in that map's order (by the keys' Java hash codes, equal
		// keys merged), which CAST(... AS STRING), CARDINALITY and sinks then see.
		if err := javahash.KeysSupported(*to.Elem); err != nil {
			return nil, unsupported("CAST from %s to %s: Flink rebuilds the map in a java.util.HashMap, and %v", from, to, err)
		}
		pairs = [][2]catalog.Type{{*from.Elem, *to.Elem}, {*from.Value, *to.Value}}
	case from.Kind == catalog.Row && to.Kind == catalog.Row && len(from.Fields) == len(to.Fields):
		for k := range from.Fields {
			pairs = append(pairs, [2]catalog.Type{from.Fields[k].Type, to.Fields[k].Type})
		}
	default:
		return nil, unsupported("CAST from %s to %s is not supported natively yet", from, to)
	}
	e := &nestedCast{unary: unary{arg, to}, try: n.Op == "TRY_CAST"}
	for _, p := range pairs {
		if !p[1].Nullable && p[0].Nullable {
			// Flink writes a NOT NULL element from a primitive: NULLs become defaults.
			return nil, unsupported("CAST from %s to %s: a nullable part cast to NOT NULL", from, to)
		}
		part, err := newNestedPart("CAST", p[0].WithNullable(true), p[1].WithNullable(true), env)
		if err != nil {
			return nil, err
		}
		e.parts = append(e.parts, part)
	}
	return e, nil
}

func (e *nestedCast) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *nestedCast) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	children, offs, err := nestedParts(a, e.arg.Type().Kind)
	if err != nil {
		return nil, fmt.Errorf("CAST of %s to %s: %w", e.arg.Type(), e.typ, err)
	}
	cast := make([]arrow.ArrayData, len(children))
	defer func() {
		for _, d := range cast {
			if d != nil {
				d.Release()
			}
		}
	}()
	valid := column.CopyValidity(a, ctx.Mem)
	if valid == nil {
		valid = column.NewBitmap(ctx.Mem, n)
		bitutil.SetBitsTo(valid.Bytes(), 0, int64(n), true)
	}
	defer valid.Release()
	vbits := valid.Bytes()
	for k, c := range children {
		out, sub, err := e.parts[k].eval(ctx, c)
		if err != nil {
			return nil, err
		}
		cast[k] = out.Data()
		cast[k].Retain()
		out.Release()
		if sub.errRows == nil {
			continue
		}
		for i := 0; i < n; i++ {
			if !bitutil.BitIsSet(vbits, i) {
				continue
			}
			from, to := i, i+1
			if offs != nil {
				from, to = int(offs[i]), int(offs[i+1])
			}
			for j := from; j < to; j++ {
				if bitutil.BitIsSet(sub.errRows, j) {
					bitutil.ClearBit(vbits, i)
					if !e.try {
						ctx.fail(i, sub.firstErr)
					}
					break
				}
			}
		}
	}
	nulls := n - bitutil.CountSetBits(vbits, 0, n)
	dt := arrowType(e.typ)
	if e.typ.Kind == catalog.Map {
		return e.rehash(ctx, n, valid, nulls, offs, cast)
	}
	if offs == nil {
		d := array.NewData(dt, n, []*memory.Buffer{valid}, cast, nulls, 0)
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	child := cast[0] // an ARRAY's elements
	offBuf, newOffs := column.NewValues[int32](ctx.Mem, n+1)
	defer offBuf.Release()
	copy(newOffs, offs)
	d := array.NewData(dt, n, []*memory.Buffer{valid, offBuf}, []arrow.ArrayData{child}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// hasMap says whether t is a MAP or holds one in its elements, fields, keys or values.
func hasMap(t catalog.Type) bool {
	return t.Holds(func(p catalog.Type) bool { return p.Kind == catalog.Map })
}

// rehash makes the MAP result as Flink's java.util.HashMap leaves it: each valid row's cast
// entries put into a HashMap in order (javahash replays it), the row then holding the map's
// entries in iteration order, equal keys merged into the first one's place with the last value.
func (e *nestedCast) rehash(ctx *Ctx, n int, valid *memory.Buffer, nulls int, offs []int32, cast []arrow.ArrayData) (arrow.Array, error) {
	keys, values := array.MakeFromData(cast[0]), array.MakeFromData(cast[1])
	defer keys.Release()
	defer values.Release()
	jk, err := javahash.NewKeys(keys, *e.typ.Elem)
	if err != nil {
		return nil, fmt.Errorf("CAST of %s to %s: %w", e.arg.Type(), e.typ, err)
	}
	codes := make([]int32, keys.Len())
	jk.Codes(codes)
	vbits := valid.Bytes()
	offBuf, newOffs := column.NewValues[int32](ctx.Mem, n+1)
	defer offBuf.Release()
	keySel := make([]int32, 0, keys.Len())
	valueSel := make([]int32, 0, keys.Len())
	var m javahash.HashMap
	for i := 0; i < n; i++ {
		newOffs[i] = int32(len(keySel))
		if !bitutil.BitIsSet(vbits, i) {
			continue
		}
		m.Reset()
		for j := offs[i]; j < offs[i+1]; j++ {
			m.Put(codes[j], int(j), jk)
		}
		keySel, valueSel = m.AppendEntries(keySel, valueSel)
	}
	newOffs[n] = int32(len(keySel))
	k, err := column.Take(keys, keySel, ctx.Mem)
	if err != nil {
		return nil, fmt.Errorf("CAST of %s to %s: %w", e.arg.Type(), e.typ, err)
	}
	defer k.Release()
	v, err := column.Take(values, valueSel, ctx.Mem)
	if err != nil {
		return nil, fmt.Errorf("CAST of %s to %s: %w", e.arg.Type(), e.typ, err)
	}
	defer v.Release()
	dt := arrowType(e.typ)
	entries := array.NewData(dt.(*arrow.ListType).Elem(), len(keySel), []*memory.Buffer{nil},
		[]arrow.ArrayData{k.Data(), v.Data()}, 0, 0)
	defer entries.Release()
	d := array.NewData(dt, n, []*memory.Buffer{valid, offBuf}, []arrow.ArrayData{entries}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
