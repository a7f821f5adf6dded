package plan

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/sluice-project/sluice/catalog"
	ice "github.com/sluice-project/sluice/catalog/iceberg"
	"github.com/sluice-project/sluice/sinks/constraint"
	sinkiceberg "github.com/sluice-project/sluice/sinks/iceberg"
	sinkparquet "github.com/sluice-project/sluice/sinks/parquet"
)

// IcebergSinkType is the node type under which the planner sends a sink into an Iceberg table
// (Flink's IcebergTableSink): the Java side describes the table's schema (field ids, Iceberg
// types), its write properties and what else decides whether Go can write its data files.
const IcebergSinkType = "sluice-iceberg-sink_1"

// icebergSinkExec is the description of an Iceberg sink.
type icebergSinkExec struct {
	Table string `json:"table"`
	// Fields are the table's columns in the order of the sink's input row.
	Fields []struct {
		ID       int    `json:"id"`
		Name     string `json:"name"`
		Type     string `json:"type"`
		Required bool   `json:"required"`
		// NotNull is the Flink column's NOT NULL, which Flink's ConstraintEnforcer checks.
		NotNull bool `json:"notNull"`
	} `json:"fields"`
	// Partition is the table's partition spec: each field's source field id and transform.
	Partition []struct {
		SourceID  int    `json:"sourceId"`
		Transform string `json:"transform"`
	} `json:"partition"`
	// Schema is the table schema as Iceberg's SchemaParser prints it.
	Schema  string `json:"schema"`
	Parquet struct {
		Codec         string `json:"codec"`
		Level         *int   `json:"level"`
		RowGroupBytes int64  `json:"rowGroupBytes"`
		PageBytes     int64  `json:"pageBytes"`
		DictBytes     int64  `json:"dictBytes"`
	} `json:"parquet"`
	// Unsupported lists what the Java side found that the native writer does not do.
	Unsupported []string `json:"unsupported"`
}

// icebergSink is a native Iceberg sink compiled.
type icebergSink struct {
	table  string
	fields []sinkiceberg.Field
	spec   []sinkiceberg.PartitionField
	schema string
	opts   sinkiceberg.Options
	// notNull checks the NOT NULL columns as Flink's ConstraintEnforcer does in front of the
	// sink (nil: none).
	notNull *constraint.NotNull
}

