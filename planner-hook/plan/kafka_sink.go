package plan

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/sinks/constraint"
	"github.com/sluice-project/sluice/sinks/kafkavalue"
)

// KafkaSink is an insert into a Kafka table ('connector' = 'kafka'), or the changes written
// into an upsert-kafka table, whose records Go encodes from the chain's batches; Flink's
// KafkaSink writes them (producers, transactions, delivery guarantee, partitions).
type KafkaSink struct {
	Table string
	// Upsert is set for an upsert-kafka table: the key holds the primary key, a retraction (-U,
	// -D) is written as a record without a value (a tombstone), +I and +U as the row's value.
	Upsert bool
	// Names and types are the table's physical columns, the sink's input.
	Names []string
	Types []catalog.Type
	// Value is the value format and its encoding options, ValueFields the positions of the
	// value's fields among Names (nil: all).
	Value       kafkavalue.Format
	ValueFields []int
	// Key is the key format ('key.format') and its encoding options, nil without one; KeyNames
	// are the key's field names ('key.fields' without 'key.fields-prefix'), KeyFields their
	// positions among Names.
	Key       *kafkavalue.Format
	KeyNames  []string
	KeyFields []int
	// Metadata are the keys of the metadata columns written ('timestamp'), after the physical
	// columns in the sink's input; Timestamp is the input column of the records' timestamps
	// (-1: none, the producer's).
	Metadata  []string
	Timestamp int
	// NotNull checks the NOT NULL columns as Flink's ConstraintEnforcer does in front of the
	// sink (nil: none).
	NotNull *constraint.NotNull
}

// Kafka sink options the native encoding leaves to Flink's KafkaSink (or that do not change
// what it writes).
var kafkaSinkOptions = map[string]bool{
	"connector": true, "topic": true, "format": true, "value.format": true,
	"sink.delivery-guarantee": true, "sink.transactional-id-prefix": true,
	"sink.transaction-naming-strategy": true, "value.fields-include": true,
}

// The connectors whose sinks are encoded natively.
const (
	kafkaConnector       = "kafka"
	upsertKafkaConnector = "upsert-kafka"
)

// The options of an upsert-kafka sink's buffer (Flink's ReducingUpsertSink, which keeps the
// last change per key until a flush), set together or not at all.
const (
	bufferFlushMaxRows  = "sink.buffer-flush.max-rows"
	bufferFlushInterval = "sink.buffer-flush.interval"
)

// isKafkaSink says whether a table sink's JSON writes a Kafka or upsert-kafka table.
func isKafkaSink(n *IslandNode) bool {
	var j sinkExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return false
	}
	c := j.DynamicTableSink.Table.ResolvedTable.Options["connector"]
	return c == kafkaConnector || c == upsertKafkaConnector
}

