package parquet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/sluice-project/sluice/catalog"
)

// TestNestedColumns writes rows, lists, maps and lists of lists with NULLs at every level and
// reads them as ROW, ARRAY and MAP columns of Sluice's layout (a MAP as a list of key/value
// structs), an INT32 leaf as SMALLINT, across
// batches smaller than the file (JSON of the values: object keys sorted; the field order is
// checked by the column types).
func TestNestedColumns(t *testing.T) {
	fileSchema := arrow.NewSchema([]arrow.Field{
		{Name: "r", Type: arrow.StructOf(
			arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "B", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "ll", Type: arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String)), Nullable: true},
	}, nil)
	rows := `[
		{"r": {"a": 1, "B": "x"}, "l": [1, null, 3], "m": [{"key": "k", "value": 7}, {"key": "n", "value": null}], "ll": [["a"], [], null]},
		{"r": null, "l": null, "m": null, "ll": null},
		{"r": {"a": null, "B": null}, "l": [], "m": [], "ll": [[null, "é"]]},
		{"r": {"a": -5, "B": ""}, "l": [7], "m": [{"key": "", "value": -1}], "ll": []}
	]`
	path := writeJSONFile(t, fileSchema, rows, 3) // 12 rows, read in batches of 5
	str := catalog.StringType(true)
	small := catalog.Type{Kind: catalog.SmallInt, Nullable: true}
	row := catalog.Type{Kind: catalog.Row, Nullable: true, Fields: []catalog.Field{{Name: "a", Type: small}, {Name: "B", Type: str}}}
	list := catalog.Type{Kind: catalog.Array, Nullable: true, Elem: &catalog.Type{Kind: catalog.Int, Nullable: true}}
	bigint := catalog.BigIntType(true)
	m := catalog.Type{Kind: catalog.Map, Nullable: true, Elem: &str, Value: &bigint}
	inner := catalog.Type{Kind: catalog.Array, Nullable: true, Elem: &str}
	ll := catalog.Type{Kind: catalog.Array, Nullable: true, Elem: &inner}
	schema := Schema{Names: []string{"ll", "r", "m", "l"}, Types: []catalog.Type{ll, row, m, list}}
	r, err := OpenSplit(Split{Path: path, Offset: 0, Length: 1 << 30}, schema, Options{BatchRows: 5}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for {
		b, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for c := range schema.Names {
			want, _ := catalog.ArrowType(schema.Types[c])
			if !arrow.TypeEqual(b.Column(c).DataType(), want) {
				t.Fatalf("column %s: type %s, want %s", schema.Names[c], b.Column(c).DataType(), want)
			}
		}
		for i := 0; i < int(b.NumRows()); i++ {
			var cells []string
			for c := range schema.Names {
				cells = append(cells, cellString(b.Column(c), i))
			}
			got = append(got, strings.Join(cells, " | "))
		}
		b.Release()
	}
	want := []string{
		`[["a"],[],null] | {"B":"x","a":1} | [{"key":"k","value":7},{"key":"n","value":null}] | [1,null,3]`,
		`null | null | null | null`,
		`[[null,"é"]] | {"B":null,"a":null} | [] | []`,
		`[] | {"B":"","a":-5} | [{"key":"","value":-1}] | [7]`,
	}
	if len(got) != 12 {
		t.Fatalf("read %d rows, want 12: %q", len(got), got)
	}
	for i, g := range got {
		if g != want[i%4] {
			t.Errorf("row %d: %s, want %s", i, g, want[i%4])
		}
	}
}

// TestNestedColumnRefusals checks the errors where Flink's nested reader fails too: a ROW field
// the file lacks, a list read as a ROW.
func TestNestedColumnRefusals(t *testing.T) {
	fileSchema := arrow.NewSchema([]arrow.Field{
		{Name: "r", Type: arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	path := writeJSONFile(t, fileSchema, `[{"r": {"a": 1}, "l": [1]}]`, 1)
	missing := catalog.Type{Kind: catalog.Row, Nullable: true, Fields: []catalog.Field{{Name: "zz", Type: catalog.IntType(true)}}}
	asRow := catalog.Type{Kind: catalog.Row, Nullable: true, Fields: []catalog.Field{{Name: "a", Type: catalog.IntType(true)}}}
	upper := catalog.Type{Kind: catalog.Row, Nullable: true, Fields: []catalog.Field{{Name: "A", Type: catalog.IntType(true)}}}
	for _, c := range []struct {
		name string
		typ  catalog.Type
		want string
	}{
		{"r", missing, "has no field zz"},
		{"l", asRow, "cannot be read as ROW"},
		{"r", upper, "another place or spelling"},
	} {
		r, err := OpenSplit(Split{Path: path, Offset: 0, Length: 1 << 30}, Schema{Names: []string{c.name}, Types: []catalog.Type{c.typ}}, Options{BatchRows: 5}, 0, nil)
		if err == nil {
			_, err = r.Next()
			r.Close()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("column %s as %s: %v, want an error with %q", c.name, c.typ, err, c.want)
		}
	}
}

// TestBareRepeatedColumnRefused writes a repeated INT32 field without a LIST group, which Flink's
// nested reader reads with wrong levels: the native reader refuses it instead of reading it.
func TestBareRepeatedColumnRefused(t *testing.T) {
	node, err := schema.NewPrimitiveNode("a", pq.Repetitions.Repeated, pq.Types.Int32, -1, -1)
	if err != nil {
		t.Fatal(err)
	}
	root, err := schema.NewGroupNode("schema", pq.Repetitions.Required, schema.FieldList{node}, -1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bare.parquet")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := file.NewParquetWriter(out, root)
	rg := w.AppendRowGroup()
	cw, err := rg.NextColumn()
	if err != nil {
		t.Fatal(err)
	}
	// Two rows: [10, 20] and [].
	if _, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch([]int32{10, 20}, []int16{1, 1, 0}, []int16{0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := rg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	list := catalog.Type{Kind: catalog.Array, Nullable: true, Elem: &catalog.Type{Kind: catalog.Int, Nullable: true}}
	r, err := OpenSplit(Split{Path: path, Offset: 0, Length: 1 << 30}, Schema{Names: []string{"a"}, Types: []catalog.Type{list}}, Options{BatchRows: 5}, 0, nil)
	if err == nil {
		_, err = r.Next()
		r.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "repeated field outside a LIST") {
		t.Errorf("bare repeated column: %v, want a refusal", err)
	}
}

// writeJSONFile writes the rows (arrow-go's JSON form) copies times into one Parquet file with
// pqarrow's defaults and returns its path.
func writeJSONFile(t *testing.T, schema *arrow.Schema, rows string, copies int) string {
	t.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "nested.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, pq.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < copies; i++ {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// cellString renders one value of a column as JSON (arrow-go's GetOneForMarshal).
func cellString(a arrow.Array, i int) string {
	b, err := json.Marshal(a.GetOneForMarshal(i))
	if err != nil {
		return err.Error()
	}
	return string(b)
}