// compileIcebergSink decides whether Go writes an Iceberg sink's data files and compiles it.
func compileIcebergSink(n *IslandNode, options map[string]string) (*icebergSink, []string, error) {
	var j icebergSinkExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("iceberg sink %s: %w", n.Name, err)
	}
	var reasons []string
	for _, u := range j.Unsupported {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", j.Table, u))
	}
	if len(j.Unsupported) > 0 && len(j.Fields) == 0 {
		return nil, reasons, nil // the table could not be described
	}
	_, inTypes, err := n.RowFields()
	if err != nil {
		return nil, nil, fmt.Errorf("iceberg sink %s: %w", n.Name, err)
	}
	if len(inTypes) != len(j.Fields) {
		return nil, append(reasons, fmt.Sprintf("table %s: the sink's input has %d columns for %d table columns", j.Table, len(inTypes), len(j.Fields))), nil
	}
	s := &icebergSink{table: j.Table, schema: j.Schema, opts: sinkiceberg.DefaultOptions()}
	var columns []ice.Field
	if j.Schema != "" {
		if columns, err = ice.ParseSchema(j.Schema); err != nil {
			return nil, nil, fmt.Errorf("iceberg sink %s: %w", n.Name, err)
		}
	}
	for i, f := range j.Fields {
		col, _ := ice.FindField(columns, f.ID)
		field := sinkiceberg.Field{ID: f.ID, Name: f.Name, Required: f.Required, Iceberg: f.Type, Type: inTypes[i], Nested: col.Type}
		if err := field.Writable(); err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: %v", j.Table, f.Name, err))
		}
		s.fields = append(s.fields, field)
	}
	names := make([]string, len(j.Fields))
	flinkTypes := make([]catalog.Type, len(j.Fields))
	for i, f := range j.Fields {
		names[i], flinkTypes[i] = f.Name, inTypes[i].WithNullable(!f.NotNull)
	}
	var constraintReasons []string
	s.notNull, constraintReasons = constraint.ForSink(names, flinkTypes, options)
	for _, r := range constraintReasons {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", j.Table, r))
	}
	for _, pf := range j.Partition {
		col := -1
		for i, f := range j.Fields {
			if f.ID == pf.SourceID {
				col = i
			}
		}
		if col < 0 {
			reasons = append(reasons, fmt.Sprintf("table %s: the partition source field %d is not a written column", j.Table, pf.SourceID))
			continue
		}
		if err := sinkiceberg.CheckPartition(inTypes[col], pf.Transform); err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: %v", j.Table, j.Fields[col].Name, err))
		}
		s.spec = append(s.spec, sinkiceberg.PartitionField{Column: col, Transform: pf.Transform})
	}
	p := j.Parquet
	if p.Codec != "" {
		c, err := sinkparquet.ParseCompression(p.Codec)
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: write.parquet.compression-codec: %v", j.Table, err))
		}
		s.opts.Compression = c
	}
	if p.Level != nil {
		s.opts.CompressionLevel = *p.Level
		if s.opts.Compression != compress.Codecs.Zstd && s.opts.Compression != compress.Codecs.Gzip && s.opts.Compression != compress.Codecs.Brotli {
			reasons = append(reasons, fmt.Sprintf("table %s: a compression level for %s is not applied natively", j.Table, p.Codec))
		}
	}
	for _, v := range []struct {
		name string
		src  int64
		dst  *int64
	}{
		{"write.parquet.row-group-size-bytes", p.RowGroupBytes, &s.opts.RowGroupBytes},
		{"write.parquet.page-size-bytes", p.PageBytes, &s.opts.PageBytes},
		{"write.parquet.dict-size-bytes", p.DictBytes, &s.opts.DictBytes},
	} {
		switch {
		case v.src > 0:
			*v.dst = v.src
		case v.src < 0:
			reasons = append(reasons, fmt.Sprintf("table %s: %s = %d is not a positive number of bytes", j.Table, v.name, v.src))
		}
	}
	return s, reasons, nil
}

// IcebergWriter writes the data files of one Iceberg sink subtask: one open file per
// partition; Flink's Iceberg sink (the Java side) owns the files' locations and commits.
type IcebergWriter struct {
	table   string
	w       *sinkiceberg.FanoutWriter
	notNull *constraint.NotNull
}

// compileIcebergSinkIsland compiles the island JSON of an Iceberg sink node, which must run
// natively.
func compileIcebergSinkIsland(data []byte) (*icebergSink, error) {
	return compileNodeIsland(data, "iceberg sink", compileIcebergSink)
}

// OpenIcebergWriter compiles the island JSON of an Iceberg sink node.
func OpenIcebergWriter(data []byte) (*IcebergWriter, error) {
	s, err := compileIcebergSinkIsland(data)
	if err != nil {
		return nil, err
	}
	w, err := sinkiceberg.NewFanoutWriter(s.fields, s.spec, s.schema, s.opts, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &IcebergWriter{table: s.table, w: w, notNull: s.notNull}, nil
}

// Write adds a batch and returns the bytes of the partitions' files as frames: a big-endian
// int32 partition, an int32 length, the bytes.
func (w *IcebergWriter) Write(b arrow.RecordBatch) ([]byte, error) {
	if w.notNull != nil {
		checked, err := w.notNull.Enforce(b, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", w.table, err)
		}
		if checked == nil {
			return nil, nil // every row dropped
		}
		defer checked.Release()
		b = checked
	}
	chunks, err := w.w.Write(b)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", w.table, err)
	}
	n := 0
	for _, c := range chunks {
		n += 8 + len(c.Bytes)
	}
	out := make([]byte, 0, n)
	for _, c := range chunks {
		out = binary.BigEndian.AppendUint32(out, uint32(c.Partition))
		out = binary.BigEndian.AppendUint32(out, uint32(len(c.Bytes)))
		out = append(out, c.Bytes...)
	}
	return out, nil
}

