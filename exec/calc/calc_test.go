package calc_test

import (
	"testing"

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
