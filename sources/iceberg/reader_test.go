package iceberg

import (
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/google/uuid"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/sluice-project/sluice/catalog"
	ice "github.com/sluice-project/sluice/catalog/iceberg"
)

func withID(id int) arrow.Metadata {
	return arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{strconv.Itoa(id)})
}

// writeParquet writes one batch, filled by fill, as a Parquet file under dir.
func writeParquet(t *testing.T, dir, name string, schema *arrow.Schema, fill func(*array.RecordBuilder)) string {
	t.Helper()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	fill(b)
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeFile writes a Parquet file as Iceberg's writer lays it out: every column with its
// field id, TIME in microseconds, FIXED for fixed-length binaries.
func writeFile(t *testing.T) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Metadata: withID(1)},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true, Metadata: withID(2)},
		{Name: "tm", Type: arrow.FixedWidthTypes.Time64us, Nullable: true, Metadata: withID(3)},
		{Name: "fx", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}, Nullable: true, Metadata: withID(4)},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true, Metadata: withID(5)},
	}, nil)
	return writeParquet(t, t.TempDir(), "data.parquet", schema, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, -2, 3}, []bool{true, true, false})
		b.Field(1).(*array.Float32Builder).AppendValues([]float32{0.1, float32(math.Copysign(0, -1)), 3}, nil)
		b.Field(2).(*array.Time64Builder).AppendValues([]arrow.Time64{45296789123, 0, 1999}, nil)
		b.Field(3).(*array.FixedSizeBinaryBuilder).AppendValues([][]byte{{1, 2, 3}, {0, 0, 0}, nil}, []bool{true, true, false})
		b.Field(4).(*array.StringBuilder).AppendValues([]string{"a", "", "Grüße"}, nil)
	})
}

// eachBatch calls f with every batch of r, then releases it.
func eachBatch(t *testing.T, r Batches, f func(b arrow.RecordBatch)) {
	t.Helper()
	for {
		b, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return
		}
		f(b)
		b.Release()
	}
}

func render(b arrow.RecordBatch) string {
	var sb strings.Builder
	for c := 0; c < int(b.NumCols()); c++ {
		sb.WriteString(b.ColumnName(c) + "=" + b.Column(c).String() + " ")
	}
	return strings.TrimSpace(sb.String())
}

