package chain

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/islands"
)

// The group aggregation of Flink's restore test group-aggregate-simple (per b: COUNT(*),
// AVG(a) FILTER $f2, MIN(c); no update-before) as a native chain: each row's change to its key's
// result comes out with its RowKind, the same rows arriving as a batch or as BinaryRowData rows.
func TestGroupAggregateChain(t *testing.T) {
	opts := map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127",
		plan.OptBatchInput: "true"}
	mem := memory.DefaultAllocator
	b, a, f, c := array.NewInt64Builder(mem), array.NewInt32Builder(mem), array.NewBooleanBuilder(mem), array.NewStringBuilder(mem)
	for _, r := range []struct {
		b    int64
		a    int32
		keep bool
		c    string
	}{{1, 10, true, "x"}, {2, 4, true, "m"}, {1, 20, false, "a"}, {1, 30, true, "z"}, {2, 8, false, "m"}} {
		b.Append(r.b)
		a.Append(r.a)
		f.Append(r.keep)
		c.Append(r.c)
	}
	cols := []arrow.Array{b.NewArray(), a.NewArray(), f.NewArray(), c.NewArray()}
	fields := []arrow.Field{{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "$f2", Type: arrow.FixedWidthTypes.Boolean}, {Name: "c", Type: arrow.BinaryTypes.String, Nullable: true}}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 5)
	defer batch.Release()
	want := []string{"+I 1 1 10 x", "+I 2 1 4 m", "+U 1 2 10 a", "+U 1 3 20 a", "+U 2 2 4 m"}

	island := islands.WithOptions(t, islands.Read(t, "group_aggregate_simple.json"), opts)
	ch, err := Open(island)
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.ProcessBatch(batch); err != nil {
		t.Fatal(err)
	}
	if got := changeRows(t, ch); !reflect.DeepEqual(got, want) {
		t.Errorf("batch: got %q, want %q", got, want)
	}

	// The same rows through Flink's row exchange.
	enc, err := binaryrow.NewEncoder([]catalog.Type{catalog.BigIntType(true), catalog.IntType(true), catalog.BooleanType(false), catalog.StringType(true)})
	if err != nil {
		t.Fatal(err)
	}
	offsets := make([]int32, 6)
	if err := enc.Layout(cols, 5, offsets); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, offsets[5])
	if err := enc.Encode(cols, nil, 5, offsets, data); err != nil {
		t.Fatal(err)
	}
	delete(opts, plan.OptBatchInput)
	rows, err := Open(islands.WithOptions(t, islands.Read(t, "group_aggregate_simple.json"), opts))
	if err != nil {
		t.Fatal(err)
	}
	if err := rows.Process(data, offsets); err != nil {
		t.Fatal(err)
	}
	if got := changeRows(t, rows); !reflect.DeepEqual(got, want) {
		t.Errorf("rows: got %q, want %q", got, want)
	}
	if rows.StateKeys() != 2 {
		t.Errorf("%d keys in state, want 2", rows.StateKeys())
	}
	// A retraction is refused: only inserts are native.
	kinds := make([]int8, 5)
	kinds[3] = 1
	if err := enc.Encode(cols, kinds, 5, offsets, data); err != nil {
		t.Fatal(err)
	}
	if err := rows.Process(data, offsets); err == nil {
		t.Error("an update-before row should be refused")
	}
}

