// Package islands gives tests the island JSON that Flink's planner hands to Go: the golden
// islands under testdata/ (captured from real plans) and builders that vary them. The plan
// decoder's tests and the runtime's tests read the same files through it.
package islands

import (
	"bytes"
	"embed"
	"encoding/json"
	"strings"
	"testing"
)

//go:embed testdata/*.json
var files embed.FS

// Node is one island node as the island JSON holds it (plan.IslandNode's fields, so that a
// test converts it with plan.IslandNode(n)).
type Node struct {
	Name       string            `json:"name"`
	InputType  json.RawMessage   `json:"inputType"`
	InputTypes []json.RawMessage `json:"inputTypes,omitempty"`
	Exec       json.RawMessage   `json:"exec"`
}

// Read returns the golden island testdata/name.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := files.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// WithPath returns the golden island name with every PATH replaced by path (the directory of a
// scan or sink table).
func WithPath(t testing.TB, name, path string) []byte {
	return bytes.ReplaceAll(Read(t, name), []byte("PATH"), []byte(path))
}

// WithOptions adds options to an island, as the operator adds its runtime options when it
// opens one.
func WithOptions(t testing.TB, island []byte, opts map[string]string) []byte {
	t.Helper()
	is := decode(t, island)
	options, _ := is["options"].(map[string]any)
	if options == nil {
		options = map[string]any{}
	}
	for k, v := range opts {
		options[k] = v
	}
	is["options"] = options
	return encode(t, is)
}

// Nodes returns the island with only its nodes [from, to) and the extra options.
func Nodes(t testing.TB, island []byte, from, to int, opts map[string]string) []byte {
	t.Helper()
	is := decode(t, island)
	is["nodes"] = is["nodes"].([]any)[from:to]
	return WithOptions(t, encode(t, is), opts)
}

// ParquetSink returns testdata/parquet_sink.json (table out (x INT, y STRING, t TIMESTAMP(3)))
// partitioned by keys, with extra table options, the planner's options (the island's
// "options") and, when xType is set, column x of that type.
func ParquetSink(t testing.TB, keys []string, options map[string]string, xType string, planner map[string]string) []byte {
	t.Helper()
	is := decode(t, Read(t, "parquet_sink.json"))
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
	return encode(t, is)
}

// IcebergSinkNode is the island node of an Iceberg sink of (k BIGINT, d DOUBLE, s STRING)
// with one entry of its description replaced (key "" keeps the base).
func IcebergSinkNode(key string, v any) Node {
	exec := map[string]any{
		"id": 0, "type": "sluice-iceberg-sink_1", "table": "lake.db.out", "schema": `{"type":"struct","schema-id":0,"fields":[]}`,
		"fields": []map[string]any{
			{"id": 1, "name": "k", "type": "long", "required": true},
			{"id": 2, "name": "d", "type": "double", "required": false},
			{"id": 3, "name": "s", "type": "string", "required": false},
		},
		"parquet": map[string]any{"codec": "zstd", "rowGroupBytes": 1 << 20, "pageBytes": 1 << 16, "dictBytes": 1 << 16},
	}
	if key != "" {
		exec[key] = v
	}
	raw, _ := json.Marshal(exec)
	return Node{Name: "Sink#1", InputType: json.RawMessage(`"ROW<` + "`k` BIGINT NOT NULL, `d` DOUBLE, `s` VARCHAR(2147483647)" + `>"`), Exec: raw}
}