func TestReadsByFieldIDWithPromotions(t *testing.T) {
	path := writeFile(t)
	st, _ := os.Stat(path)
	fields := []Field{
		{ID: 5, Name: "renamed", Type: catalog.StringType(true)},
		{ID: 1, Name: "k", Type: catalog.BigIntType(true)}, // int -> long
		{ID: 2, Name: "f", Type: catalog.DoubleType(true)}, // float -> double
		{ID: 3, Name: "tm", Type: catalog.Type{Kind: catalog.Time, Nullable: true}},
		{ID: 4, Name: "fx", Type: catalog.Type{Kind: catalog.Binary, Length: 3, Nullable: true}},
		{ID: 9, Name: "added", Type: catalog.IntType(true)}, // not in the file: NULL
	}
	r, err := OpenFile(FileRange{Path: path, Start: 4, Length: st.Size() - 4}, fields, 2, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	var f []float64
	eachBatch(t, r, func(b arrow.RecordBatch) {
		got = append(got, render(b))
		f = append(f, b.Column(2).(*array.Float64).Float64Values()...)
	})
	// Batches of two rows from the second row on (the first is before the restored position).
	want := []string{
		`renamed=[""] k=[-2] f=[-0] tm=[0] fx=["\x00\x00\x00"] added=[(null)]`,
		`renamed=["Grüße"] k=[(null)] f=[3] tm=[1] fx=[(null)] added=[(null)]`,
	}
	if len(f) != 2 || !math.Signbit(f[0]) {
		t.Errorf("float -0.0 widened to %v, want -0.0", f)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRefusesWhatItCannotRead(t *testing.T) {
	path := writeFile(t)
	st, _ := os.Stat(path)
	_, err := OpenFile(FileRange{Path: path, Length: st.Size()}, []Field{{ID: 5, Name: "s", Type: catalog.IntType(true)}}, 10, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "column s") || !strings.Contains(err.Error(), path) {
		t.Errorf("a string column read as INT: %v", err)
	}
	_, err = OpenFile(FileRange{Path: path, Length: st.Size()}, []Field{{ID: 1, Name: "ts", Type: catalog.TimestampType(9, true)}}, 10, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "not read natively") {
		t.Errorf("TIMESTAMP(9): %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	os.WriteFile(bad, []byte("PAR1 not really"), 0o644)
	_, err = OpenFile(FileRange{Path: bad, Length: 15}, []Field{{ID: 1, Name: "k", Type: catalog.IntType(true)}}, 10, 0, nil)
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("corrupt file: %v", err)
	}
}

func TestUUIDAndFilesWithoutFieldIDs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, schema *arrow.Schema, fill func(*array.RecordBuilder)) string {
		return writeParquet(t, dir, name, schema, fill)
	}
	// A uuid column (FIXED(16) with the UUID annotation) reads as BINARY(16).
	id := [16]byte{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00}
	uuidPath := write("uuid.parquet", arrow.NewSchema([]arrow.Field{
		{Name: "u", Type: extensions.NewUUIDType(), Nullable: true, Metadata: withID(1)},
	}, nil), func(b *array.RecordBuilder) {
		ub := b.Field(0).(*extensions.UUIDBuilder)
		ub.Append(uuid.UUID(id))
		ub.AppendNull()
	})
	st, _ := os.Stat(uuidPath)
	r, err := OpenFile(FileRange{Path: uuidPath, Length: st.Size()}, []Field{{ID: 1, Name: "u", Type: catalog.Type{Kind: catalog.Binary, Length: 16, Nullable: true}}}, 10, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	col := b.Column(0).(*array.Binary)
	if string(col.Value(0)) != string(id[:]) || !col.IsNull(1) {
		t.Errorf("uuid read as %v", col)
	}
	b.Release()
	r.Close()
	// A file without field ids (not written by Iceberg) and a table without a name mapping: the
	// columns get Iceberg's fallback ids, their positions from 1, and nested fields none.
	plain := write("plain.parquet", arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "r", Type: arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
	}, nil), func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int32Builder).Append(1)
		b.Field(1).(*array.StringBuilder).Append("x")
		if err := b.Field(2).UnmarshalJSON([]byte(`[{"a": 5}]`)); err != nil {
			t.Fatal(err)
		}
	})
	st, _ = os.Stat(plain)
	rt, _ := catalog.ParseTypeString("ROW<`a` INT>")
	rIce, _ := ice.ParseSchema(`{"type":"struct","fields":[{"id":3,"name":"r","required":false,"type":{"type":"struct","fields":[{"id":9,"name":"a","required":false,"type":"int"}]}}]}`)
	r, err = OpenFile(FileRange{Path: plain, Length: st.Size()}, []Field{
		{ID: 2, Name: "second", Type: catalog.StringType(true)},
		{ID: 1, Name: "first", Type: catalog.IntType(true)},
		{ID: 3, Name: "r", Type: rt, Iceberg: rIce[0].Type},
		{ID: 4, Name: "none", Type: catalog.IntType(true)},
	}, 10, 0, nil)
	if err != nil {
		t.Fatalf("file without field ids: %v", err)
	}
	b, err = r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := render(b), `second=["x"] first=[1] r={[(null)]} none=[(null)]`; got != want {
		t.Errorf("file without field ids: %s, want %s", got, want)
	}
	// None of r's fields is read, so r itself is NULL, as in Iceberg's reader.
	if !b.Column(2).IsNull(0) {
		t.Error("a ROW none of whose fields is in the file was not NULL")
	}
	b.Release()
	r.Close()
}

