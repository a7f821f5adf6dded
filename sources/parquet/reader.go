// Package parquet reads Parquet files into Sluice's Arrow batches with the values Flink's own
// Parquet format (flink-parquet, ParquetVectorizedInputFormat) would put into RowData: the same
// columns matched by name, the same row groups per split, the same conversions of timestamps,
// small integers and decimals.
package parquet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// Schema is the row type a split is read into: the table's (projected) physical columns.
type Schema struct {
	Names []string
	Types []catalog.Type
	// FieldIDs, when set, match the columns with the file's columns by Parquet field id (as
	// Iceberg does) instead of by name, at every level of nesting; a column or ROW field whose
	// id is not in the file reads as NULLs.
	FieldIDs []ColumnIDs
	// NameMapping, with FieldIDs, gives the field ids of a file without Parquet field ids by
	// their paths (Iceberg's schema.name-mapping.default, see iceberg.ParseNameMapping).
	NameMapping map[string]int
}

// ColumnIDs are the Parquet field ids of a column and of its parts, in the order of the
// column's type: a ROW's fields, an ARRAY's element, a MAP's key and value.
type ColumnIDs struct {
	ID    int
	Parts []ColumnIDs
}

// part returns the ids of the i-th part, or nil when columns are matched by name.
func (c *ColumnIDs) part(i int) *ColumnIDs {
	if c == nil || i >= len(c.Parts) {
		return nil
	}
	return &c.Parts[i]
}

// Options are the format options that change what is read.
type Options struct {
	// BatchRows is the most rows per batch.
	BatchRows int
	// UTCTimestamps is the format option 'utc-timezone': INT96 and local timestamps are UTC
	// wall clocks. When false (Flink's default) they are wall clocks of the JVM's default
	// time zone, whose fixed offset is ZoneOffsetSeconds.
	UTCTimestamps     bool
	ZoneOffsetSeconds int64
	// Convert, when set, replaces Flink's Parquet conversions (ConvertFlink): a table format
	// such as Iceberg reads the same physical columns into the table's types by its own rules.
	Convert ConvertFunc
}

// ConvertFunc chooses, once per split, how the file column f (of physical type phys) becomes
// values of the table column name of type t, or says why it cannot.
type ConvertFunc func(name string, f pqarrow.SchemaField, phys pq.Type, t catalog.Type) (Converter, error)

// Split is a byte range of a file, as Flink's FileSourceSplit describes it.
type Split struct {
	Path           string
	Offset, Length int64
}

// SplitReader reads the row groups of one split, batch by batch.
type SplitReader struct {
	split  Split
	schema Schema
	opts   Options
	mem    memory.Allocator

	file   *file.Reader
	rr     pqarrow.RecordReader // nil when no requested column is in the file
	conv   []Converter          // per requested column; nil entries are missing columns
	source []int                // per requested column, its position in rr's batches, or -1
	int96  []*int96Column       // per requested column, its own INT96 reader, or nil
	left   int64                // rows of the split not yet returned
	skip   int64                // rows still to skip (restored position)
	// firstRow is the file position of the split's first row (before a restored position).
	firstRow int64
}

// OpenSplit opens a split for reading, skipping its first skipRows rows (a restored position).
func OpenSplit(split Split, schema Schema, opts Options, skipRows int64, mem memory.Allocator) (*SplitReader, error) {
	if opts.BatchRows <= 0 {
		opts.BatchRows = 2048
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	f, err := os.Open(split.Path)
	if err != nil {
		return nil, fmt.Errorf("parquet %s: %w", split.Path, err)
	}
	pf, err := file.NewParquetReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("parquet %s: not a readable Parquet file: %w", split.Path, err)
	}
	r := &SplitReader{split: split, schema: schema, opts: opts, mem: mem, file: pf, skip: skipRows}
	if err := r.open(); err != nil {
		pf.Close()
		return nil, fmt.Errorf("parquet %s: %w", split.Path, err)
	}
	return r, nil
}

