package chain

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/islands"
)

// The HOP TVF of Flink's restore test window-table-function-hop-tvf (10 s windows every 5 s)
// on a batch: each row twice, latest window first; a row without an event time dropped.
func TestWindowTableFunctionStage(t *testing.T) {
	is, err := plan.Decode(islands.Read(t, "window_tvf_hop.json"))
	if err != nil {
		t.Fatal(err)
	}
	if v := plan.Judge(is); !v.Supported {
		t.Fatalf("verdict: %+v", v)
	}
	node, err := plan.CompileNative(&is.Nodes[0], is.Options)
	if err != nil {
		t.Fatal(err)
	}
	p := node.(*plan.WindowTableFunction)
	st, err := openTVFStage(p)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.DefaultAllocator
	price := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 10, Scale: 2})
	price.AppendValues([]decimal128.Num{decimal128.FromI64(150), decimal128.FromI64(-1), decimal128.FromI64(7)}, nil)
	item := array.NewStringBuilder(mem)
	item.AppendValues([]string{"a", "b", "c"}, nil)
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
	ts.AppendValues([]arrow.Timestamp{12_000, 0, -1}, []bool{true, false, true})
	cols := []arrow.Array{price.NewArray(), item.NewArray(), ts.NewArray()}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: p.InNames[i], Type: c.DataType(), Nullable: true}
	}
	b := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 3)
	defer b.Release()
	if err := st.ProcessBatch(b); err != nil {
		t.Fatal(err)
	}
	data, offsets, _ := st.Output()
	d, err := binaryrow.NewDecoder(p.OutNames, p.OutTypes, mem)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Decode(data, offsets)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if out.NumRows() != 4 {
		t.Fatalf("%d rows, want 4", out.NumRows())
	}
	items := out.Column(1).(*array.String)
	starts, ends, times := column.Values[int64](out.Column(3)), column.Values[int64](out.Column(4)), column.Values[int64](out.Column(5))
	want := []struct {
		item            string
		start, end, tim int64
	}{{"a", 10_000, 20_000, 19_999}, {"a", 5_000, 15_000, 14_999}, {"c", -5_000, 5_000, 4_999}, {"c", -10_000, 0, -1}}
	for r, w := range want {
		if items.Value(r) != w.item || starts[r] != w.start || ends[r] != w.end || times[r] != w.tim {
			t.Errorf("row %d: %s [%d, %d) %d, want %+v", r, items.Value(r), starts[r], ends[r], times[r], w)
		}
	}
	if got := p.OutTypes[5]; got.Kind != catalog.Timestamp || got.Precision != 3 {
		t.Errorf("window_time type %s", got)
	}
}
