package plan

import (
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
		{"avro", map[string]string{"format": "avro"}, "the value format 'avro' is not encoded natively yet"},
		{"key", map[string]string{"key.format": "json", "key.fields": "auction", "value.fields-include": "EXCEPT_KEY"}, ""},
		{"avro key", map[string]string{"key.format": "avro", "key.fields": "auction"}, "key: the key format 'avro' is not encoded natively yet"},
		{"raw key of two", map[string]string{"key.format": "raw", "key.fields": "auction;p2"}, "key: raw encoder: the raw format has one field, not 2"},
		{"sink parallelism", map[string]string{"sink.parallelism": "1"}, "'sink.parallelism'"},
		{"unknown json option", map[string]string{"json.encode.something": "x"}, "option 'json.encode.something'"},
		{"topics", map[string]string{"topic": "a;b"}, "one topic"},
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
// later planning JVM the insert keeps Flink's format; in the raw format (bytes) it need not.
func TestKafkaSinkFloatsNeedJava18(t *testing.T) {
	for _, c := range []struct {
		format, version string
		native          bool
	}{
		{"json", "17", true}, {"csv", "17", true}, {"json", "21", false}, {"csv", "21", false},
	} {
		island := strings.ReplaceAll(string(islands.KafkaSink(t, map[string]string{"format": c.format})),
			`"dataType":"BIGINT"`, `"dataType":"DOUBLE"`)
		island = strings.ReplaceAll(island, `"sluice.java-version":"17"`, `"sluice.java-version":"`+c.version+`"`)
		is, err := Decode([]byte(island))
		if err != nil {
			t.Fatal(err)
		}
		_, reasons, err := CompileKafkaSink(&is.Nodes[0], is.Options)
		if err != nil {
			t.Fatal(err)
		}
		joined := strings.Join(reasons, "\n")
		if got := !strings.Contains(joined, "native on Java 8 to 18 only"); got != c.native {
			t.Errorf("%s on Java %s: reasons %q", c.format, c.version, joined)
		}
		if !strings.Contains(joined, "column p2 is DOUBLE") {
			t.Errorf("%s on Java %s: the column did not become DOUBLE: %q", c.format, c.version, joined)
		}
	}
}
