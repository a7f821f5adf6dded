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
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	ice "github.com/sluice-project/sluice/catalog/iceberg"
	"github.com/sluice-project/sluice/exec/column"
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
func OpenFile(r FileRange, fields []Field, batchRows int, skipRows int64, mem memory.Allocator) (Batches, error) {
	return OpenTableFile(r, Read{Fields: fields}, batchRows, skipRows, mem)
}

// Read is what a scan reads of each data file: the projected columns, the table's name
// mapping (see iceberg.ParseNameMapping; files without Parquet field ids are read through it),
// and the positions of the file's rows that position delete files delete.
type Read struct {
	Fields      []Field
	NameMapping map[string]int
	Deleted     []int64
}

// Batches are the batches of a data file range, as OpenTableFile reads them.
type Batches interface {
	// Next returns the next batch, or nil after the last one. The caller releases it.
	Next() (arrow.RecordBatch, error)
	Close() error
}

// OpenTableFile opens a file range for reading the rows of rd, skipping the first skipRows of
// them (a restored position counts the rows left after deletes, as the connector's reader
// counts the records it returned).
func OpenTableFile(r FileRange, rd Read, batchRows int, skipRows int64, mem memory.Allocator) (Batches, error) {
	fields := rd.Fields
	schema := parquet.Schema{
		Names:       make([]string, len(fields)),
		Types:       make([]catalog.Type, len(fields)),
		FieldIDs:    make([]parquet.ColumnIDs, len(fields)),
		NameMapping: rd.NameMapping,
	}
	for i, f := range fields {
		if err := Supported(f.Type, f.Iceberg); err != nil {
			return nil, fmt.Errorf("iceberg file %s, column %s: %w", r.Path, f.Name, err)
		}
		schema.Names[i], schema.Types[i] = f.Name, f.Type
		schema.FieldIDs[i] = columnIDs(f.ID, f.Iceberg)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	opts := parquet.Options{BatchRows: batchRows, Convert: convertColumn}
	split := parquet.Split{Path: r.Path, Offset: r.Start, Length: r.Length}
	if len(rd.Deleted) == 0 {
		sr, err := parquet.OpenSplit(split, schema, opts, skipRows, mem)
		if err != nil {
			return nil, fmt.Errorf("iceberg data file: %w", err)
		}
		return sr, nil
	}
	sr, err := parquet.OpenSplit(split, schema, opts, 0, mem)
	if err != nil {
		return nil, fmt.Errorf("iceberg data file: %w", err)
	}
	deleted := slices.Clone(rd.Deleted)
	slices.Sort(deleted)
	return &withoutDeleted{r: sr, deleted: deleted, pos: sr.FirstRow(), skip: skipRows, mem: mem}, nil
}

// withoutDeleted leaves out the rows of a file range whose positions are deleted (Iceberg's
// position deletes, as its DeleteFilter applies them), then the first skip rows left.
type withoutDeleted struct {
	r       *parquet.SplitReader
	deleted []int64 // ascending
	next    int     // deleted[next] is the first deleted position at or after pos
	pos     int64   // file position of the next row r returns
	skip    int64
	mem     memory.Allocator
	sel     []int32
}

func (d *withoutDeleted) Next() (arrow.RecordBatch, error) {
	for {
		b, err := d.r.Next()
		if b == nil || err != nil {
			return b, err
		}
		n := int(b.NumRows())
		d.sel = d.sel[:0]
		k := d.next
		for i := 0; i < n; i++ {
			p := d.pos + int64(i)
			for k < len(d.deleted) && d.deleted[k] < p {
				k++
			}
			switch {
			case k < len(d.deleted) && d.deleted[k] == p:
			case d.skip > 0:
				d.skip--
			default:
				d.sel = append(d.sel, int32(i))
			}
		}
		d.next, d.pos = k, d.pos+int64(n)
		if len(d.sel) == n {
			return b, nil
		}
		if len(d.sel) == 0 {
			b.Release()
			continue
		}
		out, err := column.TakeBatch(b, d.sel, d.mem)
		b.Release()
		return out, err
	}
}

func (d *withoutDeleted) Close() error { return d.r.Close() }

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
