package debeziumformat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

func TestDecoder(t *testing.T) {
	for _, c := range []struct {
		name   string
		record string
		rows   int // -1: left to Flink
		want   string
	}{
		{"create", `{"before":null,"after":{"id":1,"note":"a"},"op":"c"}`, 1, `+I 1 "a"`},
		{"read", `{"after":{"id":2},"op":"r","source":{"db":"x"},"ts_ms":5}`, 1, `+I 2 NULL`},
		{"update", `{"op":"u","before":{"id":3,"note":"old"},"after":{"id":3,"note":"new"}}`, 2, `-U 3 "old", +U 3 "new"`},
		{"delete", `{"before":{"id":4,"note":"x"},"after":null,"op":"d"}`, 1, `-D 4 "x"`},
		{"tombstone", ``, 0, ``},
		{"update without before", `{"before":null,"after":{"id":3},"op":"u"}`, -1, ``},
		{"delete without before", `{"after":{"id":3},"op":"d"}`, -1, ``},
		{"create without after", `{"before":{"id":3},"op":"c"}`, -1, ``},
		{"unknown op", `{"after":{"id":3},"op":"x"}`, -1, ``},
		{"no op", `{"after":{"id":3}}`, -1, ``},
		{"malformed", `{"after":{"id":3},"op":"c"`, -1, ``},
		{"array", `[{"after":{"id":3},"op":"c"}]`, -1, ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := NewDecoder([]string{"id", "note"}, []catalog.Type{catalog.IntType(true), catalog.StringType(true)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// A record before it, whose rows must stay when this one is left to Flink.
			if n, ok := d.Add([]byte(`{"after":{"id":0,"note":"z"},"op":"c"}`)); n != 1 || !ok {
				t.Fatalf("first record: %d rows, ok %v", n, ok)
			}
			n, ok := d.Add([]byte(c.record))
			if !ok {
				n = -1
			}
			if n != c.rows {
				t.Fatalf("%d rows, want %d", n, c.rows)
			}
			b, err := d.Finish(memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			var got []string
			kinds := b.Column(2).(*array.Int8)
			for r := 1; r < int(b.NumRows()); r++ {
				note := "NULL"
				if b.Column(1).IsValid(r) {
					note = fmt.Sprintf("%q", b.Column(1).(*array.String).Value(r))
				}
				got = append(got, fmt.Sprintf("%s %d %s", [...]string{"+I", "-U", "+U", "-D"}[kinds.Value(r)], b.Column(0).(*array.Int32).Value(r), note))
			}
			if strings.Join(got, ", ") != c.want {
				t.Fatalf("rows %q, want %q", strings.Join(got, ", "), c.want)
			}
			if b.Schema().Field(2).Name != catalog.RowKindColumn {
				t.Fatalf("last column %s", b.Schema().Field(2).Name)
			}
		})
	}
}

// DropLast takes back every row of the last record: both rows of an update.
func TestDecoderDropLast(t *testing.T) {
	d, err := NewDecoder([]string{"id"}, []catalog.Type{catalog.IntType(true)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Add([]byte(`{"after":{"id":1},"op":"c"}`))
	d.Add([]byte(`{"before":{"id":1},"after":{"id":2},"op":"u"}`))
	d.DropLast()
	if d.Rows() != 1 {
		t.Fatalf("%d rows after DropLast, want 1", d.Rows())
	}
	d.Add([]byte(`{"before":{"id":1},"op":"d"}`))
	b, err := d.Finish(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if got := fmt.Sprint(b.Column(0).(*array.Int32).Int32Values(), b.Column(1).(*array.Int8).Int8Values()); got != "[1 1] [0 3]" {
		t.Fatalf("rows %s, want [1 1] [0 3]", got)
	}
}

func TestDecoderRefusesNestedRows(t *testing.T) {
	row := catalog.Type{Kind: catalog.Row, Fields: []catalog.Field{{Name: "x", Type: catalog.IntType(true)}}, Nullable: true}
	if _, err := NewDecoder([]string{"r"}, []catalog.Type{row}, Options{}); err == nil || !strings.Contains(err.Error(), "decoded by Flink") {
		t.Fatalf("error %v, want nested ROWs left to Flink", err)
	}
}

// FuzzDecode feeds arbitrary records between envelopes: no panic, a record left to Flink adds
// no row (the envelope before it keeps its rows), and every row's kind is one that its op gives.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"before":null,"after":{"id":1,"p":1.5,"s":"x"},"op":"c"}`,
		`{"before":{"id":1},"after":{"id":2},"op":"u"}`, `{"before":{"id":1},"op":"d"}`, `{"op":"r","after":{}}`,
		`{"after":{"id":-0,"p":1e2147483648},"op":"c"}`, ``, `[]`, `{"op":"u","after":{"id":1}}`} {
		f.Add([]byte(s))
	}
	names := []string{"id", "p", "s"}
	types := []catalog.Type{catalog.IntType(true), catalog.DecimalType(10, 2, true), catalog.StringType(true)}
	f.Fuzz(func(t *testing.T, record []byte) {
		d, err := NewDecoder(names, types, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, r := range [][]byte{record, []byte(`{"before":{"id":1},"after":{"id":2},"op":"u"}`), record} {
			n, ok := d.Add(r)
			if !ok && n != 0 {
				t.Fatalf("a record left to Flink added %d rows", n)
			}
			if n > 2 {
				t.Fatalf("%d rows of one envelope", n)
			}
			want += n
		}
		b, err := d.Finish(memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Release()
		if int(b.NumRows()) != want {
			t.Fatalf("%d rows, want %d", b.NumRows(), want)
		}
	})
}

// With 'schema-include' the envelope is the record's payload, its schema skipped; a record
// without a payload is Flink's to fail or skip.
func TestDecoderSchemaInclude(t *testing.T) {
	d, err := NewDecoder([]string{"id"}, []catalog.Type{catalog.IntType(true)}, Options{SchemaInclude: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		record string
		rows   int // -1: left to Flink
	}{
		{`{"schema":{"type":"struct","fields":[{"field":"before"}]},"payload":{"before":{"id":1},"after":{"id":2},"op":"u"}}`, 2},
		{`{"payload":{"after":{"id":3},"op":"c"}}`, 1},
		{`{"schema":{}}`, -1},
		{`{"before":null,"after":{"id":3},"op":"c"}`, -1},
	} {
		n, ok := d.Add([]byte(c.record))
		if !ok {
			n = -1
		}
		if n != c.rows {
			t.Fatalf("%s: %d rows, want %d", c.record, n, c.rows)
		}
	}
	b, err := d.Finish(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if got := fmt.Sprint(b.Column(0).(*array.Int32).Int32Values(), b.Column(1).(*array.Int8).Int8Values()); got != "[1 2 3] [1 2 0]" {
		t.Fatalf("rows %s, want [1 2 3] [1 2 0]", got)
	}
}
