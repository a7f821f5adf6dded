package plan

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sinks/constraint"
	"github.com/sluice-project/sluice/sources/parquet"
)

// sinkIsland returns testdata/parquet_sink.json (table out (x INT, y STRING, t TIMESTAMP(3)))
// partitioned by keys, with extra table options and, when keyType is set, column x of that type.
func sinkIsland(t *testing.T, keys []string, options map[string]string, xType string) []byte {
	return sinkIslandPlanned(t, keys, options, xType, map[string]string{OptJavaVersion: "17"})
}

// sinkIslandPlanned is sinkIsland with the planner's options (the island's "options").
func sinkIslandPlanned(t *testing.T, keys []string, options map[string]string, xType string, planner map[string]string) []byte {
	t.Helper()
	var is map[string]any
	if err := json.Unmarshal(island(t, "parquet_sink.json", ""), &is); err != nil {
		t.Fatal(err)
	}
	node := is["nodes"].([]any)[0].(map[string]any)
	table := node["exec"].(map[string]any)["dynamicTableSink"].(map[string]any)["table"].(map[string]any)["resolvedTable"].(map[string]any)
	table["partitionKeys"] = keys
	for k, v := range options {
		table["options"].(map[string]any)[k] = v
	}
	if is["options"] == nil {
		is["options"] = map[string]any{}
	}
	for k, v := range planner {
		is["options"].(map[string]any)[k] = v
	}
	if xType != "" {
		table["schema"].(map[string]any)["columns"].([]any)[0].(map[string]any)["dataType"] = xType
		node["inputType"] = strings.Replace(node["inputType"].(string), "`EXPR$0` INT", "`EXPR$0` "+xType, 1)
	}
	out, err := json.Marshal(is)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A partitioned sink's verdict: native for keys Go names as Flink does, with reasons otherwise.
func TestPartitionedSinkVerdict(t *testing.T) {
	for _, c := range []struct {
		name    string
		keys    []string
		options map[string]string
		xType   string
		want    string // a reason, or "" for native
	}{
		{"string key", []string{"y"}, nil, "", ""},
		{"two keys and commit options", []string{"y", "x"}, map[string]string{
			"sink.partition-commit.policy.kind": "success-file", "sink.partition-commit.trigger": "partition-time",
			"partition.time-extractor.timestamp-pattern": "$y", "sink.partition-commit.delay": "1 h"}, "", ""},
		{"double key", []string{"x"}, nil, "DOUBLE", ""},
		{"float key", []string{"x"}, nil, "FLOAT", ""},
		{"bytes key", []string{"x"}, nil, "VARBINARY(2147483647)", "byte array's identity"},
		{"shuffle", []string{"y"}, map[string]string{"sink.shuffle-by-partition.enable": "true"}, "", "'sink.shuffle-by-partition.enable'"},
		{"empty default name", []string{"y"}, map[string]string{"partition.default-name": ""}, "", "'partition.default-name' is empty"},
	} {
		v, err := JudgeJSON(sinkIsland(t, c.keys, c.options, c.xType))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		native := !strings.Contains(string(v), `"supported":false`)
		if c.want == "" && !native {
			t.Errorf("%s: not native: %s", c.name, v)
		}
		if c.want != "" && (native || !strings.Contains(string(v), c.want)) {
			t.Errorf("%s: verdict %s lacks %q", c.name, v, c.want)
		}
	}
}

// A DOUBLE or FLOAT partition key is named natively only where the planning JVM's
// Double#toString is the one Go prints (Java 8 to 18).
func TestFloatPartitionKeyNeedsJavaVersion(t *testing.T) {
	for _, version := range []string{"", "21", "x"} {
		v, err := JudgeJSON(sinkIslandPlanned(t, []string{"x"}, nil, "DOUBLE", map[string]string{OptJavaVersion: version}))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(v), `"supported":false`) || !strings.Contains(string(v), "changed in Java 19") {
			t.Errorf("Java %q: verdict %s, want a fallback naming Java 19", version, v)
		}
	}
}