// The table schema of the nested test file, as Iceberg prints it: r's fields were reordered,
// renamed (b to b2) and one added (id 15) after the file was written; the map's value struct
// gained y (id 24); a and the list's elements were promoted from int to long, x from float to
// double.
const nestedSchema = `{"type":"struct","fields":[
 {"id":1,"name":"r","required":false,"type":{"type":"struct","fields":[
   {"id":12,"name":"b2","required":false,"type":"string"},
   {"id":11,"name":"a","required":false,"type":"long"},
   {"id":15,"name":"added","required":false,"type":"double"},
   {"id":13,"name":"c","required":false,"type":{"type":"list","element-id":14,"element":"long","element-required":false}}]}},
 {"id":2,"name":"m","required":false,"type":{"type":"map","key-id":21,"key":"string","value-id":22,
   "value":{"type":"struct","fields":[
     {"id":23,"name":"x","required":false,"type":"double"},
     {"id":24,"name":"y","required":false,"type":"int"}]},"value-required":false}}]}`

func TestReadsNestedColumnsByFieldID(t *testing.T) {
	elem := arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Metadata: withID(14)}
	value := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float32, Nullable: true, Metadata: withID(23)})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "r", Nullable: true, Metadata: withID(1), Type: arrow.StructOf(
			arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Metadata: withID(11)},
			arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true, Metadata: withID(12)},
			arrow.Field{Name: "c", Type: arrow.ListOfField(elem), Nullable: true, Metadata: withID(13)},
		)},
		{Name: "m", Nullable: true, Metadata: withID(2),
			Type: arrow.MapOfWithMetadata(arrow.BinaryTypes.String, withID(21), value, withID(22))},
	}, nil)
	path := writeParquet(t, t.TempDir(), "nested.parquet", schema, func(b *array.RecordBuilder) {
		for i, js := range []string{
			`[{"a": 1, "b": "x", "c": [1, null]}, null, {"a": null, "b": null, "c": null}, {"a": -2, "b": "", "c": []}]`,
			`[[{"key": "k", "value": {"x": 1.5}}], null, [], [{"key": "a", "value": null}, {"key": "b", "value": {"x": -0.5}}, {"key": "a", "value": {"x": null}}]]`,
		} {
			if err := b.Field(i).UnmarshalJSON([]byte(js)); err != nil {
				t.Fatal(err)
			}
		}
	})
	cols, err := ice.ParseSchema(nestedSchema)
	if err != nil {
		t.Fatal(err)
	}
	rt, _ := catalog.ParseTypeString("ROW<`b2` STRING, `a` BIGINT, `added` DOUBLE, `c` ARRAY<BIGINT>>")
	mt, _ := catalog.ParseTypeString("MAP<STRING NOT NULL, ROW<`x` DOUBLE, `y` INT>>")
	fields := []Field{
		{ID: 2, Name: "m", Type: mt, Iceberg: cols[1].Type},
		{ID: 1, Name: "r", Type: rt, Iceberg: cols[0].Type},
	}
	st, _ := os.Stat(path)
	r, err := OpenFile(FileRange{Path: path, Length: st.Size()}, fields, 3, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	eachBatch(t, r, func(b arrow.RecordBatch) {
		if !arrow.TypeEqual(b.Column(0).DataType(), arrowTypeOf(mt)) || !arrow.TypeEqual(b.Column(1).DataType(), arrowTypeOf(rt)) {
			t.Errorf("batch types %s, %s", b.Column(0).DataType(), b.Column(1).DataType())
		}
		// Struct values print field by field; their own NULLs are listed after them.
		values := b.Column(0).(*array.List).ListValues().(*array.Struct).Field(1)
		got = append(got, render(b)+" nulls: r"+nullRows(b.Column(1))+" m values"+nullRows(values))
	})
	want := []string{
		`m=[{["k"] {[1.5] [(null)]}} (null) {[] {[] []}}] r={["x" (null) (null)] [1 (null) (null)] [(null) (null) (null)] [[1 (null)] (null) (null)]} nulls: r[1] m values[]`,
		`m=[{["a" "b" "a"] {[(null) -0.5 (null)] [(null) (null) (null)]}}] r={[""] [-2] [(null)] [[]]} nulls: r[] m values[0]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A ROW all of whose fields were added after the file was written reads as NULL in every
	// row, as in Iceberg's reader (it follows no column of the file).
	added, _ := ice.ParseSchema(`{"type":"struct","fields":[{"id":1,"name":"r","required":false,"type":{"type":"struct","fields":[
		{"id":16,"name":"p","required":false,"type":"int"},{"id":17,"name":"q","required":false,"type":"string"}]}}]}`)
	pq2, _ := catalog.ParseTypeString("ROW<`p` INT, `q` STRING>")
	ra, err := OpenFile(FileRange{Path: path, Length: st.Size()}, []Field{{ID: 1, Name: "r", Type: pq2, Iceberg: added[0].Type}}, 10, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := ra.Next()
	if err != nil {
		t.Fatal(err)
	}
	if nb.NumRows() != 4 || nb.Column(0).NullN() != 4 {
		t.Errorf("a ROW of added fields: %d rows, %d NULL", nb.NumRows(), nb.Column(0).NullN())
	}
	nb.Release()
	ra.Close()

	// A NOT NULL field the file does not have is an error, as in Iceberg's reader.
	required := strings.Replace(nestedSchema, `{"id":15,"name":"added","required":false`, `{"id":15,"name":"added","required":true`, 1)
	cols, _ = ice.ParseSchema(required)
	rt, _ = catalog.ParseTypeString("ROW<`b2` STRING, `a` BIGINT, `added` DOUBLE NOT NULL, `c` ARRAY<BIGINT>>")
	_, err = OpenFile(FileRange{Path: path, Length: st.Size()}, []Field{{ID: 1, Name: "r", Type: rt, Iceberg: cols[0].Type}}, 3, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "r.added") || !strings.Contains(err.Error(), "NOT NULL") {
		t.Errorf("a missing NOT NULL field: %v", err)
	}
	// So is a NOT NULL column the file does not have.
	_, err = OpenFile(FileRange{Path: path, Length: st.Size()}, []Field{{ID: 3, Name: "added", Type: catalog.IntType(false)}}, 3, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "column added") || !strings.Contains(err.Error(), "Missing required field") {
		t.Errorf("a missing NOT NULL column: %v", err)
	}
	// A Flink type whose shape is not the Iceberg type's is refused.
	if err := Supported(rt, cols[1].Type); err == nil {
		t.Error("a ROW read from an Iceberg map")
	}
}

// nullRows lists the rows where a is NULL.
func nullRows(a arrow.Array) string {
	var rows []string
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			rows = append(rows, strconv.Itoa(i))
		}
	}
	return "[" + strings.Join(rows, " ") + "]"
}

// A file without Parquet field ids (an imported file) is read through the table's name
// mapping, as Iceberg's ApplyNameMapping gives its fields ids by their paths; fields the
// mapping does not name read as NULL.
func TestReadsFilesWithoutIDsThroughANameMapping(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "r", Nullable: true, Type: arrow.StructOf(
			arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "skipped", Type: arrow.PrimitiveTypes.Int32, Nullable: true})},
		{Name: "l", Nullable: true, Type: arrow.ListOf(arrow.BinaryTypes.String)},
	}, nil)
	path := writeParquet(t, t.TempDir(), "imported.parquet", schema, func(b *array.RecordBuilder) {
		for i, js := range []string{`[1, null, 3]`, `[{"a": 10, "skipped": 1}, null, {"a": null, "skipped": 2}]`, `[["x", null], null, []]`} {
			if err := b.Field(i).UnmarshalJSON([]byte(js)); err != nil {
				t.Fatal(err)
			}
		}
	})
	mapping, err := ice.ParseNameMapping(`[{"field-id": 1, "names": ["key", "k"]},
		{"field-id": 2, "names": ["r"], "fields": [{"field-id": 5, "names": ["a"]}]},
		{"field-id": 3, "names": ["l"], "fields": [{"field-id": 7, "names": ["element"]}]}]`)
	if err != nil {
		t.Fatal(err)
	}
	cols, err := ice.ParseSchema(`{"type":"struct","fields":[
		{"id":1,"name":"key","required":false,"type":"long"},
		{"id":2,"name":"r","required":false,"type":{"type":"struct","fields":[
			{"id":5,"name":"a","required":false,"type":"long"},{"id":6,"name":"z","required":false,"type":"int"}]}},
		{"id":3,"name":"l","required":false,"type":{"type":"list","element-id":7,"element":"string","element-required":false}},
		{"id":4,"name":"added","required":false,"type":"int"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	types := []string{"BIGINT", "ROW<`a` BIGINT, `z` INT>", "ARRAY<STRING>", "INT"}
	fields := make([]Field, len(cols))
	for i, c := range cols {
		ct, err := catalog.ParseTypeString(types[i])
		if err != nil {
			t.Fatal(err)
		}
		fields[i] = Field{ID: c.ID, Name: c.Name, Type: ct, Iceberg: c.Type}
	}
	st, _ := os.Stat(path)
	r, err := OpenTableFile(FileRange{Path: path, Length: st.Size()}, Read{Fields: fields, NameMapping: mapping}, 10, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	want := `key=[1 (null) 3] r={[10 (null) (null)] [(null) (null) (null)]} l=[["x" (null)] (null) []] added=[(null) (null) (null)]`
	if got := render(b); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !b.Column(1).IsNull(1) || b.Column(1).IsNull(2) {
		t.Error("struct NULLs")
	}
}

// Position deletes: the rows at deleted positions of the file are left out, positions count
// from the file's first row group whatever range is read, and a restored position counts the
// rows left.
func TestLeavesOutDeletedPositions(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Metadata: withID(1)}}, nil)
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// 3 row groups of 4 rows: k = 0..11 is each row's position.
	w, err := pqarrow.NewFileWriter(schema, f, pq.NewWriterProperties(pq.WithMaxRowGroupLength(4)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	for k := int32(0); k < 12; k++ {
		b.Field(0).(*array.Int32Builder).Append(k)
	}
	rec := b.NewRecordBatch()
	b.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	// The byte range of the second row group only (parquet-mr's midpoint rule).
	rg1, _ := pf.MetaData().RowGroup(1).ColumnChunk(0)
	secondStart, secondEnd := rg1.DataPageOffset(), rg1.DataPageOffset()+rg1.TotalCompressedSize()
	pf.Close()
	fields := []Field{{ID: 1, Name: "k", Type: catalog.IntType(true)}}
	read := func(start, length, skip int64, deleted []int64) string {
		r, err := OpenTableFile(FileRange{Path: path, Start: start, Length: length}, Read{Fields: fields, Deleted: deleted}, 3, skip, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var got []string
		eachBatch(t, r, func(b arrow.RecordBatch) { got = append(got, b.Column(0).String()) })
		return strings.Join(got, " ")
	}
	for _, c := range []struct {
		name          string
		start, length int64
		skip          int64
		deleted       []int64
		want          string
	}{
		{"whole file", 0, st.Size(), 0, []int64{11, 0, 5, 6, 7, 99}, "[1 2] [3 4] [8] [9 10]"},
		{"restored after deletes", 0, st.Size(), 3, []int64{0, 2, 5}, "[6 7 8] [9 10 11]"},
		{"second row group", secondStart, secondEnd - secondStart, 0, []int64{3, 4, 6}, "[5] [7]"},
		{"every row of a batch", 0, st.Size(), 0, []int64{0, 1, 2, 3, 4, 5}, "[6 7 8] [9 10 11]"},
	} {
		if got := read(c.start, c.length, c.skip, c.deleted); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
