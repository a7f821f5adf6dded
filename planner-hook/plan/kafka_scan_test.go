package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/testkit/islands"
)

// TestKafkaScanVerdict checks which Kafka tables' values Go decodes, and that every other one
// says why, naming the table.
func TestKafkaScanVerdict(t *testing.T) {
	for _, c := range []struct {
		name    string
		options map[string]string
		reason  string // "" when native
	}{
		{"json", nil, ""},
		{"value.format json", map[string]string{"format": "", "value.format": "json", "value.json.fail-on-missing-field": "true"}, ""},
		{"ignore parse errors", map[string]string{"json.ignore-parse-errors": "true"}, ""},
		{"csv", map[string]string{"format": "csv", "csv.field-delimiter": "\\t", "csv.null-literal": "", "csv.ignore-parse-errors": "true"}, ""},
		{"csv non-ASCII delimiter", map[string]string{"format": "csv", "csv.field-delimiter": "§"}, "'csv.field-delimiter' = '§' is not read natively"},
		{"avro", map[string]string{"format": "avro"}, ""},
		{"avro-confluent", map[string]string{"format": "avro-confluent"}, "the value format 'avro-confluent' is not decoded natively yet"},
		{"raw of four columns", map[string]string{"format": "raw"}, "the raw format has one field, not 4"},
		{"raw in latin-1", map[string]string{"format": "raw", "raw.charset": "ISO-8859-1"}, "'raw.charset' = 'ISO-8859-1' is not native"},
		{"key format", map[string]string{"key.format": "raw", "key.fields": "auction", "key.raw.endianness": "little-endian"}, ""},
		{"key format and prefix", map[string]string{"key.format": "csv", "key.fields": "auction;bidder", "value.fields-include": "EXCEPT_KEY"}, ""},
		{"avro key", map[string]string{"key.format": "avro", "key.fields": "auction"}, ""},
		{"protobuf key", map[string]string{"key.format": "protobuf", "key.fields": "auction"}, "key: the key format 'protobuf' is not decoded natively yet"},
		{"raw key of two fields", map[string]string{"key.format": "raw", "key.fields": "auction;bidder"}, "key: raw decoder: the raw format has one field, not 2"},
		{"on-event watermarks", map[string]string{"scan.watermark.emit.strategy": "on-event"}, "'on-event' is not native yet"},
		{"alignment", map[string]string{"scan.watermark.alignment.group": "g"}, "watermark alignment"},
		{"tree deserializer", map[string]string{"json.decode.json-parser.enabled": "false"}, "tree deserializer"},
		{"unknown json option", map[string]string{"json.something": "x"}, "option 'json.something'"},
		{"scan parallelism", map[string]string{"scan.parallelism": "3"}, "'scan.parallelism'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is, err := Decode(islands.KafkaScan(t, c.options))
			if err != nil {
				t.Fatal(err)
			}
			s, reasons, err := CompileKafkaScan(&is.Nodes[0], is.Options)
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(reasons, "\n")
			if c.reason == "" {
				if joined != "" {
					t.Fatalf("reasons %q, want native", joined)
				}
				if s.Watermark == nil || len(s.Watermark.Cols) != 1 || s.Watermark.Cols[0] != 3 {
					t.Fatalf("watermark %+v, want the expression over ts (column 3)", s.Watermark)
				}
				return
			}
			if !strings.Contains(joined, c.reason) || !strings.Contains(joined, "`bids`") {
				t.Fatalf("reasons %q lack %q or the table's name", joined, c.reason)
			}
		})
	}
}

// The json options reach the decoder: the golden table reads ISO-8601 timestamps.
func TestKafkaScanJSONOptions(t *testing.T) {
	is, err := Decode(islands.KafkaScan(t, map[string]string{"json.fail-on-missing-field": "true"}))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := CompileKafkaScan(&is.Nodes[0], is.Options)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Value.JSON.ISOTimestamps || !s.Value.JSON.FailOnMissingField {
		t.Fatalf("json options %+v, want ISO timestamps and fail-on-missing-field", s.Value.JSON)
	}
	if strings.Join(s.Names, ",") != "auction,bidder,price,ts" {
		t.Fatalf("columns %v", s.Names)
	}
}

