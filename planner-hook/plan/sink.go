package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	sinkparquet "github.com/sluice-project/sluice/sinks/parquet"
	sourcerows "github.com/sluice-project/sluice/sources/rowdata"
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
	names []string
	types []catalog.Type
	opts  sinkparquet.Options
}

// Options of a filesystem Parquet sink that the native writer understands.
var sinkOptions = map[string]bool{
	"connector": true, "format": true, "path": true,
	"sink.rolling-policy.file-size": true, "sink.rolling-policy.rollover-interval": true,
	"sink.rolling-policy.inactivity-interval": true, "sink.rolling-policy.check-interval": true,
	"parquet.utc-timezone": true, "parquet.write.int64.timestamp": true, "parquet.timestamp.time.unit": true,
	"parquet.compression": true, "parquet.block.size": true, "parquet.page.size": true, "parquet.enable.dictionary": true,
	"source.monitor-interval": true, "source.report-statistics": true, "partition.default-name": true,
	"parquet.batch-size": true, "auto-compaction": true,
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
	p := &sinkPlan{table: t.Identifier, opts: sinkparquet.DefaultOptions()}
	if len(t.ResolvedTable.PartitionKeys) > 0 {
		reasons = append(reasons, fmt.Sprintf("table %s: partitioned filesystem tables are not written natively yet", t.Identifier))
	}
	if strings.EqualFold(opts["auto-compaction"], "true") {
		reasons = append(reasons, fmt.Sprintf("table %s: 'auto-compaction' is not supported natively yet", t.Identifier))
	}
	for _, a := range j.DynamicTableSink.Abilities {
		reasons = append(reasons, fmt.Sprintf("table %s: sink ability %s is not supported natively", t.Identifier, a.Type))
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
		if types[i].WithNullable(true).String() != inTypes[i].WithNullable(true).String() {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s is %s but the sink's input gives %s", t.Identifier, names[i], types[i], inTypes[i]))
		}
	}
	if len(j.TargetColumns) > 0 && string(j.TargetColumns) != "null" {
		reasons = append(reasons, fmt.Sprintf("table %s: inserts into a subset of the columns are not written natively yet", t.Identifier))
	}
	p.names, p.types = names, types
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
			hasTimestamps = true
			if ft.Precision > 6 {
				reasons = append(reasons, fmt.Sprintf("table %s: column %s: %s is not written natively yet", t.Identifier, names[i], ft))
			}
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

// SinkWriter writes one Parquet part file natively; Flink's file sink owns the file's
// lifecycle (in-progress, pending, committed) and receives the bytes.
type SinkWriter struct {
	w   *sinkparquet.Writer
	buf bytes.Buffer
}

// OpenSinkWriter compiles the island JSON of a sink node and starts a file. zoneOffsetSeconds
// is the fixed offset of the writing JVM's default time zone (zoneFixed false: none).
func OpenSinkWriter(data []byte, zoneOffsetSeconds int64, zoneFixed bool) (*SinkWriter, error) {
	is, err := Decode(data)
	if err != nil {
		return nil, err
	}
	if len(is.Nodes) != 1 {
		return nil, fmt.Errorf("sink: %d nodes, a sink island has one", len(is.Nodes))
	}
	p, reasons, err := compileSink(&is.Nodes[0], is.Options)
	if err == nil && len(reasons) > 0 {
		err = fmt.Errorf("sink %s cannot run natively: %s", is.Nodes[0].Name, strings.Join(reasons, "; "))
	}
	if err != nil {
		return nil, err
	}
	if !p.opts.UTCTimestamps {
		if !zoneFixed {
			for _, t := range p.types {
				if t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ {
					return nil, fmt.Errorf("sink %s: this JVM's default time zone has no fixed offset, and Flink's Parquet writer would write timestamps in it", p.table)
				}
			}
		}
		p.opts.ZoneOffsetSeconds = zoneOffsetSeconds
	}
	sw := &SinkWriter{}
	if sw.w, err = sinkparquet.NewWriter(p.names, p.types, p.opts, &sw.buf, nil); err != nil {
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
func outputDecoder(is *Island) (*sourcerows.Decoder, error) {
	last := is.Nodes[len(is.Nodes)-1]
	if h, err := last.Header(); err == nil && (h.Type == ScanType || h.Type == IcebergScanType) {
		// A chain of a scan alone (e.g. INSERT INTO t SELECT * FROM s): the scan's columns.
		types, err := scanColumns(&last, h.Type, is.Options)
		if err != nil {
			return nil, fmt.Errorf("chain output type: %w", err)
		}
		names := make([]string, len(types))
		for i := range names {
			names[i] = fmt.Sprintf("f%d", i)
		}
		return sourcerows.NewDecoder(names, types, memory.DefaultAllocator)
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
	return sourcerows.NewDecoder(names, types, memory.DefaultAllocator)
}
