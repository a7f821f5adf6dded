package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

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

// keyedShuffleOption is Flink's option of the shuffle by primary key in front of a sink with one
// (FORCE: always, AUTO: when the sink's parallelism differs from its input's, NONE: never).
const keyedShuffleOption = "table.exec.sink.keyed-shuffle"

// sinkExec is the part of Flink's StreamExecSink JSON a native sink reads.
type sinkExec struct {
	DynamicTableSink struct {
		Table     fsTable `json:"table"`
		Abilities []struct {
			Type         string   `json:"type"`
			MetadataKeys []string `json:"metadataKeys"`
		} `json:"abilities"`
	} `json:"dynamicTableSink"`
	// Configuration is the sink's persisted configuration (table.exec.sink.*).
	Configuration      map[string]string `json:"configuration"`
	TargetColumns      json.RawMessage   `json:"targetColumns"`
	InputChangelogMode []string          `json:"inputChangelogMode"`
	// RequireUpsertMaterialize says whether Flink puts its SinkUpsertMaterializer in front of
	// the sink (an upsert sink whose input's upsert key is not the table's primary key).
	RequireUpsertMaterialize bool `json:"requireUpsertMaterialize"`
}

// FileSink is a native Parquet sink compiled: the rows it writes and how.
type FileSink struct {
	Table string
	// Names and types are the table's physical columns, the sink's input.
	Names []string
	Types []catalog.Type
	// PartitionKeys are the table's partition keys (none: not partitioned); their values
	// name the directories and are not written into the files.
	PartitionKeys []string
	DefaultName   string
	Opts          sinkparquet.Options
	// NotNull checks the NOT NULL columns as Flink's ConstraintEnforcer does in front of the
	// sink (nil: none).
	NotNull *constraint.NotNull
}

// FileColumns returns the columns written into the Parquet files: the physical columns
// that are not partition keys.
func (p *FileSink) FileColumns() (names []string, types []catalog.Type) {
	for i, n := range p.Names {
		if !slices.Contains(p.PartitionKeys, n) {
			names, types = append(names, n), append(types, p.Types[i])
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

// CompileFileSink decides whether a table sink is written natively and compiles it.
func CompileFileSink(n *IslandNode, options map[string]string) (*FileSink, []string, error) {
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
	p := &FileSink{Table: t.Identifier, Opts: sinkparquet.DefaultOptions(), PartitionKeys: t.ResolvedTable.PartitionKeys,
		DefaultName: sourcefs.DefaultPartitionName}
	if v, ok := opts["partition.default-name"]; ok {
		p.DefaultName = v
	}
	if len(p.PartitionKeys) > 0 && p.DefaultName == "" {
		reasons = append(reasons, fmt.Sprintf("table %s: 'partition.default-name' is empty", t.Identifier))
	}
	if strings.EqualFold(opts["sink.shuffle-by-partition.enable"], "true") && len(p.PartitionKeys) > 0 {
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
	p.NotNull, constraintReasons = constraint.ForSink(names, types, options)
	for _, r := range constraintReasons {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", t.Identifier, r))
	}
	if len(j.TargetColumns) > 0 && string(j.TargetColumns) != "null" {
		reasons = append(reasons, fmt.Sprintf("table %s: inserts into a subset of the columns are not written natively yet", t.Identifier))
	}
	p.Names, p.Types = names, types
	for _, k := range p.PartitionKeys {
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
		p.Opts.UTCTimestamps = strings.EqualFold(v, "true")
	}
	if v, ok := opts["parquet.write.int64.timestamp"]; ok {
		p.Opts.Int64Timestamps = strings.EqualFold(v, "true")
	}
	if v, ok := opts["parquet.timestamp.time.unit"]; ok {
		switch strings.ToLower(v) {
		case "millis":
			p.Opts.TimestampUnit = arrow.Millisecond
		case "micros":
			p.Opts.TimestampUnit = arrow.Microsecond
		case "nanos":
			p.Opts.TimestampUnit = arrow.Nanosecond
		default:
			reasons = append(reasons, fmt.Sprintf("table %s: 'parquet.timestamp.time.unit' = '%s' is not a unit Flink knows", t.Identifier, v))
		}
	}
	if v, ok := opts["parquet.compression"]; ok {
		c, err := sinkparquet.ParseCompression(v)
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: %v", t.Identifier, err))
		}
		p.Opts.Compression = c
	}
	for key, dst := range map[string]*int64{"parquet.block.size": &p.Opts.RowGroupBytes, "parquet.page.size": &p.Opts.PageBytes} {
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
		p.Opts.Dictionary = strings.EqualFold(v, "true")
	}
	hasTimestamps := false
	for i, ft := range types {
		switch ft.Kind {
		case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double,
			catalog.Decimal, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time:
		case catalog.Timestamp, catalog.TimestampLTZ:
			// Only written columns are in the JVM's zone; a partition key names a directory.
			hasTimestamps = hasTimestamps || !slices.Contains(p.PartitionKeys, names[i])
		case catalog.Row, catalog.Array, catalog.Map:
			if err := sinkparquet.CheckNestedType(ft); err != nil {
				reasons = append(reasons, fmt.Sprintf("table %s: column %s: %v", t.Identifier, names[i], err))
			}
			hasTimestamps = hasTimestamps || HoldsTimestamps(ft)
		default:
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: %s is not written natively yet", t.Identifier, names[i], ft))
		}
	}
	if hasTimestamps && !p.Opts.UTCTimestamps {
		if _, ok := options[OptJVMTimeZoneOffset]; !ok {
			reasons = append(reasons, fmt.Sprintf("table %s: timestamps are written in the JVM's time zone %s, which has no fixed offset", t.Identifier, options[OptJVMTimeZone]))
		}
	}
	return p, reasons, nil
}

// CompileFileSinkIsland compiles the island JSON of a sink node, which must run natively.
func CompileFileSinkIsland(data []byte) (*FileSink, error) {
	return CompileNodeIsland(data, "sink", CompileFileSink)
}

// writableAs says whether a column of type in is written as a column of type out as it is,
// which is what Flink's writer does with a value the planner passes without a cast: the same
// type but for nullability where out allows NULL (at any depth), a string or binary no longer
// than a VARCHAR or VARBINARY target (the same bytes; Flink pads CHAR and BINARY targets and
// cuts longer values, with a cast), a time attribute as the plain timestamp it holds, and the
// names of ROW fields (Parquet groups take the sink's names; values go by position). Types
// whose values Sluice lays out by their precision (DECIMAL, TIME, TIMESTAMP) must be equal.
func writableAs(in, out catalog.Type) bool {
	// A time attribute (a rowtime column) is written as the timestamp it holds.
	in.TimeAttr = catalog.Regular
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

// HoldsTimestamps says whether a type is or has TIMESTAMP or TIMESTAMP_LTZ parts.
func HoldsTimestamps(t catalog.Type) bool {
	return t.Holds(func(p catalog.Type) bool { return p.Kind == catalog.Timestamp || p.Kind == catalog.TimestampLTZ })
}
