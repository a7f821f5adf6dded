package plan

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/expr"
	"github.com/sluice-project/sluice/sources/kafkavalue"
)

// KafkaScan is a scan of a Kafka table ('connector' = 'kafka' or 'upsert-kafka') whose record
// values Go decodes: Flink's Kafka source polls, assigns partitions and checkpoints offsets, and
// hands the values of each partition's fetch to Go in one call (see
// docs/internals/flink-kafka-source.md).
type KafkaScan struct {
	Table string
	// Upsert is set for an upsert-kafka table: the key holds the PRIMARY KEY's columns, a record
	// with a value is an insert (+I) and one without (a tombstone) a delete (-D) of the key's
	// row, its other columns NULL (Flink's DynamicKafkaDeserializationSchema in upsert mode).
	Upsert bool
	Names  []string
	Types  []catalog.Type
	// Value is the value format and its decoding options.
	Value kafkavalue.Format
	// ValueFields are the positions of the value's fields in the physical row (nil: all).
	ValueFields []int
	// Key is the key format ('key.format') and its decoding options, nil without one;
	// KeyNames are the key's field names ('key.fields' without 'key.fields-prefix'), KeyFields
	// their positions in the physical row.
	Key       *kafkavalue.Format
	KeyNames  []string
	KeyFields []int
	// Metadata are the keys of the metadata columns the table reads (Flink's ReadableMetadata:
	// offset, partition, topic, timestamp, timestamp-type, leader-epoch), the last columns of
	// Names, in their order.
	Metadata []string
	// Watermark is the watermark expression pushed into the scan (nil without one), over the
	// scan's produced row.
	Watermark *KafkaWatermark
}

// KafkaWatermark is a WATERMARK pushed into a Kafka scan (Flink's WatermarkPushDownSpec): per
// fetch, the maximum of the expression over the fetch's rows feeds Flink's own per-partition
// watermark machinery.
type KafkaWatermark struct {
	Expr expr.Expr
	Cols []int
}

// kafkaWatermarkSpec is the part of a WatermarkPushDown ability the native scan reads.
type kafkaWatermarkSpec struct {
	WatermarkExpr   json.RawMessage `json:"watermarkExpr"`
	WatermarkParams *struct {
		EmitStrategy string `json:"emitStrategy"`
		AlignGroup   string `json:"alignGroupName"`
	} `json:"watermarkParams"`
}

// kafkaScanExec is the part of StreamExecTableSourceScan's JSON a Kafka scan reads.
type kafkaScanExec struct {
	ScanTableSource struct {
		Table     fsTable           `json:"table"`
		Abilities []json.RawMessage `json:"abilities"`
	} `json:"scanTableSource"`
	OutputType json.RawMessage `json:"outputType"`
}

// kafkaMetadata are the metadata columns of Kafka records a native scan reads (all of
// KafkaDynamicSource.ReadableMetadata but headers).
var kafkaMetadata = map[string]bool{
	"offset": true, "partition": true, "topic": true, "timestamp": true, "timestamp-type": true, "leader-epoch": true,
}

// kafkaMetadataKinds are the types Flink gives those columns.
var kafkaMetadataKinds = map[string]catalog.Kind{
	"offset": catalog.BigInt, "partition": catalog.Int, "topic": catalog.VarChar, "timestamp": catalog.TimestampLTZ,
	"timestamp-type": catalog.VarChar, "leader-epoch": catalog.Int,
}

// isKafkaScan says whether a table source scan's JSON reads a Kafka table.
func isKafkaScan(n *IslandNode) bool {
	var j kafkaScanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return false
	}
	c := j.ScanTableSource.Table.ResolvedTable.Options["connector"]
	return c == kafkaConnector || c == upsertKafkaConnector
}

