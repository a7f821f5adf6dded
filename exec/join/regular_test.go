package join

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/stateblob"
	"github.com/sluice-project/sluice/exec/statettl"
)

// regularEvent is a batch of rows of one side ("l" or "r"), each "key:row" (an insert),
// "-U key:row" (any kind), and "key:row@uk" with its unique key.
type regularEvent struct {
	side string
	rows []string
}

func rowsOf(side string, rows ...string) regularEvent { return regularEvent{side: side, rows: rows} }

var (
	kindNames = map[int8]string{changelog.Insert: "+I", changelog.UpdateBefore: "-U", changelog.UpdateAfter: "+U", changelog.Delete: "-D"}
	kindOf    = map[string]int8{"+I": changelog.Insert, "-U": changelog.UpdateBefore, "+U": changelog.UpdateAfter, "-D": changelog.Delete}
)

// runRegular feeds the batches to a join and returns what it emitted per batch, as
// "+I l1+r1" ("-" for a padded side), in emission order.
func runRegular(t *testing.T, j *RegularJoin, match PairMatcher, events ...regularEvent) [][]string {
	t.Helper()
	var out [][]string
	for _, ev := range events {
		var got []string
		side := LeftSide
		if ev.side == "r" {
			side = RightSide
		}
		var rows []Arrival
		for _, r := range ev.rows {
			kind := changelog.Insert
			if k, rest, ok := strings.Cut(r, " "); ok {
				kind, r = kindOf[k], rest
			}
			key, row, _ := strings.Cut(r, ":")
			row, uk, _ := strings.Cut(row, "@")
			rows = append(rows, Arrival{KeyGroup: 1, Key: []byte(key), NullKey: key == "null", Row: []byte(row), Kind: kind, UniqueKey: []byte(uk)})
		}
		// The emitted rows are read again after Add: they must not have changed meanwhile.
		var emitted [][]byte
		err := j.Add(side, rows, match, func(kind int8, l, r []byte) error {
			got = append(got, kindNames[kind]+" "+orDash(l)+"+"+orDash(r))
			emitted = append(emitted, l, r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range got {
			if after := g[:3] + orDash(emitted[2*i]) + "+" + orDash(emitted[2*i+1]); after != g {
				t.Fatalf("emitted %q, which reads %q once Add returned", g, after)
			}
		}
		out = append(out, got)
	}
	return out
}

func newRegular(t *testing.T, typ Type, layouts ...Layout) *RegularJoin {
	t.Helper()
	cfg := RegularConfig{Type: typ, KeyGroups: keygroup.Range{Start: 0, End: 3}}
	copy(cfg.Layouts[:], layouts)
	j, err := NewRegularJoin(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// JoinHelper's changes for inserts: inner rows join what the other side kept; an outer side's
// row that joins nothing is padded (+I) and retracted (-D, once per copy) when a row first joins
// it; copies of one row join as many times.
func TestRegularJoinChanges(t *testing.T) {
	for _, c := range []struct {
		name   string
		typ    Type
		events []regularEvent
		want   [][]string
	}{
		{"inner", Inner,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1", "x:r9"), rowsOf("r", "k:r2"), rowsOf("l", "k:l1", "x:l9")},
			[][]string{nil, {"+I l1+r1"}, {"+I l1+r2"}, {"+I l1+r1", "+I l1+r2", "+I l9+r9"}}},
		{"left", Left,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1", "k:r2"), rowsOf("l", "k:l2", "y:l3")},
			[][]string{{"+I l1+-"}, {"-D l1+-", "+I l1+r1", "+I l1+r2"}, {"+I l2+r1", "+I l2+r2", "+I l3+-"}}},
		{"right", Right,
			[]regularEvent{rowsOf("r", "k:r1"), rowsOf("l", "k:l1")},
			[][]string{{"+I -+r1"}, {"-D -+r1", "+I l1+r1"}}},
		{"full", Full,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1", "z:r9"), rowsOf("l", "k:l2")},
			[][]string{{"+I l1+-"}, {"-D l1+-", "+I l1+r1", "+I -+r9"}, {"+I l2+r1"}}},
		{"copies of an outer row", Left,
			[]regularEvent{rowsOf("l", "k:l1", "k:l1"), rowsOf("r", "k:r1")},
			[][]string{{"+I l1+-", "+I l1+-"}, {"-D l1+-", "-D l1+-", "+I l1+r1", "+I l1+r1"}}},
		{"semi", Semi,
			[]regularEvent{rowsOf("l", "k:l1", "k:l1", "m:l2"), rowsOf("r", "k:r1", "k:r2"), rowsOf("l", "k:l3", "m:l4")},
			[][]string{nil, {"+I l1+-", "+I l1+-"}, {"+I l3+-"}}},
		{"anti", Anti,
			[]regularEvent{rowsOf("l", "k:l1", "m:l2"), rowsOf("r", "k:r1", "k:r2"), rowsOf("l", "k:l3", "m:l4")},
			[][]string{{"+I l1+-", "+I l2+-"}, {"-D l1+-"}, {"+I l4+-"}}},
		{"NULL keys match nothing", Full,
			[]regularEvent{rowsOf("l", "null:l1"), rowsOf("r", "null:r1")},
			[][]string{{"+I l1+-"}, {"+I -+r1"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := runRegular(t, newRegular(t, c.typ), matchAll, c.events...); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// JoinHelper's and StreamingSemiAntiJoinOperator's changes for changelog inputs: an inner join
// forwards the input's kind; an outer side's rows are retracted with -D and padded again when
// their last join goes; SEMI and ANTI joins emit or retract their left rows as right rows come
// and go; rows are kept per Layout (a unique key's row replaced by its update, the one row of a
// join key replaced); a retraction of a row not kept still retracts its joins, as in Flink.
func TestRegularJoinChangelog(t *testing.T) {
	for _, c := range []struct {
		name    string
		typ     Type
		layouts []Layout
		events  []regularEvent
		want    [][]string
	}{
		{"inner update", Inner, nil,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1"), rowsOf("l", "-U k:l1", "+U k:l2")},
			[][]string{nil, {"+I l1+r1"}, {"-U l1+r1", "+U l2+r1"}}},
		{"left: the right row goes, the left row is padded again", Left, nil,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1"), rowsOf("r", "-D k:r1"), rowsOf("l", "-D k:l1")},
			[][]string{{"+I l1+-"}, {"-D l1+-", "+I l1+r1"}, {"-D l1+r1", "+I l1+-"}, {"-D l1+-"}}},
		{"left: the outer row's update retracts with -D", Left, nil,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1"), rowsOf("l", "-U k:l1", "+U k:l2")},
			[][]string{{"+I l1+-"}, {"-D l1+-", "+I l1+r1"}, {"-D l1+r1", "+I l2+r1"}}},
		{"full: both sides come and go", Full, nil,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1", "k:r2"), rowsOf("r", "-D k:r1"), rowsOf("l", "-D k:l1"), rowsOf("r", "-D k:r2")},
			[][]string{{"+I l1+-"}, {"-D l1+-", "+I l1+r1", "+I l1+r2"}, {"-D l1+r1"}, {"-D l1+r2", "+I -+r2"}, {"-D -+r2"}}},
		{"copies of an outer row", Left, nil,
			[]regularEvent{rowsOf("l", "k:l1", "k:l1"), rowsOf("r", "k:r1"), rowsOf("r", "-D k:r1"), rowsOf("l", "-D k:l1")},
			[][]string{{"+I l1+-", "+I l1+-"}, {"-D l1+-", "-D l1+-", "+I l1+r1", "+I l1+r1"}, {"-D l1+r1", "-D l1+r1", "+I l1+-", "+I l1+-"}, {"-D l1+-"}}},
		{"semi", Semi, nil,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1", "k:r2"), rowsOf("r", "-D k:r1"), rowsOf("r", "-U k:r2"), rowsOf("l", "-D k:l1"), rowsOf("r", "+U k:r3")},
			[][]string{nil, {"+I l1+-"}, nil, {"-U l1+-"}, nil, nil}},
		{"anti", Anti, nil,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1"), rowsOf("r", "-U k:r1"), rowsOf("l", "-D k:l1", "k:l2"), rowsOf("r", "+U k:r2")},
			[][]string{{"+I l1+-"}, {"-D l1+-"}, {"+I l1+-"}, {"-D l1+-", "+I l2+-"}, {"-D l2+-"}}},
		{"right side by unique key: an upsert replaces its row", Inner, []Layout{NoUniqueKey, UniqueKey},
			[]regularEvent{rowsOf("r", "k:r1@u1", "k:r5@u5"), rowsOf("l", "k:l1"), rowsOf("r", "+U k:r2@u1"), rowsOf("l", "k:l3"), rowsOf("r", "-D k:r0@u5"), rowsOf("l", "k:l4")},
			[][]string{nil, {"+I l1+r1", "+I l1+r5"}, {"+U l1+r2"}, {"+I l3+r2", "+I l3+r5"}, {"-D l1+r0", "-D l3+r0"}, {"+I l4+r2"}}},
		{"the join key contains the unique key: one row per key", Left, []Layout{JoinKeyUnique, JoinKeyUnique},
			[]regularEvent{rowsOf("l", "k:l1", "+U k:l2"), rowsOf("r", "k:r1"), rowsOf("r", "-D k:r1"), rowsOf("l", "k:l3")},
			[][]string{{"+I l1+-", "+I l2+-"}, {"-D l2+-", "+I l2+r1"}, {"-D l2+r1", "+I l2+-"}, {"+I l3+-"}}},
		{"a retraction of a row not kept", Inner, nil,
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "-D k:r9"), rowsOf("r", "k:r1")},
			[][]string{nil, {"-D l1+r9"}, {"+I l1+r1"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := runRegular(t, newRegular(t, c.typ, c.layouts...), matchAll, c.events...); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q,\nwant %q", got, c.want)
			}
		})
	}
}

// Keys whose rows are all retracted leave the state, as Flink's state views keep no entry.
func TestRegularJoinRetractionsEmptyState(t *testing.T) {
	j := newRegular(t, Full, UniqueKey, NoUniqueKey)
	runRegular(t, j, matchAll, rowsOf("l", "k:l1@u1", "m:l2@u2"), rowsOf("r", "k:r1", "k:r1"),
		rowsOf("l", "-D k:l1@u1", "-U m:x@u2"), rowsOf("r", "-D k:r1", "-D k:r1"))
	if j.StateKeys() != 0 || j.StateBytes() != 0 {
		t.Errorf("%d keys and %d bytes left in state", j.StateKeys(), j.StateBytes())
	}
	if blob, err := j.Snapshot(1); err != nil || blob != nil {
		t.Errorf("snapshot of an empty key group: %v, %v", blob, err)
	}
}

// The condition decides which kept rows join: a left row that joins none of them is padded.
func TestRegularJoinCondition(t *testing.T) {
	onlyR2 := func(lefts, rights [][]byte, out []bool) error {
		for i := range out {
			out[i] = string(rights[i]) == "r2"
		}
		return nil
	}
	got := runRegular(t, newRegular(t, Left), onlyR2, rowsOf("r", "k:r1", "k:r2"), rowsOf("l", "k:l1"), rowsOf("r", "k:r3"))
	if want := [][]string{nil, {"+I l1+r2"}, nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A snapshot restored into a new join goes on as the join it was taken from.
func TestRegularJoinSnapshotRestore(t *testing.T) {
	whole := newRegular(t, Full)
	runRegular(t, whole, matchAll, rowsOf("l", "k:l1", "k:l1", "m:l5"), rowsOf("r", "m:r5"))
	blob, err := whole.Snapshot(1)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v", err)
	}
	restored := newRegular(t, Full)
	if err := restored.Restore(1, blob); err != nil {
		t.Fatal(err)
	}
	if restored.StateKeys() != whole.StateKeys() || restored.StateBytes() != whole.StateBytes() {
		t.Errorf("restored %d keys %d bytes, want %d %d", restored.StateKeys(), restored.StateBytes(), whole.StateKeys(), whole.StateBytes())
	}
	next := []regularEvent{rowsOf("r", "k:r1", "m:r6"), rowsOf("l", "m:l6")}
	if got, want := runRegular(t, restored, matchAll, next...), runRegular(t, whole, matchAll, next...); !reflect.DeepEqual(got, want) {
		t.Errorf("restored join: got %q, want %q", got, want)
	}
	blob[9] ^= 1
	if err := newRegular(t, Full).Restore(1, blob); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("corrupt state: %v", err)
	}
	if _, err := NewRegularJoin(RegularConfig{Type: Type(9), KeyGroups: keygroup.Range{End: 1}}); err == nil {
		t.Error("an unknown join type should be refused")
	}
}

// A join keeping its inputs by unique key restores their unique keys; state of other layouts,
// and version 1 state (inputs that only insert), restore only into joins of the same layouts.
func TestRegularJoinSnapshotLayouts(t *testing.T) {
	whole := newRegular(t, Left, UniqueKey, JoinKeyUnique)
	runRegular(t, whole, matchAll, rowsOf("l", "k:l1@u1", "k:l2@u2"), rowsOf("r", "k:r1"))
	blob, err := whole.Snapshot(1)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v", err)
	}
	restored := newRegular(t, Left, UniqueKey, JoinKeyUnique)
	if err := restored.Restore(1, blob); err != nil {
		t.Fatal(err)
	}
	next := []regularEvent{rowsOf("l", "+U k:l3@u1"), rowsOf("r", "-D k:r1")}
	if got, want := runRegular(t, restored, matchAll, next...), runRegular(t, whole, matchAll, next...); !reflect.DeepEqual(got, want) {
		t.Errorf("restored join: got %q, want %q", got, want)
	}
	err = newRegular(t, Left).Restore(1, blob)
	if err == nil || !strings.Contains(err.Error(), "kept by unique key and join key contains a unique key restored into a join that keeps its inputs by no unique key") {
		t.Errorf("state of other layouts: %v", err)
	}
	// Version 1: one key "k" holding one left row "l1" (twice, no associations counted yet).
	v1 := stateblob.Header(regularStateMagic, 1)
	v1 = append(v1, byte(Left))
	v1 = binary.LittleEndian.AppendUint32(v1, 1)
	v1 = appendKey(v1, "k", false)
	v1 = binary.LittleEndian.AppendUint32(v1, 1)
	v1 = binary.LittleEndian.AppendUint32(v1, 2)
	v1 = binary.LittleEndian.AppendUint32(v1, 0)
	v1 = stateblob.AppendBytes(v1, []byte("l1"))
	v1 = binary.LittleEndian.AppendUint32(v1, 0)
	v1 = sealBlob(v1)
	old := newRegular(t, Left)
	if err := old.Restore(1, v1); err != nil {
		t.Fatalf("version 1 state: %v", err)
	}
	got := runRegular(t, old, matchAll, rowsOf("r", "k:r1"))
	if want := [][]string{{"-D l1+-", "-D l1+-", "+I l1+r1", "+I l1+r1"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("join restored from version 1 state: got %q, want %q", got, want)
	}
	if err := newRegular(t, Left, UniqueKey).Restore(1, v1); err == nil {
		t.Error("version 1 state restored into a join keeping a side by unique key")
	}
}

// A hot key whose rows have more candidate pairs than are matched at once is joined in runs of
// whole rows, with the same changes.
func TestRegularJoinManyPairs(t *testing.T) {
	j := newRegular(t, Left)
	var rights, lefts []string
	for i := 0; i < 300; i++ {
		rights = append(rights, "k:r"+string(rune('a'+i%26))+strings.Repeat("x", i/26))
		lefts = append(lefts, "k:l"+string(rune('a'+i%26))+strings.Repeat("y", i/26))
	}
	out := runRegular(t, j, matchAll, rowsOf("r", rights...), rowsOf("l", lefts...))
	if len(out[1]) != 300*300 {
		t.Fatalf("%d changes, want %d", len(out[1]), 300*300)
	}
	for _, c := range out[1] {
		if !strings.HasPrefix(c, "+I l") || strings.HasSuffix(c, "+-") {
			t.Fatalf("unexpected change %q", c)
		}
	}
}

// BenchmarkRegularJoinChangelog joins a right input of 1000 keys, each kept by unique key and
// updated (-U, +U) in every 1024-row batch, with 64 left rows inserted and deleted again over
// the same keys (each joining its key's current right row).
func BenchmarkRegularJoinChangelog(b *testing.B) {
	j, err := NewRegularJoin(RegularConfig{Type: Left, Layouts: [2]Layout{NoUniqueKey, UniqueKey},
		KeyGroups: keygroup.Range{Start: 0, End: 127}})
	if err != nil {
		b.Fatal(err)
	}
	keys := make([][]byte, 1000)
	for i := range keys {
		keys[i] = []byte(fmt.Sprint("key", i))
	}
	emit := func(int8, []byte, []byte) error { return nil }
	rights := make([][]byte, 2)
	for v := range rights {
		rights[v] = append(make([]byte, 40), byte(v))
	}
	left := make([]byte, 48)
	rows := make([]Arrival, 1024)
	b.ReportAllocs()
	for n := 0; b.Loop(); n++ {
		for i := 0; i < len(rows); i += 2 {
			k := (n*512 + i/2) % len(keys)
			a := Arrival{KeyGroup: k % 128, Key: keys[k], UniqueKey: keys[k]}
			rows[i], rows[i+1] = a, a
			rows[i].Kind, rows[i].Row = changelog.UpdateBefore, rights[n%2]
			rows[i+1].Kind, rows[i+1].Row = changelog.UpdateAfter, rights[(n+1)%2]
		}
		if err := j.Add(RightSide, rows, matchAll, emit); err != nil {
			b.Fatal(err)
		}
		for i := range rows {
			k := (n*1024 + i) % len(keys)
			rows[i] = Arrival{KeyGroup: k % 128, Key: keys[k], Row: left}
		}
		if err := j.Add(LeftSide, rows[:64], matchAll, emit); err != nil {
			b.Fatal(err)
		}
		for i := range rows[:64] {
			rows[i].Kind = changelog.Delete
		}
		if err := j.Add(LeftSide, rows[:64], matchAll, emit); err != nil {
			b.Fatal(err)
		}
	}
}

// With state TTLs (per input, 100 ms here) a kept row is gone 100 ms after its last write: it
// joins nothing more and a retraction of it is ignored; a left outer row's write is its number
// of associations changing, so a right row joining it keeps it alive. Snapshots leave expired
// rows out, and restored rows keep their write times.
func TestRegularJoinStateTTL(t *testing.T) {
	var clock int64
	newJoin := func(typ Type, ttl [2]int64) *RegularJoin {
		now := func() int64 { return clock }
		j, err := NewRegularJoin(RegularConfig{Type: typ, KeyGroups: keygroup.Range{Start: 0, End: 3},
			StateTTL: [2]statettl.TTL{{Millis: ttl[0], Clock: now}, {Millis: ttl[1], Clock: now}}})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	for _, c := range []struct {
		name  string
		typ   Type
		ttl   [2]int64
		at    []int64
		steps []regularEvent
		want  [][]string
	}{
		{"inner: an expired row joins nothing", Inner, [2]int64{100, 100}, []int64{1000, 1050, 1100, 1149},
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("l", "k:l2"), rowsOf("r", "k:r1"), rowsOf("l", "-D k:l2")},
			[][]string{nil, nil, {"+I l2+r1"}, {"-D l2+r1"}}},
		{"inner: a retraction of an expired row still retracts its joins", Inner, [2]int64{100, 0}, []int64{1000, 1000, 1100},
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1"), rowsOf("l", "-D k:l1", "k:l3")},
			[][]string{nil, {"+I l1+r1"}, {"-D l1+r1", "+I l3+r1"}}},
		{"left: associations keep an outer row alive", Left, [2]int64{100, 1000}, []int64{1000, 1090, 1180, 1280},
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1"), rowsOf("r", "k:r2"), rowsOf("r", "k:r3")},
			[][]string{{"+I l1+-"}, {"-D l1+-", "+I l1+r1"}, {"+I l1+r2"}, nil}},
		{"one side without a TTL", Inner, [2]int64{0, 100}, []int64{1000, 1000, 5000},
			[]regularEvent{rowsOf("l", "k:l1"), rowsOf("r", "k:r1"), rowsOf("r", "k:r2")},
			[][]string{nil, {"+I l1+r1"}, {"+I l1+r2"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			j := newJoin(c.typ, c.ttl)
			var got [][]string
			for i, ev := range c.steps {
				clock = c.at[i]
				got = append(got, runRegular(t, j, matchAll, ev)[0])
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	// A snapshot at 1100 leaves l1 (written at 1000) out; r1 (1050) restores with its time.
	j := newJoin(Inner, [2]int64{100, 100})
	clock = 1000
	runRegular(t, j, matchAll, rowsOf("l", "k:l1"))
	clock = 1050
	runRegular(t, j, matchAll, rowsOf("r", "k:r1"))
	clock = 1100
	blob, err := j.Snapshot(1)
	if err != nil {
		t.Fatal(err)
	}
	restored := newJoin(Inner, [2]int64{100, 100})
	if err := restored.Restore(1, blob); err != nil {
		t.Fatal(err)
	}
	for _, op := range []*RegularJoin{j, restored} {
		clock = 1149
		if got, want := runRegular(t, op, matchAll, rowsOf("l", "k:l2")), [][]string{{"+I l2+r1"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("at 1149: got %q, want %q", got, want)
		}
		clock = 1150 // r1 expired
		if got, want := runRegular(t, op, matchAll, rowsOf("l", "k:l3")), [][]string{nil}; !reflect.DeepEqual(got, want) {
			t.Errorf("at 1150: got %q, want %q", got, want)
		}
	}
}

// Rows are found alike by a scan and by the index a side builds past indexFrom rows, and
// compacting the records changes nothing: random inserts, updates and deletes over few keys,
// each side with many rows per key, emit the same changes and leave the same state whatever the
// thresholds.
func TestRegularJoinScanAndIndexAgree(t *testing.T) {
	defer func(from, compact int) { indexFrom, compactFrom = from, compact }(indexFrom, compactFrom)
	kinds := []string{"+I", "+U", "-U", "-D"}
	for _, typ := range []Type{Inner, Left, Full, Semi, Anti} {
		for _, layouts := range [][2]Layout{{NoUniqueKey, NoUniqueKey}, {UniqueKey, NoUniqueKey}, {NoUniqueKey, JoinKeyUnique}} {
			rng := rand.New(rand.NewPCG(uint64(typ), uint64(layouts[0])<<8|uint64(layouts[1])))
			var events []regularEvent
			for range 40 {
				side := []string{"l", "r"}[rng.IntN(2)]
				var rows []string
				for range 1 + rng.IntN(12) {
					// Rows repeat (copies), unique keys repeat (replacements).
					rows = append(rows, fmt.Sprintf("%s k%d:%s%d@u%d", kinds[rng.IntN(4)], rng.IntN(2), side, rng.IntN(24), rng.IntN(16)))
				}
				events = append(events, rowsOf(side, rows...))
			}
			var outs [][][]string
			var blobs [][]byte
			for run, from := range []int{0, 8, 1 << 30, 0, 8} {
				// The last runs compact the records whenever retractions left some dead.
				indexFrom, compactFrom = from, 1<<16
				if run >= 3 {
					compactFrom = 0
				}
				j := newRegular(t, typ, layouts[:]...)
				outs = append(outs, runRegular(t, j, matchAll, events...))
				blob, err := j.Snapshot(1)
				if err != nil {
					t.Fatal(err)
				}
				blobs = append(blobs, blob)
			}
			for i := 1; i < len(outs); i++ {
				if !reflect.DeepEqual(outs[i], outs[0]) || !bytes.Equal(blobs[i], blobs[0]) {
					t.Fatalf("%v join of %v inputs: changes or state differ between an indexed and a scanned side", typ, layouts)
				}
			}
			if len(blobs[0]) == 0 {
				t.Fatalf("%v join of %v inputs keeps nothing: the case tests nothing", typ, layouts)
			}
		}
	}
}

// BenchmarkRegularJoinManyKeys inserts rows of two inputs over 500,000 keys, each key one row
// per input (the shape of the regular join benchmark): state grows to a million rows, every
// right row joins its key's left one.
func BenchmarkRegularJoinManyKeys(b *testing.B) {
	const keys = 500_000
	keyBytes := make([][]byte, keys)
	for i := range keyBytes {
		keyBytes[i] = binary.LittleEndian.AppendUint64(make([]byte, 8, 16), uint64(i))
	}
	row := make([]byte, 40)
	emit := func(int8, []byte, []byte) error { return nil }
	rows := make([]Arrival, 1024)
	b.ReportAllocs()
	for b.Loop() {
		j, err := NewRegularJoin(RegularConfig{Type: Inner, KeyGroups: keygroup.Range{Start: 0, End: 63}})
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range []Side{LeftSide, RightSide} {
			for from := 0; from < keys; from += len(rows) {
				n := min(len(rows), keys-from)
				for i := range rows[:n] {
					k := from + i
					rows[i] = Arrival{KeyGroup: k % 64, Key: keyBytes[k], Row: row}
				}
				if err := j.Add(side, rows[:n], matchAll, emit); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
