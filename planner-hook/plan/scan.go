package plan

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sources/filesystem"
	"github.com/sluice-project/sluice/sources/parquet"
)

// ScanType is the exec-node type of a table source scan.
const ScanType = "stream-exec-table-source-scan_1"

// Options the planner adds for scans: the JVM's default time zone, which Flink's Parquet
// reader uses for timestamps unless 'parquet.utc-timezone' is set, and its fixed offset (absent
// when the zone has daylight saving time or other offset changes).
const (
	OptJVMTimeZone       = "sluice.jvm-time-zone"
	OptJVMTimeZoneOffset = "sluice.jvm-time-zone-offset"
)

// scanExec is the part of Flink's StreamExecTableSourceScan JSON a native scan reads.
type scanExec struct {
	ScanTableSource struct {
		Table     fsTable `json:"table"`
		Abilities []struct {
			Type         string   `json:"type"`
			MetadataKeys []string `json:"metadataKeys"`
		} `json:"abilities"`
	} `json:"scanTableSource"`
	OutputType json.RawMessage `json:"outputType"`
}

// scanPlan is a native scan compiled: the table, the columns it produces and how to read them.
type scanPlan struct {
	table  string
	path   string
	schema parquet.Schema // the columns the scan produces
	opts   parquet.Options
	// file is the part of schema read from the files; partitions are the other columns, whose
	// values come from the directory names.
	file        parquet.Schema
	partitions  []partitionColumn
	defaultName string
}

// partitionColumn is a produced column whose value is a partition directory's.
type partitionColumn struct {
	pos int
	key string
	typ catalog.Type
}

// Filesystem and Parquet options a native scan understands (every other 'parquet.*' key only
// configures writers or Hadoop, which the reader does not use).
var scanOptions = map[string]bool{
	"connector": true, "format": true, "path": true,
	"source.monitor-interval": true, "source.report-statistics": true, "partition.default-name": true,
	"parquet.utc-timezone": true, "parquet.batch-size": true,
}

// compileScan decides whether a table source scan is read natively and compiles it.
func compileScan(n *IslandNode, options map[string]string) (*scanPlan, []string, error) {
	var j scanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("scan %s: %w", n.Name, err)
	}
	t := j.ScanTableSource.Table
	opts := t.ResolvedTable.Options
	p := &scanPlan{table: t.Identifier, path: opts["path"]}
	isParquet, reasons := t.parquetReasons("read", func(k string) bool {
		// Every 'parquet.*' key but the private read filters only configures writers or Hadoop;
		// sink options do not change reading.
		return scanOptions[k] || (strings.HasPrefix(k, "parquet.") && !strings.HasPrefix(k, "parquet.read")) ||
			strings.HasPrefix(k, "sink.") || strings.HasPrefix(k, "auto-compaction") || strings.HasPrefix(k, "compaction.")
	})
	if !isParquet {
		return nil, reasons, nil
	}
	for _, a := range j.ScanTableSource.Abilities {
		switch a.Type {
		case "ProjectPushDown", "FilterPushDown": // filters stay in the plan: the format skips nothing
		case "PartitionPushDown": // the planner chose the partitions; the Java side reads their directories
		case "ReadingMetadata":
			if len(a.MetadataKeys) > 0 {
				reasons = append(reasons, fmt.Sprintf("table %s: metadata columns %v are not read natively yet", t.Identifier, a.MetadataKeys))
			}
		default:
			reasons = append(reasons, fmt.Sprintf("table %s: source ability %s is not supported natively", t.Identifier, a.Type))
		}
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("scan %s output type: %w", n.Name, err)
	}
	if p.schema.Names, p.schema.Types, err = rowFields(out); err != nil {
		return nil, nil, fmt.Errorf("scan %s: %w", n.Name, err)
	}
	p.defaultName = filesystem.DefaultPartitionName
	if v, ok := opts["partition.default-name"]; ok {
		p.defaultName = v
	}
	isKey := map[string]bool{}
	for _, k := range t.ResolvedTable.PartitionKeys {
		isKey[k] = true
	}
	for i, name := range p.schema.Names {
		ft := p.schema.Types[i]
		if !isKey[name] {
			p.file.Names = append(p.file.Names, name)
			p.file.Types = append(p.file.Types, ft)
			continue
		}
		if !filesystem.SupportsPartitionType(ft) {
			reasons = append(reasons, fmt.Sprintf("table %s: partition column %s of type %s is not read natively (Flink cannot convert partition values to it either)",
				t.Identifier, name, ft))
		}
		p.partitions = append(p.partitions, partitionColumn{pos: i, key: name, typ: ft})
	}
	if v, ok := opts["parquet.utc-timezone"]; ok {
		p.opts.UTCTimestamps = strings.EqualFold(v, "true")
	}
	hasTimestamps := false
	for i, ft := range p.schema.Types {
		if reason := scanTypeReason(ft); reason != "" {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: %s", t.Identifier, p.schema.Names[i], reason))
		}
		hasTimestamps = hasTimestamps || ft.Kind == catalog.Timestamp || ft.Kind == catalog.TimestampLTZ
	}
	if hasTimestamps && !p.opts.UTCTimestamps {
		if _, ok := options[OptJVMTimeZoneOffset]; !ok {
			reasons = append(reasons, fmt.Sprintf("table %s: timestamps are read in the JVM's time zone %s, which has daylight saving time or offset changes; set 'parquet.utc-timezone' = 'true' or run the JVM in a fixed-offset zone",
				t.Identifier, options[OptJVMTimeZone]))
		}
	}
	p.opts.BatchRows = scanBatchRows(options)
	return p, reasons, nil
}

