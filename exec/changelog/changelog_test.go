package changelog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

func TestSplit(t *testing.T) {
	v := arrow.Field{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	kind := arrow.Field{Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8}
	for _, c := range []struct {
		name   string
		fields []arrow.Field
		rows   string
		want   string // "cols kinds split", or the error's start
	}{
		{"inserts", []arrow.Field{v}, `[{"v": 1}, {"v": 2}]`, "1 [] false"},
		{"changes", []arrow.Field{v, kind}, `[{"v": 1, "$row_kind": 0}, {"v": 1, "$row_kind": 3}]`, "1 [0 3] true"},
		{"another last column", []arrow.Field{v, {Name: "w", Type: arrow.PrimitiveTypes.Int8}}, `[{"v": 1, "w": 1}]`, "2 [] false"},
		{"kinds of the wrong type", []arrow.Field{v, {Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int32}}, `[{"v": 1, "$row_kind": 0}]`, "error: reader: the batch's $row_kind column is int32"},
		{"a NULL kind", []arrow.Field{v, {Name: catalog.RowKindColumn, Type: arrow.PrimitiveTypes.Int8, Nullable: true}}, `[{"v": 1, "$row_kind": null}]`, "error: reader: the batch's $row_kind column is int8 with 1 NULLs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _, err := array.RecordFromJSON(memory.DefaultAllocator, arrow.NewSchema(c.fields, nil), strings.NewReader(c.rows))
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			rest, kinds, split, err := Split("reader", b, 1)
			got := fmt.Sprintf("%d %v %v", b.NumCols(), kinds, split) // not split: the batch itself
			switch {
			case err != nil:
				got = "error: " + err.Error()
			case split:
				got = fmt.Sprintf("%d %v %v", rest.NumCols(), kinds, split)
				rest.Release()
			}
			if !strings.HasPrefix(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestRetracts(t *testing.T) {
	for k, want := range map[int8]bool{Insert: false, UpdateBefore: true, UpdateAfter: false, Delete: true} {
		if Retracts(k) != want {
			t.Errorf("Retracts(%d) = %v, want %v", k, !want, want)
		}
	}
}
