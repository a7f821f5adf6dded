package debeziumformat

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/sinks/jsonformat"
)

func TestEncoder(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(
		`[{"id": 1, "note": "a"}, {"id": 1, "note": "a"}, {"id": 1, "note": null}, {"id": 2, "note": "\""}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	kinds := []int8{changelog.Insert, changelog.UpdateBefore, changelog.UpdateAfter, changelog.Delete}
	for _, c := range []struct {
		name       string
		ignoreNull bool
		kinds      []int8
		want       string
	}{
		{"changes", false, kinds, `{"before":null,"after":{"id":1,"note":"a"},"op":"c"}
{"before":{"id":1,"note":"a"},"after":null,"op":"d"}
{"before":null,"after":{"id":1,"note":null},"op":"c"}
{"before":{"id":2,"note":"\""},"after":null,"op":"d"}`},
		{"changes without NULL fields", true, kinds, `{"after":{"id":1,"note":"a"},"op":"c"}
{"before":{"id":1,"note":"a"},"op":"d"}
{"after":{"id":1},"op":"c"}
{"before":{"id":2,"note":"\""},"op":"d"}`},
		{"inserts", false, nil, `{"before":null,"after":{"id":1,"note":"a"},"op":"c"}
{"before":null,"after":{"id":1,"note":"a"},"op":"c"}
{"before":null,"after":{"id":1,"note":null},"op":"c"}
{"before":null,"after":{"id":2,"note":"\""},"op":"c"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := NewEncoder([]string{"id", "note"}, []catalog.Type{catalog.IntType(false), catalog.StringType(true)},
				jsonformat.Options{IgnoreNullFields: c.ignoreNull})
			if err != nil {
				t.Fatal(err)
			}
			body, ends, err := e.AppendChanges(nil, []uint32{0}, b, c.kinds)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for r := 1; r < len(ends); r++ {
				got = append(got, string(body[ends[r-1]:ends[r]]))
			}
			if strings.Join(got, "\n") != c.want {
				t.Fatalf("records\n%s\nwant\n%s", strings.Join(got, "\n"), c.want)
			}
		})
	}
	e, err := NewEncoder([]string{"id", "note"}, []catalog.Type{catalog.IntType(false), catalog.StringType(true)}, jsonformat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.AppendChanges(nil, []uint32{0}, b, kinds[:2]); err == nil {
		t.Fatal("two RowKinds for four rows: no error")
	}
}
