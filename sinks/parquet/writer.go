// Package parquet writes Sluice's Arrow batches as Parquet files that Flink's own Parquet
// format reads back as the rows written: the physical types Flink's writer
// (ParquetRowDataWriter, ParquetSchemaConverter) chooses, its timestamp conventions and its
// writer settings (format version 1, SNAPPY by default, 128 MB row groups).
package parquet

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// Options are the format options that change what is written.
type Options struct {
	// UTCTimestamps is 'parquet.utc-timezone'; without it timestamps are wall clocks of the
	// JVM's default zone, whose fixed offset is ZoneOffsetSeconds.
	UTCTimestamps     bool
	ZoneOffsetSeconds int64
	// Int64Timestamps is 'parquet.write.int64.timestamp' (INT64 in TimestampUnit instead of
	// INT96).
	Int64Timestamps bool
	TimestampUnit   arrow.TimeUnit
	// Compression is 'parquet.compression' (default SNAPPY).
	Compression compress.Compression
	// RowGroupBytes is 'parquet.block.size'; PageBytes 'parquet.page.size'.
	RowGroupBytes, PageBytes int64
	// Dictionary is 'parquet.enable.dictionary'.
	Dictionary bool
}

// DefaultOptions are Flink's defaults (parquet-mr 1.15 through ParquetRowDataBuilder).
func DefaultOptions() Options {
	return Options{TimestampUnit: arrow.Microsecond, Compression: compress.Codecs.Snappy,
		RowGroupBytes: 128 << 20, PageBytes: 1 << 20, Dictionary: true}
}

// ParseCompression reads 'parquet.compression' as parquet-mr's CompressionCodecName does.
func ParseCompression(s string) (compress.Compression, error) {
	switch strings.ToUpper(s) {
	case "UNCOMPRESSED":
		return compress.Codecs.Uncompressed, nil
	case "SNAPPY":
		return compress.Codecs.Snappy, nil
	case "GZIP":
		return compress.Codecs.Gzip, nil
	case "ZSTD":
		return compress.Codecs.Zstd, nil
	case "LZ4_RAW":
		return compress.Codecs.Lz4Raw, nil
	case "BROTLI":
		return compress.Codecs.Brotli, nil
	}
	return compress.Codecs.Uncompressed, fmt.Errorf("parquet.compression '%s' is not supported natively (UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW, BROTLI are)", s)
}

// Writer writes batches of one row type into one Parquet file, row group by row group:
// INT96 timestamps by Sluice (their range goes beyond Arrow's nanosecond timestamps), every
// other column by pqarrow.
type Writer struct {
	*ColumnFile
	opts  Options
	sch   *arrow.Schema
	mem   memory.Allocator
	ctx   context.Context
	int96 []pq.Int96
	// present is scratch: the indexes of the INT96 values written from a batch's column.
	present []int
}

// NewWriter starts a file on out for rows of the given column names and types.
func NewWriter(names []string, types []catalog.Type, opts Options, out io.Writer, mem memory.Allocator) (*Writer, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	fields := make([]arrow.Field, len(names))
	props := []pq.WriterProperty{
		pq.WithVersion(pq.V1_0), pq.WithDataPageVersion(pq.DataPageV1), pq.WithCompression(opts.Compression),
		pq.WithDataPageSize(opts.PageBytes), pq.WithDictionaryDefault(opts.Dictionary), pq.WithAllocator(mem),
		pq.WithRootName("flink_schema"), pq.WithCreatedBy("sluice"),
	}
	for i, t := range types {
		dt, err := fileType(t, opts)
		if err != nil {
			return nil, fmt.Errorf("parquet writer: column %s: %w", names[i], err)
		}
		fields[i] = arrow.Field{Name: names[i], Type: dt, Nullable: t.Nullable}
	}
	sch := arrow.NewSchema(fields, nil)
	aprops := []pqarrow.WriterOption{pqarrow.WithAllocator(mem)}
	if !opts.Int64Timestamps {
		aprops = append(aprops, pqarrow.WithDeprecatedInt96Timestamps(true))
	}
	// The schema as format 2.6 makes it: format 1.0 would annotate nanosecond timestamps as
	// MICROS, where Flink's writer annotates INT64 TIMESTAMP(NANOS) (the only difference
	// between the two in pqarrow's schema conversion). The file is written as format 1.0.
	schemaProps := pq.NewWriterProperties(append(append([]pq.WriterProperty(nil), props...), pq.WithVersion(pq.V2_6))...)
	psch, err := pqarrow.ToParquet(sch, schemaProps, pqarrow.NewArrowWriterProperties(aprops...))
	if err != nil {
		return nil, fmt.Errorf("parquet writer: %w", err)
	}
	for c := 0; c < psch.NumColumns(); c++ {
		if col := psch.Column(c); col.PhysicalType() == pq.Types.FixedLenByteArray {
			// Flink's version-1 writer never dictionary-encodes FIXED_LEN_BYTE_ARRAY (its
			// decimals), and its reader cannot decode such dictionaries for compact decimals.
			props = append(props, pq.WithDictionaryFor(col.Path(), false))
		}
	}
	wprops := pq.NewWriterProperties(props...)
	w := &Writer{opts: opts, sch: sch, mem: mem, ctx: pqarrow.NewArrowWriteContext(context.Background(), nil)}
	var cols []FileColumn
	for i, t := range types {
		if !t.IsNested() {
			cols = append(cols, FileColumn{Name: names[i], Nullable: t.Nullable, Source: i, Write: w.columnFunc(i, t)})
			continue
		}
		for _, leaf := range Leaves(t) {
			cols = append(cols, FileColumn{Name: names[i], Nullable: leaf.Nullable(), Source: i, Leaf: leaf, Write: w.leafFunc(leaf)})
		}
	}
	if w.ColumnFile, err = NewColumnFile(out, psch.Root(), wprops, nil, cols, opts.RowGroupBytes, mem); err != nil {
		return nil, err
	}
	return w, nil
}

