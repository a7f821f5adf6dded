package plan

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/testkit/islands"
)

// TestKafkaSinkVerdict checks which inserts into Kafka tables Go encodes, and that every other
// one says why, naming the table.
func TestKafkaSinkVerdict(t *testing.T) {
	for _, c := range []struct {
		name    string
		options map[string]string
		reason  string // "" when native
	}{
		{"json", nil, ""},
		{"exactly once", map[string]string{"sink.delivery-guarantee": "exactly-once", "sink.transactional-id-prefix": "p"}, ""},
		{"fixed partitioner", map[string]string{"sink.partitioner": "fixed"}, ""},
		{"custom partitioner", map[string]string{"sink.partitioner": "com.example.P"}, "the partitioner 'com.example.P'"},
		{"protobuf", map[string]string{"format": "protobuf"}, "the value format 'protobuf' is not encoded natively yet"},
		{"key", map[string]string{"key.format": "json", "key.fields": "auction", "value.fields-include": "EXCEPT_KEY"}, ""},
		{"avro key", map[string]string{"key.format": "avro", "key.fields": "auction", "value.fields-include": "EXCEPT_KEY"}, ""},
		{"avro-confluent key", map[string]string{"key.format": "avro-confluent", "key.fields": "auction"}, "key: the key format 'avro-confluent' is not encoded natively yet"},
		{"raw key of two", map[string]string{"key.format": "raw", "key.fields": "auction;p2"}, "key: raw encoder: the raw format has one field, not 2"},
		{"sink parallelism", map[string]string{"sink.parallelism": "1"}, "'sink.parallelism'"},
		{"unknown json option", map[string]string{"json.encode.something": "x"}, "option 'json.encode.something'"},
		{"topics", map[string]string{"topic": "a;b"}, "one topic"},
		{"debezium-json", map[string]string{"format": "debezium-json", "json.encode.ignore-null-fields": "", "debezium-json.encode.ignore-null-fields": "true"}, ""},
		{"debezium-json key", map[string]string{"key.format": "debezium-json", "key.fields": "auction"}, "key: the changelog format 'debezium-json' is not encoded natively as a key format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is, err := Decode(islands.KafkaSink(t, c.options))
			if err != nil {
				t.Fatal(err)
			}
			s, reasons, err := CompileKafkaSink(&is.Nodes[0], is.Options)
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(reasons, "\n")
			if c.reason == "" {
				if joined != "" {
					t.Fatalf("reasons %q, want native", joined)
				}
				if !s.Value.JSON.IgnoreNullFields || s.NotNull == nil || strings.Join(s.Names, ",") != "auction,p2,ts,note" ||
					s.Key != nil && fmt.Sprint(s.KeyFields, s.KeyNames, s.ValueFields) != "[0] [auction] [1 2 3]" {
					t.Fatalf("sink %+v: want ignore-null-fields, the NOT NULL check and the table's columns", s)
				}
				return
			}
			if !strings.Contains(joined, c.reason) || !strings.Contains(joined, "`out_t`") {
				t.Fatalf("reasons %q lack %q or the table's name", joined, c.reason)
			}
		})
	}
}

// FLOAT and DOUBLE columns are written in the text formats as Java 8 to 18 print them: on a
// later planning JVM the insert keeps Flink's format; in the raw format (bits) it need not, and
// a key in a text format counts as much as the value.
func TestKafkaSinkFloatsNeedJava18(t *testing.T) {
	for _, c := range []struct {
		options map[string]string
		version string
		native  bool
	}{
		{map[string]string{"format": "json"}, "17", true},
		{map[string]string{"format": "csv", "json.encode.ignore-null-fields": ""}, "17", true},
		{map[string]string{"format": "json"}, "21", false},
		{map[string]string{"format": "csv", "json.encode.ignore-null-fields": ""}, "21", false},
		// p2 in a raw key, the value (json) without it: bits only.
		{map[string]string{"key.format": "raw", "key.fields": "p2", "value.fields-include": "EXCEPT_KEY"}, "21", true},
		// p2 in a json key: its digits.
		{map[string]string{"key.format": "json", "key.fields": "p2", "value.fields-include": "EXCEPT_KEY"}, "21", false},
	} {
		// p2 becomes DOUBLE in the table and in the sink's input.
		island := strings.ReplaceAll(string(islands.KafkaSink(t, c.options)), `"BIGINT"`, `"DOUBLE"`)
		island = strings.ReplaceAll(island, `"sluice.java-version":"17"`, `"sluice.java-version":"`+c.version+`"`)
		is, err := Decode([]byte(island))
		if err != nil {
			t.Fatal(err)
		}
		_, reasons, err := CompileKafkaSink(&is.Nodes[0], is.Options)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(reasons) == 0; got != c.native {
			t.Errorf("%v on Java %s: reasons %q", c.options, c.version, reasons)
		}
		if !c.native && !strings.Contains(strings.Join(reasons, "\n"), "column p2 is written as Java "+c.version) {
			t.Errorf("%v on Java %s: reasons %q lack p2's", c.options, c.version, reasons)
		}
	}
}

