package adbc

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	wh "github.com/sluice-project/sluice/catalog/adbc"
)

func TestZZSpeed(t *testing.T) {
	e := wh.Endpoint{Driver: "postgresql", URI: os.Getenv("SLUICE_PG_URI")}
	c, _ := wh.Open(context.Background(), e, true)
	c.Exec(context.Background(), "DROP TABLE IF EXISTS zz_speed")
	c.Exec(context.Background(), "CREATE TABLE zz_speed (auction integer, bidder bigint, price bigint, ts timestamp(3))")
	schema := arrow.NewSchema([]arrow.Field{{Name: "auction", Type: arrow.PrimitiveTypes.Int32}, {Name: "bidder", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64}, {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	for i := 0; i < 65536; i++ {
		b.Field(0).(*array.Int32Builder).Append(int32(i % 1000))
		b.Field(1).(*array.Int64Builder).Append(int64(i * 7))
		b.Field(2).(*array.Int64Builder).Append(int64(i * 13))
		b.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(1700000000000 + int64(i)))
	}
	rec := b.NewRecordBatch()
	start := time.Now()
	var wg sync.WaitGroup
	per := 140 // x 65536 = 9.2M rows per writer
	for k := 0; k < 2; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := OpenWriter(context.Background(), Config{Endpoint: e, Target: Target{Table: "zz_speed", Columns: []string{"auction", "bidder", "price", "ts"}}, Guarantee: AtLeastOnce, MaxRows: 65536}, Attempt{SinkID: "zz", Subtask: k, Parallelism: 2})
			if err != nil {
				t.Error(err)
				return
			}
			for i := 0; i < per; i++ {
				if err := w.Write(context.Background(), rec); err != nil {
					t.Error(err)
					return
				}
			}
			w.Flush(context.Background())
			w.Close()
		}()
	}
	wg.Wait()
	d := time.Since(start)
	t.Logf("%d rows in %v: %.0f rows/s", 2*per*65536, d, float64(2*per*65536)/d.Seconds())
}
