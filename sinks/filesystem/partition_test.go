package filesystem

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// TestEscapePathName holds PartitionPathUtils#generatePartitionPath of every ASCII character
// (but NUL) and of non-ASCII text, printed by Flink 2.1.1.
func TestEscapePathName(t *testing.T) {
	var all strings.Builder
	for c := 1; c < 128; c++ {
		all.WriteByte(byte(c))
	}
	got := EscapePathName("k=1") + "=" + EscapePathName(all.String()) + "/" + EscapePathName("é k") + "=" + EscapePathName("Grüße, 世界 🌍") + "/"
	want := "k%3D1=%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F !%22%23$%25&%27()%2A+,-.%2F0123456789%3A;<%3D>%3F@ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_`abcdefghijklmnopqrstuvwxyz%7B|%7D~%7F/é k=Grüße, 世界 🌍/"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// row is one row of the test batch: a partition key of each type, and a data column.
type row struct {
	b    *bool
	i8   *int8
	i    *int32
	l    *int64
	dt   *int32
	dec  *int64 // unscaled, DECIMAL(10, 2)
	ts   *int64 // micros, TIMESTAMP(6)
	s    *string
	data int32
}

func p[T any](v T) *T { return &v }

var testTypes = []catalog.Type{
	{Kind: catalog.Boolean, Nullable: true}, {Kind: catalog.TinyInt, Nullable: true}, {Kind: catalog.Int, Nullable: true},
	{Kind: catalog.BigInt, Nullable: true}, {Kind: catalog.Date, Nullable: true},
	{Kind: catalog.Decimal, Precision: 10, Scale: 2, Nullable: true}, {Kind: catalog.Timestamp, Precision: 6, Nullable: true},
	{Kind: catalog.VarChar, Length: 1<<31 - 1, Nullable: true}, {Kind: catalog.Int},
}

var testNames = []string{"b", "i8", "i", "l", "dt", "dec", "ts", "s", "data"}

func testBatch(t *testing.T, mem memory.Allocator, rows []row) arrow.RecordBatch {
	t.Helper()
	schema, err := catalog.ArrowSchema(testNames, testTypes)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	for _, r := range rows {
		appendOr(bld.Field(0).(*array.BooleanBuilder), r.b)
		appendOr(bld.Field(1).(*array.Int8Builder), r.i8)
		appendOr(bld.Field(2).(*array.Int32Builder), r.i)
		appendOr(bld.Field(3).(*array.Int64Builder), r.l)
		if r.dt == nil {
			bld.Field(4).AppendNull()
		} else {
			bld.Field(4).(*array.Date32Builder).Append(arrow.Date32(*r.dt))
		}
		if r.dec == nil {
			bld.Field(5).AppendNull()
		} else {
			bld.Field(5).(*array.Decimal128Builder).Append(decimal128.FromI64(*r.dec))
		}
		if r.ts == nil {
			bld.Field(6).AppendNull()
		} else {
			bld.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(*r.ts))
		}
		appendOr(bld.Field(7).(*array.StringBuilder), r.s)
		bld.Field(8).(*array.Int32Builder).Append(r.data)
	}
	return bld.NewRecordBatch()
}

func appendOr[T any, B interface {
	Append(T)
	AppendNull()
}](b B, v *T) {
	if v == nil {
		b.AppendNull()
	} else {
		b.Append(*v)
	}
}

