package window

import (
	"reflect"
	"testing"
)

// The windows of Flink's group window assigners (TumblingWindowAssigner, SlidingWindowAssigner,
// CumulativeWindowAssigner#assignWindows), in their order, for timestamps on and off the
// boundaries, negative ones and offsets.
func TestTableFunctionAssignsFlinksWindows(t *testing.T) {
	tumble, _ := NewTumble(10, 0)
	tumbleOff, _ := NewTumble(10, 3)
	hop, _ := NewHop(10, 5, 0)
	cumulate, _ := NewCumulate(10, 5, 0)
	for _, c := range []struct {
		name string
		a    *Assigner
		ts   []int64
		want Windows
	}{
		{"tumble", tumble, []int64{0, 9, 10, -1},
			Windows{Rows: []int32{0, 1, 2, 3}, Starts: []int64{0, 0, 10, -10}, Ends: []int64{10, 10, 20, 0}, Times: []int64{9, 9, 19, -1}}},
		{"tumble-offset", tumbleOff, []int64{2, 3},
			Windows{Rows: []int32{0, 1}, Starts: []int64{-7, 3}, Ends: []int64{3, 13}, Times: []int64{2, 12}}},
		{"hop-latest-first", hop, []int64{7, 10},
			Windows{Rows: []int32{0, 0, 1, 1}, Starts: []int64{5, 0, 10, 5}, Ends: []int64{15, 10, 20, 15}, Times: []int64{14, 9, 19, 14}}},
		// t=3: [0,5) and [0,10); t=7: [0,10); t=-2: [-10,0) only (its first end after -2 is 0).
		{"cumulate-ends-ascending", cumulate, []int64{3, 7, -2},
			Windows{Rows: []int32{0, 0, 1, 2}, Starts: []int64{0, 0, 0, -10}, Ends: []int64{5, 10, 10, 0}, Times: []int64{4, 9, 9, -1}}},
	} {
		var got Windows
		NewTableFunction(c.a, false, FixedZone(0)).Apply(c.ts, nil, &got)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// Rows without a time attribute are dropped; a TIMESTAMP_LTZ attribute aligns to the zone's wall
// clock and window_time is the instant of the window's last millisecond.
func TestTableFunctionNullsAndZones(t *testing.T) {
	tumble, _ := NewTumble(3_600_000, 0)
	var got Windows
	valid := func(r int) bool { return r != 1 }
	// 01:30 UTC is 07:00 in GMT+05:30: the hour window [07:00, 08:00) local.
	NewTableFunction(tumble, true, FixedZone(19_800_000)).Apply([]int64{5_400_000, 0}, valid, &got)
	want := Windows{Rows: []int32{0}, Starts: []int64{25_200_000}, Ends: []int64{28_800_000}, Times: []int64{28_800_000 - 1 - 19_800_000}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
