package plan

import (
	"encoding/json"
	"fmt"
	"strings"

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

// FileScan is a native scan compiled: the table, the columns it produces and how to read them.
type FileScan struct {
	Table  string
	path   string
	Schema parquet.Schema // the columns the scan produces
	Opts   parquet.Options
	// File is the part of schema read from the files; partitions are the other columns, whose
	// values come from the directory names.
	File        parquet.Schema
	Partitions  []partitionColumn
	DefaultName string
}

// partitionColumn is a produced column whose value is a partition directory's.
type partitionColumn struct {
	Pos int
	Key string
	Typ catalog.Type
}

// Filesystem and Parquet options a native scan understands (every other 'parquet.*' key only
// configures writers or Hadoop, which the reader does not use).
var scanOptions = map[string]bool{
	"connector": true, "format": true, "path": true,
	"source.monitor-interval": true, "source.report-statistics": true, "partition.default-name": true,
	"parquet.utc-timezone": true, "parquet.batch-size": true,
}

// CompileFileScan decides whether a table source scan is read natively and compiles it.
func CompileFileScan(n *IslandNode, options map[string]string) (*FileScan, []string, error) {
	var j scanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("scan %s: %w", n.Name, err)
	}
	t := j.ScanTableSource.Table
	opts := t.ResolvedTable.Options
	p := &FileScan{Table: t.Identifier, path: opts["path"]}
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
	if p.Schema.Names, p.Schema.Types, err = RowFields(out); err != nil {
		return nil, nil, fmt.Errorf("scan %s: %w", n.Name, err)
	}
	p.DefaultName = filesystem.DefaultPartitionName
	if v, ok := opts["partition.default-name"]; ok {
		p.DefaultName = v
	}
	isKey := map[string]bool{}
	for _, k := range t.ResolvedTable.PartitionKeys {
		isKey[k] = true
	}
	for i, name := range p.Schema.Names {
		ft := p.Schema.Types[i]
		if !isKey[name] {
			p.File.Names = append(p.File.Names, name)
			p.File.Types = append(p.File.Types, ft)
			continue
		}
		if !filesystem.SupportsPartitionType(ft) {
			reasons = append(reasons, fmt.Sprintf("table %s: partition column %s of type %s is not read natively (Flink cannot convert partition values to it either)",
				t.Identifier, name, ft))
		}
		p.Partitions = append(p.Partitions, partitionColumn{Pos: i, Key: name, Typ: ft})
	}
	if v, ok := opts["parquet.utc-timezone"]; ok {
		p.Opts.UTCTimestamps = strings.EqualFold(v, "true")
	}
	hasTimestamps := false
	for i, ft := range p.Schema.Types {
		if reason := scanTypeReason(ft); reason != "" {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: %s", t.Identifier, p.Schema.Names[i], reason))
		}
		hasTimestamps = hasTimestamps || ft.Kind == catalog.Timestamp || ft.Kind == catalog.TimestampLTZ
	}
	if hasTimestamps && !p.Opts.UTCTimestamps {
		if _, ok := options[OptJVMTimeZoneOffset]; !ok {
			reasons = append(reasons, fmt.Sprintf("table %s: timestamps are read in the JVM's time zone %s, which has daylight saving time or offset changes; set 'parquet.utc-timezone' = 'true' or run the JVM in a fixed-offset zone",
				t.Identifier, options[OptJVMTimeZone]))
		}
	}
	p.Opts.BatchRows = scanBatchRows(options)
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

// compileTableScan compiles a table source scan by its connector.
func compileTableScan(n *IslandNode, options map[string]string) (Node, []string, error) {
	if isKafkaScan(n) {
		return wrap(CompileKafkaScan(n, options))
	}
	return wrap(CompileFileScan(n, options))
}
