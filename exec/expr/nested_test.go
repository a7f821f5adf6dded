package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// jsonBatch builds a batch whose columns have the given SQL types and JSON values.
func jsonBatch(t *testing.T, types []string, cols ...string) ([]catalog.Type, arrow.RecordBatch) {
	t.Helper()
	var ts []catalog.Type
	var arrs []arrow.Array
	var fields []arrow.Field
	for i, s := range types {
		ty, err := catalog.ParseTypeString(s)
		if err != nil {
			t.Fatal(err)
		}
		at, err := catalog.ArrowType(ty)
		if err != nil {
			t.Fatal(err)
		}
		a, _, err := array.FromJSON(memory.DefaultAllocator, at, strings.NewReader(cols[i]))
		if err != nil {
			t.Fatalf("column %d: %v", i, err)
		}
		ts = append(ts, ty)
		arrs = append(arrs, a)
		fields = append(fields, arrow.Field{Name: string(rune('a' + i)), Type: at, Nullable: true})
	}
	return ts, array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
}

func TestNestedAccess(t *testing.T) {
	types, in := jsonBatch(t,
		[]string{"ARRAY<INT>", "INT", "MAP<STRING, INT>", "STRING", "ROW<`x` INT, `r` ROW<`y` STRING>>", "MAP<DOUBLE, INT>", "DOUBLE"},
		`[[1, 2, 3], null, [], [null, 5], [7]]`,
		`[2, 1, 1, 1, 2147483647]`,
		`[[{"key": "a", "value": 1}, {"key": null, "value": 9}, {"key": "a", "value": 2}], null, [], [{"key": "b", "value": null}], [{"key": "", "value": 4}]]`,
		`["a", "a", "a", "b", ""]`,
		`[{"x": 1, "r": {"y": "p"}}, null, {"x": null, "r": null}, {"x": 4, "r": {"y": null}}, {"x": 5, "r": {"y": "q"}}]`,
		`[[{"key": 0.0, "value": 1}], [{"key": 1.5, "value": 2}], null, [{"key": 2.0, "value": 3}, {"key": 2.0, "value": 4}], []]`,
		`[-0.0, 1.5, 1.0, 2.0, 0.0]`)
	defer in.Release()
	intT := catalog.IntType(true)
	strT := catalog.StringType(true)
	rowT := types[4]
	innerT, _, _ := FieldType(rowT, "r")
	cases := []struct {
		name string
		n    *Node
		want string
	}{
		// array[i]: NULL for a NULL array, an index out of 1..size, or a NULL element.
		{"array item", call("ITEM", intT, ref(0, types[0]), ref(1, intT)), "[2 (null) (null) (null) (null)]"},
		{"array item literal", call("ITEM", intT, ref(0, types[0]), lit(int64(1), catalog.IntType(false))), "[1 (null) (null) (null) 7]"},
		// map[key]: the first equal key; Flink reads a NULL key as "" (its slot's default).
		{"map item", call("ITEM", intT, ref(2, types[2]), ref(3, strT)), "[1 (null) (null) (null) 4]"},
		{"map item empty key", call("ITEM", intT, ref(2, types[2]), lit("", catalog.StringType(false))), "[9 (null) (null) (null) 4]"},
		// DOUBLE keys compare with Java's ==: -0.0 equals 0.0; the first of equal keys wins.
		{"map item double", call("ITEM", intT, ref(5, types[5]), ref(6, catalog.DoubleType(true))), "[1 2 (null) 3 (null)]"},
		{"array cardinality", call("CARDINALITY", intT, ref(0, types[0])), "[3 (null) 0 2 1]"},
		{"map cardinality", call("CARDINALITY", intT, ref(2, types[2])), "[3 (null) 0 1 1]"},
		// row.field is NULL when the row is.
		{"field", &Node{Kind: FieldAccess, Name: "x", Type: intT, Args: []*Node{ref(4, rowT)}}, "[1 (null) (null) 4 5]"},
		{"nested field", &Node{Kind: FieldAccess, Name: "y", Type: strT, Args: []*Node{
			{Kind: FieldAccess, Name: "r", Type: innerT, Args: []*Node{ref(4, rowT)}}}}, `["p" (null) (null) (null) "q"]`},
		{"row constructor", &Node{Kind: FieldAccess, Name: "EXPR$1", Type: strT, Args: []*Node{
			call("ROW", catalog.Type{Kind: catalog.Row, Fields: []catalog.Field{{Name: "EXPR$0", Type: intT}, {Name: "EXPR$1", Type: strT}}},
				ref(1, intT), ref(3, strT))}}, `["a" "a" "a" "b" ""]`},
		{"array constructor", call("ITEM", intT, call("ARRAY", catalog.Type{Kind: catalog.Array, Elem: &intT},
			ref(1, intT), lit(nil, intT)), lit(int64(1), catalog.IntType(false))), "[2 1 1 1 2147483647]"},
	}
	// The same cases on a slice (offset 1) check that array offsets are honoured.
	sliced := in.NewSlice(1, in.NumRows())
	defer sliced.Release()
	for _, c := range cases {
		for _, b := range []struct {
			name string
			rec  arrow.RecordBatch
			want string
		}{{"", in, c.want}, {" (sliced)", sliced, "[" + strings.SplitN(strings.TrimPrefix(c.want, "["), " ", 2)[1]}} {
			out, err := eval(t, c.n, b.rec, types)
			if err != nil {
				t.Errorf("%s%s: %v", c.name, b.name, err)
				continue
			}
			if got := out.String(); got != b.want {
				t.Errorf("%s%s: got %s, want %s", c.name, b.name, got, b.want)
			}
			out.Release()
		}
	}
}

