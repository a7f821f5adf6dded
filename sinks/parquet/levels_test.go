package parquet

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	reader "github.com/sluice-project/sluice/sources/parquet"
)

// nestedBatch builds a batch of columns of the given types (Flink type strings) from JSON rows,
// in Sluice's layout (a MAP is a list of key/value structs).
func nestedBatch(t *testing.T, names, typeTexts []string, rows string) ([]catalog.Type, arrow.RecordBatch) {
	t.Helper()
	types := make([]catalog.Type, len(typeTexts))
	for i, s := range typeTexts {
		ct, err := catalog.ParseTypeString(s)
		if err != nil {
			t.Fatal(err)
		}
		types[i] = ct
	}
	sch, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sch, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	return types, rec
}

// readBack reads a file's first batch with Sluice's reader, which reads as Flink's reader does.
func readBack(t *testing.T, path string, names []string, types []catalog.Type) arrow.RecordBatch {
	t.Helper()
	r, err := reader.OpenSplit(reader.Split{Path: path, Length: 1 << 40}, reader.Schema{Names: names, Types: types},
		reader.Options{BatchRows: 100}, 0, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Nested columns written with Flink's schema (LIST of "element", MAP of "key_value") and their
// Dremel levels read back, with Flink's nested reader rules, as the rows written: NULLs at every
// level, empty lists and maps, lists of lists, maps of rows and lists of maps.
func TestNestedColumnsRoundTrip(t *testing.T) {
	names := []string{"id", "r", "ai", "m", "mr", "aa", "ar", "am"}
	typeTexts := []string{"INT", "ROW<a INT, b STRING, c ROW<x DOUBLE, y ARRAY<BIGINT>>>", "ARRAY<INT>",
		"MAP<STRING, INT>", "MAP<INT, ROW<p BOOLEAN, q STRING>>", "ARRAY<ARRAY<INT>>",
		"ARRAY<ROW<u INT NOT NULL, v STRING> NOT NULL>", "ARRAY<MAP<STRING, ARRAY<INT>>>"}
	rows := `[
		{"id": 1, "r": {"a": 1, "b": "x", "c": {"x": 1.5, "y": [1, null, 3]}}, "ai": [1, 2], "m": [{"key": "a", "value": 1}, {"key": "b", "value": null}],
		 "mr": [{"key": 7, "value": {"p": true, "q": "q"}}, {"key": 8, "value": null}], "aa": [[1], [], null, [2, null]],
		 "ar": [{"u": 1, "v": null}, {"u": 2, "v": "w"}], "am": [[{"key": "k", "value": [1, null]}], null, []]},
		{"id": 2, "r": null, "ai": null, "m": null, "mr": null, "aa": null, "ar": null, "am": null},
		{"id": null, "r": {"a": null, "b": null, "c": null}, "ai": [], "m": [], "mr": [], "aa": [], "ar": [], "am": [null]},
		{"id": 4, "r": {"a": 4, "b": "é", "c": {"x": null, "y": []}}, "ai": [null], "m": [{"key": "", "value": 0}],
		 "mr": [{"key": -1, "value": {"p": null, "q": null}}], "aa": [[null, null]], "ar": [{"u": 0, "v": ""}],
		 "am": [[{"key": "a", "value": []}, {"key": "b", "value": null}], [{"key": "c", "value": [5]}]]},
		{"id": 5, "r": {"a": 5, "b": "y", "c": {"x": 2.5, "y": null}}, "ai": [3, null, 4], "m": null,
		 "mr": [{"key": 1, "value": {"p": false, "q": "z"}}], "aa": [null], "ar": null, "am": null}
	]`
	types, batch := nestedBatch(t, names, typeTexts, rows)
	defer batch.Release()
	opts := DefaultOptions()
	path := writeFile(t, names, types, opts, batch)

	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	schemaText := pf.MetaData().Schema.String()
	pf.Close()
	for _, want := range []string{"repeated group field_id=-1 list {", "int32 field_id=-1 element", "repeated group field_id=-1 key_value {", "required byte_array field_id=-1 key (String)"} {
		if !strings.Contains(schemaText, want) {
			t.Errorf("file schema lacks %q:\n%s", want, schemaText)
		}
	}

	got := readBack(t, path, names, types)
	defer got.Release()
	for i, name := range names {
		if w, g := batch.Column(i).String(), got.Column(i).String(); w != g {
			t.Errorf("column %s: wrote %s, read %s", name, w, g)
		}
	}
}

// A NULL map key fails the write, as in Flink's ParquetRowDataWriter.
func TestNullMapKeyFails(t *testing.T) {
	types, batch := nestedBatch(t, []string{"m"}, []string{"MAP<STRING, INT>"},
		`[{"m": [{"key": "a", "value": 1}]}, {"m": [{"key": null, "value": 2}]}]`)
	defer batch.Release()
	w, err := NewWriter([]string{"m"}, types, DefaultOptions(), &strings.Builder{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	err = w.Close()
	if err == nil || !strings.Contains(err.Error(), "null keys in maps") {
		t.Fatalf("Close = %v, want the null key error", err)
	}
}

// The leaves of a nested type, in the file's column order, with their levels.
func TestLeaves(t *testing.T) {
	ct, err := catalog.ParseTypeString("ROW<a INT NOT NULL, m MAP<STRING, ARRAY<INT NOT NULL>>, b ROW<c STRING>>")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range Leaves(ct) {
		got = append(got, p.Type().String()+"/"+string(rune('0'+p.maxDef))+string(rune('0'+p.maxRep)))
	}
	want := []string{"INT NOT NULL/10", "VARCHAR(2147483647)/31", "INT NOT NULL/52", "VARCHAR(2147483647)/30"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("leaves %v, want %v", got, want)
	}
}

// BenchmarkLevelsListOfInts computes the levels of an ARRAY<INT> column of 8,192 rows of 8
// elements each, as a nested sink does per batch.
func BenchmarkLevelsListOfInts(b *testing.B) {
	ct := catalog.Type{Kind: catalog.Array, Nullable: true, Elem: &catalog.Type{Kind: catalog.Int, Nullable: true}}
	dt, err := catalog.ArrowType(ct)
	if err != nil {
		b.Fatal(err)
	}
	lb := array.NewBuilder(memory.DefaultAllocator, dt).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	const rows = 8192
	for i := range rows {
		lb.Append(true)
		for j := range 8 {
			vb.Append(int32(i + j))
		}
	}
	col := lb.NewArray()
	defer col.Release()
	leaf := Leaves(ct)[0]
	b.ResetTimer()
	for range b.N {
		values, _, _, err := leaf.Levels(col, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		values.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows*8), "ns/value")
}

// The child of a NULL ROW may hold a valid value (Arrow leaves it unspecified, and Sluice's
// kernels do not always clear it): the file has a NULL there, and the values after it stay in
// place (arrow-go writes DECIMAL leaves without looking at the levels).
func TestNullRowOverValidChild(t *testing.T) {
	mem := memory.DefaultAllocator
	db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 10, Scale: 2})
	defer db.Release()
	for _, v := range []int64{100, 777, 200} {
		db.Append(decimal128.FromI64(v))
	}
	child := db.NewArray()
	defer child.Release()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(1)
	valid.Bytes()[0] = 0b101
	defer valid.Release()
	rows, err := array.NewStructArrayWithNulls([]arrow.Array{child}, []string{"d"}, valid, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Release()
	ct, err := catalog.ParseTypeString("ROW<d DECIMAL(10, 2)>")
	if err != nil {
		t.Fatal(err)
	}
	sch, err := catalog.ArrowSchema([]string{"r"}, []catalog.Type{ct})
	if err != nil {
		t.Fatal(err)
	}
	batch := array.NewRecordBatch(sch, []arrow.Array{column.Retype(rows, sch.Field(0).Type)}, 3)
	defer batch.Release()
	path := writeFile(t, []string{"r"}, []catalog.Type{ct}, DefaultOptions(), batch)
	got := readBack(t, path, []string{"r"}, []catalog.Type{ct})
	defer got.Release()
	if s := got.Column(0).String(); s != "{[1 (null) 2]}" && s != `{[1.00 (null) 2.00]}` {
		g := got.Column(0).(*array.Struct)
		t.Fatalf("read %s (field %s, row valid %v %v %v)", s, g.Field(0), g.IsValid(0), g.IsValid(1), g.IsValid(2))
	}
}

// INT64 timestamps inside nested columns (which Flink's nested reader does not read back) are
// the flat conversion's values beside the levels: read here with arrow-go's own reader.
func TestNestedInt64Timestamps(t *testing.T) {
	types, batch := nestedBatch(t, []string{"a", "r"}, []string{"ARRAY<TIMESTAMP(3)>", "ROW<x TIMESTAMP(6), y INT>"},
		`[{"a": ["1970-01-01T00:00:01.5", null], "r": {"x": "2024-02-29T12:00:00.123456", "y": 1}},
		  {"a": null, "r": null},
		  {"a": [], "r": {"x": null, "y": 2}},
		  {"a": ["1969-12-31T23:59:59.999"], "r": {"x": "1900-01-01T00:00:00", "y": null}}]`)
	defer batch.Release()
	opts := DefaultOptions()
	opts.Int64Timestamps, opts.UTCTimestamps = true, true
	path := writeFile(t, []string{"a", "r"}, types, opts, batch)
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	got := []string{tbl.Column(0).Data().Chunk(0).String(), tbl.Column(1).Data().Chunk(0).String()}
	want := []string{
		"[[1500000 (null)] (null) [] [-1000]]",
		"{[1709208000123456 (null) (null) -2208988800000000] [1 (null) 2 (null)]}",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("column %d: read %s, want %s", i, got[i], want[i])
		}
	}
}