// CompileKafkaSink decides whether an insert into a Kafka table is encoded natively and
// compiles it. Its reasons keep Flink's format on rows handed back by the chain.
func CompileKafkaSink(n *IslandNode, options map[string]string) (*KafkaSink, []string, error) {
	var j sinkExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("kafka sink %s: %w", n.Name, err)
	}
	t := j.DynamicTableSink.Table
	o := t.ResolvedTable.Options
	s := &KafkaSink{Table: t.Identifier, Timestamp: -1, Upsert: o["connector"] == upsertKafkaConnector}
	if s.Upsert {
		// upsert-kafka's key is the primary key, as its factory sets 'key.fields'.
		if t.ResolvedTable.Schema.PrimaryKey == nil {
			return nil, nil, fmt.Errorf("kafka sink %s: an upsert-kafka table without a PRIMARY KEY", n.Name)
		}
		o = maps.Clone(o)
		o["key.fields"] = strings.Join(t.ResolvedTable.Schema.PrimaryKey.Columns, ";")
	}
	reasons := kafkaSinkOptionReasons(t.Identifier, o, &s.Value)
	for _, a := range j.DynamicTableSink.Abilities {
		if a.Type == "WritingMetadata" {
			for _, k := range a.MetadataKeys {
				if k != "timestamp" {
					reasons = append(reasons, fmt.Sprintf("table %s: the metadata column '%s' is not written natively yet", t.Identifier, k))
				}
			}
			s.Metadata = a.MetadataKeys
			continue
		}
		reasons = append(reasons, fmt.Sprintf("table %s: sink ability %s is not supported natively", t.Identifier, a.Type))
	}
	reasons = append(reasons, s.changelogReasons(&j, options, t.ResolvedTable.Schema.PrimaryKey != nil)...)
	if len(j.TargetColumns) > 0 && string(j.TargetColumns) != "null" {
		reasons = append(reasons, fmt.Sprintf("table %s: inserts into a subset of the columns are not written natively yet", t.Identifier))
	}
	_, inTypes, err := n.RowFields()
	if err != nil {
		return nil, nil, fmt.Errorf("kafka sink %s: %w", n.Name, err)
	}
	for _, c := range t.ResolvedTable.Schema.Columns {
		if c.Kind != "" && c.Kind != "PHYSICAL" {
			continue // written metadata columns come in by the WritingMetadata ability
		}
		ct, err := catalog.ParseType(c.DataType)
		if err != nil {
			return nil, nil, fmt.Errorf("kafka sink %s column %s: %w", n.Name, c.Name, err)
		}
		s.Names, s.Types = append(s.Names, c.Name), append(s.Types, ct)
	}
	if len(s.Names)+len(s.Metadata) != len(inTypes) {
		return nil, append(reasons, fmt.Sprintf("table %s: the sink's input has %d columns for %d physical and %d metadata columns",
			t.Identifier, len(inTypes), len(s.Names), len(s.Metadata))), nil
	}
	for i, k := range s.Metadata {
		if k != "timestamp" {
			continue
		}
		// Flink's 'timestamp' metadata is a TIMESTAMP_LTZ(3): epoch milliseconds, or none.
		s.Timestamp = len(s.Names) + i
		if ts := inTypes[s.Timestamp]; ts.Kind != catalog.TimestampLTZ || ts.Precision != 3 {
			reasons = append(reasons, fmt.Sprintf("table %s: the timestamp metadata comes in as %s", t.Identifier, ts))
		}
	}
	for i := range s.Types {
		if !writableAs(inTypes[i].WithNullable(false), s.Types[i]) {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s is %s but the sink's input gives %s", t.Identifier, s.Names[i], s.Types[i], inTypes[i]))
		}
	}
	var constraintReasons []string
	s.NotNull, constraintReasons = constraint.ForSink(s.Names, s.Types, options)
	for _, r := range constraintReasons {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", t.Identifier, r))
	}
	if _, ok := o["key.format"]; ok && len(reasons) == 0 {
		why, err := s.readKey(o)
		if err != nil {
			return nil, nil, fmt.Errorf("kafka sink %s: %w", n.Name, err)
		}
		reasons = append(reasons, prefixed(t.Identifier, why)...)
	}
	reasons = append(reasons, s.floatTextReasons(javaVersion(options))...)
	if len(reasons) == 0 {
		names, types := s.fields(s.ValueFields)
		if _, err := kafkavalue.NewEncoder(s.Value, names, types); err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: %v", t.Identifier, err))
		}
		if s.Key != nil {
			_, types := s.fields(s.KeyFields)
			if _, err := kafkavalue.NewEncoder(*s.Key, s.KeyNames, types); err != nil {
				reasons = append(reasons, fmt.Sprintf("table %s: key: %v", t.Identifier, err))
			}
		}
	}
	return s, reasons, nil
}

// changelogReasons says what keeps the sink's input from being written natively: changes
// into a Kafka table whose value format is not a changelog one (upsert-kafka or debezium-json),
// and what Flink puts in front of a sink with a primary key, which the native sink does not
// reproduce: its SinkUpsertMaterializer (requireUpsertMaterialize, for changes) and its shuffle
// by the key ('table.exec.sink.keyed-shuffle' FORCE).
func (s *KafkaSink) changelogReasons(j *sinkExec, options map[string]string, primaryKey bool) []string {
	insertOnly := true
	for _, m := range j.InputChangelogMode {
		insertOnly = insertOnly && m == "INSERT"
	}
	var reasons []string
	if !insertOnly && !s.Upsert && s.Value.Name != "debezium-json" {
		reasons = append(reasons, fmt.Sprintf("table %s: only insert-only input is written natively in the %s format (got %v)", s.Table, s.Value.Name, j.InputChangelogMode))
	}
	if !insertOnly && j.RequireUpsertMaterialize {
		reasons = append(reasons, fmt.Sprintf("table %s: the input's upsert key is not the primary key, so Flink materializes the changes in front of the sink (SinkUpsertMaterializer), which is not native yet", s.Table))
	}
	if primaryKey && strings.EqualFold(cmp.Or(j.Configuration[keyedShuffleOption], options[keyedShuffleOption]), "FORCE") {
		reasons = append(reasons, fmt.Sprintf("table %s: '%s' = 'FORCE' shuffles the rows by primary key in front of the sink, which is not native yet", s.Table, keyedShuffleOption))
	}
	return reasons
}

