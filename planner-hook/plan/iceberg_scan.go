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

// IcebergScan is a native Iceberg scan compiled.
type IcebergScan struct {
	Table       string
	Fields      []iceberg.Field
	NameMapping map[string]int
	BatchRows   int
}

// Types returns the types of the scan's columns.
func (s *IcebergScan) Types() []catalog.Type {
	ts := make([]catalog.Type, len(s.Fields))
	for i, f := range s.Fields {
		ts[i] = f.Type
	}
	return ts
}

// CompileIcebergScan decides whether an Iceberg scan is read natively and compiles it.
func CompileIcebergScan(n *IslandNode, options map[string]string) (*IcebergScan, []string, error) {
	var j icebergScanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("iceberg scan %s: %w", n.Name, err)
	}
	s := &IcebergScan{Table: j.Table}
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
		s.NameMapping = m
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
		s.Fields = append(s.Fields, iceberg.Field{ID: f.ID, Name: f.Name, Type: t, Iceberg: col.Type})
	}
	s.BatchRows = scanBatchRows(options)
	return s, reasons, nil
}
