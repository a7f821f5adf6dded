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
	"github.com/sluice-project/sluice/exec/keygroup"
)

// run feeds rows "key:price" of one key group, ordered by price descending (the sort key a
// BIGINT), and lists the changes per call as "+I x:5" or, with rank numbers, "+I x:5 #1".
func run(t *testing.T, op *TopN, calls ...string) [][]string {
	t.Helper()
	var out [][]string
	for _, call := range calls {
		var rows []Row
		var prices []int64
		for _, r := range strings.Fields(call) {
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
			k, _, _ := strings.Cut(r, ":")
			rows = append(rows, Row{Key: []byte(k[:1]), SortKey: keys[i], Row: append([]byte{0}, r...)})
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

// The top 2 by price as AppendOnlyTopNFunction emits it: without rank numbers a row pushed out
// is deleted (not when it is the row that came in); with them each rank's row is updated as
// rows move down, ties keep their arrival order, and a row past the end leaves the buffer.
func TestTopN(t *testing.T) {
	kg := keygroup.Range{Start: 0, End: 0}
	for _, c := range []struct {
		name  string
		cfg   Config
		calls []string
		want  [][]string
	}{
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
	} {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.KeyGroups = kg
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
