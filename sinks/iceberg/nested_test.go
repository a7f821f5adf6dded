package iceberg

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/sluice-project/sluice/catalog"
	ice "github.com/sluice-project/sluice/catalog/iceberg"
	icebergsrc "github.com/sluice-project/sluice/sources/iceberg"
)

// nestedTable is a table schema with nested columns as Iceberg prints it: a struct with a
// required field, a float and a list inside; a list of structs with a double; a map of lists.
const nestedTable = `{"type":"struct","fields":[
 {"id":1,"name":"r","required":false,"type":{"type":"struct","fields":[
   {"id":4,"name":"a","required":true,"type":"int"},
   {"id":5,"name":"f","required":false,"type":"float"},
   {"id":6,"name":"t","required":false,"type":{"type":"list","element-id":7,"element":"timestamp","element-required":false}}]}},
 {"id":2,"name":"l","required":false,"type":{"type":"list","element-id":8,"element":{"type":"struct","fields":[
   {"id":9,"name":"x","required":false,"type":"double"},
   {"id":10,"name":"s","required":false,"type":"string"}]},"element-required":false}},
 {"id":3,"name":"m","required":true,"type":{"type":"map","key-id":11,"key":"string","value-id":12,
   "value":{"type":"list","element-id":13,"element":"fixed[2]","element-required":true},"value-required":false}}]}`

