// Package iceberg reads the Parquet data files of Iceberg tables into Sluice's Arrow batches
// with the values Flink's Iceberg connector (FlinkParquetReaders) puts into RowData: columns
// matched by Iceberg field id, columns added after a file was written read as NULL, and the
// type promotions Iceberg allows (int to long, float to double, wider decimals) applied.
//
// Which files and byte ranges a job reads is decided by Flink's Iceberg source (its split
// planner and enumerator); this package reads one file range of a split.
package iceberg

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	ice "github.com/sluice-project/sluice/catalog/iceberg"
	"github.com/sluice-project/sluice/sources/parquet"
)

// Field is a column of the projected Iceberg schema: its field id, its name, the Flink type
// Flink's Iceberg connector gives it, and its Iceberg type (whose field ids match the parts of
// a nested column with the file's).
type Field struct {
	ID      int
	Name    string
	Type    catalog.Type
	Iceberg ice.Type
}

// FileRange is the part of a data file one scan task reads, as Iceberg's FileScanTask has it.
type FileRange struct {
	Path          string
	Start, Length int64
}

// Supported reports whether the native reader reads columns of Flink type t from a column of
// Iceberg type it (its parts matched by field id), and why not.
func Supported(t catalog.Type, it ice.Type) error {
	if !t.IsNested() {
		return supportedPrimitive(t)
	}
	return ice.Walk(t, it, func(t catalog.Type, _ string) error { return supportedPrimitive(t) })
}

func supportedPrimitive(t catalog.Type) error {
	switch t.Kind {
	case catalog.Boolean, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double, catalog.Decimal,
		catalog.VarChar, catalog.VarBinary, catalog.Binary, catalog.Date, catalog.Time:
		return nil
	case catalog.Timestamp, catalog.TimestampLTZ:
		// Iceberg's timestamp and timestamptz: TIMESTAMP(6) and TIMESTAMP_LTZ(6) in Flink.
		if t.Precision == 6 {
			return nil
		}
	}
	return fmt.Errorf("Iceberg columns of Flink type %s are not read natively yet", t)
}

// OpenFile opens a file range for reading, skipping its first skipRows rows (a restored
// position). batchRows is the most rows per batch.
func OpenFile(r FileRange, fields []Field, batchRows int, skipRows int64, mem memory.Allocator) (*parquet.SplitReader, error) {
	return OpenMappedFile(r, fields, nil, batchRows, skipRows, mem)
}

// OpenMappedFile is OpenFile for a table with a name mapping (see iceberg.ParseNameMapping),
// through which files without Parquet field ids (imported files) are read.
func OpenMappedFile(r FileRange, fields []Field, nameMapping map[string]int, batchRows int, skipRows int64, mem memory.Allocator) (*parquet.SplitReader, error) {
	schema := parquet.Schema{
		Names:       make([]string, len(fields)),
		Types:       make([]catalog.Type, len(fields)),
		FieldIDs:    make([]parquet.ColumnIDs, len(fields)),
		NameMapping: nameMapping,
	}
	for i, f := range fields {
		if err := Supported(f.Type, f.Iceberg); err != nil {
			return nil, fmt.Errorf("iceberg file %s, column %s: %w", r.Path, f.Name, err)
		}
		schema.Names[i], schema.Types[i] = f.Name, f.Type
		schema.FieldIDs[i] = columnIDs(f.ID, f.Iceberg)
	}
	opts := parquet.Options{BatchRows: batchRows, Convert: convertColumn}
	sr, err := parquet.OpenSplit(parquet.Split{Path: r.Path, Offset: r.Start, Length: r.Length}, schema, opts, skipRows, mem)
	if err != nil {
		return nil, fmt.Errorf("iceberg data file: %w", err)
	}
	return sr, nil
}

// columnIDs are the field ids of a column of Iceberg type t and of its parts.
func columnIDs(id int, t ice.Type) parquet.ColumnIDs {
	c := parquet.ColumnIDs{ID: id}
	for _, p := range t.Parts() {
		c.Parts = append(c.Parts, columnIDs(p.ID, p.Type))
	}
	return c
}

// arrowTypeOf is catalog.ArrowType for the types Supported accepts.
func arrowTypeOf(t catalog.Type) arrow.DataType {
	at, err := catalog.ArrowType(t)
	if err != nil {
		panic(fmt.Sprintf("iceberg: %s passed Supported but has no Arrow type: %v", t, err))
	}
	return at
}
