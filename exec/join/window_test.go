package join

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/window"
)

// pairsMatcher matches the pairs listed as "l1-r2".
func pairsMatcher(pairs ...string) Matcher {
	set := map[string]bool{}
	for _, p := range pairs {
		set[p] = true
	}
	return func(lefts, rights [][]byte, out []bool) error {
		for l := range lefts {
			for r := range rights {
				out[l*len(rights)+r] = set[string(lefts[l])+"-"+string(rights[r])]
			}
		}
		return nil
	}
}

func newJoin(t *testing.T, typ Type) *WindowJoin {
	t.Helper()
	j, err := NewWindowJoin(WindowConfig{Type: typ, Zone: window.FixedZone(0), KeyGroups: keygroup.Range{Start: 0, End: 3}})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// fire adds the rows (left ones named l*, right ones r*) to one key's window ending at 10 and
// returns what the join emits once the watermark passes it, as "left+right" ("-" for NULL).
func fire(t *testing.T, typ Type, nullKey bool, rows []string, match Matcher) []string {
	t.Helper()
	j := newJoin(t, typ)
	for _, r := range rows {
		side := LeftSide
		if r[0] == 'r' {
			side = RightSide
		}
		if late, err := j.Add(side, 1, []byte("k"), nullKey, 10, []byte(r)); err != nil || late {
			t.Fatalf("add %s: late %v, %v", r, late, err)
		}
	}
	var out []string
	err := j.AdvanceWatermark(9, match, func(l, r []byte) error {
		out = append(out, orDash(l)+"+"+orDash(r))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func orDash(b []byte) string {
	if b == nil {
		return "-"
	}
	return string(b)
}

// Every join type emits what WindowJoinHelper's processor of that type emits, in its order.
func TestWindowJoinTypes(t *testing.T) {
	both := []string{"l1", "r1", "l2", "r2"}
	for _, c := range []struct {
		name    string
		typ     Type
		rows    []string
		nullKey bool
		match   Matcher
		want    []string
	}{
		{"inner", Inner, both, false, pairsMatcher("l1-r1", "l2-r1"), []string{"l1+r1", "l2+r1"}},
		{"left", Left, both, false, pairsMatcher("l1-r1"), []string{"l1+r1", "l2+-"}},
		{"right: by right row", Right, both, false, pairsMatcher("l1-r1", "l2-r1"), []string{"l1+r1", "l2+r1", "-+r2"}},
		{"full: unmatched rights last", Full, both, false, pairsMatcher("l1-r2"), []string{"l1+r2", "l2+-", "-+r1"}},
		{"semi", Semi, both, false, pairsMatcher("l1-r1", "l1-r2"), []string{"l1+-"}},
		{"anti", Anti, both, false, pairsMatcher("l1-r1"), []string{"l2+-"}},
		{"inner, lefts only", Inner, []string{"l1", "l2"}, false, pairsMatcher(), nil},
		{"left, lefts only", Left, []string{"l1", "l2"}, false, pairsMatcher(), []string{"l1+-", "l2+-"}},
		{"right, lefts only", Right, []string{"l1"}, false, pairsMatcher(), nil},
		{"full, lefts only", Full, []string{"l1", "l2"}, false, pairsMatcher(), []string{"l1+-", "l2+-"}},
		{"semi, lefts only", Semi, []string{"l1"}, false, pairsMatcher(), nil},
		{"anti, lefts only", Anti, []string{"l1", "l2"}, false, pairsMatcher(), []string{"l1+-", "l2+-"}},
		{"left, rights only", Left, []string{"r1"}, false, pairsMatcher(), nil},
		{"right, rights only", Right, []string{"r1", "r2"}, false, pairsMatcher(), []string{"-+r1", "-+r2"}},
		{"full, rights only", Full, []string{"r1"}, false, pairsMatcher(), []string{"-+r1"}},
		{"anti, rights only", Anti, []string{"r1"}, false, pairsMatcher(), nil},
		// A NULL key the join filters on matches nothing, whatever the condition says.
		{"inner, null key", Inner, both, true, pairsMatcher("l1-r1"), nil},
		{"full, null key", Full, both, true, pairsMatcher("l1-r1"), []string{"l1+-", "l2+-", "-+r1", "-+r2"}},
		{"anti, null key", Anti, both, true, pairsMatcher("l1-r1"), []string{"l1+-", "l2+-"}},
	} {
		if got := fire(t, c.typ, c.nullKey, c.rows, c.match); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// Windows fire when the watermark reaches their last millisecond, in order of their ends; a
// row whose window has fired is late and dropped; a fired window's state is gone.
func TestWindowJoinFiringAndLateRows(t *testing.T) {
	j := newJoin(t, Inner)
	all := pairsMatcher("a-x", "b-y", "c-z")
	add := func(side Side, key string, end int64, row string) bool {
		late, err := j.Add(side, 2, []byte(key), false, end, []byte(row))
		if err != nil {
			t.Fatal(err)
		}
		return late
	}
	add(LeftSide, "k1", 20, "b")
	add(RightSide, "k1", 20, "y")
	add(LeftSide, "k2", 10, "a")
	add(RightSide, "k2", 10, "x")
	var out []string
	emit := func(l, r []byte) error { out = append(out, string(l)+string(r)); return nil }
	if err := j.AdvanceWatermark(8, all, emit); err != nil || len(out) != 0 {
		t.Fatalf("watermark 8: %v %v", out, err)
	}
	if err := j.AdvanceWatermark(19, all, emit); err != nil {
		t.Fatal(err)
	}
	if want := []string{"ax", "by"}; !reflect.DeepEqual(out, want) {
		t.Fatalf("got %v, want %v", out, want)
	}
	if !add(LeftSide, "k2", 10, "c") || !add(RightSide, "k1", 20, "z") || j.LateLeft != 1 || j.LateRight != 1 {
		t.Errorf("rows of fired windows should be late: %d %d", j.LateLeft, j.LateRight)
	}
	if add(LeftSide, "k1", 30, "c") {
		t.Error("a row of an open window is not late")
	}
	if _, err := j.Add(LeftSide, 9, []byte("k"), false, 30, nil); err == nil {
		t.Error("a key group outside the range should be an error")
	}
}

// A key group's state survives a snapshot and a restore into another subtask's join, with
// its timers; corrupt and mismatched blobs are errors naming what is wrong.
func TestWindowJoinStateRoundTrip(t *testing.T) {
	j := newJoin(t, Full)
	for _, r := range []struct {
		side Side
		kg   int
		key  string
		end  int64
		row  string
	}{{LeftSide, 1, "k", 10, "l1"}, {RightSide, 1, "k", 10, "r1"}, {LeftSide, 1, "j", 20, "l2"}, {RightSide, 3, "m", 10, "r2"}} {
		if _, err := j.Add(r.side, r.kg, []byte(r.key), r.key == "j", r.end, []byte(r.row)); err != nil {
			t.Fatal(err)
		}
	}
	blob, err := j.Snapshot(1)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v", err)
	}
	if again, _ := j.Snapshot(1); string(again) != string(blob) {
		t.Error("snapshots of equal state differ")
	}
	if empty, err := j.Snapshot(0); err != nil || empty != nil {
		t.Errorf("an empty key group: %v, %v", empty, err)
	}
	restored, err := NewWindowJoin(WindowConfig{Type: Full, Zone: window.FixedZone(0), KeyGroups: keygroup.Range{Start: 1, End: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := restored.Restore(1, blob); err != nil {
		t.Fatal(err)
	}
	// Keys k and j of key group 1: 2 keys of 1 byte, rows l1, r1, l2 of 2 bytes.
	if restored.StateKeys() != 2 || restored.StateBytes() != 8 {
		t.Errorf("restored state: %d keys, %d bytes; want 2 and 8", restored.StateKeys(), restored.StateBytes())
	}
	var out []string
	emit := func(l, r []byte) error { out = append(out, orDash(l)+"+"+orDash(r)); return nil }
	if err := restored.AdvanceWatermark(100, pairsMatcher("l1-r1"), emit); err != nil {
		t.Fatal(err)
	}
	if want := []string{"l1+r1", "l2+-"}; !reflect.DeepEqual(out, want) {
		t.Errorf("restored join emitted %v, want %v", out, want)
	}
	if restored.StateKeys() != 0 || restored.StateBytes() != 0 {
		t.Errorf("fired state: %d keys, %d bytes left", restored.StateKeys(), restored.StateBytes())
	}
	for name, bad := range map[string][]byte{
		"checksum":  append(append([]byte(nil), blob[:len(blob)-1]...), blob[len(blob)-1]^1),
		"truncated": blob[:5],
	} {
		if err := newJoin(t, Full).Restore(1, bad); err == nil || !strings.Contains(err.Error(), "key group 1") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := newJoin(t, Inner).Restore(1, blob); err == nil || !strings.Contains(err.Error(), "FULL join restored into a join of type INNER") {
		t.Errorf("another join type: %v", err)
	}
}

// Windows fire in order of their ends, each one's keys by key group and then key bytes (the
// order of Flink's timers), each key's rows in arrival order; a key group's snapshot restores
// into a join that snapshots it identically and fires the same rows.
func TestWindowJoinFiringOrderAndSnapshots(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	j := newJoin(t, Full)
	type add struct {
		side Side
		kg   int
		key  string
		end  int64
		row  string
	}
	var adds []add
	for i := range 400 {
		k := rng.IntN(30)
		a := add{Side(rng.IntN(2)), k % 4, fmt.Sprintf("k%d", k*7%30), int64(10 * (1 + rng.IntN(3))), fmt.Sprintf("%c%d", "lr"[0], i)}
		if a.side == RightSide {
			a.row = fmt.Sprintf("r%d", i)
		}
		adds = append(adds, a)
		if _, err := j.Add(a.side, a.kg, []byte(a.key), a.key == "k0", a.end, []byte(a.row)); err != nil {
			t.Fatal(err)
		}
	}
	// The expected order: per (end, key group, key), FULL OUTER JOIN's rows over all pairs.
	slices.SortStableFunc(adds, func(a, b add) int {
		return cmp.Or(cmp.Compare(a.end, b.end), cmp.Compare(a.kg, b.kg), strings.Compare(a.key, b.key))
	})
	var want []string
	for i := 0; i < len(adds); {
		n := 1
		for i+n < len(adds) && adds[i+n].end == adds[i].end && adds[i+n].key == adds[i].key {
			n++
		}
		var ls, rs []string
		for _, a := range adds[i : i+n] {
			if a.side == LeftSide {
				ls = append(ls, a.row)
			} else {
				rs = append(rs, a.row)
			}
		}
		null := adds[i].key == "k0"
		for _, l := range ls {
			if null || len(rs) == 0 {
				want = append(want, l+"+-")
			}
			for _, r := range rs {
				if !null {
					want = append(want, l+"+"+r)
				}
			}
		}
		if null || len(ls) == 0 {
			for _, r := range rs {
				want = append(want, "-+"+r)
			}
		}
		i += n
	}
	restored := newJoin(t, Full)
	for kg := 0; kg <= 3; kg++ {
		blob, err := j.Snapshot(kg)
		if err != nil {
			t.Fatal(err)
		}
		if err := restored.Restore(kg, blob); err != nil {
			t.Fatal(err)
		}
		if again, err := restored.Snapshot(kg); err != nil || !bytes.Equal(again, blob) {
			t.Fatalf("key group %d snapshots differently after a restore: %v", kg, err)
		}
	}
	if restored.StateKeys() != j.StateKeys() || restored.StateBytes() != j.StateBytes() {
		t.Fatalf("restored %d keys, %d bytes; want %d, %d", restored.StateKeys(), restored.StateBytes(), j.StateKeys(), j.StateBytes())
	}
	for _, join := range []*WindowJoin{j, restored} {
		var got []string
		if err := join.AdvanceWatermark(100, matchAll, func(l, r []byte) error {
			got = append(got, orDash(l)+"+"+orDash(r))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fired %d rows %q..., want %d rows %q...", len(got), got[:min(8, len(got))], len(want), want[:min(8, len(want))])
		}
		if join.StateKeys() != 0 || join.StateBytes() != 0 {
			t.Fatalf("fired state: %d keys, %d bytes left", join.StateKeys(), join.StateBytes())
		}
	}
}