// The key's fields and the value's: positions in the physical row, names without the prefix.
func TestKafkaScanKeyLayout(t *testing.T) {
	is, err := Decode(islands.KafkaScan(t, map[string]string{"key.format": "json", "key.fields": "auction;bidder",
		"value.fields-include": "EXCEPT_KEY", "key.json.fail-on-missing-field": "true"}))
	if err != nil {
		t.Fatal(err)
	}
	s, reasons, err := CompileKafkaScan(&is.Nodes[0], is.Options)
	if err != nil || len(reasons) > 0 {
		t.Fatalf("reasons %v, error %v", reasons, err)
	}
	if s.Key == nil || !s.Key.JSON.FailOnMissingField || s.Value.JSON.FailOnMissingField {
		t.Fatalf("key %+v, value %+v: the key's options are the key's", s.Key, s.Value)
	}
	if fmt.Sprint(s.KeyFields, s.KeyNames, s.ValueFields) != "[0 1] [auction bidder] [2 3]" {
		t.Fatalf("key fields %v %v, value fields %v", s.KeyFields, s.KeyNames, s.ValueFields)
	}
}

// An upsert-kafka table: the key is the PRIMARY KEY's, the value has every column ('ALL') or
// the others, and what keeps it on Flink's deserializer says why.
func TestUpsertKafkaScan(t *testing.T) {
	for _, c := range []struct {
		name    string
		options map[string]string
		layout  string // key fields, key names, value fields when native
		reason  string
	}{
		{"all columns in the value", nil, "[0] [auction] []", ""},
		{"value without the key", map[string]string{"value.fields-include": "EXCEPT_KEY", "key.fields-prefix": ""}, "[0] [auction] [1 2 3]", ""},
		{"csv values", map[string]string{"value.format": "csv", "value.json.timestamp-format.standard": ""}, "[0] [auction] []", ""},
		{"protobuf key", map[string]string{"key.format": "protobuf"}, "", "key: the key format 'protobuf' is not decoded natively yet"},
		{"avro-confluent values", map[string]string{"value.format": "avro-confluent"}, "", "the value format 'avro-confluent' is not decoded natively yet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is, err := Decode(islands.UpsertKafkaScan(t, c.options, false))
			if err != nil {
				t.Fatal(err)
			}
			s, reasons, err := CompileKafkaScan(&is.Nodes[0], is.Options)
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(reasons, "\n")
			if c.reason != "" {
				if !strings.Contains(joined, c.reason) || !strings.Contains(joined, "`bids`") {
					t.Fatalf("reasons %q lack %q or the table's name", joined, c.reason)
				}
				return
			}
			if joined != "" {
				t.Fatalf("reasons %q, want native", joined)
			}
			if !s.Upsert || s.Key == nil {
				t.Fatalf("upsert %v, key %+v", s.Upsert, s.Key)
			}
			if got := fmt.Sprint(s.KeyFields, s.KeyNames, s.ValueFields); got != c.layout {
				t.Fatalf("layout %s, want %s", got, c.layout)
			}
		})
	}
}

// A WATERMARK on an upsert-kafka table keeps it on Flink's deserializer, with the reason; one
// without a PRIMARY KEY is an error (Flink's factory refuses it).
func TestUpsertKafkaScanRefusals(t *testing.T) {
	is, err := Decode(islands.KafkaScan(t, map[string]string{"connector": "upsert-kafka", "key.format": "json"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := CompileKafkaScan(&is.Nodes[0], is.Options); err == nil || !strings.Contains(err.Error(), "PRIMARY KEY") {
		t.Fatalf("error %v, want one naming the missing PRIMARY KEY", err)
	}
	if is, err = Decode(islands.UpsertKafkaScan(t, nil, true)); err != nil {
		t.Fatal(err)
	}
	_, reasons, err := CompileKafkaScan(&is.Nodes[0], is.Options)
	if err != nil || !strings.Contains(strings.Join(reasons, "\n"), "a WATERMARK on an upsert-kafka table's changes is not native yet") {
		t.Fatalf("reasons %q, error %v: want the WATERMARK's", reasons, err)
	}
}