// split runs a partitioner over batches and returns, per batch, "path:data,data,..." per part.
func split(t *testing.T, keys []string, batches ...[]row) []string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	pt, err := NewPartitioner(testNames, testTypes, keys, "__DEFAULT_PARTITION__", mem)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, rows := range batches {
		b := testBatch(t, mem, rows)
		parts, err := pt.Split(b)
		b.Release()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, part := range parts {
			if int(part.Batch.NumCols()) != len(testNames)-len(keys) {
				t.Errorf("%s: %d columns, want %d", part.Path, part.Batch.NumCols(), len(testNames)-len(keys))
			}
			data := part.Batch.Column(int(part.Batch.NumCols()) - 1).(*array.Int32)
			var vals []string
			for r := 0; r < data.Len(); r++ {
				vals = append(vals, fmt.Sprint(data.Value(r)))
			}
			got = append(got, part.Path+":"+strings.Join(vals, ","))
			part.Batch.Release()
		}
		out = append(out, strings.Join(got, " "))
	}
	return out
}

func TestSplitNamesPartitionsAsFlink(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
		rows []row
		want string
	}{
		{"boolean", []string{"b"}, []row{{b: p(true), data: 1}, {data: 2}, {b: p(false), data: 3}, {b: p(true), data: 4}},
			"b=true/:1,4 b=__DEFAULT_PARTITION__/:2 b=false/:3"},
		{"integers", []string{"i8"}, []row{{i8: p(int8(-128)), data: 1}, {i8: p(int8(127)), data: 2}, {i8: p(int8(-128)), data: 3}},
			"i8=-128/:1,3 i8=127/:2"},
		// DATE is its epoch day, as Flink's Integer#toString of the internal value.
		{"date", []string{"dt"}, []row{{dt: p(int32(19723)), data: 1}, {dt: p(int32(-1)), data: 2}},
			"dt=19723/:1 dt=-1/:2"},
		{"decimal", []string{"dec"}, []row{{dec: p(int64(1234)), data: 1}, {dec: p(int64(-5)), data: 2}, {dec: p(int64(0)), data: 3}},
			"dec=12.34/:1 dec=-0.05/:2 dec=0.00/:3"},
		{"timestamp", []string{"ts"}, []row{{ts: p(int64(1704067200000000)), data: 1}, {ts: p(int64(1704067200123456)), data: 2}, {ts: p(int64(-1)), data: 3}},
			"ts=2024-01-01T00%3A00/:1 ts=2024-01-01T00%3A00%3A00.123456/:2 ts=1969-12-31T23%3A59%3A59.999999/:3"},
		// NULL and the empty string are both the default partition; text is escaped.
		{"strings", []string{"s"}, []row{{s: p("a/b=c"), data: 1}, {s: p(""), data: 2}, {data: 3}, {s: p("é 50%"), data: 4}, {s: p("a/b=c"), data: 5}},
			"s=a%2Fb%3Dc/:1,5 s=__DEFAULT_PARTITION__/:2,3 s=é 50%25/:4"},
		// Keys in the table's partition order, not the columns' order.
		{"two-keys", []string{"s", "i"}, []row{{s: p("x"), i: p(int32(1)), data: 1}, {s: p("x"), i: p(int32(2)), data: 2},
			{s: p("y"), i: p(int32(1)), data: 3}, {s: p(""), data: 4}, {data: 5}, {s: p("x"), i: p(int32(1)), data: 6}},
			"s=x/i=1/:1,6 s=x/i=2/:2 s=y/i=1/:3 s=__DEFAULT_PARTITION__/i=__DEFAULT_PARTITION__/:4,5"},
		{"one-partition", []string{"l"}, []row{{l: p(int64(-9)), data: 1}, {l: p(int64(-9)), data: 2}},
			"l=-9/:1,2"},
	} {
		got := split(t, c.keys, c.rows)
		if got[0] != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.name, got[0], c.want)
		}
	}
}

