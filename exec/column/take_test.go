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
		name   string
		in     arrow.Array
		sel    []int32
		want   string
		misses bool
	}{
		{"int64 misses", ints, []int32{-1, 0, 1}, "[(null) 10 (null)]", true},
		{"strings misses", sliced, []int32{3, -1, 0}, `["e" (null) ""]`, true},
		{"booleans misses", bools, []int32{-1, 0}, "[(null) true]", true},
		{"int64 with nulls", ints, sel, "[14 (null) 12]", false},
		{"strings with nulls", strs, sel, `["e" "" (null)]`, false},
		{"booleans", bools, sel, "[true false true]", false},
		{"sliced strings", sliced, []int32{3, 0}, `["e" ""]`, false},
		{"nothing", ints, nil, "[]", false},
	} {
		take := Take
		if c.misses {
			take = TakeOrNull
		}
		got, err := take(c.in, c.sel, mem)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.String() != c.want || got.Len() != len(c.sel) {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
		got.Release()
	}
}

func TestTakeNested(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	// ARRAY<ROW<a INT, b ARRAY<STRING>>>: [[{1,[x]}], NULL, [], [{NULL,[]}, {3,NULL}]]
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})
	lb := array.NewListBuilder(mem, st)
	defer lb.Release()
	sb := lb.ValueBuilder().(*array.StructBuilder)
	ab := sb.FieldBuilder(0).(*array.Int32Builder)
	bb := sb.FieldBuilder(1).(*array.ListBuilder)
	xb := bb.ValueBuilder().(*array.StringBuilder)
	lb.Append(true)
	sb.Append(true)
	ab.Append(1)
	bb.Append(true)
	xb.Append("x")
	lb.AppendNull()
	lb.Append(true)
	lb.Append(true)
	sb.Append(true)
	ab.AppendNull()
	bb.Append(true)
	sb.Append(true)
	ab.Append(3)
	bb.AppendNull()
	lists := lb.NewArray()
	defer lists.Release()
	sliced := array.NewSlice(lists, 1, 4)
	defer sliced.Release()
	for _, c := range []struct {
		name string
		in   arrow.Array
		sel  []int32
		want string
	}{
		// Arrow prints a list of structs field by field: {[a values] [b values]} per list.
		{"lists", lists, []int32{3, 0, 1, 2}, `[{[(null) 3] [[] (null)]} {[1] [["x"]]} (null) {[] []}]`},
		{"lists with misses", lists, []int32{-1, 0}, `[(null) {[1] [["x"]]}]`},
		{"sliced lists", sliced, []int32{2, 0}, `[{[(null) 3] [[] (null)]} (null)]`},
		{"structs", lists.(*array.List).ListValues(), []int32{2, -1, 0}, `{[3 (null) 1] [(null) (null) ["x"]]}`},
	} {
		got, err := TakeOrNull(c.in, c.sel, mem)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.String() != c.want || got.Len() != len(c.sel) {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
		got.Release()
	}
}

// TakeEither picks rows of two columns: from one of them alone, or from both.
func TestTakeEither(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a0", "a1", "a2"}, []bool{true, false, true})
	a := sb.NewArray()
	sb.AppendValues([]string{"b0", "b1"}, nil)
	b := sb.NewArray()
	sb.Release()
	defer a.Release()
	defer b.Release()
	for _, c := range []struct {
		name string
		sel  []int32
		want string
	}{
		{"from a", []int32{2, 0, 1}, `["a2" "a0" (null)]`},
		{"from b", []int32{4, 3, 4}, `["b1" "b0" "b1"]`},
		{"from both", []int32{3, 0, 4, 1}, `["b0" "a0" "b1" (null)]`},
		{"none", []int32{}, `[]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := TakeEither(a, b, c.sel, mem)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if got.String() != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}