func (r *SplitReader) open() error {
	fr, err := pqarrow.NewFileReader(r.file, pqarrow.ArrowReadProperties{BatchSize: int64(r.opts.BatchRows)}, r.mem)
	if err != nil {
		return err
	}
	groups := RowGroupsOfSplit(r.file, r.split.Offset, r.split.Length)
	for _, g := range groups {
		r.left += r.file.MetaData().RowGroup(g).NumRows()
	}
	if len(groups) > 0 {
		for g := 0; g < groups[0]; g++ {
			r.firstRow += r.file.MetaData().RowGroup(g).NumRows()
		}
	}
	fields := fr.Manifest.Fields
	byName := make(map[string]int, len(fields))
	byID := make(map[int]int, len(fields))
	for i, f := range fields {
		byName[f.Field.Name] = i
		if id := fieldID(f); id >= 0 {
			byID[id] = i
		}
	}
	var mapping map[string]int
	if r.schema.FieldIDs != nil && len(fields) > 0 && !hasFieldIDs(r.file.MetaData().Schema.Root()) {
		// A file not written by Iceberg (imported): Iceberg reads it through the table's name
		// mapping, or else with fallback ids (ParquetSchemaUtil#addFallbackIds: the columns'
		// positions from 1; nested fields get none, so they read as NULL).
		mapping = r.schema.NameMapping
		for i, f := range fields {
			if mapping == nil {
				byID[i+1] = i // the fallback id
			} else if id, ok := mapping[f.Field.Name]; ok {
				byID[id] = i
			}
		}
		if mapping == nil {
			mapping = map[string]int{} // no ids below the columns
		}
	}
	convert := r.opts.Convert
	if convert == nil {
		convert = func(name string, f pqarrow.SchemaField, phys pq.Type, t catalog.Type) (Converter, error) {
			return converterFor(name, f, phys, t, r.opts)
		}
	}
	r.conv = make([]Converter, len(r.schema.Names))
	r.source = make([]int, len(r.schema.Names))
	r.int96 = make([]*int96Column, len(r.schema.Names))
	var leaves, int96Cols []int
	sources := 0 // columns of the record reader: one per file column read, nested or not
	for c, name := range r.schema.Names {
		r.source[c] = -1
		i, ok := byName[name]
		var ids *idMatch
		if r.schema.FieldIDs != nil {
			want := &r.schema.FieldIDs[c]
			if i, ok = byID[want.ID]; ok {
				ids = &idMatch{ids: want, path: fields[i].Field.Name, mapping: mapping}
			}
		}
		if !ok {
			if r.schema.FieldIDs != nil && !r.schema.Types[c].Nullable {
				// Iceberg's reader fails on a required field a file does not have.
				return fmt.Errorf("column %s: the file has no field of id %d, and the column is NOT NULL (Iceberg: Missing required field)", name, r.schema.FieldIDs[c].ID)
			}
			continue // Flink reads a column missing from the file as NULLs
		}
		f := fields[i]
		if !f.IsLeaf() {
			leaf := func(name string, lf pqarrow.SchemaField, t catalog.Type) (Converter, error) {
				return convert(name, lf, r.file.MetaData().Schema.Column(lf.ColIndex).PhysicalType(), t)
			}
			if err := checkLayout(name, r.file.MetaData().Schema.Root().Field(i), r.schema.Types[c], ids); err != nil {
				return err
			}
			conv, err := nestedConverter(name, f, r.schema.Types[c], leaf, ids)
			if err != nil {
				return err
			}
			r.conv[c] = conv
			r.source[c] = sources
			sources++
			leaves = appendLeaves(leaves, f)
			continue
		}
		phys := r.file.MetaData().Schema.Column(f.ColIndex).PhysicalType()
		if k := r.schema.Types[c].Kind; r.opts.Convert == nil && phys == pq.Types.Int96 && (k == catalog.Timestamp || k == catalog.TimestampLTZ) {
			int96Cols = append(int96Cols, c)
			continue
		}
		conv, err := convert(name, f, phys, r.schema.Types[c])
		if err != nil {
			return err
		}
		r.conv[c] = conv
		r.source[c] = sources
		sources++
		leaves = append(leaves, f.ColIndex)
	}
	if r.skip > r.left {
		return fmt.Errorf("restored position %d is past the split's %d rows", r.skip, r.left)
	}
	// Whole row groups before the restored position are not read at all.
	for len(groups) > 0 && r.skip >= r.file.MetaData().RowGroup(groups[0]).NumRows() {
		n := r.file.MetaData().RowGroup(groups[0]).NumRows()
		r.skip -= n
		r.left -= n
		groups = groups[1:]
	}
	for _, c := range int96Cols {
		want, err := catalog.ArrowType(r.schema.Types[c])
		if err != nil {
			return fmt.Errorf("column %s: %w", r.schema.Names[c], err)
		}
		r.int96[c] = newInt96Column(r.schema.Names[c], r.file, fields[byName[r.schema.Names[c]]].ColIndex, groups, want, r.opts)
	}
	if len(leaves) == 0 || len(groups) == 0 {
		return nil
	}
	r.rr, err = fr.GetRecordReader(context.Background(), leaves, groups)
	return err
}

// Next returns the next batch of the split, or nil after the last one. The caller releases it.
func (r *SplitReader) Next() (arrow.RecordBatch, error) {
	for r.left > 0 {
		b, err := r.next()
		if err != nil {
			return nil, fmt.Errorf("parquet %s: %w", r.split.Path, err)
		}
		if r.skip == 0 {
			return b, nil
		}
		n := b.NumRows()
		if r.skip >= n {
			r.skip -= n
			b.Release()
			continue
		}
		// The rows after a restored position, copied so that batches keep offset 0.
		s, err := tail(b, r.skip, r.mem)
		b.Release()
		r.skip = 0
		return s, err
	}
	return nil, nil
}

