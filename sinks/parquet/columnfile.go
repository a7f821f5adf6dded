package parquet

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// ColumnFunc writes the values of one leaf column of a batch into its column chunk. defs are
// its definition levels (nil for a REQUIRED column without optional ancestors), reps its
// repetition levels (nil outside lists and maps).
type ColumnFunc func(cw file.ColumnChunkWriter, in arrow.Array, defs, reps []int16) error

// FileColumn is one leaf column of a ColumnFile: its name (for errors), whether it is
// OPTIONAL, the batch column it comes from, and how its values are written. A flat column is
// its batch column; a leaf of a nested (ROW, ARRAY or MAP) column has the Leaf path that
// gives its values and levels.
type FileColumn struct {
	Name     string
	Nullable bool
	Source   int
	Leaf     *LeafPath
	Write    ColumnFunc
}

// ColumnFile writes batches into one Parquet file of flat columns. Batches are kept until they
// make a row group (rowGroupBytes of Arrow data, or Close), then written column by column, each
// by its FileColumn's function. The file formats that Sluice writes (Flink's filesystem
// format, Iceberg data files) differ in their schema and value conversions, not in this.
type ColumnFile struct {
	fw            *file.Writer
	mem           memory.Allocator
	cols          []FileColumn
	rowGroupBytes int64
	pending       []arrow.RecordBatch
	bytes         int64
	defs          []int16
}

// NewColumnFile starts a file on out with the given Parquet schema (one FileColumn per leaf
// column, in order), writer properties and key-value metadata (may be nil).
func NewColumnFile(out io.Writer, root *schema.GroupNode, props *pq.WriterProperties, meta metadata.KeyValueMetadata, cols []FileColumn, rowGroupBytes int64, mem memory.Allocator) (*ColumnFile, error) {
	if n := schema.NewSchema(root).NumColumns(); n != len(cols) {
		return nil, fmt.Errorf("parquet writer: a schema of %d leaf columns for %d columns", n, len(cols))
	}
	opts := []file.WriteOption{file.WithWriterProps(props)}
	if meta != nil {
		opts = append(opts, file.WithWriteMetadata(meta))
	}
	fw, err := file.NewParquetWriterWithError(out, root, opts...)
	if err != nil {
		return nil, fmt.Errorf("parquet writer: %w", err)
	}
	return &ColumnFile{fw: fw, mem: mem, cols: cols, rowGroupBytes: rowGroupBytes}, nil
}

// Write appends a batch of rows. The file keeps a reference to the batch until its row group
// is written.
func (w *ColumnFile) Write(b arrow.RecordBatch) error {
	if n := len(w.cols); n > 0 && int(b.NumCols()) <= w.cols[n-1].Source {
		return fmt.Errorf("parquet writer: a batch of %d columns for a file of %d", b.NumCols(), w.cols[n-1].Source+1)
	}
	b.Retain()
	w.pending = append(w.pending, b)
	for _, c := range b.Columns() {
		w.bytes += dataBytes(c.Data())
	}
	if w.bytes >= w.rowGroupBytes {
		return w.flushRowGroup()
	}
	return nil
}

// dataBytes is the size of an array's buffers, its children's (nested columns) included.
func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}

// flushRowGroup writes the pending batches as one row group.
func (w *ColumnFile) flushRowGroup() error {
	if len(w.pending) == 0 {
		return nil
	}
	defer func() {
		for _, b := range w.pending {
			b.Release()
		}
		w.pending, w.bytes = w.pending[:0], 0
	}()
	rgw, err := w.fw.AppendRowGroupChecked()
	if err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	for _, c := range w.cols {
		cw, err := rgw.NextColumn()
		if err != nil {
			return fmt.Errorf("parquet writer: column %s: %w", c.Name, err)
		}
		for _, b := range w.pending {
			if err := w.writeColumn(c, cw, b.Column(c.Source)); err != nil {
				return fmt.Errorf("parquet writer: column %s: %w", c.Name, err)
			}
		}
	}
	if err := rgw.Close(); err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	return nil
}

// writeColumn writes one batch's values of leaf column c.
func (w *ColumnFile) writeColumn(c FileColumn, cw file.ColumnChunkWriter, in arrow.Array) error {
	if c.Leaf == nil {
		return c.Write(cw, in, w.defLevels(in, c.Nullable), nil)
	}
	values, defs, reps, err := c.Leaf.Levels(in, w.mem)
	if err != nil {
		return err
	}
	defer values.Release()
	return c.Write(cw, values, defs, reps)
}

// defLevels returns the definition levels of a flat column (nil when it is REQUIRED).
func (w *ColumnFile) defLevels(in arrow.Array, nullable bool) []int16 {
	if !nullable {
		return nil
	}
	n := in.Len()
	if cap(w.defs) < n {
		w.defs = make([]int16, n)
	}
	defs := w.defs[:n]
	for i := range defs {
		if in.IsValid(i) {
			defs[i] = 1
		} else {
			defs[i] = 0
		}
	}
	return defs
}

// Close writes the last row group and the footer.
func (w *ColumnFile) Close() error {
	if err := w.flushRowGroup(); err != nil {
		return err
	}
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	return nil
}

// Discard drops the batches not written yet, for a file that will not be finished.
func (w *ColumnFile) Discard() {
	for _, b := range w.pending {
		b.Release()
	}
	w.pending, w.bytes = nil, 0
}