func TestSplitAcrossBatchesAndForgetting(t *testing.T) {
	// More distinct values than the partitioner remembers: it forgets them and names them again.
	var first, second []row
	for i := 0; i < maxValues+10; i++ {
		first = append(first, row{i: p(int32(i)), data: int32(i)})
	}
	second = []row{{i: p(int32(5)), data: 1}, {i: p(int32(maxValues + 9)), data: 2}, {i: p(int32(5)), data: 3}}
	got := split(t, []string{"i"}, first, second, second)
	if n := strings.Count(got[0], " ") + 1; n != maxValues+10 {
		t.Errorf("first batch: %d parts, want %d", n, maxValues+10)
	}
	want := fmt.Sprintf("i=5/:1,3 i=%d/:2", maxValues+9)
	if got[1] != want || got[2] != want {
		t.Errorf("later batches: %q, %q, want %q", got[1], got[2], want)
	}
	// The partitioner itself: after the large batch it remembers every value, after the next
	// one only that batch's.
	pt, err := NewPartitioner(testNames, testTypes, []string{"i"}, "d", nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, rows := range [][]row{first, second} {
		b := testBatch(t, memory.DefaultAllocator, rows)
		parts, err := pt.Split(b)
		b.Release()
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range parts {
			part.Batch.Release()
		}
		if wantPaths := []int{maxValues + 10, 2}[k]; len(pt.paths) != wantPaths {
			t.Errorf("after batch %d: %d partitions remembered, want %d", k, len(pt.paths), wantPaths)
		}
	}
}

// TestSplitOtherKeyTypes names SMALLINT, TIME (milliseconds of the day), CHAR (its stored,
// padded text) and TIMESTAMP_LTZ (LocalDateTime#toString of the UTC date-time) partitions, on a
// sliced batch (a non-zero offset).
func TestSplitOtherKeyTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	types := []catalog.Type{{Kind: catalog.SmallInt, Nullable: true}, {Kind: catalog.Time, Nullable: true},
		{Kind: catalog.Char, Length: 3, Nullable: true}, {Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true},
		{Kind: catalog.Boolean, Nullable: true}, {Kind: catalog.Int}}
	names := []string{"sm", "tm", "c", "lt", "b", "data"}
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	bld.Field(0).(*array.Int16Builder).AppendValues([]int16{9, -5, -5, 7}, []bool{true, true, true, false})
	bld.Field(1).(*array.Time32Builder).AppendValues([]arrow.Time32{0, 3_600_000, 3_600_000, 1}, nil)
	bld.Field(2).(*array.StringBuilder).AppendValues([]string{"x", "ab ", "ab ", "z"}, nil)
	bld.Field(3).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{0, 0, 1_704_067_200_123, 5}, nil)
	bld.Field(4).(*array.BooleanBuilder).AppendValues([]bool{false, true, true, false}, []bool{true, true, true, false})
	bld.Field(5).(*array.Int32Builder).AppendValues([]int32{0, 1, 2, 3}, nil)
	whole := bld.NewRecordBatch()
	defer whole.Release()
	b := whole.NewSlice(1, 4) // rows 1..3
	defer b.Release()
	pt, err := NewPartitioner(names, types, []string{"sm", "tm", "c", "lt", "b"}, "NULL", mem)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := pt.Split(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, part := range parts {
		data := part.Batch.Column(0).(*array.Int32)
		got = append(got, fmt.Sprintf("%s:%v", part.Path, data.Int32Values()))
		part.Batch.Release()
	}
	want := "sm=-5/tm=3600000/c=ab /lt=1970-01-01T00%3A00/b=true/:[1] sm=-5/tm=3600000/c=ab /lt=2024-01-01T00%3A00%3A00.123/b=true/:[2] " +
		"sm=NULL/tm=1/c=z/lt=1970-01-01T00%3A00%3A00.005/b=NULL/:[3]"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestSplitFloatKeys names FLOAT and DOUBLE partitions as Java 8 to 18's Float/Double#toString
// print the values (the printer is checked against Java in javacompat/javatext): -0.0 apart from 0.0,
// NaNs of any payload together, the exponent form from 10^7 and below 10^-3.
func TestSplitFloatKeys(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	types := []catalog.Type{{Kind: catalog.Double, Nullable: true}, {Kind: catalog.Float, Nullable: true}, {Kind: catalog.Int}}
	names := []string{"d", "f", "data"}
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	otherNaN := math.Float64frombits(0x7ff8_0000_0000_0001)
	bld.Field(0).(*array.Float64Builder).AppendValues([]float64{0, math.Copysign(0, -1), math.NaN(), otherNaN, 1e7, 1e-4, 0.001, 2.82879384806159e17, math.Inf(-1), 0},
		[]bool{true, true, true, true, true, true, true, true, true, false})
	bld.Field(1).(*array.Float32Builder).AppendValues([]float32{0.1, 0.1, 0.1, 0.1, 3.4e38, 1e-5, 0.001, 16777216, float32(math.Inf(1)), 1}, nil)
	bld.Field(2).(*array.Int32Builder).AppendValues([]int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, nil)
	b := bld.NewRecordBatch()
	defer b.Release()
	pt, err := NewPartitioner(names, types, []string{"d", "f"}, "NULL", mem)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := pt.Split(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, part := range parts {
		got = append(got, fmt.Sprintf("%s:%v", part.Path, part.Batch.Column(0).(*array.Int32).Int32Values()))
		part.Batch.Release()
	}
	want := "d=0.0/f=0.1/:[0] d=-0.0/f=0.1/:[1] d=NaN/f=0.1/:[2 3] d=1.0E7/f=3.4E38/:[4] d=1.0E-4/f=1.0E-5/:[5] " +
		"d=0.001/f=0.001/:[6] d=2.82879384806159008E17/f=1.6777216E7/:[7] d=-Infinity/f=Infinity/:[8] d=NULL/f=1.0/:[9]"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestPartitionerRefuses(t *testing.T) {
	types := []catalog.Type{{Kind: catalog.Double}, {Kind: catalog.VarBinary, Length: 1<<31 - 1}, {Kind: catalog.Int}}
	names := []string{"d", "bs", "i"}
	for _, c := range []struct {
		keys []string
		def  string
		want string
	}{
		{[]string{"bs"}, "x", "identity"},
		{[]string{"nope"}, "x", "not a column"},
		{nil, "x", "no partition keys"},
		{[]string{"i"}, "", "default partition name is empty"},
	} {
		_, err := NewPartitioner(names, types, c.keys, c.def, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error with %q", c.keys, err, c.want)
		}
	}
	// A string that is not UTF-8 fails the batch rather than naming a directory Flink would not.
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	pt, err := NewPartitioner(testNames, testTypes, []string{"s"}, "d", mem)
	if err != nil {
		t.Fatal(err)
	}
	b := testBatch(t, mem, []row{{s: p("ok")}, {s: p("\xff")}})
	defer b.Release()
	if _, err := pt.Split(b); err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("got %v, want a UTF-8 error", err)
	}
}

func BenchmarkSplit(b *testing.B) {
	for _, c := range []struct {
		name string
		keys []string
		row  func(i int) row
	}{
		{"string-8-partitions", []string{"s"}, func(i int) row { return row{s: p(fmt.Sprint("p", i%8)), data: int32(i)} }},
		{"date-one-partition", []string{"dt"}, func(i int) row { return row{dt: p(int32(19723)), data: int32(i)} }},
		{"int-and-string-64-partitions", []string{"i", "s"}, func(i int) row {
			return row{i: p(int32(i % 8)), s: p(fmt.Sprint("p", i/8%8)), data: int32(i)}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			rows := make([]row, 8192)
			for i := range rows {
				rows[i] = c.row(i)
			}
			t := &testing.T{}
			batch := testBatch(t, memory.DefaultAllocator, rows)
			defer batch.Release()
			pt, err := NewPartitioner(testNames, testTypes, c.keys, "d", nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				parts, err := pt.Split(batch)
				if err != nil {
					b.Fatal(err)
				}
				for _, part := range parts {
					part.Batch.Release()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
		})
	}
}
