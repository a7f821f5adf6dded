package topn

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// kindOf reads a row's kind prefix: none an insert, "-" a delete, "~" an update-before, "+" an
// update-after.
func kindOf(r string) (int8, string) {
	if k := strings.IndexByte("~+-", r[0]); k >= 0 {
		return int8(k + 1), r[1:]
	}
	return changelog.Insert, r
}

// run feeds rows "key:price" (with a kindOf prefix) of one key group, ordered by price descending (the sort key a
// BIGINT), and lists the changes per call as "+I x:5" or, with rank numbers, "+I x:5 #1".
func run(t *testing.T, op *TopN, calls ...string) [][]string {
	t.Helper()
	var out [][]string
	for _, call := range calls {
		var rows []Row
		var prices []int64
		for _, r := range strings.Fields(call) {
			_, r = kindOf(r)
			_, p, _ := strings.Cut(r, ":")
			var v int64
			fmt.Sscan(p, &v)
			prices = append(prices, v)
		}
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues(prices, nil)
		col := b.NewArray()
		keys, err := EncodeSortKeys(nil, []arrow.Array{col}, []SortField{{Type: catalog.BigIntType(true), Ascending: false}}, len(prices))
		col.Release()
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range strings.Fields(call) {
			kind, r := kindOf(r)
			k, _, _ := strings.Cut(r, ":")
			rows = append(rows, Row{Key: []byte(k[:1]), SortKey: keys[i], Row: append([]byte{byte(kind)}, r...)})
		}
		if err := op.Process(rows); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range op.Changes() {
			s := [...]string{"+I", "-U", "+U", "-D"}[c.Kind] + " " + string(c.Row[1:])
			if c.Rank > 0 {
				s += fmt.Sprint(" #", c.Rank)
			}
			got = append(got, s)
		}
		out = append(out, got)
	}
	return out
}

// topNCase is a Top-N's configuration, the calls run through it and the changes wanted per call.
type topNCase struct {
	name  string
	cfg   Config
	calls []string
	want  [][]string
}