// CompileKafkaScan decides whether a Kafka table's values are decoded natively and compiles the
// scan. Its reasons keep the scan on Flink's source and format (a row edge into the chain above);
// they never make the job fall back.
func CompileKafkaScan(n *IslandNode, options map[string]string) (*KafkaScan, []string, error) {
	var j kafkaScanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("kafka scan %s: %w", n.Name, err)
	}
	t := j.ScanTableSource.Table
	o := t.ResolvedTable.Options
	s := &KafkaScan{Table: t.Identifier, Upsert: o["connector"] == upsertKafkaConnector}
	if s.Upsert {
		// upsert-kafka's key is the primary key, as its factory projects it.
		if t.ResolvedTable.Schema.PrimaryKey == nil {
			return nil, nil, fmt.Errorf("kafka scan %s: an upsert-kafka table without a PRIMARY KEY", n.Name)
		}
		o = maps.Clone(o)
		o["key.fields"] = strings.Join(t.ResolvedTable.Schema.PrimaryKey.Columns, ";")
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("kafka scan %s output type: %w", n.Name, err)
	}
	if s.Names, s.Types, err = RowFields(out); err != nil {
		return nil, nil, fmt.Errorf("kafka scan %s: %w", n.Name, err)
	}
	reasons := kafkaOptionReasons(t.Identifier, o, &s.Value)
	for _, raw := range j.ScanTableSource.Abilities {
		var a struct {
			Type         string   `json:"type"`
			MetadataKeys []string `json:"metadataKeys"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, nil, fmt.Errorf("kafka scan %s ability: %w", n.Name, err)
		}
		switch a.Type {
		case "ReadingMetadata":
			for _, k := range a.MetadataKeys {
				if !kafkaMetadata[k] {
					reasons = append(reasons, fmt.Sprintf("table %s: the metadata column '%s' is not read natively yet", t.Identifier, k))
				}
			}
			s.Metadata = a.MetadataKeys
		case "WatermarkPushDown":
			w, why, err := compileKafkaWatermark(raw, s.Types, options)
			if err != nil {
				return nil, nil, fmt.Errorf("kafka scan %s: %w", n.Name, err)
			}
			if why != "" {
				reasons = append(reasons, fmt.Sprintf("table %s: %s", t.Identifier, why))
			}
			s.Watermark = w
		default:
			reasons = append(reasons, fmt.Sprintf("table %s: source ability %s is not supported natively", t.Identifier, a.Type))
		}
	}
	if len(s.Metadata) > len(s.Names) {
		return nil, nil, fmt.Errorf("kafka scan %s: %d metadata columns of %d columns", n.Name, len(s.Metadata), len(s.Names))
	}
	for i, k := range s.Metadata {
		// The scan produces each metadata column in the metadata's own type.
		if want, ok := kafkaMetadataKinds[k]; ok {
			got := s.Types[len(s.Names)-len(s.Metadata)+i]
			if got.Kind != want || k == "timestamp" && got.Precision != 3 {
				reasons = append(reasons, fmt.Sprintf("table %s: the metadata column '%s' is produced as %s", t.Identifier, k, got))
			}
		}
	}
	physical := len(s.Names) - len(s.Metadata)
	if _, ok := o["key.format"]; ok {
		why, err := s.readKey(o, physical)
		if err != nil {
			return nil, nil, fmt.Errorf("kafka scan %s: %w", n.Name, err)
		}
		reasons = append(reasons, prefixed(t.Identifier, why)...)
	}
	if s.Upsert && s.Watermark != nil {
		reasons = append(reasons, fmt.Sprintf("table %s: a WATERMARK on an upsert-kafka table's changes is not native yet", t.Identifier))
	}
	if s.Value.Changelog() {
		// The decoder's rows carry RowKinds; the fetch lays out value rows alone yet.
		if s.Key != nil || len(s.Metadata) > 0 {
			reasons = append(reasons, fmt.Sprintf("table %s: key fields or metadata columns beside the %s format's changes are not read natively yet", t.Identifier, s.Value.Name))
		}
		if s.Watermark != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: a WATERMARK on the %s format's changes is not native yet", t.Identifier, s.Value.Name))
		}
	}
	if len(reasons) == 0 {
		// The decoders take some types; a table with others keeps Flink's format.
		names, types := s.Names[:physical], s.Types[:physical]
		if s.ValueFields != nil {
			names, types = nil, nil
			for _, p := range s.ValueFields {
				names, types = append(names, s.Names[p]), append(types, s.Types[p])
			}
		}
		if _, err := kafkavalue.NewDecoder(s.Value, names, types); err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: %v", t.Identifier, err))
		}
		if s.Key != nil {
			var types []catalog.Type
			for _, p := range s.KeyFields {
				types = append(types, s.Types[p])
			}
			if _, err := kafkavalue.NewDecoder(*s.Key, s.KeyNames, types); err != nil {
				reasons = append(reasons, fmt.Sprintf("table %s: key: %v", t.Identifier, err))
			}
		}
	}
	return s, reasons, nil
}

// kafkaOptionReasons checks a Kafka table's options for native decoding and reads its value
// format and the format's options into f.
func kafkaOptionReasons(table string, o map[string]string, f *kafkavalue.Format) []string {
	var reasons []string
	*f, reasons = KafkaValueDecoding(table, o)
	if v := o["scan.watermark.emit.strategy"]; strings.EqualFold(v, "on-event") {
		// Flink emits a watermark after any row that raises it; a batch per fetch cannot.
		reasons = append(reasons, fmt.Sprintf("table %s: 'scan.watermark.emit.strategy' = 'on-event' is not native yet", table))
	}
	if _, ok := o["scan.watermark.alignment.group"]; ok {
		reasons = append(reasons, fmt.Sprintf("table %s: watermark alignment is not native yet", table))
	}
	if _, ok := o["scan.parallelism"]; ok {
		reasons = append(reasons, fmt.Sprintf("table %s: 'scan.parallelism' is not native yet", table))
	}
	return reasons
}

// readKey reads a Kafka table's key format and its fields for decoding (see kafkaKeyLayout);
// its reasons say what keeps the key on Flink's deserializer.
func (s *KafkaScan) readKey(o map[string]string, physical int) ([]string, error) {
	format, reasons := kafkaFormatDecoding("", o["key.format"], "key."+o["key.format"]+".", o)
	s.Key = &format
	var err error
	if s.KeyFields, s.KeyNames, s.ValueFields, err = kafkaKeyLayout(o, s.Names[:physical]); err != nil {
		return nil, err
	}
	return keyReasons(reasons), nil
}

// kafkaKeyLayout reads where a Kafka table's key fields are among its physical columns, as
// Flink's KafkaConnectorOptionsUtil does: 'key.fields' (their names), 'key.fields-prefix' (which
// the key format's field names lack), and the value's fields ('value.fields-include' =
// 'EXCEPT_KEY': the others; else nil, all of them).
func kafkaKeyLayout(o map[string]string, physical []string) (keyFields []int, keyNames []string, valueFields []int, err error) {
	prefix := o["key.fields-prefix"]
	isKey := map[int]bool{}
	for _, name := range strings.Split(o["key.fields"], ";") {
		p := slices.Index(physical, name)
		if p < 0 || !strings.HasPrefix(name, prefix) {
			return nil, nil, nil, fmt.Errorf("key field %q is not a physical column of %v with the prefix %q", name, physical, prefix)
		}
		keyFields, keyNames = append(keyFields, p), append(keyNames, strings.TrimPrefix(name, prefix))
		isKey[p] = true
	}
	if strings.EqualFold(o["value.fields-include"], "EXCEPT_KEY") {
		valueFields = []int{}
		for p := range physical {
			if !isKey[p] {
				valueFields = append(valueFields, p)
			}
		}
	}
	return keyFields, keyNames, valueFields, nil
}

// keyReasons marks a key format's reasons as the key's.
func keyReasons(reasons []string) []string {
	for i, r := range reasons {
		reasons[i] = "key: " + r
	}
	return reasons
}

// prefixed puts "table T: " before each reason.
func prefixed(table string, reasons []string) []string {
	out := make([]string, len(reasons))
	for i, r := range reasons {
		out[i] = fmt.Sprintf("table %s: %s", table, r)
	}
	return out
}

// compileKafkaWatermark compiles a WatermarkPushDown ability over the scan's columns; why says
// what keeps it from running natively.
func compileKafkaWatermark(raw json.RawMessage, types []catalog.Type, options map[string]string) (*KafkaWatermark, string, error) {
	var spec kafkaWatermarkSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, "", fmt.Errorf("watermark: %w", err)
	}
	if p := spec.WatermarkParams; p != nil {
		if e := strings.ReplaceAll(p.EmitStrategy, "-", "_"); e != "" && !strings.EqualFold(e, "ON_PERIODIC") {
			return nil, fmt.Sprintf("watermark emit strategy %s is not native yet", p.EmitStrategy), nil
		}
		if p.AlignGroup != "" {
			return nil, "watermark alignment is not native yet", nil
		}
	}
	node, err := DecodeRex(spec.WatermarkExpr)
	if err != nil {
		return nil, "", fmt.Errorf("watermark: %w", err)
	}
	w := &KafkaWatermark{}
	if w.Expr, err = expr.CompileIn(node, types, exprEnv(options)); err != nil {
		return nil, fmt.Sprintf("watermark expression: %v", err), nil
	}
	if t := w.Expr.Type(); (t.Kind != catalog.Timestamp && t.Kind != catalog.TimestampLTZ) || t.Precision > 3 {
		return nil, fmt.Sprintf("watermark expression of type %s is not supported natively", t), nil
	}
	set := map[int]bool{}
	inputRefs(node, set)
	w.Cols = sortedKeys(set)
	return w, "", nil
}
