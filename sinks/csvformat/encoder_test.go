package csvformat

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// TestQuoting checks Jackson's loose quoting check on strings: characters below the first safe
// one, the quote character, a backslash, more than 24 Java chars; none without quoting.
func TestQuoting(t *testing.T) {
	pipes := DefaultOptions()
	pipes.Delimiter, pipes.Quote = '|', '\''
	noQuote := DefaultOptions()
	noQuote.Quote = NoQuote
	for _, c := range []struct {
		name string
		opts Options
		in   []string
		want string
	}{
		{"default", DefaultOptions(),
			[]string{"abc", "a b", "a,b", `say "hi"`, `a\b`, "-=~é", "", "abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwxy", "😀😀😀😀😀😀😀😀😀😀😀😀😀"},
			"abc,\"a b\",\"a,b\",\"say \"\"hi\"\"\",\"a\\b\",-=~é,,abcdefghijklmnopqrstuvwx,\"abcdefghijklmnopqrstuvwxy\",\"😀😀😀😀😀😀😀😀😀😀😀😀😀\""},
		// With '|' (124) every ASCII character but '}', '~' and DEL asks for quotes.
		{"pipes", pipes, []string{"a", "}~", "it's"}, "'a'|}~|'it''s'"},
		{"no quoting", noQuote, []string{`a "b"`, "x,y"}, `a "b",x,y`},
	} {
		t.Run(c.name, func(t *testing.T) {
			types := make([]catalog.Type, len(c.in))
			names := make([]string, len(c.in))
			cols := make([]arrow.Array, len(c.in))
			fields := make([]arrow.Field, len(c.in))
			for i, s := range c.in {
				types[i], names[i] = catalog.StringType(true), string(rune('a'+i))
				b := array.NewStringBuilder(memory.DefaultAllocator)
				b.Append(s)
				cols[i] = b.NewArray()
				b.Release()
				defer cols[i].Release()
				fields[i] = arrow.Field{Name: names[i], Type: arrow.BinaryTypes.String, Nullable: true}
			}
			e, err := NewEncoder(names, types, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 1)
			defer batch.Release()
			body, ends, err := e.AppendRecords(nil, nil, batch)
			if err != nil {
				t.Fatal(err)
			}
			if len(ends) != 1 || string(body) != c.want {
				t.Fatalf("record %s (ends %v), want %s", body, ends, c.want)
			}
		})
	}
}
