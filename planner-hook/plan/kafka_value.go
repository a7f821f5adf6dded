package plan

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	sinkavro "github.com/sluice-project/sluice/sinks/avroformat"
	sinkcsv "github.com/sluice-project/sluice/sinks/csvformat"
	sinkvalue "github.com/sluice-project/sluice/sinks/kafkavalue"
	"github.com/sluice-project/sluice/sources/avroformat"
	"github.com/sluice-project/sluice/sources/csvformat"
	"github.com/sluice-project/sluice/sources/debeziumformat"
	"github.com/sluice-project/sluice/sources/kafkavalue"
)

// kafkaValueFormat is a Kafka table's value format ('value.format', else 'format') and the
// prefix of its options ('value.<format>.' or '<format>.').
func kafkaValueFormat(o map[string]string) (name, prefix string) {
	if v, ok := o["value.format"]; ok {
		return v, "value." + v + "."
	}
	return o["format"], o["format"] + "."
}

// formatOptions is the options of a Kafka table with the value format's prefix, without it, in
// key order.
func formatOptions(o map[string]string, prefix string) [][2]string {
	var kv [][2]string
	for k, v := range o {
		if strings.HasPrefix(k, prefix) {
			kv = append(kv, [2]string{strings.TrimPrefix(k, prefix), v})
		}
	}
	sort.Slice(kv, func(i, j int) bool { return kv[i][0] < kv[j][0] })
	return kv
}

// KafkaValueDecoding reads the value format of a Kafka table's options for native decoding; its
// reasons say what keeps the format's records on Flink's deserializer.
func KafkaValueDecoding(table string, o map[string]string) (kafkavalue.Format, []string) {
	name, prefix := kafkaValueFormat(o)
	return kafkaFormatDecoding(table, name, prefix, o)
}

// kafkaFormatDecoding reads a Kafka table's value or key format, whose options have the given
// prefix, for native decoding ("table T: " before its reasons unless table is empty).
func kafkaFormatDecoding(table, name, prefix string, o map[string]string) (kafkavalue.Format, []string) {
	f := kafkavalue.Format{Name: name, CSV: csvformat.DefaultOptions(), Avro: avroformat.Options{LegacyTimestamps: true}}
	reasons := formatOptionReasons(table, name, prefix, "decoded", o, func(k, v string) string {
		switch name {
		case "json":
			return jsonDecodingOption(&f, k, v)
		case "debezium-json":
			return debeziumDecodingOption(&f.Debezium, k, v)
		case "csv":
			return csvDecodingOption(&f.CSV, k, v)
		case "raw":
			return rawOption(&f.Raw.LittleEndian, k, v)
		}
		return avroOption(&f.Avro.LegacyTimestamps, k, v)
	})
	if name == "csv" && optionTrue(o[prefix+"disable-quote-character"]) {
		f.CSV.Quote = csvformat.NoChar // whatever 'quote-character' says
	}
	return f, reasons
}

// nativeFormats are the formats whose records Go decodes and encodes.
var nativeFormats = map[string]bool{"json": true, "csv": true, "raw": true, "avro": true, "debezium-json": true}

// changelogFormats are the native formats whose records are changes, which are no key formats.
var changelogFormats = map[string]bool{"debezium-json": true}

// formatOptionReasons checks that a value or key format (options with prefix) is one Go
// decodes or encodes (verb), and reads each of its options through option, which says why one
// keeps the format on Flink's ({key} standing for the option's full key); "table T: " comes
// before the reasons unless table is empty.
func formatOptionReasons(table, name, prefix, verb string, o map[string]string, option func(k, v string) string) []string {
	what := "value"
	if strings.HasPrefix(prefix, "key.") {
		what = "key"
	}
	switch {
	case !nativeFormats[name]:
		return []string{tablePrefix(table) + fmt.Sprintf("the %s format '%s' is not %s natively yet (json, csv, raw, avro and debezium-json are)", what, name, verb)}
	case what == "key" && changelogFormats[name]:
		return []string{tablePrefix(table) + fmt.Sprintf("the changelog format '%s' is not %s natively as a key format", name, verb)}
	}
	var reasons []string
	for _, kv := range formatOptions(o, prefix) {
		if why := option(kv[0], kv[1]); why != "" {
			reasons = append(reasons, tablePrefix(table)+strings.ReplaceAll(why, "{key}", prefix+kv[0]))
		}
	}
	return reasons
}

