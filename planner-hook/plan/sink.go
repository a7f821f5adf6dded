package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/sinks/constraint"
	sinkfs "github.com/sluice-project/sluice/sinks/filesystem"
	sinkparquet "github.com/sluice-project/sluice/sinks/parquet"
	sourcefs "github.com/sluice-project/sluice/sources/filesystem"
)

// SinkType is the exec-node type of a table sink.
const SinkType = "stream-exec-sink_1"

// OptBatchOutput is the chain option that makes a chain hand Arrow batches to a native sink
// instead of rows.
const OptBatchOutput = "sluice.chain.batch-output"

// sinkExec is the part of Flink's StreamExecSink JSON a native sink reads.
type sinkExec struct {
	DynamicTableSink struct {
		Table     fsTable `json:"table"`
		Abilities []struct {
			Type string `json:"type"`
		} `json:"abilities"`
	} `json:"dynamicTableSink"`
	TargetColumns      json.RawMessage `json:"targetColumns"`
	InputChangelogMode []string        `json:"inputChangelogMode"`
}

// sinkPlan is a native Parquet sink compiled: the rows it writes and how.
type sinkPlan struct {
	table string
	// names and types are the table's physical columns, the sink's input.
	names []string
	types []catalog.Type
	// partitionKeys are the table's partition keys (none: not partitioned); their values
	// name the directories and are not written into the files.
	partitionKeys []string
	defaultName   string
	opts          sinkparquet.Options
	// notNull checks the NOT NULL columns as Flink's ConstraintEnforcer does in front of the
	// sink (nil: none).
	notNull *constraint.NotNull
}

// fileColumns returns the columns written into the Parquet files: the physical columns
// that are not partition keys.
func (p *sinkPlan) fileColumns() (names []string, types []catalog.Type) {
	for i, n := range p.names {
		if !slices.Contains(p.partitionKeys, n) {
			names, types = append(names, n), append(types, p.types[i])
		}
	}
	return names, types
}

// Options of a filesystem Parquet sink that the native writer understands.
var sinkOptions = map[string]bool{
	"connector": true, "format": true, "path": true,
	"sink.rolling-policy.file-size": true, "sink.rolling-policy.rollover-interval": true,
	"sink.rolling-policy.inactivity-interval": true, "sink.rolling-policy.check-interval": true,
	"parquet.utc-timezone": true, "parquet.write.int64.timestamp": true, "parquet.timestamp.time.unit": true,
	"parquet.compression": true, "parquet.block.size": true, "parquet.page.size": true, "parquet.enable.dictionary": true,
	"source.monitor-interval": true, "source.report-statistics": true, "partition.default-name": true,
	"parquet.batch-size": true, "auto-compaction": true, "sink.shuffle-by-partition.enable": true,
	// Partition commits are Flink's (its StreamingFileWriter and PartitionCommitter run them on
	// the partitions that the native writer's buckets report).
	"sink.partition-commit.trigger": true, "sink.partition-commit.delay": true,
	"sink.partition-commit.watermark-time-zone": true, "sink.partition-commit.policy.kind": true,
	"sink.partition-commit.policy.class": true, "sink.partition-commit.policy.class.parameters": true,
	"sink.partition-commit.success-file.name": true, "partition.time-extractor.kind": true,
	"partition.time-extractor.class": true, "partition.time-extractor.timestamp-formatter": true,
	"partition.time-extractor.timestamp-pattern": true,
}

