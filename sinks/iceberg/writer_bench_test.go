package iceberg

import (
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// benchBatch is 8192 rows of (k INT, ts TIMESTAMP(3), s STRING, v DOUBLE): 100 keys, event
// time one millisecond apart, 16 distinct strings.
func benchBatch(b *testing.B) (arrow.RecordBatch, []Field) {
	b.Helper()
	const n = 8192
	types := []catalog.Type{catalog.IntType(true), catalog.TimestampType(3, true), catalog.StringType(true), catalog.DoubleType(true)}
	names := []string{"k", "ts", "s", "v"}
	sch, err := catalog.ArrowSchema(names, types)
	if err != nil {
		b.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer rb.Release()
	for i := 0; i < n; i++ {
		rb.Field(0).(*array.Int32Builder).Append(int32(i % 100))
		rb.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000 + int64(i)))
		rb.Field(2).(*array.StringBuilder).Append([]string{"alpha", "beta", "gamma", "delta"}[i%4] + string(rune('a'+i%4)))
		rb.Field(3).(*array.Float64Builder).Append(float64(i) / 7)
	}
	fields := []Field{{ID: 1, Name: "k", Iceberg: "int", Type: types[0]}, {ID: 2, Name: "ts", Iceberg: "timestamp", Type: types[1]},
		{ID: 3, Name: "s", Iceberg: "string", Type: types[2]}, {ID: 4, Name: "v", Iceberg: "double", Type: types[3]}}
	return rb.NewRecordBatch(), fields
}

// BenchmarkFanoutWrite reports ns/row of writing batches into data files, unpartitioned and
// partitioned by day(ts) and bucket(k) (the rows' partitions computed and the rows split).
func BenchmarkFanoutWrite(b *testing.B) {
	batch, fields := benchBatch(b)
	defer batch.Release()
	for _, c := range []struct {
		name string
		spec []PartitionField
	}{
		{"unpartitioned", nil},
		{"day_bucket8", []PartitionField{{Column: 1, Transform: "day"}, {Column: 0, Transform: "bucket[8]"}}},
		{"truncate2", []PartitionField{{Column: 2, Transform: "truncate[2]"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			opts := DefaultOptions()
			opts.RowGroupBytes = 1 << 20 // row groups are encoded during the run
			w, err := NewFanoutWriter(fields, c.spec, "", opts, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				chunks, err := w.Write(batch)
				if err != nil {
					b.Fatal(err)
				}
				for _, ch := range chunks {
					_, _ = io.Discard.Write(ch.Bytes)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*int(batch.NumRows())), "ns/row")
		})
	}
}
