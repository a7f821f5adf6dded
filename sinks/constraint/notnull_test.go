package constraint

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// batch makes a batch of an INT column a, a STRING column b and an INT column c from JSON.
func batch(t *testing.T, mem memory.Allocator, a, b, c string) arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	for i, js := range []string{a, b, c} {
		if err := rb.Field(i).UnmarshalJSON([]byte(js)); err != nil {
			t.Fatal(err)
		}
	}
	return rb.NewRecordBatch()
}

func TestNotNull(t *testing.T) {
	names := []string{"a", "b", "c"}
	types := []catalog.Type{catalog.IntType(false), catalog.StringType(true), catalog.IntType(false)}
	for _, c := range []struct {
		name     string
		mode     Mode
		a, b, cc string
		want     string // the rows kept, or the error
	}{
		{"no nulls", Error, `[1, 2]`, `[null, "x"]`, `[3, 4]`, `a=[1 2] b=[(null) "x"] c=[3 4]`},
		{"error names the first column of the first row", Error, `[1, 2, null]`, `["p", "q", "r"]`, `[3, null, 5]`,
			"Column 'c' is NOT NULL, however, a null value is being written into it. You can set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and drop such records silently."},
		{"error, two columns in one row", Error, `[null]`, `["p"]`, `[null]`, "Column 'a' is NOT NULL"},
		{"drop", Drop, `[1, null, 3, 4]`, `["p", "q", null, "s"]`, `[5, 6, 7, null]`, `a=[1 3] b=["p" (null)] c=[5 7]`},
		{"drop every row", Drop, `[null]`, `["p"]`, `[1]`, "no rows"},
		{"nullable column with nulls only", Error, `[1]`, `[null]`, `[2]`, `a=[1] b=[(null)] c=[2]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			e := NewNotNull(names, types, c.mode)
			b := batch(t, mem, c.a, c.b, c.cc)
			defer b.Release()
			out, err := e.Enforce(b, mem)
			got := "no rows"
			switch {
			case err != nil:
				got = err.Error()
			case out != nil:
				var parts []string
				for i := 0; i < int(out.NumCols()); i++ {
					parts = append(parts, out.ColumnName(i)+"="+out.Column(i).String())
				}
				got = strings.Join(parts, " ")
				out.Release()
			}
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
	if NewNotNull(names, []catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.IntType(true)}, Error) != nil {
		t.Error("a check for a table without NOT NULL columns")
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Error, "ERROR": Error, "drop": Drop, "Drop": Drop} {
		if m, err := ParseMode(in); err != nil || m != want {
			t.Errorf("%q: %v, %v", in, m, err)
		}
	}
	if _, err := ParseMode("IGNORE"); err == nil || !strings.Contains(err.Error(), "table.exec.sink.not-null-enforcer") {
		t.Errorf("IGNORE: %v", err)
	}
}

func TestForSink(t *testing.T) {
	vc := func(n int) catalog.Type { return catalog.Type{Kind: catalog.VarChar, Length: n, Nullable: true} }
	arr := catalog.Type{Kind: catalog.Array, Elem: &catalog.Type{Kind: catalog.Int, Nullable: true}, Nullable: true}
	names := []string{"k", "s", "short", "arr"}
	types := []catalog.Type{catalog.IntType(false), catalog.StringType(true), vc(5), arr}
	for _, c := range []struct {
		options map[string]string
		mode    Mode
		reasons []string
	}{
		{nil, Error, nil},
		{map[string]string{NotNullOption: "DROP", TypeLengthOption: "IGNORE", NestedOption: "IGNORE"}, Drop, nil},
		{map[string]string{TypeLengthOption: "TRIM_PAD"}, Error, []string{"column short: 'table.exec.sink.type-length-enforcer' = 'TRIM_PAD'"}},
		{map[string]string{NestedOption: "ROWS_AND_COLLECTIONS"}, Error, []string{"column arr: 'table.exec.sink.nested-constraint-enforcer'"}},
		{map[string]string{NotNullOption: "WARN"}, Error, []string{"is not ERROR or DROP"}},
	} {
		e, reasons := ForSink(names, types, c.options)
		if e == nil || e.mode != c.mode || len(e.cols) != 1 || e.cols[0] != 0 {
			t.Errorf("%v: check %+v", c.options, e)
		}
		if len(reasons) != len(c.reasons) {
			t.Errorf("%v: reasons %q, want %q", c.options, reasons, c.reasons)
			continue
		}
		for i, r := range reasons {
			if !strings.Contains(r, c.reasons[i]) {
				t.Errorf("%v: reason %q, want %q", c.options, r, c.reasons[i])
			}
		}
	}
}