func TestNestedRefusals(t *testing.T) {
	arr := catalog.Type{Kind: catalog.Array, Nullable: true, Elem: &catalog.Type{Kind: catalog.Int, Nullable: true}}
	dec := catalog.DecimalType(10, 2, true)
	decMap := catalog.Type{Kind: catalog.Map, Nullable: true, Elem: &dec, Value: &dec}
	tiny := catalog.Type{Kind: catalog.TinyInt, Nullable: true}
	types := []catalog.Type{arr, tiny, decMap, dec}
	for _, c := range []struct {
		n    *Node
		want string
	}{
		{call("ITEM", catalog.IntType(true), ref(0, arr), ref(1, tiny)), "index of type TINYINT"},
		{call("ITEM", dec, ref(2, decMap), ref(3, dec)), "DECIMAL(10, 2) keys"},
		{call("=", catalog.BooleanType(true), ref(0, arr), ref(0, arr)), "= of ARRAY<INT>"},
		{call("COALESCE", arr, ref(0, arr), ref(0, arr)), "COALESCE returning ARRAY<INT>"},
		{call("ITEM", catalog.IntType(true), ref(0, arr), lit(int64(0), catalog.IntType(false))), "index 0"},
		{call("ARRAY", catalog.Type{Kind: catalog.Array, Elem: &tiny}, ref(1, tiny)), "TINYINT elements"},
		{call("ROW", catalog.Type{Kind: catalog.Row, Fields: []catalog.Field{{Name: "EXPR$0", Type: tiny}}}, ref(1, tiny)), "TINYINT field"},
	} {
		_, err := Compile(c.n, types)
		var u *Unsupported
		if !errors.As(err, &u) || !strings.Contains(u.Reason, c.want) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.n.Op, err, c.want)
		}
	}
}