// compileSink decides whether a table sink is written natively and compiles it.
func compileSink(n *IslandNode, options map[string]string) (*sinkPlan, []string, error) {
	var j sinkExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("sink %s: %w", n.Name, err)
	}
	t := j.DynamicTableSink.Table
	opts := t.ResolvedTable.Options
	isParquet, reasons := t.parquetReasons("written", func(k string) bool { return sinkOptions[k] })
	if !isParquet {
		return nil, reasons, nil
	}
	p := &sinkPlan{table: t.Identifier, opts: sinkparquet.DefaultOptions(), partitionKeys: t.ResolvedTable.PartitionKeys,
		defaultName: sourcefs.DefaultPartitionName}
	if v, ok := opts["partition.default-name"]; ok {
		p.defaultName = v
	}
	if len(p.partitionKeys) > 0 && p.defaultName == "" {
		reasons = append(reasons, fmt.Sprintf("table %s: 'partition.default-name' is empty", t.Identifier))
	}
	if strings.EqualFold(opts["sink.shuffle-by-partition.enable"], "true") && len(p.partitionKeys) > 0 {
		reasons = append(reasons, fmt.Sprintf("table %s: 'sink.shuffle-by-partition.enable' (a shuffle by partition before the writers) is not supported natively yet", t.Identifier))
	}
	if strings.EqualFold(opts["auto-compaction"], "true") {
		reasons = append(reasons, fmt.Sprintf("table %s: 'auto-compaction' is not supported natively yet", t.Identifier))
	}
	for _, a := range j.DynamicTableSink.Abilities {
		// A static partition (INSERT ... PARTITION (k = v)): the planner puts its values into
		// the rows, and Flink's streaming sink names partitions from the rows alone.
		if a.Type != "Partitioning" {
			reasons = append(reasons, fmt.Sprintf("table %s: sink ability %s is not supported natively", t.Identifier, a.Type))
		}
	}
	for _, m := range j.InputChangelogMode {
		if m != "INSERT" {
			reasons = append(reasons, fmt.Sprintf("table %s: only insert-only input is written natively (got %v)", t.Identifier, j.InputChangelogMode))
			break
		}
	}
	// The file's columns are the table's physical columns (Flink's writer uses the table's
	// physical row type): names from the table, the rows laid out as the sink's input.
	_, inTypes, err := n.RowFields()
	if err != nil {
		return nil, nil, fmt.Errorf("sink %s: %w", n.Name, err)
	}
	var names []string
	var types []catalog.Type
	for _, c := range t.ResolvedTable.Schema.Columns {
		if c.Kind != "" && c.Kind != "PHYSICAL" {
			continue // computed and metadata columns are not written by the filesystem sink
		}
		ct, err := catalog.ParseType(c.DataType)
		if err != nil {
			return nil, nil, fmt.Errorf("sink %s column %s: %w", n.Name, c.Name, err)
		}
		names, types = append(names, c.Name), append(types, ct)
	}
	if len(names) != len(inTypes) {
		return nil, []string{fmt.Sprintf("table %s: the sink's input has %d columns for %d physical columns", t.Identifier, len(inTypes), len(names))}, nil
	}
	for i := range types {
		if !writableAs(inTypes[i].WithNullable(false), types[i]) {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s is %s but the sink's input gives %s", t.Identifier, names[i], types[i], inTypes[i]))
		}
	}
	// Even an input typed NOT NULL may hold NULLs (the planner's implicit cast to the sink's row
	// type types a nullable column NOT NULL without checking it): the rows are checked.
	var constraintReasons []string
	p.notNull, constraintReasons = constraint.ForSink(names, types, options)
	for _, r := range constraintReasons {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", t.Identifier, r))
	}
	if len(j.TargetColumns) > 0 && string(j.TargetColumns) != "null" {
		reasons = append(reasons, fmt.Sprintf("table %s: inserts into a subset of the columns are not written natively yet", t.Identifier))
	}
	p.names, p.types = names, types
	for _, k := range p.partitionKeys {
		i := slices.Index(names, k)
		if i < 0 {
			return nil, nil, fmt.Errorf("sink %s: partition key %s is not a physical column", n.Name, k)
		}
		if err := sinkfs.CheckPartitionType(types[i]); err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: partition key %s: %v", t.Identifier, k, err))
		}
		if kind := types[i].Kind; (kind == catalog.Float || kind == catalog.Double) && !javatext.PrintsAsJava(javaVersion(options)) {
			reasons = append(reasons, fmt.Sprintf("table %s: partition key %s: partition values of type %s are named by Java's Float/Double#toString, whose digits changed in Java 19; the planning JVM is Java 19 or later, or its version is not known here", t.Identifier, k, types[i]))
		}
	}
	if v, ok := opts["parquet.utc-timezone"]; ok {
		p.opts.UTCTimestamps = strings.EqualFold(v, "true")
	}
	if v, ok := opts["parquet.write.int64.timestamp"]; ok {
		p.opts.Int64Timestamps = strings.EqualFold(v, "true")
	}
	if v, ok := opts["parquet.timestamp.time.unit"]; ok {
		switch strings.ToLower(v) {
		case "millis":
			p.opts.TimestampUnit = arrow.Millisecond
		case "micros":
			p.opts.TimestampUnit = arrow.Microsecond
		case "nanos":
			p.opts.TimestampUnit = arrow.Nanosecond
		default:
			reasons = append(reasons, fmt.Sprintf("table %s: 'parquet.timestamp.time.unit' = '%s' is not a unit Flink knows", t.Identifier, v))
		}
	}
	if v, ok := opts["parquet.compression"]; ok {
		c, err := sinkparquet.ParseCompression(v)
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: %v", t.Identifier, err))
		}
		p.opts.Compression = c
	}
	for key, dst := range map[string]*int64{"parquet.block.size": &p.opts.RowGroupBytes, "parquet.page.size": &p.opts.PageBytes} {
		if v, ok := opts[key]; ok {
			var b int64
			if _, err := fmt.Sscan(v, &b); err != nil || b <= 0 {
				reasons = append(reasons, fmt.Sprintf("table %s: '%s' = '%s' is not a positive number of bytes", t.Identifier, key, v))
			} else {
				*dst = b
			}
		}
	}
	if v, ok := opts["parquet.enable.dictionary"]; ok {
		p.opts.Dictionary = strings.EqualFold(v, "true")
	}
	hasTimestamps := false
	for i, ft := range types {
		switch ft.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double,
			catalog.Decimal, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time:
		case catalog.Timestamp, catalog.TimestampLTZ:
			// Only written columns are in the JVM's zone; a partition key names a directory.
			hasTimestamps = hasTimestamps || !slices.Contains(p.partitionKeys, names[i])
		case catalog.Row, catalog.Array, catalog.Map:
			if err := sinkparquet.CheckNestedType(ft); err != nil {
				reasons = append(reasons, fmt.Sprintf("table %s: column %s: %v", t.Identifier, names[i], err))
			}
			hasTimestamps = hasTimestamps || holdsTimestamps(ft)
		default:
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: %s is not written natively yet", t.Identifier, names[i], ft))
		}
	}
	if hasTimestamps && !p.opts.UTCTimestamps {
		if _, ok := options[OptJVMTimeZoneOffset]; !ok {
			reasons = append(reasons, fmt.Sprintf("table %s: timestamps are written in the JVM's time zone %s, which has no fixed offset", t.Identifier, options[OptJVMTimeZone]))
		}
	}
	return p, reasons, nil
}