func (r *SplitReader) next() (arrow.RecordBatch, error) {
	var in arrow.RecordBatch
	n := min(r.left, int64(r.opts.BatchRows))
	if r.rr != nil {
		if !r.rr.Next() {
			if err := r.rr.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("file ended %d rows before its row groups' row counts", r.left)
		}
		in = r.rr.RecordBatch()
		n = in.NumRows()
	}
	if n <= 0 {
		return nil, errors.New("empty batch")
	}
	cols := make([]arrow.Array, len(r.schema.Names))
	fields := make([]arrow.Field, len(cols))
	for c := range cols {
		t := r.schema.Types[c]
		dt, err := catalog.ArrowType(t)
		if err != nil {
			releaseAll(cols)
			return nil, fmt.Errorf("column %s: %w", r.schema.Names[c], err)
		}
		fields[c] = arrow.Field{Name: r.schema.Names[c], Type: dt, Nullable: true}
		if r.int96[c] != nil {
			col, err := r.int96[c].read(int(n), r.mem)
			if err != nil {
				releaseAll(cols)
				return nil, err
			}
			cols[c] = col
			continue
		}
		if r.source[c] < 0 {
			cols[c] = array.MakeArrayOfNull(r.mem, dt, int(n))
			continue
		}
		col, err := r.conv[c](in.Column(r.source[c]), r.mem)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols[c] = col
	}
	r.left -= n
	b := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
	releaseAll(cols)
	return b, nil
}

// FirstRow is the position in the file (counting from 0 over all its row groups) of the
// split's first row, before a restored position is skipped.
func (r *SplitReader) FirstRow() int64 { return r.firstRow }

// Close releases the file.
func (r *SplitReader) Close() error {
	if r.rr != nil {
		r.rr.Release()
		r.rr = nil
	}
	if r.file != nil {
		err := r.file.Close()
		r.file = nil
		return err
	}
	return nil
}

// tail returns the rows of b from row `from` on, as a new batch.
func tail(b arrow.RecordBatch, from int64, mem memory.Allocator) (arrow.RecordBatch, error) {
	n := b.NumRows()
	sel := make([]int32, 0, n-from)
	for r := from; r < n; r++ {
		sel = append(sel, int32(r))
	}
	return column.TakeBatch(b, sel, mem)
}

func releaseAll(cols []arrow.Array) {
	for _, c := range cols {
		if c != nil {
			c.Release()
		}
	}
}

// RowGroupsOfSplit returns the row groups a split of [offset, offset+length) reads: those whose
// midpoint lies in the range, as parquet-mr's footer filter (used by Flink's reader) decides, so
// that every row group belongs to exactly one split of a file.
func RowGroupsOfSplit(f *file.Reader, offset, length int64) []int {
	md := f.MetaData()
	var groups []int
	for g := 0; g < md.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		start, size := rowGroupExtent(rg)
		mid := start + size/2
		if mid >= offset && mid < offset+length {
			groups = append(groups, g)
		}
	}
	return groups
}

// rowGroupExtent returns where a row group starts (its first column chunk's dictionary page,
// or first data page) and its compressed size: the numbers parquet-mr's midpoint rule uses.
func rowGroupExtent(md *metadata.RowGroupMetaData) (start, size int64) {
	for i := 0; i < md.NumColumns(); i++ {
		cc, err := md.ColumnChunk(i)
		if err != nil {
			continue
		}
		if i == 0 {
			start = cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() < start {
				start = cc.DictionaryPageOffset()
			}
		}
		size += cc.TotalCompressedSize()
	}
	return start, size
}

// fieldID is a file column's Parquet field id, or -1 when it has none.
func fieldID(f pqarrow.SchemaField) int {
	if k := f.Field.Metadata.FindKey("PARQUET:field_id"); k >= 0 {
		if n, err := strconv.Atoi(f.Field.Metadata.Values()[k]); err == nil && n >= 0 {
			return n // pqarrow reports -1 for a column without an id
		}
	}
	return -1
}

// hasFieldIDs reports whether any field of a file schema has a Parquet field id (Iceberg's
// ParquetSchemaUtil#hasIds).
func hasFieldIDs(n schema.Node) bool {
	if n.FieldID() >= 0 && n.Parent() != nil {
		return true
	}
	if g, ok := n.(*schema.GroupNode); ok {
		for i := 0; i < g.NumFields(); i++ {
			if hasFieldIDs(g.Field(i)) {
				return true
			}
		}
	}
	return false
}

// appendLeaves appends the leaf column indexes under a nested file column.
func appendLeaves(leaves []int, f pqarrow.SchemaField) []int {
	if f.IsLeaf() {
		return append(leaves, f.ColIndex)
	}
	for _, c := range f.Children {
		leaves = appendLeaves(leaves, c)
	}
	return leaves
}
