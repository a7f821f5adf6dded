package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/sluice-project/sluice/catalog"
	reader "github.com/sluice-project/sluice/sources/parquet"
)

// A batch written with Flink's conventions reads back, with Flink's reader semantics, as the
// same values: every type, nulls, timestamps before 1970 and before 1582 in a zone east of UTC.
func TestRoundTripThroughFlinksReadRules(t *testing.T) {
	names := []string{"b", "ti", "i", "l", "f", "d", "dc", "dw", "s", "bin", "dt", "tm", "ts", "lt", "t6", "lt6"}
	types := []catalog.Type{
		catalog.BooleanType(true), {Kind: catalog.TinyInt, Nullable: true}, catalog.IntType(false), catalog.BigIntType(true),
		{Kind: catalog.Float, Nullable: true}, catalog.DoubleType(true), catalog.DecimalType(10, 2, true), catalog.DecimalType(30, 8, true),
		catalog.StringType(true), {Kind: catalog.VarBinary, Length: catalog.MaxVarLength, Nullable: true},
		{Kind: catalog.Date, Nullable: true}, {Kind: catalog.Time, Precision: 0, Nullable: true},
		catalog.TimestampType(3, true), {Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true},
		catalog.TimestampType(6, true), {Kind: catalog.TimestampLTZ, Precision: 6, Nullable: true},
	}
	mem := memory.DefaultAllocator
	sch, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(mem, sch)
	defer rb.Release()
	// Before 1970 only whole seconds: Flink writes a fraction of a second before 1970 in a
	// zone east of UTC as negative nanoseconds that its own reader rejects (see below).
	tsValues := []int64{0, -1, 1_600_000_000_123, -12220156801000, -20000000000000, 86_400_001}
	for r, ts := range tsValues {
		null := r == 1
		appendOr := func(i int, f func()) {
			if null && types[i].Nullable {
				rb.Field(i).AppendNull()
			} else {
				f()
			}
		}
		appendOr(0, func() { rb.Field(0).(*array.BooleanBuilder).Append(r%2 == 0) })
		appendOr(1, func() { rb.Field(1).(*array.Int8Builder).Append(int8(-r * 40)) })
		appendOr(2, func() { rb.Field(2).(*array.Int32Builder).Append(int32(r * 1000003)) })
		appendOr(3, func() { rb.Field(3).(*array.Int64Builder).Append(int64(r) << 40) })
		appendOr(4, func() { rb.Field(4).(*array.Float32Builder).Append(float32(r) / 3) })
		appendOr(5, func() { rb.Field(5).(*array.Float64Builder).Append(float64(r) * -1e300) })
		appendOr(6, func() { rb.Field(6).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r*12345 - 99999))) })
		appendOr(7, func() {
			rb.Field(7).(*array.Decimal128Builder).Append(decimal128.New(int64(-r), uint64(r)*0x0123456789abcdef))
		})
		appendOr(8, func() { rb.Field(8).(*array.StringBuilder).Append("é" + string(rune('a'+r))) })
		appendOr(9, func() { rb.Field(9).(*array.BinaryBuilder).Append([]byte{byte(r), 0, 255}) })
		appendOr(10, func() { rb.Field(10).(*array.Date32Builder).Append(arrow.Date32(r*10000 - 30000)) })
		appendOr(11, func() { rb.Field(11).(*array.Time32Builder).Append(arrow.Time32(r * 3_600_000)) })
		appendOr(12, func() { rb.Field(12).(*array.TimestampBuilder).Append(arrow.Timestamp(ts)) })
		appendOr(13, func() { rb.Field(13).(*array.TimestampBuilder).Append(arrow.Timestamp(ts)) })
		// Microseconds below the millisecond after 1970 (before it, whole seconds as above).
		micros := ts * 1000
		if ts >= 0 {
			micros += int64(r%3) * 123
		}
		appendOr(14, func() { rb.Field(14).(*array.TimestampBuilder).Append(arrow.Timestamp(micros)) })
		appendOr(15, func() { rb.Field(15).(*array.TimestampBuilder).Append(arrow.Timestamp(micros)) })
	}
	batch := rb.NewRecordBatch()
	defer batch.Release()

	for _, c := range []struct {
		name string
		opts func(*Options)
	}{
		{"int96 in GMT+05:30", func(o *Options) { o.ZoneOffsetSeconds = 19_800 }},
		{"int96 utc", func(o *Options) { o.UTCTimestamps = true }},
		{"int64 micros in GMT-03:30", func(o *Options) { o.Int64Timestamps, o.ZoneOffsetSeconds = true, -12_600 }},
		{"int64 millis, gzip, no dictionary", func(o *Options) {
			o.Int64Timestamps, o.TimestampUnit, o.Dictionary = true, arrow.Millisecond, false
			o.Compression, _ = ParseCompression("gzip")
		}},
	} {
		opts := DefaultOptions()
		c.opts(&opts)
		path := writeFile(t, names, types, opts, batch)
		if opts.Int64Timestamps {
			// Annotated as Flink annotates them: TIMESTAMP(isAdjustedToUTC=false, unit) on INT64.
			// (Nanoseconds: TestInt64NanosLikeFlinksWriter.)
			pf, err := file.OpenParquetFile(path, false)
			if err != nil {
				t.Fatal(err)
			}
			unit := map[arrow.TimeUnit]string{arrow.Millisecond: "milliseconds", arrow.Microsecond: "microseconds", arrow.Nanosecond: "nanoseconds"}[opts.TimestampUnit]
			for _, c := range []int{12, 13, 14, 15} {
				col := pf.MetaData().Schema.Column(c)
				if lt := col.LogicalType().String(); col.PhysicalType() != pq.Types.Int64 || !strings.Contains(lt, unit) || !strings.Contains(lt, "isAdjustedToUTC=false") {
					t.Errorf("column %s is %s %s", col.Name(), col.PhysicalType(), lt)
				}
			}
			pf.Close()
		}
		r, err := reader.OpenSplit(reader.Split{Path: path, Length: 1 << 40}, reader.Schema{Names: names, Types: types},
			reader.Options{UTCTimestamps: opts.UTCTimestamps, ZoneOffsetSeconds: opts.ZoneOffsetSeconds, BatchRows: 100}, 0, mem)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := r.Next()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i := range names {
			if opts.TimestampUnit == arrow.Millisecond && types[i].Precision == 6 {
				continue // INT64 MILLIS keeps no microseconds, in Flink's writer too
			}
			if !array.Equal(got.Column(i), batch.Column(i)) {
				t.Errorf("%s: column %s: wrote %v, read %v", c.name, names[i], batch.Column(i), got.Column(i))
			}
		}
		got.Release()
		r.Close()
	}
}

