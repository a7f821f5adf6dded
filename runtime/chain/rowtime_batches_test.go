package chain

import (
	"math"
	"reflect"
	"testing"
)

// RowTimeMiniBatchAssginerOperator's watermarks: with a 1,000 ms interval the first at or past
// 999 goes on, then the first at or past the end of the interval the last one fell in; negative
// and repeated watermarks stay; the final one goes on at once.
func TestRowTimeBatchesWatermarks(t *testing.T) {
	for _, c := range []struct {
		name     string
		interval int64
		in       []int64
		want     []int64
	}{
		{"first interval", 1000, []int64{-5, 0, 500, 998, 999, 1000, 1998}, []int64{999}},
		{"ends of intervals", 1000, []int64{999, 1500, 1999, 2000, 2998, 2999, 5000, 5001, 5998, 5999}, []int64{999, 1999, 2999, 5000, 5999}},
		{"a jump over intervals", 2000, []int64{10_500, 11_000, 11_998, 11_999}, []int64{10_500, 11_999}},
		{"the final watermark", 1000, []int64{300, math.MaxInt64, math.MaxInt64}, []int64{math.MaxInt64, math.MaxInt64}},
		{"an interval of 1 ms", 1, []int64{0, 0, 1, 5}, []int64{0, 1, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := newRowTimeBatches(c.interval)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, w := range c.in {
				if out, ok := b.watermark(w); ok {
					got = append(got, out)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	if _, err := newRowTimeBatches(0); err == nil {
		t.Error("an interval of 0 ms was taken")
	}
}
