package agg

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// TestNanoTimestampExtremes: MIN and MAX of TIMESTAMP(9) order by millisecond, then nanos
// (TimestampData#compareTo), skip NULLs, merge partial accumulators and survive a state round
// trip.
func TestNanoTimestampExtremes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	t9 := catalog.TimestampType(9, true)
	dt, _ := catalog.ArrowType(t9)
	msBuf, nanoBuf, ms, nanos := column.NewNanoTimestamps(mem, 5)
	copy(ms, []int64{5, 5, -1, 7, 0})
	copy(nanos, []int32{2, 9, 999_999, 0, 0})
	valid := column.NewBitmap(mem, 5)
	for _, i := range []int{0, 1, 2, 3} {
		valid.Bytes()[0] |= 1 << i
	}
	col := column.MakeNanoTimestamps(dt, 5, valid, msBuf, nanoBuf)
	defer col.Release()
	for _, c := range []struct {
		max    bool
		g0, g1 [2]int64 // (ms, nanos) of groups 0 and 1
	}{{false, [2]int64{5, 2}, [2]int64{-1, 999_999}}, {true, [2]int64{5, 9}, [2]int64{7, 0}}} {
		a := &nanoExtremeAcc{max: c.max}
		a.setType(t9)
		a.Grow(3)
		for g := int32(0); g < 3; g++ {
			a.Reset(g)
		}
		a.Accumulate(col, []int32{0, 0, 1, 1, 1}) // row 4 is NULL
		// Group 2 gets group 0 by merging; then a state round trip of group 1 into group 2.
		a.Merge(2, 0)
		if a.ms[2] != c.g0[0] || int64(a.nanos[2]) != c.g0[1] {
			t.Errorf("max=%v merged group: (%d, %d), want %v", c.max, a.ms[2], a.nanos[2], c.g0)
		}
		a.Reset(2)
		if _, err := a.Decode(a.Encode(nil, 1), 2); err != nil {
			t.Fatal(err)
		}
		out, err := a.Result(mem, []int32{0, 1, 2})
		if err != nil {
			t.Fatal(err)
		}
		gotMs, gotNanos := column.NanoTimestamps(out)
		for i, want := range [][2]int64{c.g0, c.g1, c.g1} {
			if !out.IsValid(i) || gotMs[i] != want[0] || int64(gotNanos[i]) != want[1] {
				t.Errorf("max=%v group %d: (%d, %d), want %v", c.max, i, gotMs[i], gotNanos[i], want)
			}
		}
		out.Release()
	}
}