// The partitioner splits the sink's rows by partition and the writer writes the other columns.
func TestPartitionedSinkWritesDataColumns(t *testing.T) {
	data := sinkIsland(t, []string{"y"}, nil, "")
	part, err := OpenSinkPartitioner(data)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := catalog.ArrowSchema([]string{"x", "y", "t"},
		[]catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.TimestampType(3, true)})
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	bld.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2, 3}, nil)
	bld.Field(1).(*array.StringBuilder).AppendValues([]string{"a:b", "", "a:b"}, []bool{true, false, true})
	bld.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1000, 2000, 3000}, nil)
	b := bld.NewRecordBatch()
	defer b.Release()
	parts, err := part.Split(b)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range parts {
		paths = append(paths, p.Path)
	}
	if got := strings.Join(paths, " "); got != "y=a%3Ab/ y=__DEFAULT_PARTITION__/" {
		t.Fatalf("partitions %q", got)
	}
	w, err := OpenSinkWriter(data, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	for _, p := range parts[:1] {
		out, err := w.Write(p.Batch)
		if err != nil {
			t.Fatal(err)
		}
		file.Write(out)
	}
	for _, p := range parts {
		p.Batch.Release()
	}
	out, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	file.Write(out)
	path := filepath.Join(t.TempDir(), "part")
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back := parquet.Schema{Names: []string{"x", "t"}, Types: []catalog.Type{catalog.IntType(true), catalog.TimestampType(3, true)}}
	r, err := parquet.OpenSplit(parquet.Split{Path: path, Length: 1 << 40}, back, parquet.Options{BatchRows: 100}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Next()
	if err != nil || got == nil {
		t.Fatalf("reading the file: %v", err)
	}
	defer got.Release()
	if got.NumCols() != 2 || got.Column(0).String() != "[1 3]" {
		t.Errorf("file: %d columns, x = %s; want x = [1 3] and t", got.NumCols(), got.Column(0))
	}
}

// TestWritableAs: a sink column takes an input column of the same type whatever its ROW field
// names and top-level nullability, but not one of another nested shape or nullability inside.
func TestWritableAs(t *testing.T) {
	parse := func(s string) catalog.Type {
		ct, err := catalog.ParseTypeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return ct
	}
	for _, c := range []struct {
		in, out string
		want    bool
	}{
		{"ROW<`EXPR$0` INT, `EXPR$1` STRING> NOT NULL", "ROW<a INT, b STRING>", true},
		{"ARRAY<ROW<x INT>>", "ARRAY<ROW<y INT>>", true},
		{"MAP<STRING, ROW<x INT>>", "MAP<STRING, ROW<y INT>>", true},
		{"ROW<a INT, b STRING>", "ROW<a INT, b STRING NOT NULL>", false},
		{"ROW<a INT>", "ROW<a BIGINT>", false},
		{"ARRAY<INT>", "ARRAY<INT NOT NULL>", false},
		{"INT NOT NULL", "INT", true},
		{"MAP<CHAR(1) NOT NULL, TIMESTAMP(3)> NOT NULL", "MAP<STRING, TIMESTAMP(3)>", true},
		{"ARRAY<VARBINARY(3)>", "ARRAY<BYTES>", true},
		{"ROW<a CHAR(3)>", "ROW<a CHAR(5)>", false},
		{"ROW<a VARCHAR(10)>", "ROW<a VARCHAR(5)>", false},
		{"ARRAY<VARBINARY(3)>", "ARRAY<BINARY(5)>", false},
		{"ROW<a CHAR(3)>", "ROW<a CHAR(3)>", true},
		{"ARRAY<TIMESTAMP(3)>", "ARRAY<TIMESTAMP(6)>", false},
		{"ROW<a DECIMAL(10, 2)>", "ROW<a DECIMAL(12, 2)>", false},
		{"ROW<a INT, b INT>", "ROW<a INT>", false},
	} {
		if got := writableAs(parse(c.in).WithNullable(false), parse(c.out)); got != c.want {
			t.Errorf("writableAs(%s, %s) = %v, want %v", c.in, c.out, got, c.want)
		}
	}
}

// A NOT NULL column is native (its rows are checked as Flink's not-null enforcer does), unless
// another constraint enforcer of Flink's is on; nested columns are written natively.
func TestSinkColumnVerdicts(t *testing.T) {
	var is map[string]any
	if err := json.Unmarshal(sinkIsland(t, nil, nil, ""), &is); err != nil {
		t.Fatal(err)
	}
	node := is["nodes"].([]any)[0].(map[string]any)
	table := node["exec"].(map[string]any)["dynamicTableSink"].(map[string]any)["table"].(map[string]any)["resolvedTable"].(map[string]any)
	table["schema"].(map[string]any)["columns"].([]any)[0].(map[string]any)["dataType"] = "INT NOT NULL"
	notNull, err := json.Marshal(is)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string // a reason, or "" for native
	}{
		{"NOT NULL column, nullable input", notNull, ""},
		{"NOT NULL column, NOT NULL input", sinkIsland(t, nil, nil, "INT NOT NULL"), ""},
		{"NOT NULL column, DROP", sinkIslandPlanned(t, nil, nil, "INT NOT NULL", map[string]string{OptJavaVersion: "17", constraint.NotNullOption: "DROP"}), ""},
		{"length enforcer on a CHAR column", sinkIslandPlanned(t, nil, nil, "CHAR(3)", map[string]string{OptJavaVersion: "17", constraint.TypeLengthOption: "TRIM_PAD"}), "type-length-enforcer"},
		{"length enforcer, no column it changes", sinkIslandPlanned(t, nil, nil, "", map[string]string{OptJavaVersion: "17", constraint.TypeLengthOption: "TRIM_PAD"}), ""},
		{"nested column", sinkIsland(t, nil, nil, "ROW<`a` ARRAY<INT>, `m` MAP<VARCHAR(2147483647), TIMESTAMP(3)>>"), ""},
	} {
		v, err := JudgeJSON(c.data)
		if err != nil {
			t.Fatal(err)
		}
		native := strings.Contains(string(v), `"supported":true`)
		if c.want == "" && !native || c.want != "" && (native || !strings.Contains(string(v), c.want)) {
			t.Errorf("%s: verdict %s, want %q", c.name, v, c.want)
		}
	}
}