// columnFunc is how column i (of type t) is written: timestamps converted as Flink's writer
// stores them, every other column as is through pqarrow.
func (w *Writer) columnFunc(i int, t catalog.Type) ColumnFunc {
	switch {
	case (t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ) && !w.opts.Int64Timestamps:
		return func(cw file.ColumnChunkWriter, in arrow.Array, defs, _ []int16) error {
			w.present = w.present[:0]
			for i := 0; i < in.Len(); i++ {
				if in.IsValid(i) {
					w.present = append(w.present, i)
				}
			}
			return w.writeInt96(cw.(*file.Int96ColumnChunkWriter), in, w.present, defs, nil)
		}
	case t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ:
		return func(cw file.ColumnChunkWriter, in arrow.Array, defs, _ []int16) error {
			col := w.int64Timestamps(in)
			defer col.Release()
			return pqarrow.WriteArrowToColumn(w.ctx, cw, col, defs, nil, t.Nullable)
		}
	}
	return func(cw file.ColumnChunkWriter, in arrow.Array, defs, _ []int16) error {
		col := column.Retype(in, w.sch.Field(i).Type)
		defer col.Release()
		return pqarrow.WriteArrowToColumn(w.ctx, cw, col, defs, nil, t.Nullable)
	}
}

// leafFunc is how a leaf of a nested column is written: its values (one per slot of the leaf,
// see LeafPath.Levels) with their levels, timestamps converted as in flat columns, the rest
// through pqarrow.
func (w *Writer) leafFunc(leaf *LeafPath) ColumnFunc {
	t := leaf.Type()
	switch {
	case (t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ) && !w.opts.Int64Timestamps:
		return func(cw file.ColumnChunkWriter, in arrow.Array, defs, reps []int16) error {
			w.present = leaf.Present(defs, in.Len(), w.present[:0])
			return w.writeInt96(cw.(*file.Int96ColumnChunkWriter), in, w.present, defs, reps)
		}
	case t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ:
		return func(cw file.ColumnChunkWriter, in arrow.Array, defs, reps []int16) error {
			col := w.int64Timestamps(in)
			defer col.Release()
			return pqarrow.WriteArrowToColumn(w.ctx, cw, col, defs, reps, leaf.Nullable())
		}
	}
	dt, _ := catalog.ArrowType(t)
	return func(cw file.ColumnChunkWriter, in arrow.Array, defs, reps []int16) error {
		col := column.Retype(in, dt)
		defer col.Release()
		return pqarrow.WriteArrowToColumn(w.ctx, cw, col, defs, reps, leaf.Nullable())
	}
}

// fileType is the Arrow type a column is written from: pqarrow maps it to the physical type
// and annotation Flink's writer uses.
func fileType(t catalog.Type, opts Options) (arrow.DataType, error) {
	switch t.Kind {
	case catalog.Timestamp, catalog.TimestampLTZ:
		if opts.Int64Timestamps {
			return &arrow.TimestampType{Unit: opts.TimestampUnit}, nil // INT64, not adjusted to UTC
		}
		return &arrow.TimestampType{Unit: arrow.Nanosecond}, nil // INT96 (written by Sluice)
	case catalog.Raw, catalog.IntervalDayTime, catalog.IntervalYearMonth:
		return nil, fmt.Errorf("%s cannot be written to Parquet", t)
	case catalog.Row, catalog.Array, catalog.Map:
		return nestedFileType(t, opts)
	}
	return catalog.ArrowType(t)
}