// changeRows renders the chain's output rows (b, cnt, avg_a, min_c) as "+I 1 1 10 x".
func changeRows(t *testing.T, ch *Chain) []string {
	t.Helper()
	data, offsets, _ := ch.Output()
	d, err := binaryrow.NewDecoder([]string{"b", "cnt", "avg_a", "min_c"},
		[]catalog.Type{catalog.BigIntType(true), catalog.BigIntType(false), catalog.IntType(true), catalog.StringType(true)}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Decode(data, offsets)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	var out []string
	kinds := b.Column(4).(*array.Int8)
	for r := 0; r < int(b.NumRows()); r++ {
		out = append(out, fmt.Sprintf("%s %d %d %d %s", [...]string{"+I", "-U", "+U", "-D"}[kinds.Value(r)],
			b.Column(0).(*array.Int64).Value(r), b.Column(1).(*array.Int64).Value(r), b.Column(2).(*array.Int32).Value(r),
			b.Column(3).(*array.String).Value(r)))
	}
	return out
}

// A changelog batch of a columnar exchange (its RowKinds in a last $row_kind column) is
// aggregated with its retractions: here COUNT(*) and SUM(v) per k, the key emptied by a -D.
func TestGroupAggregateChangelogBatch(t *testing.T) {
	str, long := catalog.StringType(true), catalog.BigIntType(true)
	p := &plan.GroupAggregate{InNames: []string{"k", "v"}, InTypes: []catalog.Type{str, long},
		OutTypes: []catalog.Type{str, catalog.BigIntType(false), long}, KeyCols: []int{0}, KeyTypes: []catalog.Type{str},
		Calls: []agg.Call{{Func: agg.CountStar, Result: catalog.BigIntType(false), Retract: true, DistinctGroup: -1},
			{Func: agg.Sum, Arg: long, Result: long, Retract: true, DistinctGroup: -1}},
		ArgCols: []int{-1, 1}, FilterCols: []int{-1, -1}, GenerateUpdateBefore: true, Retractions: true}
	s, err := openGroupAggStage(p, map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127"})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.DefaultAllocator
	k, v, kind := array.NewStringBuilder(mem), array.NewInt64Builder(mem), array.NewInt8Builder(mem)
	for _, r := range []struct {
		k    string
		v    int64
		kind int8
	}{{"a", 1, changelog.Insert}, {"a", 2, changelog.Insert}, {"a", 1, changelog.UpdateBefore}, {"a", 2, changelog.Delete}} {
		k.Append(r.k)
		v.Append(r.v)
		kind.Append(r.kind)
	}
	cols := []arrow.Array{k.NewArray(), v.NewArray(), kind.NewArray()}
	fields := []arrow.Field{{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8}}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 4)
	defer batch.Release()
	for _, c := range cols {
		c.Release()
	}
	if err := s.ProcessBatch(batch); err != nil {
		t.Fatal(err)
	}
	data, offsets, _ := s.Output()
	d, err := binaryrow.NewDecoder([]string{"k", "c", "s"}, p.OutTypes, mem)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Decode(data, offsets)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	var got []string
	for r := 0; r < int(out.NumRows()); r++ {
		got = append(got, fmt.Sprintf("%s %s %d %d", [...]string{"+I", "-U", "+U", "-D"}[out.Column(3).(*array.Int8).Value(r)],
			out.Column(0).(*array.String).Value(r), out.Column(1).(*array.Int64).Value(r), out.Column(2).(*array.Int64).Value(r)))
	}
	want := []string{"+I a 1 1", "-U a 1 1", "+U a 2 3", "-U a 2 3", "+U a 1 2", "-D a 1 2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A chain that hands its changes to a native sink gives them as Arrow batches with their
// RowKinds in a last $row_kind column; output rows that are all inserts come without it.
func TestGroupAggregateOutputBatch(t *testing.T) {
	opts := map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127",
		plan.OptBatchOutput: "true"}
	ch, err := Open(islands.WithOptions(t, islands.Read(t, "group_aggregate_simple.json"), opts))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := binaryrow.NewEncoder([]catalog.Type{catalog.BigIntType(true), catalog.IntType(true), catalog.BooleanType(false), catalog.StringType(true)})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.DefaultAllocator
	b, a, f, c := array.NewInt64Builder(mem), array.NewInt32Builder(mem), array.NewBooleanBuilder(mem), array.NewStringBuilder(mem)
	b.AppendValues([]int64{1, 2, 1}, nil)
	a.AppendValues([]int32{10, 4, 20}, nil)
	f.AppendValues([]bool{true, true, true}, nil)
	c.AppendValues([]string{"x", "m", "a"}, nil)
	cols := []arrow.Array{b.NewArray(), a.NewArray(), f.NewArray(), c.NewArray()}
	offsets := make([]int32, 4)
	if err := enc.Layout(cols, 3, offsets); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, offsets[3])
	if err := enc.Encode(cols, nil, 3, offsets, data); err != nil {
		t.Fatal(err)
	}
	if err := ch.Process(data, offsets); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		from, to int
		want     string
	}{
		{0, 2, "4 columns: [1 2] [1 1]"},
		{0, 3, "5 columns: [1 2 1] [1 1 2] kinds [0 0 2]"},
		{2, 3, "5 columns: [1] [2] kinds [2]"},
	} {
		out, err := ch.OutputBatch(r.from, r.to)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%d columns: %v %v", out.NumCols(), out.Column(0).(*array.Int64).Int64Values(), out.Column(1).(*array.Int64).Int64Values())
		if out.NumCols() == 5 {
			if name := out.Schema().Field(4).Name; name != catalog.RowKindColumn {
				t.Fatalf("last column %q, want %q", name, catalog.RowKindColumn)
			}
			got += fmt.Sprintf(" kinds %v", out.Column(4).(*array.Int8).Int8Values())
		}
		out.Release()
		if got != r.want {
			t.Errorf("rows [%d, %d): %s, want %s", r.from, r.to, got, r.want)
		}
	}
}