// A NULL map key reads as its type's default whatever its slot holds: keys computed by a
// kernel may leave any value under a NULL (MAP[ii + 1, 10] with ii NULL).
func TestMapLookupNullKeyIsDefault(t *testing.T) {
	offs := []int32{0, 2}
	keys := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, 2,
		[]*memory.Buffer{memory.NewBufferBytes([]byte{0b10}), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{7, 1}))}, nil, 1, 0))
	defer keys.Release()
	l := array.NewListData(array.NewData(arrow.ListOf(arrow.PrimitiveTypes.Int32), 1,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))}, []arrow.ArrayData{keys.Data()}, 0, 0))
	defer l.Release()
	for _, c := range []struct {
		want int32
		sel  int32
	}{{0, 0}, {7, -1}, {1, 1}} {
		w := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, 1,
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{c.want}))}, nil, 0, 0))
		sel := make([]int32, 1)
		lookup(offs, keys.Int32Values(), keys.NullBitmapBytes(), 0, w.Int32Values(), l, w, sel)
		if sel[0] != c.sel {
			t.Errorf("lookup of %d: entry %d, want %d", c.want, sel[0], c.sel)
		}
		w.Release()
	}
}

// ELEMENT: NULL for a NULL or empty array, the element of a one-element array, and a failure
// of the row (Flink's RuntimeException) for more elements.
func TestElement(t *testing.T) {
	types, in := jsonBatch(t, []string{"ARRAY<INT>"}, `[[7], null, [], [null], [1, 2]]`)
	defer in.Release()
	e, err := Compile(call("ELEMENT", catalog.IntType(true), ref(0, types[0])), types)
	if err != nil {
		t.Fatal(err)
	}
	ctx := NewCtx(memory.DefaultAllocator, int(in.NumRows()))
	out, err := e.Eval(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if got := out.String(); got != "[7 (null) (null) (null) (null)]" {
		t.Errorf("got %s", got)
	}
	if err := ctx.Err(); err == nil || !strings.Contains(err.Error(), "more than one element") {
		t.Errorf("row 4 should fail, got %v", err)
	}
}

// TestConstructorNotNullPlaceGetsNull: a NULL in a place the plan types NOT NULL is what
// Flink's unchecked write makes of it: a NullPointerException for a STRING field of a ROW (fuzz
// seed 11059: RPAD with a negative length inside ROW(...)), a failed row for an INT field or
// element (Flink writes a default Sluice does not reproduce), and a NULL for a DECIMAL(38) field
// and a STRING element (written through a null check or as NULL).
func TestConstructorNotNullPlaceGetsNull(t *testing.T) {
	types, in := jsonBatch(t, []string{"STRING", "INT", "DECIMAL(38, 2)"}, `["a", null]`, `[1, null]`, `["1.00", null]`)
	defer in.Release()
	str, i32, dec := catalog.StringType(false), catalog.IntType(false), catalog.DecimalType(38, 2, false)
	row := func(f catalog.Type) catalog.Type {
		return catalog.Type{Kind: catalog.Row, Fields: []catalog.Field{{Name: "f", Type: f}}}
	}
	arr := func(e catalog.Type) catalog.Type { return catalog.Type{Kind: catalog.Array, Elem: &e} }
	for _, c := range []struct {
		n    *Node
		want string // part of the error, "" for none
	}{
		{call("ROW", row(str), ref(0, strT)), "NullPointerException"},
		{call("ROW", row(i32), ref(1, intT)), "default value"},
		{call("ARRAY", arr(i32), ref(1, intT)), "default value"},
		{call("ROW", row(dec), ref(2, catalog.DecimalType(38, 2, true))), ""},
		{call("ARRAY", arr(str), ref(0, strT)), ""},
	} {
		e, err := Compile(c.n, types)
		if err != nil {
			t.Fatal(err)
		}
		ctx := NewCtx(memory.DefaultAllocator, 2)
		out, err := e.Eval(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		out.Release()
		err = ctx.Err()
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s of %s with a NULL in a NOT NULL place: %v, want %q", c.n.Op, c.n.Type, err, c.want)
		}
	}
}
