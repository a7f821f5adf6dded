package calc_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/calc"
	"github.com/sluice-project/sluice/exec/expr"
)

func TestFilterThenProject(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	intT := catalog.IntType(true)
	schema, _ := catalog.ArrowSchema([]string{"a"}, []catalog.Type{intT})
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{5, 0, -3, 7}, []bool{true, true, true, false})
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()

	a := &expr.Node{Kind: expr.InputRef, Index: 0, Type: intT}
	lit := func(v int64) *expr.Node {
		return &expr.Node{Kind: expr.Literal, Value: v, Type: catalog.IntType(false)}
	}
	cond, err := expr.Compile(&expr.Node{Kind: expr.Call, Op: "<>", Type: catalog.BooleanType(true), Args: []*expr.Node{a, lit(0)}}, []catalog.Type{intT})
	if err != nil {
		t.Fatal(err)
	}
	// 100 / a fails where a = 0, a row the filter drops: Flink never evaluates it there.
	proj, err := expr.Compile(&expr.Node{Kind: expr.Call, Op: "/", Type: intT, Args: []*expr.Node{lit(100), a}}, []catalog.Type{intT})
	if err != nil {
		t.Fatal(err)
	}
	c := calc.New([]expr.Expr{proj}, cond, mem)
	sel, err := c.Filter(rec, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(sel) != 2 || sel[0] != 0 || sel[1] != 2 {
		t.Fatalf("selection %v, want [0 2] (NULL and FALSE rows dropped)", sel)
	}
	taken := array.NewRecordBatch(schema, []arrow.Array{array.NewInt32Data(array.NewSliceData(rec.Column(0).Data(), 0, 1))}, 1)
	defer taken.Release()
	cols, err := c.Project(taken, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer cols[0].Release()
	if got := cols[0].(*array.Int32).Value(0); got != 20 {
		t.Fatalf("100 / 5 = %d", got)
	}
	if _, err := c.Project(rec, 4); err == nil {
		t.Fatal("projecting the unfiltered rows evaluates 100 / 0 and must fail")
	}
}

// TestClockReadOncePerBatch checks that the condition and the projections of a batch see one
// reading of the clock, taken when the batch's Filter starts (Flink's Calc reads it once per
// record for both).
func TestClockReadOncePerBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	intT := catalog.IntType(true)
	schema, _ := catalog.ArrowSchema([]string{"a"}, []catalog.Type{intT})
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2, 3}, nil)
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()

	ltz := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3}
	now := &expr.Node{Kind: expr.Call, Op: "CURRENT_TIMESTAMP", Type: ltz}
	env := expr.Env{Clock: true}
	cond, err := expr.CompileIn(&expr.Node{Kind: expr.Call, Op: "IS NOT NULL", Type: catalog.BooleanType(false), Args: []*expr.Node{now}}, []catalog.Type{intT}, env)
	if err != nil {
		t.Fatal(err)
	}
	proj, err := expr.CompileIn(now, []catalog.Type{intT}, env)
	if err != nil {
		t.Fatal(err)
	}
	c := calc.New([]expr.Expr{proj}, cond, mem)
	before := time.Now().UnixMilli()
	if _, err := c.Filter(rec, 3); err != nil {
		t.Fatal(err)
	}
	after := time.Now().UnixMilli()
	time.Sleep(20 * time.Millisecond)
	cols, err := c.Project(rec, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer cols[0].Release()
	for i, v := range cols[0].(*array.Timestamp).Values() {
		if int64(v) < before || int64(v) > after {
			t.Fatalf("row %d: CURRENT_TIMESTAMP %d outside the Filter's reading [%d, %d]", i, v, before, after)
		}
	}
	if _, err := expr.Compile(now, []catalog.Type{intT}); err == nil {
		t.Fatal("CURRENT_TIMESTAMP compiled without a clock")
	}
}