// checkTopN runs each case through a new Top-N of one key group (the Retract strategy or not).
func checkTopN(t *testing.T, retract bool, cases []topNCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.KeyGroups, c.cfg.Retract = keygroup.Range{Start: 0, End: 0}, retract
			op, err := New(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := run(t, op, c.calls...); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

// The top 2 by price as AppendOnlyTopNFunction emits it: without rank numbers a row pushed out
// is deleted (not when it is the row that came in); with them each rank's row is updated as
// rows move down, ties keep their arrival order, and a row past the end leaves the buffer.
func TestTopN(t *testing.T) {
	checkTopN(t, false, []topNCase{
		{"without rank numbers", Config{RankStart: 1, RankEnd: 2, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:3 a3:4", "a4:1 a5:9 b1:1"},
			[][]string{{"+I a1:5", "+I a2:3", "-D a2:3", "+I a3:4"}, {"-D a3:4", "+I a5:9", "+I b1:1"}}},
		{"with rank numbers", Config{RankStart: 1, RankEnd: 2, OutputRankNumber: true, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:3 a3:4 a4:5"},
			[][]string{{"+I a1:5 #1", "+I a2:3 #2", "-U a2:3 #2", "+U a3:4 #2", "-U a3:4 #2", "+U a4:5 #2"}}},
		{"top 1", Config{RankStart: 1, RankEnd: 1, OutputRankNumber: true, GenerateUpdateBefore: true},
			// A tie does not replace the kept row.
			[]string{"a1:5 a2:3 a3:7 a4:7 b1:1"},
			[][]string{{"+I a1:5 #1", "-U a1:5 #1", "+U a3:7 #1", "+I b1:1 #1"}}},
		{"top 1 without update-before", Config{RankStart: 1, RankEnd: 1},
			[]string{"a1:5 a2:6"}, [][]string{{"+I a1:5", "+U a2:6"}}},
		{"an offset", Config{RankStart: 2, RankEnd: 3, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:7 a3:6"},
			// Ranks 2 and 3 only: a1 comes in at rank 1 (nothing), moves to 2 (+I), and to 3 as a3
			// takes rank 2.
			[][]string{{"+I a1:5", "-U a1:5", "+U a3:6", "+I a1:5"}}},
	})
}

// The top 2 by price of a changelog as RetractableTopNFunction emits it: a row entering pushes
// the row past the end out (-D, or without rank numbers -U/+U down the ranks), a row leaving
// lets the next row in (+I, or -U/+U up the ranks), an update is its retraction and its
// accumulation; a retraction of a row never kept changes nothing (Flink only logs it).
func TestRetractTopN(t *testing.T) {
	checkTopN(t, true, []topNCase{
		{"without rank numbers", Config{RankStart: 1, RankEnd: 2, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:3 a3:4", "-a1:5", "~a3:4 +a4:8", "-a9:7"},
			[][]string{{"+I a1:5", "+I a2:3", "-D a2:3", "+I a3:4"}, {"-D a1:5", "+I a2:3"}, {"-D a3:4", "+I a4:8"}, nil}},
		{"with rank numbers", Config{RankStart: 1, RankEnd: 2, OutputRankNumber: true, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:3 a3:4", "-a1:5", "-a9:7", "-a3:4 -a2:3"},
			[][]string{{"+I a1:5 #1", "+I a2:3 #2", "-U a2:3 #2", "+U a3:4 #2"},
				{"-U a1:5 #1", "+U a3:4 #1", "-U a3:4 #2", "+U a2:3 #2"}, nil, {"-U a3:4 #1", "+U a2:3 #1", "-D a2:3 #2", "-D a2:3 #1"}}},
		{"ties keep their arrival order", Config{RankStart: 1, RankEnd: 2, OutputRankNumber: true},
			[]string{"a1:5 a2:5 a3:5", "-a1:5"},
			[][]string{{"+I a1:5 #1", "+I a2:5 #2"}, {"+U a2:5 #1", "+U a3:5 #2"}}},
		{"an offset", Config{RankStart: 2, RankEnd: 3, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:7 a3:6", "-a2:7"},
			[][]string{{"+I a1:5", "-U a1:5", "+U a3:6", "+I a1:5"}, {"-U a3:6", "+U a1:5", "-D a1:5"}}},
		// Without rank numbers Flink sets the kind of each row it emits on the row object: on the
		// heap backend the kept a1 is left a DELETE and its retraction finds nothing; on RocksDB
		// only rows written back keep their kind, and a1 is deleted.
		{"an offset on the heap backend", Config{RankStart: 2, RankEnd: 3, GenerateUpdateBefore: true, HeapState: true},
			[]string{"a1:5 a2:7 a3:6", "-a2:7", "-a1:5"},
			[][]string{{"+I a1:5", "-U a1:5", "+U a3:6", "+I a1:5"}, {"-U a3:6", "+U a1:5", "-D a1:5"}, nil}},
		{"an offset on RocksDB", Config{RankStart: 2, RankEnd: 3, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:7 a3:6", "-a2:7", "-a1:5"},
			[][]string{{"+I a1:5", "-U a1:5", "+U a3:6", "+I a1:5"}, {"-U a3:6", "+U a1:5", "-D a1:5"}, {"-D a1:5"}}},
		{"an offset: the row kept as it took a rank with +U", Config{RankStart: 2, RankEnd: 3, GenerateUpdateBefore: true},
			[]string{"a1:5 a2:7 a3:6", "-a3:6"},
			[][]string{{"+I a1:5", "-U a1:5", "+U a3:6", "+I a1:5"}, nil}},
	})
}

// A Retract Top-N's counts and rows (all of them, past the rank end too) restore into one that
// goes on as the original; state of the other strategy is refused.
func TestRetractTopNSnapshotRestore(t *testing.T) {
	cfg := Config{RankStart: 1, RankEnd: 1, Retract: true, KeyGroups: keygroup.Range{Start: 0, End: 0}}
	op, _ := New(cfg)
	run(t, op, "a1:5 a2:3 a3:4")
	blob, err := op.Snapshot(0)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v", err)
	}
	restored, _ := New(cfg)
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	if restored.StateBytes() != op.StateBytes() || restored.StateKeys() != op.StateKeys() {
		t.Errorf("restored %d bytes %d keys, want %d %d", restored.StateBytes(), restored.StateKeys(), op.StateBytes(), op.StateKeys())
	}
	for _, o := range []*TopN{op, restored} {
		if got, want := run(t, o, "-a1:5", "-a3:4 -a2:3"), [][]string{{"-D a1:5", "+I a3:4"}, {"-D a3:4", "+I a2:3", "-D a2:3"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
		if o.StateKeys() != 0 {
			t.Errorf("%d keys left after every row is retracted", o.StateKeys())
		}
	}
	appendOnly, _ := New(Config{RankStart: 1, RankEnd: 1, KeyGroups: cfg.KeyGroups})
	if err := appendOnly.Restore(0, blob); err == nil || !strings.Contains(err.Error(), "restored into one over inserts") {
		t.Errorf("state of the other strategy: %v", err)
	}
	if _, err := New(cfg); err != nil {
		t.Fatal(err)
	}
	if err := appendOnly.Process([]Row{{Key: []byte("a"), Row: []byte{byte(changelog.Delete)}}}); err == nil {
		t.Error("an append-only Top-N should refuse a retraction")
	}
}

// Sort keys order as Flink's comparator: NULLs first or last as asked in either direction,
// integers and strings in value order (prefixes first, zero bytes included).
func TestEncodeSortKeys(t *testing.T) {
	mem := memory.DefaultAllocator
	ints := array.NewInt32Builder(mem)
	ints.AppendValues([]int32{3, -1, 0}, nil)
	ints.AppendNull()
	ints.Append(-2147483648)
	strs := array.NewStringBuilder(mem)
	strs.AppendValues([]string{"b", "a\x00", "a", "", "ab"}, nil)
	cols := []arrow.Array{ints.NewArray(), strs.NewArray()}
	defer cols[0].Release()
	defer cols[1].Release()
	order := func(f SortField, col arrow.Array) []int {
		keys, err := EncodeSortKeys(nil, []arrow.Array{col}, []SortField{f}, col.Len())
		if err != nil {
			t.Fatal(err)
		}
		idx := []int{0, 1, 2, 3, 4}
		sort.SliceStable(idx, func(i, j int) bool { return bytes.Compare(keys[idx[i]], keys[idx[j]]) < 0 })
		return idx
	}
	for _, c := range []struct {
		f    SortField
		col  arrow.Array
		want []int
	}{
		{SortField{Type: catalog.IntType(true), Ascending: true, NullIsLast: true}, cols[0], []int{4, 1, 2, 0, 3}},
		{SortField{Type: catalog.IntType(true), Ascending: false, NullIsLast: false}, cols[0], []int{3, 0, 2, 1, 4}},
		{SortField{Type: catalog.StringType(true), Ascending: true}, cols[1], []int{3, 2, 1, 4, 0}},
		{SortField{Type: catalog.StringType(true), Ascending: false}, cols[1], []int{0, 4, 1, 2, 3}},
	} {
		if got := order(c.f, c.col); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: order %v, want %v", c.f, got, c.want)
		}
	}
}

// A snapshot restores into a Top-N that goes on as the original.
func TestTopNSnapshotRestore(t *testing.T) {
	cfg := Config{RankStart: 1, RankEnd: 2, OutputRankNumber: true, GenerateUpdateBefore: true, KeyGroups: keygroup.Range{Start: 0, End: 0}}
	op, _ := New(cfg)
	run(t, op, "a1:5 a2:3")
	blob, err := op.Snapshot(0)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v", err)
	}
	restored, _ := New(cfg)
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	for _, o := range []*TopN{op, restored} {
		if got, want := run(t, o, "a3:4"), [][]string{{"-U a2:3 #2", "+U a3:4 #2"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	blob[len(blob)-1] ^= 1
	fresh, _ := New(cfg)
	if err := fresh.Restore(0, blob); err == nil || !strings.Contains(err.Error(), "key group 0") {
		t.Errorf("corrupt state: %v", err)
	}
}
