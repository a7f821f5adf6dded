package sink

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sinks/constraint"
	sinkiceberg "github.com/sluice-project/sluice/sinks/iceberg"
)

// IcebergWriter writes the data files of one Iceberg sink subtask: one open file per
// partition; Flink's Iceberg sink (the Java side) owns the files' locations and commits.
type IcebergWriter struct {
	table   string
	w       *sinkiceberg.FanoutWriter
	notNull *constraint.NotNull
}

// compileIcebergSinkIsland compiles the island JSON of an Iceberg sink node, which must run
// natively.
func compileIcebergSinkIsland(data []byte) (*plan.IcebergSink, error) {
	return plan.CompileNodeIsland(data, "iceberg sink", plan.CompileIcebergSink)
}

// OpenIcebergWriter compiles the island JSON of an Iceberg sink node.
func OpenIcebergWriter(data []byte) (*IcebergWriter, error) {
	s, err := compileIcebergSinkIsland(data)
	if err != nil {
		return nil, err
	}
	w, err := sinkiceberg.NewFanoutWriter(s.Fields, s.Spec, s.Schema, s.Opts, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	return &IcebergWriter{table: s.Table, w: w, notNull: s.NotNull}, nil
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
	sp, err := sinkiceberg.NewSplitter(s.Fields, s.Spec, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	return &IcebergSplitter{table: s.Table, s: sp}, nil
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