// CheckNestedType says why a ROW, ARRAY or MAP column of type t is not written natively (nil
// when it is).
func CheckNestedType(t catalog.Type) error {
	_, err := nestedFileType(t, DefaultOptions())
	return err
}

// nestedFileType is the Arrow type whose Parquet schema (pqarrow) is the group Flink's
// ParquetSchemaConverter makes of a ROW, ARRAY or MAP: a ROW's fields, an ARRAY's LIST of
// "element", a MAP's MAP of "key_value" with a REQUIRED "key" (whatever its type says) and a
// "value".
func nestedFileType(t catalog.Type, opts Options) (arrow.DataType, error) {
	child := func(c catalog.Type) (arrow.DataType, error) { return fileType(c, opts) }
	switch t.Kind {
	case catalog.Row:
		fields := make([]arrow.Field, len(t.Fields))
		for k, f := range t.Fields {
			dt, err := child(f.Type)
			if err != nil {
				return nil, err
			}
			fields[k] = arrow.Field{Name: f.Name, Type: dt, Nullable: f.Type.Nullable}
		}
		return arrow.StructOf(fields...), nil
	case catalog.Array:
		dt, err := child(*t.Elem)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: dt, Nullable: t.Elem.Nullable}), nil
	}
	kt, err := child(*t.Elem)
	if err != nil {
		return nil, err
	}
	vt, err := child(*t.Value)
	if err != nil {
		return nil, err
	}
	m := arrow.MapOf(kt, vt)
	m.SetItemNullable(t.Value.Nullable)
	return m, nil
}

// writeInt96 writes TIMESTAMP values as Flink's writer stores them in INT96
// (ParquetRowDataWriter#timestampToInt96): the instant's milliseconds split by truncating
// division into a Julian day and nanoseconds of the day (negative before 1970), the
// nanoseconds of the second from the local date-time.
//
// present are the values written (those defined: the levels say which are NULL).
func (w *Writer) writeInt96(cw *file.Int96ColumnChunkWriter, in arrow.Array, present []int, defs, reps []int16) error {
	src := column.ReadTimestamps(in)
	if cap(w.int96) < len(present) {
		w.int96 = make([]pq.Int96, len(present))
	}
	vals := w.int96[:0]
	offset := w.opts.ZoneOffsetSeconds * 1000
	for _, i := range present {
		local, nanoOfMilli := src.At(i)
		ms := local
		var nanosOfDay int64
		if w.opts.UTCTimestamps {
			nanosOfDay = (ms%86_400_000)*1_000_000 + nanoOfMilli
		} else {
			// Timestamp#getNanos: the local date-time's nanoseconds of the second.
			nanos := (local-javatime.FloorDiv(local, 1000)*1000)*1_000_000 + nanoOfMilli
			ms = javatime.InstantOf(local, offset)
			nanosOfDay = ((ms%86_400_000)/1000)*1_000_000_000 + nanos
		}
		var v pq.Int96
		v.SetNanoSeconds(nanosOfDay)
		jd := uint32(int32(ms/86_400_000 + 2_440_588))
		v[8], v[9], v[10], v[11] = byte(jd), byte(jd>>8), byte(jd>>16), byte(jd>>24)
		vals = append(vals, v)
	}
	_, err := cw.WriteBatch(vals, defs, reps)
	return err
}

// int64Timestamps converts TIMESTAMP values to the INT64 value Flink's writer stores
// (ParquetRowDataWriter#timestampToInt64): the instant (the local date-time's in the JVM's
// zone, unless 'utc-timezone') in the configured unit, with the nanoseconds of the millisecond
// for MICROS and NANOS. The values are an Int64 array, which pqarrow writes as they are (a
// timestamp array in nanoseconds it would cut to microseconds in a format 1.0 file).
func (w *Writer) int64Timestamps(in arrow.Array) arrow.Array {
	src := column.ReadTimestamps(in)
	n := in.Len()
	buf, dst := column.NewValues[int64](w.mem, n)
	per := int64(1000)
	switch w.opts.TimestampUnit {
	case arrow.Millisecond:
		per = 1
	case arrow.Nanosecond:
		per = 1_000_000
	}
	offset := w.opts.ZoneOffsetSeconds * 1000
	for i := 0; i < n; i++ {
		ms, nanoOfMilli := src.At(i)
		if !w.opts.UTCTimestamps {
			ms = javatime.InstantOf(ms, offset)
		}
		switch w.opts.TimestampUnit {
		case arrow.Microsecond:
			dst[i] = ms*per + nanoOfMilli/1000
		case arrow.Nanosecond:
			dst[i] = ms*per + nanoOfMilli
		default:
			dst[i] = ms * per
		}
	}
	return column.MakeArray(arrow.PrimitiveTypes.Int64, n, column.CopyValidity(in, w.mem), buf)
}
