package parquet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// writeFile writes n rows (a = row number, s = "r<row>", every 7th s NULL) in row groups of
// group rows and returns the path.
func writeFile(t *testing.T, n, group int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "small", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	w, err := pqarrow.NewFileWriter(schema, f, pq.NewWriterProperties(pq.WithMaxRowGroupLength(int64(group))), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for r := 0; r < n; r++ {
		b.Field(0).(*array.Int64Builder).Append(int64(r))
		if r%7 == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append("r" + itoa(r))
		}
		b.Field(2).(*array.Int32Builder).Append(int32(r * 1000))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func itoa(v int) string {
	if v == 0 {
		return "0"
	}
	var d []byte
	for ; v > 0; v /= 10 {
		d = append([]byte{byte('0' + v%10)}, d...)
	}
	return string(d)
}

var testSchema = Schema{
	Names: []string{"s", "a", "missing", "small"},
	Types: []catalog.Type{catalog.StringType(true), catalog.BigIntType(true), catalog.IntType(true), {Kind: catalog.TinyInt, Nullable: true}},
}

// readAll reads a split and returns column a's values, checking the other columns row by row.
func readAll(t *testing.T, path string, offset, length, skip int64) []int64 {
	t.Helper()
	r, err := OpenSplit(Split{Path: path, Offset: offset, Length: length}, testSchema, Options{BatchRows: 100}, skip, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []int64
	for {
		b, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return got
		}
		s := b.Column(0).(*array.String)
		a := b.Column(1).(*array.Int64)
		if b.Column(2).NullN() != int(b.NumRows()) {
			t.Fatalf("the missing column is not all NULL")
		}
		small := b.Column(3).(*array.Int8)
		for i := 0; i < int(b.NumRows()); i++ {
			v := a.Value(i)
			if (v%7 == 0) != s.IsNull(i) || (!s.IsNull(i) && s.Value(i) != "r"+itoa(int(v))) {
				t.Fatalf("row %d: s = %q", v, s.Value(i))
			}
			if small.Value(i) != int8(int32(v*1000)) { // Java's (byte) cast
				t.Fatalf("row %d: small = %d, want %d", v, small.Value(i), int8(int32(v*1000)))
			}
			got = append(got, v)
		}
		b.Release()
	}
}

func TestSplitsCoverEveryRowGroupOnce(t *testing.T) {
	path := writeFile(t, 1000, 128)
	st, _ := os.Stat(path)
	size := st.Size()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	groups := pf.NumRowGroups()
	pf.Close()
	if groups < 5 {
		t.Fatalf("want several row groups, got %d", groups)
	}
	for _, parts := range []int64{1, 2, 3, 7} {
		var all []int64
		step := size/parts + 1
		for off := int64(0); off < size; off += step {
			all = append(all, readAll(t, path, off, step, 0)...)
		}
		if len(all) != 1000 {
			t.Fatalf("%d splits: read %d rows, want 1000", parts, len(all))
		}
		for i, v := range all {
			if v != int64(i) {
				t.Fatalf("%d splits: row %d is %d", parts, i, v)
			}
		}
	}
}

func TestRestoredPositionSkipsRows(t *testing.T) {
	path := writeFile(t, 1000, 128)
	for _, skip := range []int64{0, 1, 127, 128, 129, 500, 999, 1000} {
		got := readAll(t, path, 0, 1<<40, skip)
		if int64(len(got)) != 1000-skip || (len(got) > 0 && got[0] != skip) {
			t.Fatalf("skip %d: got %d rows starting at %v", skip, len(got), got[:min(1, len(got))])
		}
	}
	if _, err := OpenSplit(Split{Path: path, Length: 1 << 40}, testSchema, Options{}, 1001, nil); err == nil {
		t.Fatal("a position past the split's rows must fail")
	}
}

func TestBadInputNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.parquet")
	if err := os.WriteFile(corrupt, []byte("PAR1 this is not parquet PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := writeFile(t, 10, 5)
	data, _ := os.ReadFile(good)
	truncated := filepath.Join(dir, "truncated.parquet")
	if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	wrongType := Schema{Names: []string{"s"}, Types: []catalog.Type{catalog.IntType(true)}}
	for _, c := range []struct {
		name, path string
		schema     Schema
	}{
		{"missing", filepath.Join(dir, "nope.parquet"), testSchema},
		{"corrupt", corrupt, testSchema},
		{"truncated", truncated, testSchema},
		{"wrong-type", good, wrongType},
	} {
		_, err := OpenSplit(Split{Path: c.path, Length: 1 << 40}, c.schema, Options{}, 0, nil)
		if err == nil || !strings.Contains(err.Error(), c.path) {
			t.Errorf("%s: want an error naming %s, got %v", c.name, c.path, err)
		}
	}
}

func TestInt96AsFlinkReadsIt(t *testing.T) {
	int96 := func(julianDay int32, nanosOfDay int64) pq.Int96 {
		var v pq.Int96
		v.SetNanoSeconds(nanosOfDay)
		v[8], v[9], v[10], v[11] = byte(julianDay), byte(julianDay>>8), byte(julianDay>>16), byte(julianDay>>24)
		return v
	}
	const epochDay = 2_440_588
	ist := Options{ZoneOffsetSeconds: 19_800} // GMT+05:30, Flink's default (not UTC) reading
	utc := Options{UTCTimestamps: true}
	cases := []struct {
		name    string
		v       pq.Int96
		opts    Options
		micros  bool // TIMESTAMP(4..6): the same milliseconds plus the microseconds of the millisecond (else TIMESTAMP(9))
		want    int64
		wantErr bool
	}{
		{"epoch utc", int96(epochDay, 0), utc, false, 0, false},
		{"fraction utc", int96(epochDay, 1_234_567_890), utc, false, 1_234, false},
		// Flink's writer in GMT+05:30 stores 1970-01-01T00:00:01 local as day 0, -19799 s.
		{"negative nanos of day, local", int96(epochDay, -19_799_000_000_000), ist, false, 1_000, false},
		{"negative nanos of day, utc", int96(epochDay, -19_799_000_000_000), utc, false, -19_799_000, false},
		{"negative fraction of a second, local", int96(epochDay, -1_500_000_000), ist, false, 0, true},
		{"negative fraction of a millisecond, utc", int96(epochDay, -1_500_001), utc, false, 0, true},
		{"negative fraction of a second is fine in utc", int96(epochDay, -1_500_000_000), utc, false, -1_500, false},
		{"day before the epoch, local", int96(epochDay-1, 86_399_999_000_000), ist, false, -1 + 19_800_000, false},
		{"micros utc", int96(epochDay, 1_234_567_000), utc, true, 1_234_567, false},
		{"micros local", int96(epochDay, 1_123_456_000), ist, true, 19_801_123_456, false},
		{"sub-microsecond nanos", int96(epochDay, 1_234_567_890), utc, true, 0, true},
	}
	for _, c := range cases {
		unit := column.Nanos
		if c.micros {
			unit = column.Micros
		}
		ms, nanoOfMilli, err := int96Timestamp(c.v, c.opts, unit)
		got := ms
		if c.micros {
			got = ms*1000 + nanoOfMilli/1000
		}
		if (err != nil) != c.wantErr || (err == nil && got != c.want) {
			t.Errorf("%s: got %d, %v; want %d (error %v)", c.name, got, err, c.want, c.wantErr)
		}
	}
	// A TIMESTAMP(0..3) column cannot hold what Flink's value keeps below the millisecond.
	if _, _, err := int96Timestamp(int96(epochDay, 1_234_567_890), utc, column.Millis); err == nil {
		t.Errorf("sub-millisecond INT96 value read as TIMESTAMP(3): no error")
	}
	if ms, _, err := int96Timestamp(int96(epochDay, 1_234_000_000), utc, column.Millis); err != nil || ms != 1_234 {
		t.Errorf("whole-millisecond INT96 value read as TIMESTAMP(3): %d, %v", ms, err)
	}
	// TIMESTAMP(7..9) keeps the nanoseconds of the millisecond (local: of the second's fraction).
	for _, c := range []struct {
		opts          Options
		wantMs, wantN int64
	}{{utc, 1_234, 567_890}, {ist, 19_801_234, 567_890}} {
		ms, nanoOfMilli, err := int96Timestamp(int96(epochDay, 1_234_567_890), c.opts, column.Nanos)
		if err != nil || ms != c.wantMs || nanoOfMilli != c.wantN {
			t.Errorf("nanos %+v: got (%d, %d, %v), want (%d, %d)", c.opts, ms, nanoOfMilli, err, c.wantMs, c.wantN)
		}
	}
}
