package plan

import (
	"encoding/json"
	"fmt"

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

// IcebergSink is a native Iceberg sink compiled.
type IcebergSink struct {
	Table  string
	Fields []sinkiceberg.Field
	Spec   []sinkiceberg.PartitionField
	Schema string
	Opts   sinkiceberg.Options
	// NotNull checks the NOT NULL columns as Flink's ConstraintEnforcer does in front of the
	// sink (nil: none).
	NotNull *constraint.NotNull
}

// CompileIcebergSink decides whether Go writes an Iceberg sink's data files and compiles it.
func CompileIcebergSink(n *IslandNode, options map[string]string) (*IcebergSink, []string, error) {
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
	s := &IcebergSink{Table: j.Table, Schema: j.Schema, Opts: sinkiceberg.DefaultOptions()}
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
		s.Fields = append(s.Fields, field)
	}
	names := make([]string, len(j.Fields))
	flinkTypes := make([]catalog.Type, len(j.Fields))
	for i, f := range j.Fields {
		names[i], flinkTypes[i] = f.Name, inTypes[i].WithNullable(!f.NotNull)
	}
	var constraintReasons []string
	s.NotNull, constraintReasons = constraint.ForSink(names, flinkTypes, options)
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
		s.Spec = append(s.Spec, sinkiceberg.PartitionField{Column: col, Transform: pf.Transform})
	}
	p := j.Parquet
	if p.Codec != "" {
		c, err := sinkparquet.ParseCompression(p.Codec)
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: write.parquet.compression-codec: %v", j.Table, err))
		}
		s.Opts.Compression = c
	}
	if p.Level != nil {
		s.Opts.CompressionLevel = *p.Level
		if s.Opts.Compression != compress.Codecs.Zstd && s.Opts.Compression != compress.Codecs.Gzip && s.Opts.Compression != compress.Codecs.Brotli {
			reasons = append(reasons, fmt.Sprintf("table %s: a compression level for %s is not applied natively", j.Table, p.Codec))
		}
	}
	for _, v := range []struct {
		name string
		src  int64
		dst  *int64
	}{
		{"write.parquet.row-group-size-bytes", p.RowGroupBytes, &s.Opts.RowGroupBytes},
		{"write.parquet.page-size-bytes", p.PageBytes, &s.Opts.PageBytes},
		{"write.parquet.dict-size-bytes", p.DictBytes, &s.Opts.DictBytes},
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