// avroOption reads one avro format option (its key without the prefix), the same for decoding
// and encoding, and says why it keeps the records on Flink's format ({key} standing for the
// full key).
func avroOption(legacy *bool, k, v string) string {
	switch k {
	case "timestamp_mapping.legacy":
		*legacy = optionTrue(v)
	case "encoding":
		if !strings.EqualFold(v, "binary") {
			return fmt.Sprintf("'{key}' = '%s' is not native (binary is)", v)
		}
	case "codec":
		// Avro files' compression; records in Kafka are not compressed by the format.
	default:
		return "option '{key}' is not native"
	}
	return ""
}

// tablePrefix is "table T: ", or nothing for no table.
func tablePrefix(table string) string {
	if table == "" {
		return ""
	}
	return "table " + table + ": "
}

// csvDecodingOption reads one csv format option (its key without the prefix) for decoding, and
// says why it keeps the records on Flink's deserializer ({key} standing for the full key).
func csvDecodingOption(o *csvformat.Options, k, v string) string {
	switch k {
	case "field-delimiter":
		// StringEscapeUtils.unescapeJava(v).charAt(0)
		c, ok := javaEscapedChar(v)
		if !ok {
			return fmt.Sprintf("'{key}' = '%s' is not read natively (one ASCII character is)", v)
		}
		o.Delimiter = c
	case "quote-character", "escape-character":
		// v.charAt(0)
		if v == "" || v[0] >= 0x80 {
			return fmt.Sprintf("'{key}' = '%s' is not read natively (an ASCII character is)", v)
		}
		if k == "quote-character" {
			o.Quote = int(v[0])
		} else {
			o.Escape = int(v[0])
		}
	case "allow-comments":
		o.AllowComments = optionTrue(v)
	case "null-literal":
		o.NullLiteral = []byte(v)
	case "disable-quote-character":
		// read once all options are
	case "ignore-parse-errors":
		// Records the decoder does not take (malformed ones among them) go to Flink's
		// deserializer, which skips or fails as the option says.
	case "array-element-delimiter", "write-bigdecimal-in-scientific-notation":
		// Options of ARRAY columns (which keep Flink's format), or of encoding.
	default:
		return "option '{key}' is not decoded natively"
	}
	return ""
}

// javaEscapedChar is the first character of StringEscapeUtils.unescapeJava(v) when it is ASCII
// and v one character or one Java escape of one.
func javaEscapedChar(v string) (byte, bool) {
	switch {
	case len(v) == 1 && v[0] < 0x80:
		return v[0], true
	case len(v) == 2 && v[0] == '\\':
		switch v[1] {
		case 't':
			return '\t', true
		case 'b':
			return '\b', true
		case 'f':
			return '\f', true
		case '\\', '\'', '"':
			return v[1], true
		}
	case len(v) == 6 && v[0] == '\\' && v[1] == 'u':
		if c, err := strconv.ParseUint(v[2:], 16, 16); err == nil && c < 0x80 {
			return byte(c), true
		}
	}
	return 0, false
}

// jsonDecodingOption reads one json format option (its key without the prefix) for decoding,
// and says why it keeps the records on Flink's deserializer ({key} standing for the full key).
func jsonDecodingOption(f *kafkavalue.Format, k, v string) string {
	switch k {
	case "fail-on-missing-field":
		f.JSON.FailOnMissingField = optionTrue(v)
	case "timestamp-format.standard":
		f.JSON.ISOTimestamps = v == "ISO-8601"
	case "ignore-parse-errors":
		// Records the decoder does not take (malformed ones among them) go to Flink's
		// deserializer, which skips or fails as the option says.
	case "map-null-key.mode", "map-null-key.literal", "encode.decimal-as-plain-number", "encode.ignore-null-fields":
		// Encoding options, or options of MAP columns (which keep Flink's format).
	case "decode.json-parser.enabled":
		if !optionTrue(v) {
			return fmt.Sprintf("'{key}' = '%s' (Flink's tree deserializer) is not decoded natively", v)
		}
	default:
		return "option '{key}' is not decoded natively"
	}
	return ""
}

// debeziumDecodingOption reads one debezium-json format option (its key without the prefix) for
// decoding, and says why it keeps the records on Flink's deserializer ({key} standing for the
// full key).
func debeziumDecodingOption(o *debeziumformat.Options, k, v string) string {
	switch k {
	case "timestamp-format.standard":
		o.ISOTimestamps = v == "ISO-8601"
	case "ignore-parse-errors":
		// Records the decoder does not take go to Flink's deserializer, which skips or fails
		// as the option says.
	case "schema-include":
		o.SchemaInclude = optionTrue(v)
	case "map-null-key.mode", "map-null-key.literal", "encode.decimal-as-plain-number", "encode.ignore-null-fields":
		// Encoding options, or options of MAP columns (which keep Flink's format).
	default:
		return "option '{key}' is not decoded natively"
	}
	return ""
}

