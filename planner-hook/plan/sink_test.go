package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sinks/constraint"
	"github.com/sluice-project/sluice/testkit/islands"
)

// sinkIsland returns testdata/parquet_sink.json (table out (x INT, y STRING, t TIMESTAMP(3)))
// partitioned by keys, with extra table options and, when keyType is set, column x of that type.
func sinkIsland(t *testing.T, keys []string, options map[string]string, xType string) []byte {
	return islands.ParquetSink(t, keys, options, xType, map[string]string{OptJavaVersion: "17"})
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
		v, err := JudgeJSON(islands.ParquetSink(t, []string{"x"}, nil, "DOUBLE", map[string]string{OptJavaVersion: version}))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(v), `"supported":false`) || !strings.Contains(string(v), "changed in Java 19") {
			t.Errorf("Java %q: verdict %s, want a fallback naming Java 19", version, v)
		}
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
		{"NOT NULL column, DROP", islands.ParquetSink(t, nil, nil, "INT NOT NULL", map[string]string{OptJavaVersion: "17", constraint.NotNullOption: "DROP"}), ""},
		{"length enforcer on a CHAR column", islands.ParquetSink(t, nil, nil, "CHAR(3)", map[string]string{OptJavaVersion: "17", constraint.TypeLengthOption: "TRIM_PAD"}), "type-length-enforcer"},
		{"length enforcer, no column it changes", islands.ParquetSink(t, nil, nil, "", map[string]string{OptJavaVersion: "17", constraint.TypeLengthOption: "TRIM_PAD"}), ""},
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
