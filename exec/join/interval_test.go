package join

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/keygroup"
)

// intervalEvent is a step of an interval-join test: rows of one side ("l" or "r") with their
// times (event times, or on processing time the clock when they arrive), a watermark ("w"), or
// the clock firing processing-time timers ("p").
type intervalEvent struct {
	side  string
	times []int64
	wm    int64
}

func rowsAt(side string, times ...int64) intervalEvent {
	return intervalEvent{side: side, times: times}
}
func watermark(wm int64) intervalEvent { return intervalEvent{side: "w", wm: wm} }
func clockAt(t int64) intervalEvent    { return intervalEvent{side: "p", wm: t} }

// runInterval feeds the events to a join of one key whose rows are named side+time ("l1000")
// and returns what it emitted ("l1000+r500", "-" for a padded side), sorted, per event.
func runInterval(t *testing.T, j *IntervalJoin, match PairMatcher, events ...intervalEvent) [][]string {
	t.Helper()
	var out [][]string
	for _, ev := range events {
		var got []string
		emit := func(l, r []byte) error {
			got = append(got, orDash(l)+"+"+orDash(r))
			return nil
		}
		var err error
		switch ev.side {
		case "w":
			err = j.AdvanceWatermark(ev.wm, emit)
		case "p":
			err = j.AdvanceProcessingTime(ev.wm, emit)
		default:
			side := LeftSide
			if ev.side == "r" {
				side = RightSide
			}
			var rows []Arrival
			for _, tm := range ev.times {
				rows = append(rows, Arrival{KeyGroup: 1, Key: []byte("k"), Time: tm, Row: []byte(ev.side + strconv.FormatInt(tm, 10))})
			}
			err = j.Add(side, rows, match, emit)
		}
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(got)
		out = append(out, got)
	}
	return out
}

func matchAll(_, _ [][]byte, out []bool) error {
	for i := range out {
		out[i] = true
	}
	return nil
}

