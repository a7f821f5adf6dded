package keygroup

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// The expected values below were printed by Flink itself (MathUtils, BinaryRowData,
// KeyGroupRangeAssignment in jshell; those classes are the same in 2.1.1 and 2.2.1). The property test against Flink on random keys of every
// type is planner-hook/flink's KeyGroupParityTest.

func TestMurmur(t *testing.T) {
	for _, c := range []struct{ in, want int32 }{
		{0, 593689054}, {1, 68075478}, {-1, 1982413648}, {42, 1134849565},
		{-1 << 31, 1718298732}, {1<<31 - 1, 1653689534}, {123456789, 1088346449},
	} {
		if got := Murmur(c.in); got != c.want {
			t.Errorf("Murmur(%d) = %d, Flink says %d", c.in, got, c.want)
		}
	}
}

func TestDefaultMaxParallelism(t *testing.T) {
	for _, c := range []struct{ p, want int }{
		{1, 128}, {2, 128}, {3, 128}, {85, 128}, {86, 256}, {100, 256}, {1000, 2048}, {30000, 32768},
	} {
		if got := DefaultMaxParallelism(c.p); got != c.want {
			t.Errorf("DefaultMaxParallelism(%d) = %d, Flink says %d", c.p, got, c.want)
		}
	}
}

func TestRangesPartitionKeyGroups(t *testing.T) {
	r, err := RangeOf(128, 3, 1)
	if err != nil || r != (Range{43, 85}) {
		t.Fatalf("RangeOf(128, 3, 1) = %v, %v; Flink says [43, 85]", r, err)
	}
	for _, maxP := range []int{1, 7, 128, 129, 32768} {
		for _, p := range []int{1, 2, 3, 5, 7, 128} {
			if p > maxP {
				continue
			}
			next := 0
			for i := 0; i < p; i++ {
				r, err := RangeOf(maxP, p, i)
				if err != nil {
					t.Fatal(err)
				}
				if r.Start != next {
					t.Fatalf("maxP %d p %d subtask %d: range %v does not start at %d", maxP, p, i, r, next)
				}
				for kg := r.Start; kg <= r.End; kg++ {
					if s := Subtask(kg, p, maxP); s != i {
						t.Fatalf("maxP %d p %d: key group %d in range of %d but routed to %d", maxP, p, kg, i, s)
					}
				}
				next = r.End + 1
			}
			if next != maxP {
				t.Fatalf("maxP %d p %d: ranges end at %d", maxP, p, next)
			}
		}
	}
	for _, bad := range [][3]int{{0, 1, 0}, {4, 5, 0}, {128, 2, 2}, {1 << 16, 1, 0}} {
		if _, err := RangeOf(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("RangeOf%v: no error", bad)
		}
	}
}

func TestAssignerMatchesFlinkKeyRows(t *testing.T) {
	mem := memory.NewGoAllocator()
	ib := array.NewInt64Builder(mem)
	ib.Append(7)
	ib.AppendNull()
	ints := ib.NewArray()
	defer ints.Release()
	sb := array.NewStringBuilder(mem)
	sb.Append("hello world, sluice")
	strs := sb.NewArray()
	defer strs.Release()

	cases := []struct {
		name   string
		typ    catalog.Type
		col    arrow.Array
		hashes []int32
		groups []int32
	}{
		{"BIGINT", catalog.Type{Kind: catalog.BigInt, Nullable: true}, ints, []int32{-348168691, -1748325344}, []int32{4, 99}},
		{"STRING", catalog.Type{Kind: catalog.VarChar, Length: 1<<31 - 1, Nullable: true}, strs, []int32{819512278}, []int32{16}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := NewAssigner([]catalog.Type{c.typ}, 128)
			if err != nil {
				t.Fatal(err)
			}
			n := c.col.Len()
			groups, hashes := make([]int32, n), make([]int32, n)
			if err := a.Assign([]arrow.Array{c.col}, n, groups, hashes); err != nil {
				t.Fatal(err)
			}
			for r := 0; r < n; r++ {
				if hashes[r] != c.hashes[r] || groups[r] != c.groups[r] {
					t.Errorf("row %d: hash %d key group %d, Flink says %d and %d", r, hashes[r], groups[r], c.hashes[r], c.groups[r])
				}
			}
		})
	}
}

func BenchmarkAssignBigint(b *testing.B) {
	mem := memory.NewGoAllocator()
	ib := array.NewInt64Builder(mem)
	const n = 8192
	for i := 0; i < n; i++ {
		ib.Append(int64(i * 7919))
	}
	col := ib.NewArray()
	defer col.Release()
	a, err := NewAssigner([]catalog.Type{{Kind: catalog.BigInt}}, 128)
	if err != nil {
		b.Fatal(err)
	}
	groups := make([]int32, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.Assign([]arrow.Array{col}, n, groups, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

func TestAssignerKeyRowsFollowEachBatch(t *testing.T) {
	mem := memory.NewGoAllocator()
	a, err := NewAssigner([]catalog.Type{{Kind: catalog.BigInt}}, 128)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{5, 2, 4, 9} { // growing and shrinking batches reuse the buffers
		b := array.NewInt64Builder(mem)
		for i := 0; i < n; i++ {
			b.Append(int64(i))
		}
		col := b.NewArray()
		if err := a.Assign([]arrow.Array{col}, n, make([]int32, n), nil); err != nil {
			t.Fatal(err)
		}
		data, offsets := a.KeyRows()
		if len(offsets) != n+1 || int(offsets[n]) != len(data) || len(data) != 16*n {
			t.Fatalf("batch of %d: %d offsets, last %d, %d bytes", n, len(offsets), offsets[len(offsets)-1], len(data))
		}
		col.Release()
	}
}
