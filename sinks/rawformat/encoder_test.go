package rawformat

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sinks/recordends"
)

// TestAppendRecords checks each type's bytes in both byte orders, and NULL fields as records
// without a value.
func TestAppendRecords(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		name   string
		t      catalog.Type
		little bool
		col    func() arrow.Array
		want   string // the records, <null> for none
	}{
		{"string", catalog.StringType(true), false, func() arrow.Array {
			b := array.NewStringBuilder(mem)
			defer b.Release()
			b.AppendValues([]string{"ab", "", "c"}, []bool{true, true, false})
			return b.NewArray()
		}, `["ab" "" <null>]`},
		{"boolean", catalog.Type{Kind: catalog.Boolean, Nullable: true}, false, func() arrow.Array {
			b := array.NewBooleanBuilder(mem)
			defer b.Release()
			b.AppendValues([]bool{true, false, true}, []bool{true, true, false})
			return b.NewArray()
		}, `["\x01" "\x00" <null>]`},
		{"int big-endian", catalog.IntType(true), false, func() arrow.Array {
			b := array.NewInt32Builder(mem)
			defer b.Release()
			b.AppendValues([]int32{258, -1}, nil)
			return b.NewArray()
		}, `["\x00\x00\x01\x02" "\xff\xff\xff\xff"]`},
		{"bigint little-endian", catalog.Type{Kind: catalog.BigInt, Nullable: true}, true, func() arrow.Array {
			b := array.NewInt64Builder(mem)
			defer b.Release()
			b.AppendValues([]int64{258, 0}, []bool{true, false})
			return b.NewArray()
		}, `["\x02\x01\x00\x00\x00\x00\x00\x00" <null>]`},
		{"double big-endian", catalog.Type{Kind: catalog.Double, Nullable: true}, false, func() arrow.Array {
			b := array.NewFloat64Builder(mem)
			defer b.Release()
			b.AppendValues([]float64{1.5}, nil)
			return b.NewArray()
		}, `["?\xf8\x00\x00\x00\x00\x00\x00"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := NewEncoder([]string{"v"}, []catalog.Type{c.t}, Options{LittleEndian: c.little})
			if err != nil {
				t.Fatal(err)
			}
			col := c.col()
			defer col.Release()
			schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: col.DataType(), Nullable: true}}, nil)
			b := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
			defer b.Release()
			body, ends, err := e.AppendRecords(nil, []uint32{0}, b)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for r := 1; r < len(ends); r++ {
				if ends[r]&recordends.NullValue != 0 {
					got = append(got, "<null>")
					continue
				}
				got = append(got, fmt.Sprintf("%q", body[ends[r-1]&^recordends.NullValue:ends[r]]))
			}
			if s := fmt.Sprint(got); s != c.want {
				t.Fatalf("records %s, want %s", s, c.want)
			}
		})
	}
}
