package window

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestZoneMatchesFlink compares Zone with Flink's TimeWindowUtil on wall-clock times and
// instants around daylight-saving transitions (gaps, overlaps, a 30-minute shift, a zone whose
// daylight saving time ended in 1991). testdata/timewindowutil.txt holds what Flink's TimeWindowUtil
// computed; io.sluice.tools.TimeWindowGolden regenerates it.
func TestZoneMatchesFlink(t *testing.T) {
	f, err := os.Open("testdata/timewindowutil.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zones := map[string]Zone{}
	lines := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		z, ok := zones[fields[1]]
		if !ok {
			if z, err = LoadZone(fields[1]); err != nil {
				t.Fatal(err)
			}
			zones[fields[1]] = z
		}
		n := make([]int64, len(fields)-2)
		for i := range n {
			if n[i], err = strconv.ParseInt(fields[i+2], 10, 64); err != nil {
				t.Fatalf("%q: %v", sc.Text(), err)
			}
		}
		lines++
		switch fields[0] {
		case "wall":
			if got := z.Epoch(n[0]); got != n[1] {
				t.Errorf("%s: toEpochMills(%d) = %d, Flink %d", fields[1], n[0], got, n[1])
			}
			if got := z.TimerEpoch(n[0]); got != n[2] {
				t.Errorf("%s: toEpochMillsForTimer(%d) = %d, Flink %d", fields[1], n[0], got, n[2])
			}
		case "instant":
			if got := z.ToUTC(n[0]); got != n[1] {
				t.Errorf("%s: toUtcTimestampMills(%d) = %d, Flink %d", fields[1], n[0], got, n[1])
			}
			for i, interval := range []int64{3_600_000, 1_800_000} {
				if got := z.NextTrigger(n[0], interval); got != n[2+i] {
					t.Errorf("%s: getNextTriggerWatermark(%d, %d) = %d, Flink %d", fields[1], n[0], interval, got, n[2+i])
				}
			}
		}
	}
	if lines < 100 {
		t.Fatalf("only %d golden lines", lines)
	}
	if !zones["America/Los_Angeles"].dst || zones["Asia/Shanghai"].dst {
		t.Error("useDaylightTime: Los Angeles has daylight saving time, Shanghai has not")
	}
}

func TestFixedZone(t *testing.T) {
	z := FixedZone(8 * 3_600_000)
	if z.ToUTC(0) != 8*3_600_000 || z.Epoch(8*3_600_000) != 0 || z.TimerEpoch(8*3_600_000-1) != -1 {
		t.Errorf("GMT+08:00: %d %d %d", z.ToUTC(0), z.Epoch(8*3_600_000), z.TimerEpoch(8*3_600_000-1))
	}
	if !z.IsFired(8*3_600_000+10, 9) || z.IsFired(8*3_600_000+10, 8) {
		t.Error("a window ending at wall 08:00:00.010 fires at epoch 9 ms")
	}
	if (Zone{}).ToUTC(5) != 5 || (Zone{}).String() != "0" {
		t.Error("the zero Zone is UTC")
	}
}
