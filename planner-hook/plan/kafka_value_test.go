package plan

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestKafkaValueFormats checks how a Kafka table's format options are read for decoding and
// encoding, by either prefix, and which ones say why they are not native.
func TestKafkaValueFormats(t *testing.T) {
	for _, c := range []struct {
		name    string
		options map[string]string
		want    string // the formats read (decoding; encoding), as %+v
		reason  string // a reason both directions give ("" when native)
		// encoding is the encoding's reason where it differs
		encoding string
	}{
		{"json", map[string]string{"format": "json", "json.timestamp-format.standard": "ISO-8601"},
			"json ISO:true", "", ""},
		{"value.format raw", map[string]string{"value.format": "raw", "value.raw.endianness": "little-endian", "value.raw.charset": "utf8"},
			"raw little:true", "", ""},
		{"raw big-endian", map[string]string{"format": "raw", "raw.endianness": "big-endian", "raw.charset": "UTF-8"},
			"raw little:false", "", ""},
		{"raw charset", map[string]string{"format": "raw", "raw.charset": "UTF-16"}, "", "'raw.charset' = 'UTF-16' is not native (UTF-8 is)", ""},
		{"raw unknown option", map[string]string{"format": "raw", "raw.x": "1"}, "", "option 'raw.x' is not native", ""},
		{"avro-confluent", map[string]string{"format": "avro-confluent"}, "", "the value format 'avro-confluent' is not", ""},
		{"csv options", map[string]string{"format": "csv", "csv.field-delimiter": "\\t", "csv.quote-character": "'",
			"csv.disable-quote-character": "true", "csv.null-literal": "", "csv.write-bigdecimal-in-scientific-notation": "true",
			"csv.allow-comments": "true", "csv.ignore-parse-errors": "true"},
			"csv delim:9 quote:-1 null:[] comments:true; encode delim:9 quote:-1 null:[] plain:false", "", ""},
		{"csv defaults", map[string]string{"format": "csv"},
			"csv delim:44 quote:34 null:<nil> comments:false; encode delim:44 quote:34 null:<nil> plain:true", "", ""},
		{"csv unicode escape", map[string]string{"format": "csv", "csv.field-delimiter": "\\u007c"},
			"csv delim:124 quote:34 null:<nil> comments:false; encode delim:124 quote:34 null:<nil> plain:true", "", ""},
		{"avro as json", map[string]string{"format": "avro", "avro.encoding": "json"}, "", "'avro.encoding' = 'json' is not native (binary is)", ""},
		{"csv escape", map[string]string{"format": "csv", "csv.escape-character": "é"}, "", "'csv.escape-character' = 'é' is not read natively",
			"'csv.escape-character' (Jackson's escaping) is not written natively yet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dec, decReasons := KafkaValueDecoding("t", c.options)
			enc, encReasons := KafkaValueEncoding("t", c.options)
			for i, reasons := range [][]string{decReasons, encReasons} {
				want := c.reason
				if i == 1 && c.encoding != "" {
					want = c.encoding
				}
				joined := strings.Join(reasons, "\n")
				if want == "" && joined != "" {
					t.Fatalf("reasons %q, want native", joined)
				}
				if !strings.Contains(joined, want) {
					t.Fatalf("reasons %q lack %q", joined, want)
				}
			}
			if c.reason != "" {
				return
			}
			var got string
			switch dec.Name {
			case "json":
				if enc.JSON.ISOTimestamps != dec.JSON.ISOTimestamps {
					t.Fatalf("decoding %+v, encoding %+v", dec, enc)
				}
				got = "json ISO:" + strconv.FormatBool(dec.JSON.ISOTimestamps)
			case "raw":
				if enc.Raw.LittleEndian != dec.Raw.LittleEndian {
					t.Fatalf("decoding %+v, encoding %+v", dec, enc)
				}
				got = "raw little:" + strconv.FormatBool(dec.Raw.LittleEndian)
			case "csv":
				nul := func(b []byte) string {
					if b == nil {
						return "<nil>"
					}
					return fmt.Sprint(b)
				}
				got = fmt.Sprintf("csv delim:%d quote:%d null:%s comments:%v; encode delim:%d quote:%d null:%s plain:%v",
					dec.CSV.Delimiter, dec.CSV.Quote, nul(dec.CSV.NullLiteral), dec.CSV.AllowComments,
					enc.CSV.Delimiter, enc.CSV.Quote, nul(enc.CSV.NullLiteral), enc.CSV.DecimalPlain)
			}
			if got != c.want || enc.Name != dec.Name {
				t.Fatalf("read %q (encoding %q), want %q", got, enc.Name, c.want)
			}
		})
	}
}