// compileSinkIsland compiles the island JSON of a sink node, which must run natively.
func compileSinkIsland(data []byte) (*sinkPlan, error) {
	return compileNodeIsland(data, "sink", compileSink)
}

// SinkPartitioner prepares the batches a filesystem sink receives before Flink's file writer
// puts them into buckets: it checks the NOT NULL columns (as Flink's ConstraintEnforcer) and
// splits a partitioned table's rows by partition.
type SinkPartitioner struct {
	table   string
	p       *sinkfs.Partitioner // nil for a table without partitions
	notNull *constraint.NotNull
}

// OpenSinkPartitioner compiles the island JSON of a sink node that is partitioned or has
// NOT NULL columns.
func OpenSinkPartitioner(data []byte) (*SinkPartitioner, error) {
	p, err := compileSinkIsland(data)
	if err != nil {
		return nil, err
	}
	s := &SinkPartitioner{table: p.table, notNull: p.notNull}
	if len(p.partitionKeys) > 0 {
		if s.p, err = sinkfs.NewPartitioner(p.names, p.types, p.partitionKeys, p.defaultName, nil); err != nil {
			return nil, fmt.Errorf("table %s: %w", p.table, err)
		}
	}
	return s, nil
}

// Split returns the rows of a batch to write, by partition (see filesystem.Partitioner#Split);
// a table without partitions has one part with an empty path, or none when every row was
// dropped by the NOT NULL check.
func (s *SinkPartitioner) Split(b arrow.RecordBatch) ([]sinkfs.Part, error) {
	if s.notNull != nil {
		checked, err := s.notNull.Enforce(b, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", s.table, err)
		}
		if checked == nil {
			return nil, nil
		}
		defer checked.Release()
		b = checked
	}
	if s.p == nil {
		if b.NumRows() == 0 {
			return nil, nil // no part file for no rows
		}
		b.Retain()
		return []sinkfs.Part{{Batch: b}}, nil
	}
	parts, err := s.p.Split(b)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return parts, nil
}

// SinkWriter writes one Parquet part file natively; Flink's file sink owns the file's
// lifecycle (in-progress, pending, committed) and receives the bytes.
type SinkWriter struct {
	w   *sinkparquet.Writer
	buf bytes.Buffer
}