// debeziumWithKey turns UpsertKafkaSink's table into a Kafka table in the debezium-json format
// with the same primary key (Flink allows one on a changelog format).
var debeziumWithKey = map[string]string{"connector": "kafka", "key.format": "", "value.format": "",
	"value.json.encode.ignore-null-fields": "", "format": "debezium-json"}

// TestUpsertKafkaSinkVerdict checks which changes into upsert-kafka tables Go encodes: the key
// is the primary key, and what Flink puts in front of the sink (its buffer per key, its
// materializer, a shuffle by key) keeps Flink's sink, saying why.
func TestUpsertKafkaSinkVerdict(t *testing.T) {
	for _, c := range []struct {
		name        string
		options     map[string]string
		materialize bool
		reason      string // "" when native
	}{
		{"upserts", nil, false, ""},
		{"exactly once", map[string]string{"sink.delivery-guarantee": "exactly-once", "sink.transactional-id-prefix": "p"}, false, ""},
		{"buffer off", map[string]string{"sink.buffer-flush.max-rows": "0", "sink.buffer-flush.interval": "0 ms"}, false, ""},
		{"buffer", map[string]string{"sink.buffer-flush.max-rows": "100", "sink.buffer-flush.interval": "1s"}, false, "ReducingUpsertSink"},
		{"materializer", nil, true, "SinkUpsertMaterializer"},
		{"debezium-json changes with a primary key", debeziumWithKey, false, ""},
		{"debezium-json changes materialized", debeziumWithKey, true, "SinkUpsertMaterializer"},
		{"avro values", map[string]string{"value.format": "avro", "value.json.encode.ignore-null-fields": "", "value.fields-include": "EXCEPT_KEY"}, false, ""},
		{"protobuf values", map[string]string{"value.format": "protobuf", "value.json.encode.ignore-null-fields": ""}, false, "'protobuf'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is, err := Decode(islands.UpsertKafkaSink(t, c.options, c.materialize))
			if err != nil {
				t.Fatal(err)
			}
			s, reasons, err := CompileKafkaSink(&is.Nodes[0], is.Options)
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(reasons, "\n")
			if c.reason == "" {
				if joined != "" {
					t.Fatalf("reasons %q, want native", joined)
				}
				if c.options["connector"] == "kafka" {
					if s.Upsert || s.Value.Name != "debezium-json" {
						t.Fatalf("sink %+v: want a debezium-json sink", s)
					}
					return
				}
				if !s.Upsert || s.Key == nil || fmt.Sprint(s.KeyFields, s.KeyNames) != "[0] [auction]" {
					t.Fatalf("sink %+v: want an upsert sink keyed by the primary key", s)
				}
				return
			}
			if !strings.Contains(joined, c.reason) || !strings.Contains(joined, "`out_t`") {
				t.Fatalf("reasons %q lack %q or the table's name", joined, c.reason)
			}
		})
	}
	// The sink's persisted configuration says how Flink shuffles in front of it.
	forced := bytes.Replace(islands.UpsertKafkaSink(t, nil, false),
		[]byte(`"table.exec.sink.keyed-shuffle":"AUTO"`), []byte(`"table.exec.sink.keyed-shuffle":"FORCE"`), 1)
	is, err := Decode(forced)
	if err != nil {
		t.Fatal(err)
	}
	if _, reasons, err := CompileKafkaSink(&is.Nodes[0], is.Options); err != nil || !strings.Contains(strings.Join(reasons, "\n"), "keyed-shuffle") {
		t.Fatalf("keyed-shuffle FORCE: reasons %q, error %v", reasons, err)
	}
}
