package join

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/keygroup"
)

// regularEvent is a batch of rows of one side ("l" or "r"), each "key:row".
type regularEvent struct {
	side string
	rows []string
}

func rowsOf(side string, rows ...string) regularEvent { return regularEvent{side: side, rows: rows} }

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
			key, row, _ := strings.Cut(r, ":")
			rows = append(rows, Arrival{KeyGroup: 1, Key: []byte(key), NullKey: key == "null", Row: []byte(row)})
		}
		err := j.Add(side, rows, match, func(kind int8, l, r []byte) error {
			got = append(got, map[int8]string{KindInsert: "+I", KindDelete: "-D"}[kind]+" "+orDash(l)+"+"+orDash(r))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, got)
	}
	return out
}

func newRegular(t *testing.T, typ Type) *RegularJoin {
	t.Helper()
	j, err := NewRegularJoin(RegularConfig{Type: typ, KeyGroups: keygroup.Range{Start: 0, End: 3}})
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
