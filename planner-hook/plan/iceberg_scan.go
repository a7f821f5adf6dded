package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/catalog"
	ice "github.com/sluice-project/sluice/catalog/iceberg"
	"github.com/sluice-project/sluice/sources/iceberg"
)

// IcebergScanType is the node type under which the planner sends a scan of an Iceberg table
// (Flink's IcebergTableSource): Flink cannot serialize that scan to exec-node JSON, so the Java
// side describes it with the facts the verdict needs.
const IcebergScanType = "sluice-iceberg-scan_1"

// icebergScanExec is the description of an Iceberg scan.
type icebergScanExec struct {
	Table string `json:"table"`
	// Fields are the projected columns: Iceberg field id, name and Flink type
	// (LogicalType#asSerializableString).
	Fields []struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"fields"`
	// Schema is the table's schema as Iceberg's SchemaParser prints it: the field ids of the
	// parts of nested columns.
	Schema string `json:"schema"`
	// NameMapping is the table's schema.name-mapping.default, through which files without
	// field ids are read.
	NameMapping string `json:"nameMapping"`
	// Streaming is 'streaming' = 'true': Flink's Iceberg source then reads the current
	// snapshot and the appends of later ones; the reader is the same.
	Streaming       bool   `json:"streaming"`
	Limit           *int64 `json:"limit"`
	WatermarkColumn string `json:"watermarkColumn"`
	// FileFormat is the table's 'write.format.default'; DeleteFiles the delete files of the
	// snapshot a batch scan reads, EqualityDeletes the equality delete files among them.
	FileFormat      string `json:"fileFormat"`
	DeleteFiles     int64  `json:"deleteFiles"`
	EqualityDeletes int64  `json:"equalityDeletes"`
	// Unsupported lists what else the Java side found that the native reader does not do.
	Unsupported []string `json:"unsupported"`
}

// icebergScan is a native Iceberg scan compiled.
type icebergScan struct {
	table       string
	fields      []iceberg.Field
	nameMapping map[string]int
	batchRows   int
}

func (s *icebergScan) types() []catalog.Type {
	ts := make([]catalog.Type, len(s.fields))
	for i, f := range s.fields {
		ts[i] = f.Type
	}
	return ts
}

// compileIcebergScan decides whether an Iceberg scan is read natively and compiles it.
func compileIcebergScan(n *IslandNode, options map[string]string) (*icebergScan, []string, error) {
	var j icebergScanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("iceberg scan %s: %w", n.Name, err)
	}
	s := &icebergScan{table: j.Table}
	var reasons []string
	if j.Limit != nil {
		reasons = append(reasons, fmt.Sprintf("table %s: a LIMIT pushed into the Iceberg source is not native yet", j.Table))
	}
	if j.WatermarkColumn != "" {
		reasons = append(reasons, fmt.Sprintf("table %s: watermarks from Iceberg column statistics ('watermark-column') are not native yet", j.Table))
	}
	if j.FileFormat != "parquet" {
		reasons = append(reasons, fmt.Sprintf("table %s: data files in %q are not read natively (Parquet only)", j.Table, j.FileFormat))
	}
	if j.EqualityDeletes > 0 {
		// Position deletes are applied natively; equality deletes are not.
		reasons = append(reasons, fmt.Sprintf("table %s: the snapshot has %d equality delete files; equality deletes are not applied natively yet", j.Table, j.EqualityDeletes))
	}
	for _, u := range j.Unsupported {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", j.Table, u))
	}
	var columns []ice.Field
	if j.Schema != "" {
		var err error
		if columns, err = ice.ParseSchema(j.Schema); err != nil {
			return nil, nil, fmt.Errorf("iceberg scan %s: %w", n.Name, err)
		}
	}
	if j.NameMapping != "" {
		m, err := ice.ParseNameMapping(j.NameMapping)
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: %v", j.Table, err))
		}
		s.nameMapping = m
	}
	for _, f := range j.Fields {
		t, err := catalog.ParseTypeString(f.Type)
		if err != nil {
			return nil, nil, fmt.Errorf("iceberg scan %s, column %s: %w", n.Name, f.Name, err)
		}
		col, _ := ice.FindField(columns, f.ID)
		if err := iceberg.Supported(t, col.Type); err != nil {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: %v", j.Table, f.Name, err))
		}
		s.fields = append(s.fields, iceberg.Field{ID: f.ID, Name: f.Name, Type: t, Iceberg: col.Type})
	}
	s.batchRows = scanBatchRows(options)
	return s, reasons, nil
}

// IcebergScanReader opens the data files of one native Iceberg scan.
type IcebergScanReader struct {
	scan *icebergScan
}

// OpenIcebergScan compiles the island JSON of an Iceberg scan node for reading its files.
func OpenIcebergScan(data []byte) (*IcebergScanReader, error) {
	s, err := compileNodeIsland(data, "iceberg scan", compileIcebergScan)
	if err != nil {
		return nil, err
	}
	return &IcebergScanReader{scan: s}, nil
}

// OpenFile opens the byte range [start, start+length) of a data file without the rows at the
// deleted positions (position deletes), skipping the first skipRows rows left.
func (r *IcebergScanReader) OpenFile(path string, start, length, skipRows int64, deleted []int64) (SplitBatches, error) {
	rd := iceberg.Read{Fields: r.scan.fields, NameMapping: r.scan.nameMapping, Deleted: deleted}
	sr, err := iceberg.OpenTableFile(iceberg.FileRange{Path: path, Start: start, Length: length}, rd, r.scan.batchRows, skipRows, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", r.scan.table, err)
	}
	return sr, nil
}