func TestNestedColumnsRoundTrip(t *testing.T) {
	cols, err := ice.ParseSchema(nestedTable)
	if err != nil {
		t.Fatal(err)
	}
	typeOf := func(s string) catalog.Type {
		ct, err := catalog.ParseTypeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return ct
	}
	types := []catalog.Type{
		typeOf("ROW<`a` SMALLINT, `f` FLOAT, `t` ARRAY<TIMESTAMP(3)>>"),
		typeOf("ARRAY<ROW<`x` DOUBLE, `s` STRING>>"),
		typeOf("MAP<STRING, ARRAY<BINARY(2)>>"),
	}
	readTypes := []catalog.Type{
		typeOf("ROW<`a` INT NOT NULL, `f` FLOAT, `t` ARRAY<TIMESTAMP(6)>>"),
		typeOf("ARRAY<ROW<`x` DOUBLE, `s` STRING>>"),
		typeOf("MAP<STRING NOT NULL, ARRAY<BINARY(2) NOT NULL>> NOT NULL"),
	}
	js := []string{
		`[{"a": 1, "f": 1.5, "t": [1000, null]}, null, {"a": -2, "f": null, "t": null}, {"a": 3, "f": -0.0, "t": []}]`,
		`[[{"x": 1.5, "s": "p"}, null, {"x": null, "s": null}], null, [], [{"x": -2.5, "s": ""}]]`,
		`[[{"key": "k", "value": ["AQI=", "AwQ="]}], [], [{"key": "n", "value": null}, {"key": "e", "value": []}], [{"key": "z", "value": ["AAA="]}]]`,
	}
	fields := make([]Field, len(cols))
	readFields := make([]icebergsrc.Field, len(cols))
	arrays := make([]arrow.Array, len(cols))
	arrowFields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = Field{ID: c.ID, Name: c.Name, Required: c.Required, Iceberg: c.Type.String(), Type: types[i], Nested: c.Type}
		readFields[i] = icebergsrc.Field{ID: c.ID, Name: c.Name, Type: readTypes[i], Iceberg: c.Type}
		dt, err := catalog.ArrowType(types[i])
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewBuilder(memory.DefaultAllocator, dt)
		if err := b.UnmarshalJSON([]byte(js[i])); err != nil {
			t.Fatalf("column %s: %v", c.Name, err)
		}
		arrays[i] = b.NewArray()
		b.Release()
		defer arrays[i].Release()
		arrowFields[i] = arrow.Field{Name: c.Name, Type: dt, Nullable: true}
	}
	batch := array.NewRecordBatch(arrow.NewSchema(arrowFields, nil), arrays, 4)
	defer batch.Release()

	w, data, got := writeThenRead(t, fields, nestedTable, []arrow.RecordBatch{batch}, readFields)
	defer got.Release()

	// The schema Iceberg's TypeToMessageType makes, with every field id.
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	sch := pf.MetaData().Schema
	for c := 0; c < sch.NumColumns(); c++ {
		col := sch.Column(c)
		paths = append(paths, col.Path()+"#"+col.SchemaNode().RepetitionType().String()+"#"+itoa(int(col.SchemaNode().FieldID())))
	}
	pf.Close()
	want := []string{
		"r.a#required#4", "r.f#optional#5", "r.t.list.element#optional#7",
		"l.list.element.x#optional#9", "l.list.element.s#optional#10",
		"m.key_value.key#required#11", "m.key_value.value.list.element#required#13",
	}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("leaf columns\n%s\nwant\n%s", strings.Join(paths, " "), strings.Join(want, " "))
	}

	// Read back by the native Iceberg reader (field ids at every level).
	var rendered []string
	for c := 0; c < int(got.NumCols()); c++ {
		rendered = append(rendered, got.Column(c).String())
	}
	wantRows := []string{
		`{[1 (null) -2 3] [1.5 (null) (null) -0] [[1000000 (null)] (null) (null) []]}`,
		`[{[1.5 (null) (null)] ["p" (null) (null)]} (null) {[] []} {[-2.5] [""]}]`, // structs print field by field
		`[{["k"] [["\x01\x02" "\x03\x04"]]} {[] []} {["n" "e"] [(null) []]} {["z"] [["\x00\x00"]]}]`,
	}
	if strings.Join(rendered, "\n") != strings.Join(wantRows, "\n") {
		t.Errorf("read back\n%s\nwant\n%s", strings.Join(rendered, "\n"), strings.Join(wantRows, "\n"))
	}
	elems := got.Column(1).(*array.List).ListValues()
	if !got.Column(0).IsNull(1) || got.Column(0).IsNull(2) || !elems.IsNull(1) || elems.IsNull(2) {
		t.Error("a NULL struct was not read back as NULL, or a struct of NULLs was")
	}

	// Metrics of the float inside the struct as Iceberg's writers count it: the NULL struct
	// writes no value of f, the NULL f inside a present struct is a NULL; the double inside the
	// list has none (Iceberg keeps no metrics inside lists and maps).
	m := w.FloatMetrics()
	if len(m) != 1 {
		t.Fatalf("float metrics %+v, want the struct's float only", m)
	}
	if f := m[0]; f.ID != 5 || f.Values != 2 || f.Nulls != 1 || f.NaNs != 0 || !f.HasBounds || !math.Signbit(f.Lower) || f.Upper != 1.5 {
		t.Errorf("float metrics %+v", f)
	}
}

func TestNestedNullInRequiredFieldFails(t *testing.T) {
	cols, _ := ice.ParseSchema(nestedTable)
	rt, _ := catalog.ParseTypeString("ROW<`a` INT, `f` FLOAT, `t` ARRAY<TIMESTAMP(6)>>")
	dt, _ := catalog.ArrowType(rt)
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	if err := b.UnmarshalJSON([]byte(`[{"a": null, "f": 1, "t": null}]`)); err != nil {
		t.Fatal(err)
	}
	a := b.NewArray()
	defer a.Release()
	batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "r", Type: dt, Nullable: true}}, nil), []arrow.Array{a}, 1)
	defer batch.Release()
	var buf bytes.Buffer
	w, err := NewWriter([]Field{{ID: 1, Name: "r", Iceberg: cols[0].Type.String(), Type: rt, Nested: cols[0].Type}}, "", DefaultOptions(), &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "NOT NULL") || !strings.Contains(err.Error(), "column r") {
		t.Errorf("a NULL in a required field: %v", err)
	}
	if err := (Field{ID: 1, Name: "r", Type: rt, Nested: cols[1].Type}).Writable(); err == nil {
		t.Error("a ROW written into an Iceberg list")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