func newInterval(t *testing.T, typ Type, lower, upper int64) *IntervalJoin {
	t.Helper()
	j, err := NewIntervalJoin(IntervalConfig{Type: typ, LeftLowerBound: lower, LeftUpperBound: upper,
		KeyGroups: keygroup.Range{Start: 0, End: 3}})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// The steps of TimeIntervalJoin for one key, l.time - r.time within [-5000, 5000] unless said:
// rows join as they arrive, rows are cached while the other side can still join them, and the
// cleanup timers pad the outer side's rows that never joined.
func TestIntervalJoinSteps(t *testing.T) {
	for _, c := range []struct {
		name         string
		typ          Type
		lower, upper int64
		minCleanUp   int64
		procTime     bool // the clock drives the join (ProcTimeIntervalJoin): row times are arrivals
		events       []intervalEvent
		want         [][]string
	}{
		{"inner joins within the interval", Inner, -5000, 5000, 0, false,
			[]intervalEvent{rowsAt("l", 10000, 20000), rowsAt("r", 6000, 14000, 16000), watermark(40000)},
			[][]string{nil, {"l10000+r14000", "l10000+r6000", "l20000+r16000"}, nil}},
		{"left pads rows that never joined once the timer fires", Left, -5000, 5000, 0, false,
			[]intervalEvent{rowsAt("l", 10000, 20000), rowsAt("r", 12000), watermark(24999), watermark(25001)},
			// l10000's timer (10000 + 5000 + 1) removes it at 24999, joined; l20000's fires at 25001.
			[][]string{nil, {"l10000+r12000"}, nil, {"l20000+-"}}},
		{"right pads rows that never joined", Right, -5000, 5000, 0, false,
			[]intervalEvent{rowsAt("r", 10000, 30000), rowsAt("l", 31000), watermark(1 << 62)},
			[][]string{nil, {"l31000+r30000"}, {"-+r10000"}}},
		{"full pads both sides", Full, 0, 0, 0, false,
			[]intervalEvent{rowsAt("l", 1000, 2000), rowsAt("r", 2000, 3000), watermark(1 << 62)},
			[][]string{nil, {"l2000+r2000"}, {"-+r3000", "l1000+-"}}},
		{"a row the watermark passed joins what is cached, is padded at once", Left, -1000, 1000, 0, false,
			[]intervalEvent{rowsAt("r", 9500), watermark(9000), rowsAt("l", 8000, 9000)},
			[][]string{nil, nil, {"l8000+-", "l9000+r9500"}}},
		{"an asymmetric interval", Inner, 1000, 3000, 0, false,
			[]intervalEvent{rowsAt("r", 5000), rowsAt("l", 5500, 6000, 8000, 8500), watermark(1 << 62)},
			[][]string{nil, {"l6000+r5000", "l8000+r5000"}, nil}},
		{"the timer pads expired rows", Left, -1000, 1000, 0, false,
			[]intervalEvent{rowsAt("l", 5000), watermark(7000), rowsAt("r", 8000)},
			[][]string{nil, {"l5000+-"}, nil}},
		{"a later row's eager clean pads expired rows before the timer", Left, -1000, 1000, 10000, false,
			[]intervalEvent{rowsAt("l", 5000), watermark(7000), rowsAt("r", 8000)},
			// l5000's timer waits for 16001; the right row finds it expired (5000 <= 7000 - 1001).
			[][]string{nil, nil, {"l5000+-"}}},
		{"rows at time 0 or before are cleared unpadded", Left, -1000, 1000, 0, false,
			[]intervalEvent{rowsAt("l", -500, -100), watermark(600), watermark(1 << 62)},
			// The timer of l-500 (501) pads it; l-100 is left, not after 0: dropped unpadded.
			[][]string{nil, {"l-500+-"}, nil}},
		// On processing time (ProcTimeIntervalJoin): rows take the clock when they arrive, the
		// operator time is the clock, cleanup timers fire on the clock, watermarks change nothing.
		{"rows within the interval of each other's arrival join", Inner, -1000, 1000, 0, true,
			[]intervalEvent{rowsAt("l", 1000), rowsAt("r", 1500), rowsAt("r", 2500)},
			// r2500 finds l1000 expired (1000 <= 2500 - 1000 - 1) and removes it.
			[][]string{nil, {"l1000+r1500"}, nil}},
		{"the clock fires the cleanup timer that pads a left row", Left, -1000, 1000, 0, true,
			[]intervalEvent{rowsAt("l", 1000), clockAt(2000), watermark(1 << 62), clockAt(2001)},
			// l1000's timer is at 1000 + 1000 + 1; a watermark fires nothing.
			[][]string{nil, nil, nil, {"l1000+-"}}},
		{"a right row later than every left one's interval expires the cache eagerly", Right, -1000, 1000, 0, true,
			[]intervalEvent{rowsAt("r", 1000), rowsAt("l", 1200), rowsAt("l", 2600), clockAt(1 << 40)},
			// l2600 cleans r1000 (joined, so no padding); the timer then pads nothing.
			[][]string{nil, {"l1200+r1000"}, nil, nil}},
		{"equal times: nothing is cached, every outer row padded at once", Full, 0, 0, 0, true,
			[]intervalEvent{rowsAt("l", 1000, 1000), rowsAt("r", 1000), clockAt(1 << 40)},
			[][]string{{"l1000+-", "l1000+-"}, {"-+r1000"}, nil}},
		{"a left row never joins right rows that arrived before it", Left, -1000, 0, 0, true,
			// Left rows are cached for 1 s; right rows are never cached (rightRelativeSize 0),
			// so r1000 is gone when l1100 comes, and r1500 joins the cached l1100.
			[]intervalEvent{rowsAt("r", 1000), rowsAt("l", 1100), rowsAt("r", 1500), clockAt(1 << 40)},
			[][]string{nil, nil, {"l1100+r1500"}, nil}},
		{"a right row joins the left rows cached before it", Right, -1000, 0, 0, true,
			[]intervalEvent{rowsAt("l", 1000), rowsAt("r", 1500), rowsAt("r", 2500), clockAt(1 << 40)},
			[][]string{nil, {"l1000+r1500"}, {"-+r2500"}, nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			j, err := NewIntervalJoin(IntervalConfig{ProcTime: c.procTime, Type: c.typ, LeftLowerBound: c.lower, LeftUpperBound: c.upper,
				MinCleanUpInterval: c.minCleanUp, KeyGroups: keygroup.Range{Start: 0, End: 3}})
			if err != nil {
				t.Fatal(err)
			}
			got := runInterval(t, j, matchAll, c.events...)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// The non-equi condition decides which candidate pairs join; a NULL key joins nothing, and its
// rows of an outer side are padded.
func TestIntervalJoinConditionAndNullKey(t *testing.T) {
	j := newInterval(t, Left, -5000, 5000)
	onlyR2 := func(lefts, rights [][]byte, out []bool) error {
		for i := range out {
			out[i] = strings.HasPrefix(string(rights[i]), "r2")
		}
		return nil
	}
	got := runInterval(t, j, onlyR2, rowsAt("r", 1000, 2000), rowsAt("l", 3000), watermark(1<<62))
	if want := [][]string{nil, {"l3000+r2000"}, nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("condition: got %q, want %q", got, want)
	}
	j = newInterval(t, Left, -5000, 5000)
	var out []string
	emit := func(l, r []byte) error { out = append(out, orDash(l)+"+"+orDash(r)); return nil }
	for _, a := range []struct {
		side Side
		row  string
	}{{RightSide, "r"}, {LeftSide, "l"}} {
		if err := j.Add(a.side, []Arrival{{KeyGroup: 0, Key: []byte("null"), NullKey: true, Time: 1000, Row: []byte(a.row)}}, matchAll, emit); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.AdvanceWatermark(1<<62, emit); err != nil {
		t.Fatal(err)
	}
	if want := []string{"l+-"}; !reflect.DeepEqual(out, want) {
		t.Errorf("NULL key: got %q, want %q", out, want)
	}
	if j.StateKeys() != 0 || j.StateBytes() != 0 {
		t.Errorf("state after the final watermark: %d keys, %d bytes", j.StateKeys(), j.StateBytes())
	}
}

// A snapshot restored into a new join (a restore, or another subtask after rescaling) goes on
// exactly as the join it was taken from.
func TestIntervalJoinSnapshotRestore(t *testing.T) {
	before := []intervalEvent{rowsAt("l", 10000, 11000, 20000), rowsAt("r", 12000), watermark(13000)}
	after := []intervalEvent{rowsAt("r", 19000, 24000), watermark(26000), rowsAt("l", 27000), watermark(1 << 62)}
	whole := newInterval(t, Full, -3000, 3000)
	runInterval(t, whole, matchAll, before...)
	blob, err := whole.Snapshot(1)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v, %d bytes", err, len(blob))
	}
	again, err := whole.Snapshot(1)
	if err != nil || string(again) != string(blob) {
		t.Fatalf("a second snapshot differs: %v", err)
	}
	restored := newInterval(t, Full, -3000, 3000)
	if err := restored.Restore(1, blob); err != nil {
		t.Fatal(err)
	}
	if restored.StateBytes() != whole.StateBytes() || restored.StateKeys() != whole.StateKeys() {
		t.Errorf("restored state: %d bytes %d keys, want %d %d", restored.StateBytes(), restored.StateKeys(), whole.StateBytes(), whole.StateKeys())
	}
	// A restored join has no watermark yet, as Flink's timer service after a restore.
	restored.AdvanceWatermark(13000, func(l, r []byte) error { return nil })
	want := runInterval(t, whole, matchAll, after...)
	got := runInterval(t, restored, matchAll, after...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("restored join: got %q, want %q", got, want)
	}

	for _, c := range []struct {
		name string
		blob []byte
		want string
	}{
		{"truncated", blob[:9], "truncated"},
		{"flipped byte", append(append([]byte(nil), blob[:20]...), append([]byte{blob[20] ^ 1}, blob[21:]...)...), "checksum"},
		{"window join state", mustSnapshotWindowJoin(t), "not interval join state"},
	} {
		err := newInterval(t, Full, -3000, 3000).Restore(1, c.blob)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	if err := newInterval(t, Inner, -3000, 3000).Restore(1, blob); err == nil || !strings.Contains(err.Error(), "FULL") {
		t.Errorf("a FULL join's state into an INNER join: %v", err)
	}
}

func mustSnapshotWindowJoin(t *testing.T) []byte {
	j := newJoin(t, Full)
	if _, err := j.Add(LeftSide, 1, []byte("k"), false, 10, []byte("l")); err != nil {
		t.Fatal(err)
	}
	b, err := j.Snapshot(1)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A processing-time join's timers survive a snapshot: the restored join fires them on the clock.
func TestIntervalJoinProcTimeRestore(t *testing.T) {
	cfg := IntervalConfig{ProcTime: true, Type: Left, LeftLowerBound: -1000, LeftUpperBound: 1000,
		KeyGroups: keygroup.Range{Start: 0, End: 3}}
	j, err := NewIntervalJoin(cfg)
	if err != nil {
		t.Fatal(err)
	}
	runInterval(t, j, matchAll, rowsAt("l", 1000))
	if got := j.NextTimer(); got != 2001 {
		t.Fatalf("next timer %d, want 2001", got)
	}
	if d := j.OutputDelay(); d != 0 {
		t.Errorf("a processing-time join delays watermarks by %d", d)
	}
	blob, err := j.Snapshot(1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewIntervalJoin(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Restore(1, blob); err != nil {
		t.Fatal(err)
	}
	if got := r.NextTimer(); got != 2001 {
		t.Fatalf("restored next timer %d, want 2001", got)
	}
	got := runInterval(t, r, matchAll, clockAt(5000))
	if want := [][]string{{"l1000+-"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := r.NextTimer(); got != math.MaxInt64 {
		t.Errorf("next timer %d after the cleanup, want none", got)
	}
	ev, err := NewIntervalJoin(IntervalConfig{Type: Inner, KeyGroups: keygroup.Range{End: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.AdvanceProcessingTime(1, func(l, r []byte) error { return nil }); err == nil {
		t.Error("an event-time join took processing time")
	}
}

func TestIntervalJoinConfig(t *testing.T) {
	for _, c := range []IntervalConfig{
		{Type: Semi, KeyGroups: keygroup.Range{End: 1}},
		{Type: Inner, LeftLowerBound: 10, LeftUpperBound: 5, KeyGroups: keygroup.Range{End: 1}},
		{Type: Inner, KeyGroups: keygroup.Range{Start: 2, End: 1}},
	} {
		if _, err := NewIntervalJoin(c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	j := newInterval(t, Inner, -2000, 7000)
	if d := j.OutputDelay(); d != 7000 {
		t.Errorf("output delay %d, want 7000", d)
	}
	err := j.Add(LeftSide, []Arrival{{KeyGroup: 9, Key: []byte("k")}}, matchAll, func(l, r []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "key group 9") {
		t.Errorf("a row of another subtask's key group: %v", err)
	}
}

// BenchmarkIntervalJoin joins 1024-row batches of both sides over 1000 keys, rows one second
// apart within a ±5 s interval, with a watermark after each pair of batches.
func BenchmarkIntervalJoin(b *testing.B) {
	j, err := NewIntervalJoin(IntervalConfig{Type: Inner, LeftLowerBound: -5000, LeftUpperBound: 5000,
		KeyGroups: keygroup.Range{Start: 0, End: 127}})
	if err != nil {
		b.Fatal(err)
	}
	keys := make([][]byte, 1000)
	for i := range keys {
		keys[i] = []byte(fmt.Sprint("key", i))
	}
	emit := func(l, r []byte) error { return nil }
	row := make([]byte, 48)
	rows := make([]Arrival, 1024)
	b.ReportAllocs()
	for n := 0; b.Loop(); n++ {
		base := int64(n) * 1024
		for side := LeftSide; side <= RightSide; side++ {
			for i := range rows {
				k := (n*1024 + i) % len(keys)
				rows[i] = Arrival{KeyGroup: k % 128, Key: keys[k], Time: (base + int64(i)) * 10, Row: row}
			}
			if err := j.Add(side, rows, matchAll, emit); err != nil {
				b.Fatal(err)
			}
		}
		if err := j.AdvanceWatermark(base*10-1000, emit); err != nil {
			b.Fatal(err)
		}
	}
}