// floatTextReasons says which FLOAT and DOUBLE columns a text format (json, csv) writes, as the
// planning JVM's Float/Double#toString prints them, when that is not Java 8 to 18's (the
// digits the encoders reproduce; Java 19 changed them). A column is the value's, the key's or
// both; the raw format writes the bits.
func (s *KafkaSink) floatTextReasons(java int) []string {
	if javatext.PrintsAsJava(java) {
		return nil
	}
	text := func(f kafkavalue.Format) bool { return f.Name == "json" || f.Name == "csv" }
	var reasons []string
	for i, t := range s.Types {
		if t.Kind != catalog.Float && t.Kind != catalog.Double {
			continue
		}
		byValue := (s.ValueFields == nil || slices.Contains(s.ValueFields, i)) && text(s.Value)
		byKey := s.Key != nil && slices.Contains(s.KeyFields, i) && text(*s.Key)
		if byValue || byKey {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s is written as Java %d prints it, which is native on Java 8 to 18 only", s.Table, s.Names[i], java))
		}
	}
	return reasons
}

// fields are the names and types of the columns at positions (nil: all of them).
func (s *KafkaSink) fields(positions []int) ([]string, []catalog.Type) {
	if positions == nil {
		return s.Names, s.Types
	}
	var names []string
	var types []catalog.Type
	for _, p := range positions {
		names, types = append(names, s.Names[p]), append(types, s.Types[p])
	}
	return names, types
}

// readKey reads a Kafka table's key format and fields for encoding (see kafkaKeyLayout); its
// reasons say what keeps Flink's serializer.
func (s *KafkaSink) readKey(o map[string]string) ([]string, error) {
	format, reasons := kafkaFormatEncoding("", o["key.format"], "key."+o["key.format"]+".", o)
	s.Key = &format
	var err error
	if s.KeyFields, s.KeyNames, s.ValueFields, err = kafkaKeyLayout(o, s.Names); err != nil {
		return nil, err
	}
	return keyReasons(reasons), nil
}

// kafkaSinkOptionReasons checks a Kafka table's options for native encoding and reads its value
// format and the format's options into f.
func kafkaSinkOptionReasons(table string, o map[string]string, f *kafkavalue.Format) []string {
	var reasons []string
	*f, reasons = KafkaValueEncoding(table, o)
	_, prefix := kafkaValueFormat(o)
	var keys []string
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := o[k]
		switch {
		case strings.HasPrefix(k, prefix):
			// Read by KafkaValueEncoding.
		case k == "sink.partitioner":
			if v != "default" && v != "round-robin" && v != "fixed" {
				reasons = append(reasons, fmt.Sprintf("table %s: the partitioner '%s' is not native (default, round-robin and fixed are)", table, v))
			}
		case k == "key.format" || k == "key.fields" || k == "key.fields-prefix" || strings.HasPrefix(k, "key."+o["key.format"]+"."):
			// Read by readKey.
		case k == "sink.parallelism":
			reasons = append(reasons, fmt.Sprintf("table %s: 'sink.parallelism' is not native yet", table))
		case k == bufferFlushMaxRows || k == bufferFlushInterval:
			if !zeroSetting.MatchString(v) {
				reasons = append(reasons, fmt.Sprintf("table %s: '%s' = '%s' buffers changes per key in Flink's ReducingUpsertSink, which is not native yet", table, k, v))
			}
		case kafkaSinkOptions[k], strings.HasPrefix(k, "properties."), strings.HasPrefix(k, "scan."),
			k == "topic-pattern":
		case strings.HasPrefix(k, f.Name+".") || strings.HasPrefix(k, "value."+f.Name+"."):
			// the other prefix's options belong to no format here
		default:
			reasons = append(reasons, fmt.Sprintf("table %s: option '%s' is not written natively", table, k))
		}
	}
	if strings.Contains(o["topic"], ";") || o["topic"] == "" {
		reasons = append(reasons, fmt.Sprintf("table %s: a sink writes one topic natively (the 'topic' option)", table))
	}
	return reasons
}

// zeroSetting matches an integer or duration option set to zero ("0", "0 ms", "0s"), a setting
// that leaves a feature off.
var zeroSetting = regexp.MustCompile(`^\s*0+\s*[a-z]*\s*$`)

// compileTableSink compiles a table sink by its connector.
func compileTableSink(n *IslandNode, options map[string]string) (Node, []string, error) {
	if isKafkaSink(n) {
		return wrap(CompileKafkaSink(n, options))
	}
	return wrap(CompileFileSink(n, options))
}

// CompileKafkaSinkIsland compiles the island JSON of a Kafka sink node for its encoder.
func CompileKafkaSinkIsland(data []byte) (*KafkaSink, error) {
	return CompileNodeIsland(data, "kafka sink", CompileKafkaSink)
}