// INT64 nanoseconds (parquet.timestamp.time.unit = nanos): annotated TIMESTAMP(NANOS) as
// Flink's writer does, values (ParquetRowDataWriter#timestampToInt64) the instant of the local
// date-time in the JVM's zone, milliseconds times 10^6 plus the nanoseconds of the millisecond,
// wrapping around in 64 bits beyond the years 1677 to 2262 as Java's long arithmetic does.
func TestInt64NanosLikeFlinksWriter(t *testing.T) {
	names := []string{"ts", "t6"}
	types := []catalog.Type{catalog.TimestampType(3, true), catalog.TimestampType(6, true)}
	sch, _ := catalog.ArrowSchema(names, types)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer rb.Release()
	rb.Field(0).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1_600_000_000_123, 0, -20_000_000_000_000}, []bool{true, false, true})
	rb.Field(1).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1_600_000_000_123_456, 0, 0}, []bool{true, false, false})
	batch := rb.NewRecordBatch()
	defer batch.Release()
	opts := DefaultOptions()
	opts.Int64Timestamps, opts.TimestampUnit, opts.ZoneOffsetSeconds = true, arrow.Nanosecond, 3600
	pf, err := file.OpenParquetFile(writeFile(t, names, types, opts, batch), false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	// Printed by Java 17 (Timestamp.valueOf in GMT+01:00, getTime() * 1000000L): the year-1336
	// value is a Julian-calendar date there, and its nanoseconds wrap around.
	want := [][]int64{{1599996400123000000, -1552568326290448384}, {1599996400123456000}}
	for c := range names {
		col := pf.MetaData().Schema.Column(c)
		if lt := col.LogicalType().String(); col.PhysicalType() != pq.Types.Int64 || !strings.Contains(lt, "nanoseconds") || !strings.Contains(lt, "isAdjustedToUTC=false") {
			t.Errorf("column %s is %s %s", col.Name(), col.PhysicalType(), lt)
		}
		cr, _ := pf.RowGroup(0).Column(c)
		vals, defs := make([]int64, 3), make([]int16, 3)
		_, n, err := cr.(*file.Int64ColumnChunkReader).ReadBatch(3, vals, defs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := vals[:n]; fmt.Sprint(got) != fmt.Sprint(want[c]) {
			t.Errorf("column %s: %v, want %v", names[c], got, want[c])
		}
	}
}

// Flink's writer stores a pre-1970 fraction of a second in a zone east of UTC as negative
// nanoseconds of the day, which its reader then rejects; Sluice writes the same bytes.
func TestInt96LikeFlinksWriter(t *testing.T) {
	names := []string{"ts"}
	types := []catalog.Type{catalog.TimestampType(3, false)}
	sch, _ := catalog.ArrowSchema(names, types)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer rb.Release()
	rb.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(-1)) // 1969-12-31T23:59:59.999 local
	batch := rb.NewRecordBatch()
	defer batch.Release()
	opts := DefaultOptions()
	opts.ZoneOffsetSeconds = 19_800
	pf, err := file.OpenParquetFile(writeFile(t, names, types, opts, batch), false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	cr, _ := pf.RowGroup(0).Column(0)
	vals := make([]pq.Int96, 1)
	if _, _, err := cr.(*file.Int96ColumnChunkReader).ReadBatch(1, vals, nil, nil); err != nil {
		t.Fatal(err)
	}
	// Timestamp.valueOf(1969-12-31T23:59:59.999) in GMT+05:30 is -19800001 ms: Julian day
	// 2440588 (truncated) and ((-19800001 % 86400000) / 1000) * 10^9 + 999000000 ns.
	nanos := int64(binary.LittleEndian.Uint64(vals[0][:8]))
	day := int32(binary.LittleEndian.Uint32(vals[0][8:]))
	if day != 2_440_588 || nanos != -19_800*1_000_000_000+999_000_000 {
		t.Fatalf("INT96 = day %d, %d ns", day, nanos)
	}
}

// writeFile writes one batch as a Parquet file and returns its path.
func writeFile(t *testing.T, names []string, types []catalog.Type, opts Options, batch arrow.RecordBatch) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(names, types, opts, &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "f.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := file.OpenParquetFile(path, false); err != nil {
		t.Fatalf("not a Parquet file: %v", err)
	}
	return path
}