// rawOption reads one raw format option (its key without the prefix), the same for decoding and
// encoding, and says why it keeps the records on Flink's format ({key} standing for the full
// key).
func rawOption(littleEndian *bool, k, v string) string {
	switch k {
	case "endianness":
		switch strings.ToLower(v) { // Flink's equalsIgnoreCase
		case "big-endian":
			*littleEndian = false
		case "little-endian":
			*littleEndian = true
		default:
			return fmt.Sprintf("'{key}' = '%s' is not native", v)
		}
	case "charset":
		// Flink's Charset.forName: UTF-8's names, in any case, keep the bytes as they are.
		switch strings.ToLower(v) {
		case "utf-8", "utf8", "unicode-1-1-utf-8":
		default:
			return fmt.Sprintf("'{key}' = '%s' is not native (UTF-8 is)", v)
		}
	default:
		return "option '{key}' is not native"
	}
	return ""
}

// KafkaValueEncoding reads the value format of a Kafka table's options for native encoding; its
// reasons say what keeps the format's records on Flink's serializer.
func KafkaValueEncoding(table string, o map[string]string) (sinkvalue.Format, []string) {
	name, prefix := kafkaValueFormat(o)
	return kafkaFormatEncoding(table, name, prefix, o)
}

// kafkaFormatEncoding reads a Kafka table's value or key format, whose options have the given
// prefix, for native encoding ("table T: " before its reasons unless table is empty).
func kafkaFormatEncoding(table, name, prefix string, o map[string]string) (sinkvalue.Format, []string) {
	f := sinkvalue.Format{Name: name, CSV: sinkcsv.DefaultOptions(), Avro: sinkavro.Options{LegacyTimestamps: true}}
	reasons := formatOptionReasons(table, name, prefix, "encoded", o, func(k, v string) string {
		switch name {
		case "json":
			return jsonEncodingOption(&f, k, v)
		case "debezium-json":
			if k == "schema-include" {
				return "" // decoding only; Flink refuses it set for encoding
			}
			return jsonEncodingOption(&f, k, v)
		case "csv":
			return csvEncodingOption(&f.CSV, k, v)
		case "raw":
			return rawOption(&f.Raw.LittleEndian, k, v)
		}
		return avroOption(&f.Avro.LegacyTimestamps, k, v)
	})
	if name == "csv" && optionTrue(o[prefix+"disable-quote-character"]) {
		f.CSV.Quote = sinkcsv.NoQuote
	}
	return f, reasons
}

// csvEncodingOption reads one csv format option (its key without the prefix) for encoding, and
// says why it keeps the records on Flink's serializer ({key} standing for the full key).
func csvEncodingOption(o *sinkcsv.Options, k, v string) string {
	switch k {
	case "field-delimiter":
		c, ok := javaEscapedChar(v)
		if !ok {
			return fmt.Sprintf("'{key}' = '%s' is not written natively (one ASCII character is)", v)
		}
		o.Delimiter = c
	case "quote-character":
		if v == "" || v[0] >= 0x80 {
			return fmt.Sprintf("'{key}' = '%s' is not written natively (an ASCII character is)", v)
		}
		o.Quote = int(v[0])
	case "null-literal":
		o.NullLiteral = []byte(v)
	case "write-bigdecimal-in-scientific-notation":
		o.DecimalPlain = !optionTrue(v)
	case "escape-character":
		return "'{key}' (Jackson's escaping) is not written natively yet"
	case "disable-quote-character":
		// read once all options are
	case "allow-comments", "ignore-parse-errors", "array-element-delimiter":
		// Decoding options (comments matter to Jackson's strict quoting check only, which
		// Flink leaves off), or options of ARRAY columns, which keep Flink's format.
	default:
		return "option '{key}' is not encoded natively"
	}
	return ""
}

// jsonEncodingOption reads one json format option (its key without the prefix) for encoding,
// and says why it keeps the records on Flink's serializer ({key} standing for the full key).
func jsonEncodingOption(f *sinkvalue.Format, k, v string) string {
	switch k {
	case "timestamp-format.standard":
		f.JSON.ISOTimestamps = v == "ISO-8601"
	case "encode.decimal-as-plain-number":
		f.JSON.DecimalPlain = optionTrue(v)
	case "encode.ignore-null-fields":
		f.JSON.IgnoreNullFields = optionTrue(v)
	case "fail-on-missing-field", "ignore-parse-errors", "decode.json-parser.enabled":
		// Decoding options.
	case "map-null-key.mode", "map-null-key.literal":
		// Options of MAP columns, which the encoder does not take.
	default:
		return "option '{key}' is not encoded natively"
	}
	return ""
}
