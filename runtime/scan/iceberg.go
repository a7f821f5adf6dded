package scan

import (
	"fmt"

	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sources/iceberg"
)

// IcebergReader opens the data files of one native Iceberg scan.
type IcebergReader struct {
	scan *plan.IcebergScan
}

// OpenIcebergScan compiles the island JSON of an Iceberg scan node for reading its files.
func OpenIcebergScan(data []byte) (*IcebergReader, error) {
	s, err := plan.CompileNodeIsland(data, "iceberg scan", plan.CompileIcebergScan)
	if err != nil {
		return nil, err
	}
	return &IcebergReader{scan: s}, nil
}

// OpenFile opens the byte range [start, start+length) of a data file without the rows at the
// deleted positions (position deletes), skipping the first skipRows rows left.
func (r *IcebergReader) OpenFile(path string, start, length, skipRows int64, deleted []int64) (SplitBatches, error) {
	rd := iceberg.Read{Fields: r.scan.Fields, NameMapping: r.scan.NameMapping, Deleted: deleted}
	sr, err := iceberg.OpenTableFile(iceberg.FileRange{Path: path, Start: start, Length: length}, rd, r.scan.BatchRows, skipRows, nil)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", r.scan.Table, err)
	}
	return sr, nil
}