// Finish completes a partition's open file and returns its last bytes.
func (w *IcebergWriter) Finish(partition int32) ([]byte, error) {
	out, err := w.w.Finish(partition)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", w.table, err)
	}
	return out, nil
}

// Close drops the rows of files that will not be finished.
func (w *IcebergWriter) Close() error {
	return w.w.Close()
}

// PartitionJSON returns a partition's values as JSON: null, a number or a string per field
// (bytes as base64).
func (w *IcebergWriter) PartitionJSON(partition int32) ([]byte, error) {
	vals, err := w.w.PartitionValues(partition)
	if err != nil {
		return nil, err
	}
	return partitionJSON(vals)
}

// IcebergSplitter splits the batches of a partitioned Iceberg sink in the HASH distribution
// mode by partition, before Flink shuffles them by the partition's path.
type IcebergSplitter struct {
	table string
	s     *sinkiceberg.Splitter
}

// OpenIcebergSplitter compiles the island JSON of a partitioned Iceberg sink node.
func OpenIcebergSplitter(data []byte) (*IcebergSplitter, error) {
	s, err := compileIcebergSinkIsland(data)
	if err != nil {
		return nil, err
	}
	sp, err := sinkiceberg.NewSplitter(s.fields, s.spec, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &IcebergSplitter{table: s.table, s: sp}, nil
}

// Split returns the rows of a batch by partition; the caller releases the parts' batches.
func (s *IcebergSplitter) Split(b arrow.RecordBatch) ([]sinkiceberg.Part, error) {
	parts, err := s.s.Split(b)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return parts, nil
}

// Generation is the splitter's partition numbering (see iceberg.Splitter#Split).
func (s *IcebergSplitter) Generation() int32 { return s.s.Generation() }

// PartitionJSON returns a partition's values as IcebergWriter#PartitionJSON does.
func (s *IcebergSplitter) PartitionJSON(partition int32) ([]byte, error) {
	vals, err := s.s.PartitionValues(partition)
	if err != nil {
		return nil, err
	}
	return partitionJSON(vals)
}

// partitionJSON encodes partition values: null, a number or a string per field (bytes as
// base64).
func partitionJSON(vals []sinkiceberg.Value) ([]byte, error) {
	out := make([]any, len(vals))
	for i, v := range vals {
		switch {
		case v.Null:
			out[i] = nil
		case v.IsStr:
			out[i] = v.Str
		case v.IsBytes:
			out[i] = v.Bytes // base64 in JSON
		default:
			out[i] = v.Int
		}
	}
	return json.Marshal(out)
}

// FloatMetricsJSON returns the float metrics of a partition's last finished file: bounds as
// the bits of a double, so that -0.0 survives.
func (w *IcebergWriter) FloatMetricsJSON(partition int32) ([]byte, error) {
	return encodeFloatMetrics(w.w.FloatMetrics(partition))
}

// floatMetricsJSON is how an Iceberg data file's float metrics go to the Java side: bounds as
// the bits of a double, so that -0.0 survives.
type floatMetricsJSON struct {
	ID     int    `json:"id"`
	Values int64  `json:"values"`
	Nulls  int64  `json:"nulls"`
	NaNs   int64  `json:"nans"`
	Lower  *int64 `json:"lower,omitempty"`
	Upper  *int64 `json:"upper,omitempty"`
}

// encodeFloatMetrics renders float metrics for the Java side.
func encodeFloatMetrics(ms []sinkiceberg.FloatMetrics) ([]byte, error) {
	out := make([]floatMetricsJSON, len(ms))
	for i, m := range ms {
		out[i] = floatMetricsJSON{ID: m.ID, Values: m.Values, Nulls: m.Nulls, NaNs: m.NaNs}
		if m.HasBounds {
			lo, hi := int64(math.Float64bits(m.Lower)), int64(math.Float64bits(m.Upper))
			out[i].Lower, out[i].Upper = &lo, &hi
		}
	}
	return json.Marshal(out)
}
