package adbc

import (
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// values renders a column's values (NULL as "(null)").
func values(a arrow.Array) []string {
	out := make([]string, a.Len())
	for i := range out {
		out[i] = a.ValueStr(i)
	}
	return out
}

func TestConvertersOfOtherDriversTypes(t *testing.T) {
	mem := memory.DefaultAllocator
	ls := array.NewLargeStringBuilder(mem)
	ls.AppendValues([]string{"x", "", "ä"}, []bool{true, false, true})
	lb := array.NewBinaryBuilder(mem, arrow.BinaryTypes.LargeBinary)
	lb.AppendValues([][]byte{{1}, nil, {}}, []bool{true, false, true})
	i64 := array.NewInt64Builder(mem)
	i64.AppendValues([]int64{7, 0, -3, 9}, []bool{true, false, true, true})
	wide := i64.NewArray()
	defer wide.Release()
	sliced := array.NewSlice(wide, 1, 4) // a column at an offset: its bitmap is copied
	defer sliced.Release()
	for _, c := range []struct {
		in   arrow.Array
		as   catalog.Type
		want []string
	}{
		{ls.NewArray(), catalog.StringType(true), []string{"x", "(null)", "ä"}},
		{lb.NewArray(), catalog.Type{Kind: catalog.VarBinary, Length: catalog.MaxVarLength, Nullable: true}, []string{"AQ==", "(null)", ""}},
		{wide, catalog.IntType(true), []string{"7", "(null)", "-3", "9"}},
		{sliced, catalog.IntType(true), []string{"(null)", "-3", "9"}},
		{sliced, catalog.BigIntType(true), []string{"(null)", "-3", "9"}},
	} {
		cv, err := converterFor(arrow.Field{Name: "c", Type: c.in.DataType()}, c.as)
		if err != nil {
			t.Fatalf("%s as %s: %v", c.in.DataType(), c.as, err)
		}
		out, err := cv(c.in)
		if err != nil {
			t.Fatalf("%s as %s: %v", c.in.DataType(), c.as, err)
		}
		want, _ := catalog.ArrowType(c.as)
		if !arrow.TypeEqual(out.DataType(), want) {
			t.Errorf("%s as %s: type %s", c.in.DataType(), c.as, out.DataType())
		}
		if got := values(out); !slices.Equal(got, c.want) {
			t.Errorf("%s as %s: %q, want %q", c.in.DataType(), c.as, got, c.want)
		}
		out.Release()
	}
}