// scanTypeReason says why a column type is not read natively ("" when it is).
func scanTypeReason(t catalog.Type) string {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double,
		catalog.Decimal, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time:
		return ""
	case catalog.Timestamp, catalog.TimestampLTZ:
		return ""
	case catalog.Row, catalog.Array, catalog.Map:
		return nestedScanReason(t)
	}
	return fmt.Sprintf("%s is not read natively yet", t)
}

// nestedScanReason says why a ROW, ARRAY or MAP column is not read natively ("" when it is):
// its leaves must be flat types read natively, other than timestamps (which Flink's nested
// reader reads through its own INT96/INT64 paths, not reproduced yet).
func nestedScanReason(t catalog.Type) string {
	var inner []catalog.Type
	switch t.Kind {
	case catalog.Row:
		for _, f := range t.Fields {
			inner = append(inner, f.Type)
		}
	case catalog.Array:
		inner = []catalog.Type{*t.Elem}
	case catalog.Map:
		inner = []catalog.Type{*t.Elem, *t.Value}
	}
	for _, it := range inner {
		switch {
		case it.Kind == catalog.Timestamp || it.Kind == catalog.TimestampLTZ:
			return fmt.Sprintf("%s inside %s is not read natively yet", it, t)
		case it.IsNested():
			if r := nestedScanReason(it); r != "" {
				return r
			}
		default:
			if r := scanTypeReason(it); r != "" {
				return r
			}
		}
	}
	return ""
}

// ScanReader opens Parquet splits of one native scan.
type ScanReader struct {
	plan *scanPlan
}

// OpenScan compiles the island JSON of a scan node for reading its splits. zoneOffsetSeconds is
// the fixed offset of the reading JVM's default time zone (ok false when it has none).
func OpenScan(data []byte, zoneOffsetSeconds int64, zoneFixed bool) (*ScanReader, error) {
	p, err := compileNodeIsland(data, "scan", compileScan)
	if err != nil {
		return nil, err
	}
	if !p.opts.UTCTimestamps {
		if !zoneFixed {
			for _, t := range p.schema.Types {
				if t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ {
					return nil, fmt.Errorf("scan of %s: this JVM's default time zone has no fixed offset, and Flink's Parquet reader would read timestamps in it", p.table)
				}
			}
		}
		p.opts.ZoneOffsetSeconds = zoneOffsetSeconds
	}
	return &ScanReader{plan: p}, nil
}

// SplitBatches reads the batches of one split.
type SplitBatches interface {
	// Next returns the next batch, or nil after the last one. The caller releases it.
	Next() (arrow.RecordBatch, error)
	// Close releases the split's file.
	Close() error
}

// OpenSplit opens one split of the scan's files, skipping its first skipRows rows.
func (s *ScanReader) OpenSplit(path string, offset, length, skipRows int64) (SplitBatches, error) {
	p := s.plan
	r, err := parquet.OpenSplit(parquet.Split{Path: path, Offset: offset, Length: length}, p.file, p.opts, skipRows, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", p.table, err)
	}
	if len(p.partitions) == 0 {
		return r, nil
	}
	// Partition values are the same for every row of the split: one column of a full batch's
	// length per partition key, sliced to each batch's length.
	spec := filesystem.PartitionSpec(path)
	ps := &partitionedSplit{SplitReader: r, plan: p, consts: make([]arrow.Array, len(p.partitions))}
	for i, pc := range p.partitions {
		v, ok := spec[pc.key]
		if !ok {
			ps.release()
			r.Close()
			return nil, fmt.Errorf("table %s: cannot find the partition value from path %s for partition %s", p.table, path, pc.key)
		}
		if ps.consts[i], err = filesystem.PartitionColumn(pc.key, v, p.defaultName, pc.typ, p.opts.BatchRows, memory.DefaultAllocator); err != nil {
			ps.release()
			r.Close()
			return nil, fmt.Errorf("table %s, file %s: %w", p.table, path, err)
		}
	}
	return ps, nil
}

// partitionedSplit adds the partition columns to the batches of a split's file columns.
type partitionedSplit struct {
	*parquet.SplitReader
	plan   *scanPlan
	consts []arrow.Array
}

// Next returns the next batch with the partition columns in their produced positions.
func (s *partitionedSplit) Next() (arrow.RecordBatch, error) {
	b, err := s.SplitReader.Next()
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	n := b.NumRows()
	cols := make([]arrow.Array, len(s.plan.schema.Names))
	fields := make([]arrow.Field, len(cols))
	file := 0
	part := 0
	for i := range cols {
		if part < len(s.plan.partitions) && s.plan.partitions[part].pos == i {
			cols[i] = array.NewSlice(s.consts[part], 0, n)
			part++
		} else {
			cols[i] = b.Column(file)
			cols[i].Retain()
			file++
		}
		fields[i] = arrow.Field{Name: s.plan.schema.Names[i], Type: cols[i].DataType(), Nullable: true}
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// Close closes the file and releases the partition columns.
func (s *partitionedSplit) Close() error {
	s.release()
	return s.SplitReader.Close()
}

func (s *partitionedSplit) release() {
	for _, c := range s.consts {
		if c != nil {
			c.Release()
		}
	}
}