// Of returns the island of the nodes with the options.
func Of(t testing.TB, options map[string]string, nodes ...Node) []byte {
	t.Helper()
	if options == nil {
		options = map[string]string{}
	}
	b, err := json.Marshal(map[string]any{"version": 1, "nodes": nodes, "options": options})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(t testing.TB, island []byte) map[string]any {
	t.Helper()
	var is map[string]any
	d := json.NewDecoder(bytes.NewReader(island))
	d.UseNumber() // numbers stay as written (ids, long literals)
	if err := d.Decode(&is); err != nil {
		t.Fatal(err)
	}
	return is
}

func encode(t testing.TB, is map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(is)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// KafkaScan returns the scan node of testdata/kafka_scan_calc.json (a Kafka table
// bids (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3)) in json, with
// WATERMARK FOR ts AS ts - INTERVAL '1' SECOND pushed into the scan) as an island of its own,
// its table options changed by options (an empty value removes the option).
func KafkaScan(t testing.TB, options map[string]string) []byte {
	t.Helper()
	is := decode(t, Nodes(t, Read(t, "kafka_scan_calc.json"), 0, 1, nil))
	node := is["nodes"].([]any)[0].(map[string]any)
	table := node["exec"].(map[string]any)["scanTableSource"].(map[string]any)["table"].(map[string]any)["resolvedTable"].(map[string]any)
	setOptions(table["options"].(map[string]any), options)
	return encode(t, is)
}

// UpsertKafkaScan returns KafkaScan's island as a scan of an upsert-kafka table bids with the
// PRIMARY KEY auction, json keys and json values, its WATERMARK (pushed into the scan) kept when
// watermark is set, its table options changed by options.
func UpsertKafkaScan(t testing.TB, options map[string]string, watermark bool) []byte {
	t.Helper()
	is := decode(t, KafkaScan(t, map[string]string{
		"connector": "upsert-kafka", "format": "", "json.timestamp-format.standard": "", "scan.startup.mode": "",
		"key.format": "json", "value.format": "json", "value.json.timestamp-format.standard": "ISO-8601"}))
	exec := is["nodes"].([]any)[0].(map[string]any)["exec"].(map[string]any)
	source := exec["scanTableSource"].(map[string]any)
	table := source["table"].(map[string]any)["resolvedTable"].(map[string]any)
	schema := table["schema"].(map[string]any)
	schema["columns"].([]any)[0].(map[string]any)["dataType"] = "INT NOT NULL"
	schema["primaryKey"] = map[string]any{"name": "PK_auction", "type": "PRIMARY_KEY", "columns": []any{"auction"}}
	if !watermark {
		delete(schema, "watermarkSpecs")
		source["abilities"] = []any{}
	}
	setOptions(table["options"].(map[string]any), options)
	return encode(t, is)
}

// KafkaSink returns testdata/kafka_sink.json (an insert into a Kafka table
// out_t (auction INT, p2 BIGINT, ts TIMESTAMP(3), note STRING NOT NULL) in json with
// 'json.encode.ignore-null-fields'), its table options changed by options (an empty value
// removes the option).
func KafkaSink(t testing.TB, options map[string]string) []byte {
	t.Helper()
	is := decode(t, Read(t, "kafka_sink.json"))
	node := is["nodes"].([]any)[0].(map[string]any)
	table := node["exec"].(map[string]any)["dynamicTableSink"].(map[string]any)["table"].(map[string]any)["resolvedTable"].(map[string]any)
	setOptions(table["options"].(map[string]any), options)
	return encode(t, is)
}

// UpsertKafkaSink returns KafkaSink's island as the changes (+I, +U, -D) of an upsert-kafka
// table out_t with the PRIMARY KEY auction, json keys and json values, its table options
// changed by options; materialize sets Flink's requireUpsertMaterialize.
func UpsertKafkaSink(t testing.TB, options map[string]string, materialize bool) []byte {
	t.Helper()
	is := decode(t, Read(t, "kafka_sink.json"))
	exec := is["nodes"].([]any)[0].(map[string]any)["exec"].(map[string]any)
	table := exec["dynamicTableSink"].(map[string]any)["table"].(map[string]any)["resolvedTable"].(map[string]any)
	schema := table["schema"].(map[string]any)
	schema["columns"].([]any)[0].(map[string]any)["dataType"] = "INT NOT NULL"
	schema["primaryKey"] = map[string]any{"name": "PK_auction", "type": "PRIMARY_KEY", "columns": []any{"auction"}}
	setOptions(table["options"].(map[string]any), map[string]string{
		"connector": "upsert-kafka", "format": "", "json.encode.ignore-null-fields": "",
		"key.format": "json", "value.format": "json", "value.json.encode.ignore-null-fields": "true"})
	setOptions(table["options"].(map[string]any), options)
	exec["inputChangelogMode"] = []any{"INSERT", "UPDATE_AFTER", "DELETE"}
	if materialize {
		exec["requireUpsertMaterialize"] = true
	}
	return encode(t, is)
}

// setOptions sets a table's options (an empty value removes the option).
func setOptions(table map[string]any, options map[string]string) {
	for k, v := range options {
		if v == "" {
			delete(table, k)
		} else {
			table[k] = v
		}
	}
}
