package scan

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/testkit/islands"
)

// TestKafkaFetchWatermark decodes a fetch of the golden Kafka table and checks its rows and its
// watermark: the maximum of ts - 1 s over the rows, rows with a null ts giving none.
func TestKafkaFetchWatermark(t *testing.T) {
	f, err := OpenKafkaFetch(islands.KafkaScan(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		records []string
		rows    int64
		mark    int64
	}{
		{[]string{
			`{"auction":1,"price":5,"ts":"2023-11-14T22:13:20.500"}`,
			`{"auction":2,"price":6,"ts":"2023-11-14T22:13:25"}`,
			`{"auction":3,"price":7,"ts":"2023-11-14T22:13:21"}`,
			``, // a tombstone: no row
		}, 3, 1700000005000 - 1000},
		{[]string{`{"auction":4,"price":8,"ts":null}`}, 1, NoWatermark},
		{nil, 0, NoWatermark},
	} {
		var values []byte
		starts := []int32{0}
		for _, r := range c.records {
			values = append(values, r...)
			starts = append(starts, int32(len(values)))
		}
		if next, err := f.Decode(values, starts, 0); err != nil || next != len(c.records) {
			t.Fatalf("%v: decode stopped at %d (%v), want all records native", c.records, next, err)
		}
		b, mark, err := f.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if b.NumRows() != c.rows || mark != c.mark {
			t.Errorf("%v: %d rows, watermark %d; want %d rows, watermark %d", c.records, b.NumRows(), mark, c.rows, c.mark)
		}
		if c.rows == 3 {
			if got := b.Column(0).(*array.Int32).Int32Values(); got[0] != 1 || got[1] != 2 || got[2] != 3 {
				t.Errorf("auctions %v, want record order", got)
			}
		}
		b.Release()
	}
}