// OpenSinkWriter compiles the island JSON of a sink node and starts a file. zoneOffsetSeconds
// is the fixed offset of the writing JVM's default time zone (zoneFixed false: none).
func OpenSinkWriter(data []byte, zoneOffsetSeconds int64, zoneFixed bool) (*SinkWriter, error) {
	p, err := compileSinkIsland(data)
	if err != nil {
		return nil, err
	}
	names, types := p.fileColumns()
	if !p.opts.UTCTimestamps {
		if !zoneFixed {
			for _, t := range types {
				if holdsTimestamps(t) {
					return nil, fmt.Errorf("sink %s: this JVM's default time zone has no fixed offset, and Flink's Parquet writer would write timestamps in it", p.table)
				}
			}
		}
		p.opts.ZoneOffsetSeconds = zoneOffsetSeconds
	}
	sw := &SinkWriter{}
	if sw.w, err = sinkparquet.NewWriter(names, types, p.opts, &sw.buf, nil); err != nil {
		return nil, fmt.Errorf("table %s: %w", p.table, err)
	}
	return sw, nil
}

// Write adds a batch to the file and returns the file's bytes produced since the last call
// (the first call's include the header written when the file started).
func (s *SinkWriter) Write(b arrow.RecordBatch) ([]byte, error) {
	if err := s.w.Write(b); err != nil {
		return nil, err
	}
	return s.take(), nil
}

// Finish completes the file and returns its last bytes.
func (s *SinkWriter) Finish() ([]byte, error) {
	if err := s.w.Close(); err != nil {
		return nil, err
	}
	return s.take(), nil
}

// take returns the buffered file bytes and empties the buffer.
func (s *SinkWriter) take() []byte {
	out := append([]byte(nil), s.buf.Bytes()...)
	s.buf.Reset()
	return out
}

// outputDecoder returns a decoder of a chain's output rows (the last node's output type).
func outputDecoder(is *Island) (*binaryrow.Decoder, error) {
	last := is.Nodes[len(is.Nodes)-1]
	if h, err := last.Header(); err == nil && isScanType(h.Type) {
		// A chain of a scan alone (e.g. INSERT INTO t SELECT * FROM s): the scan's columns.
		types, err := scanColumns(&last, h.Type, is.Options)
		if err != nil {
			return nil, fmt.Errorf("chain output type: %w", err)
		}
		names := make([]string, len(types))
		for i := range names {
			names[i] = fmt.Sprintf("f%d", i)
		}
		return binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	}
	var h struct {
		OutputType json.RawMessage `json:"outputType"`
	}
	if err := json.Unmarshal(last.Exec, &h); err != nil {
		return nil, fmt.Errorf("chain output type: %w", err)
	}
	t, err := catalog.ParseType(h.OutputType)
	if err != nil {
		return nil, fmt.Errorf("chain output type: %w", err)
	}
	names, types, err := rowFields(t)
	if err != nil {
		return nil, fmt.Errorf("chain output type: %w", err)
	}
	return binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
}

// writableAs says whether a column of type in is written as a column of type out as it is,
// which is what Flink's writer does with a value the planner passes without a cast: the same
// type but for nullability where out allows NULL (at any depth), a string or binary no longer
// than a VARCHAR or VARBINARY target (the same bytes; Flink pads CHAR and BINARY targets and
// cuts longer values, with a cast) and the names of ROW fields (Parquet groups take the sink's
// names; values go by position). Types whose values Sluice lays out by their precision (DECIMAL,
// TIME, TIMESTAMP) must be equal.
func writableAs(in, out catalog.Type) bool {
	if in.Nullable && !out.Nullable {
		return false
	}
	switch {
	case in.IsString() && out.Kind == catalog.VarChar, in.IsBinary() && out.Kind == catalog.VarBinary:
		return in.Length <= out.Length
	case in.Kind != out.Kind:
		return false
	}
	switch in.Kind {
	case catalog.Row:
		if len(in.Fields) != len(out.Fields) {
			return false
		}
		for k := range in.Fields {
			if !writableAs(in.Fields[k].Type, out.Fields[k].Type) {
				return false
			}
		}
		return true
	case catalog.Array:
		return writableAs(*in.Elem, *out.Elem)
	case catalog.Map:
		return writableAs(*in.Elem, *out.Elem) && writableAs(*in.Value, *out.Value)
	}
	return in.WithNullable(true).Equal(out.WithNullable(true))
}

// holdsTimestamps says whether a type is or has TIMESTAMP or TIMESTAMP_LTZ parts.
func holdsTimestamps(t catalog.Type) bool {
	return t.Holds(func(p catalog.Type) bool { return p.Kind == catalog.Timestamp || p.Kind == catalog.TimestampLTZ })
}
