package column

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestTake(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{10, 11, 12, 13, 14}, []bool{true, false, true, true, true})
	ints := ib.NewArray()
	ib.Release()
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "", "ccc", "dd", "e"}, []bool{true, true, false, true, true})
	strs := sb.NewArray()
	sb.Release()
	bb := array.NewBooleanBuilder(mem)
	bb.AppendValues([]bool{true, false, true, false, true}, nil)
	bools := bb.NewArray()
	bb.Release()
	sliced := array.NewSlice(strs, 1, 5) // offset 1: take honours the offset
	defer func() {
		for _, a := range []arrow.Array{ints, strs, bools, sliced} {
			a.Release()
		}
	}()
	sel := []int32{4, 1, 2}
	for _, c := range []struct {
		name string
		in   arrow.Array
		sel  []int32
		want string
	}{
		{"int64 with nulls", ints, sel, "[14 (null) 12]"},
		{"strings with nulls", strs, sel, `["e" "" (null)]`},
		{"booleans", bools, sel, "[true false true]"},
		{"sliced strings", sliced, []int32{3, 0}, `["e" ""]`},
		{"nothing", ints, nil, "[]"},
	} {
		got, err := Take(c.in, c.sel, mem)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.String() != c.want || got.Len() != len(c.sel) {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
		got.Release()
	}
}
