package iceberg

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

func TestSplitterSplitsByPartition(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fields := []Field{
		{ID: 1, Name: "k", Iceberg: "int", Type: catalog.IntType(true)},
		{ID: 2, Name: "s", Iceberg: "string", Type: catalog.StringType(true)},
	}
	s, err := NewSplitter(fields, []PartitionField{{Column: 1, Transform: "identity"}}, mem)
	if err != nil {
		t.Fatal(err)
	}
	batch := func(ks []int32, ss []string, valid []bool) arrow.RecordBatch {
		kb := array.NewInt32Builder(mem)
		defer kb.Release()
		kb.AppendValues(ks, nil)
		sb := array.NewStringBuilder(mem)
		defer sb.Release()
		sb.AppendValues(ss, valid)
		k, sc := kb.NewArray(), sb.NewArray()
		defer k.Release()
		defer sc.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: k.DataType(), Nullable: true}, {Name: "s", Type: sc.DataType(), Nullable: true}}, nil)
		return array.NewRecordBatch(schema, []arrow.Array{k, sc}, int64(len(ks)))
	}
	render := func(parts []Part) string {
		var out []string
		for _, p := range parts {
			vals, err := s.PartitionValues(p.Partition)
			if err != nil {
				t.Fatal(err)
			}
			name := "null"
			if !vals[0].Null {
				name = vals[0].Str
			}
			out = append(out, name+":"+p.Batch.Column(0).String())
			p.Batch.Release()
		}
		return strings.Join(out, " ")
	}
	b1 := batch([]int32{1, 2, 3, 4}, []string{"a", "b", "", "a"}, []bool{true, true, false, true})
	parts, err := s.Split(b1)
	b1.Release()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := render(parts), "a:[1 4] b:[2] null:[3]"; got != want {
		t.Errorf("first batch: %s, want %s", got, want)
	}
	// A later batch: known partitions keep their numbers; a batch of one partition is itself.
	b2 := batch([]int32{5, 6}, []string{"b", "b"}, nil)
	parts, err = s.Split(b2)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 || parts[0].Partition != 1 || parts[0].Batch != b2 {
		t.Errorf("second batch: %+v", parts)
	}
	if got := render(parts); got != "b:[5 6]" {
		t.Errorf("second batch: %s", got)
	}
	b2.Release()
	// Many partitions: the numbering starts over, in a new generation.
	many := make([]string, splitterPartitions+1)
	ks := make([]int32, len(many))
	for i := range many {
		many[i] = "p" + itoa(i)
	}
	b3 := batch(ks, many, nil)
	parts, err = s.Split(b3)
	b3.Release()
	if err != nil || len(parts) != len(many) || s.Generation() != 0 {
		t.Fatalf("%d parts, generation %d: %v", len(parts), s.Generation(), err)
	}
	for _, p := range parts {
		p.Batch.Release()
	}
	b4 := batch([]int32{7}, []string{"a"}, nil)
	parts, err = s.Split(b4)
	b4.Release()
	if err != nil || s.Generation() != 1 || len(parts) != 1 || parts[0].Partition != 0 {
		t.Fatalf("after starting over: %+v, generation %d, %v", parts, s.Generation(), err)
	}
	if got := render(parts); got != "a:[7]" {
		t.Errorf("after starting over: %s", got)
	}
	if _, err := NewSplitter(fields, nil, mem); err == nil {
		t.Error("a splitter for an unpartitioned table")
	}
}
