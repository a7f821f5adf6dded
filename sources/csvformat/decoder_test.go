package csvformat

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// decodeAll decodes records and returns the batch's rows as text (arrow's value strings, "null"
// for NULL) and the records left to Flink.
func decodeAll(t *testing.T, types []catalog.Type, opts Options, records ...string) ([]string, []int) {
	t.Helper()
	names := make([]string, len(types))
	for i := range names {
		names[i] = fmt.Sprint("f", i)
	}
	d, err := NewDecoder(names, types, opts)
	if err != nil {
		t.Fatal(err)
	}
	var left []int
	for i, r := range records {
		if n, ok := d.Add([]byte(r)); !ok {
			left = append(left, i)
		} else if n != 1 {
			t.Fatalf("record %d added %d rows", i, n)
		}
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b, err := d.Finish(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	return rowTexts(b), left
}

func rowTexts(b arrow.RecordBatch) []string {
	var rows []string
	for r := 0; r < int(b.NumRows()); r++ {
		var vals []string
		for _, c := range b.Columns() {
			vals = append(vals, c.ValueStr(r))
		}
		rows = append(rows, strings.Join(vals, "|"))
	}
	return rows
}

var (
	str    = catalog.StringType(true)
	i32    = catalog.IntType(true)
	i64    = catalog.Type{Kind: catalog.BigInt, Nullable: true}
	i8     = catalog.Type{Kind: catalog.TinyInt, Nullable: true}
	f32    = catalog.Type{Kind: catalog.Float, Nullable: true}
	f64    = catalog.Type{Kind: catalog.Double, Nullable: true}
	boolT  = catalog.Type{Kind: catalog.Boolean, Nullable: true}
	dec    = catalog.Type{Kind: catalog.Decimal, Precision: 5, Scale: 2, Nullable: true}
	date   = catalog.Type{Kind: catalog.Date, Nullable: true}
	time1  = catalog.Type{Kind: catalog.Time, Precision: 1, Nullable: true}
	ts3    = catalog.Type{Kind: catalog.Timestamp, Precision: 3, Nullable: true}
	ltz3   = catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}
	binary = catalog.Type{Kind: catalog.VarBinary, Length: 100, Nullable: true}
)

// TestDecode checks the values of each type, quoting, and the records left to Flink.
func TestDecode(t *testing.T) {
	withNull := DefaultOptions()
	withNull.NullLiteral = []byte("n/a")
	pipes := DefaultOptions()
	pipes.Delimiter, pipes.Quote = '|', '\''
	noQuote := DefaultOptions()
	noQuote.Quote = NoChar
	comments := DefaultOptions()
	comments.AllowComments = true
	escape := DefaultOptions()
	escape.Escape = '\\'
	for _, c := range []struct {
		name    string
		types   []catalog.Type
		opts    Options
		records []string
		want    string
		left    []int
	}{
		{"strings", []catalog.Type{str, str}, DefaultOptions(),
			[]string{`a,b`, `"a,1","say ""hi"""`, `,`, ` x , y `, `a"b,c`, `"a"b,c`, `"a" ,c`, `"a`, `a,b,c`, `a`, `a,b,`, "a\n,b", "a,\xff", "", `"",`},
			`[a|b (a,1|say "hi") | ( x | y ) a"b|c |]`, []int{5, 6, 7, 8, 9, 10, 11, 12, 13}},
		{"numbers", []catalog.Type{i32, i64, i8, f32, f64, boolT}, DefaultOptions(),
			[]string{`1,2,3,1.5,2.5,true`, ` -7 ,+8,127,1e3, NaN ,TRUE`, `1,2,128,0,0,x`, `1,2,3,1.5,0x1p3,yes`, `2147483648,1,1,1,1,false`, `,1,1,1,1,1`},
			`[1|2|3|1.5|2.5|true -7|8|127|1000|NaN|true 1|2|3|1.5|8|false]`, []int{2, 4, 5}},
		{"decimals", []catalog.Type{dec}, DefaultOptions(),
			[]string{`1.005`, `-1.005`, `1234.5`, ` 1`, `1e2`, `+3`},
			`[1.01 -1.01 (null) 100 3]`, []int{3}},
		{"temporal", []catalog.Type{date, time1, ts3, ltz3}, DefaultOptions(),
			[]string{`2024-02-29,10:15:30.987,2024-01-01 10:15:00.5, 2024-01-01 00:00:00Z `,
				`2024-2-9,10:15,2024-01-01 10:15:00,2024-01-01 00:00:00Z`,
				`1599-12-31,10:15,2024-01-01 10:15:00,2024-01-01 00:00:00Z`,
				`2023-02-29,10:15,2024-01-01 10:15:00,2024-01-01 00:00:00Z`,
				`2024-01-01,10:15,2024-01-01 10:15,2024-01-01 00:00:00Z`,
				`2024-01-01,10:15, 2024-01-01 10:15:00 ,2024-01-01 00:00:00Z`},
			`[2024-02-29|10:15:30.900|2024-01-01T10:15:00.5|2024-01-01T00:00:00Z 2024-01-01|10:15:00.000|2024-01-01T10:15:00|2024-01-01T00:00:00Z]`,
			[]int{1, 2, 3, 4}},
		{"binary", []catalog.Type{binary}, DefaultOptions(), []string{`QUJD`, `"QQ=="`, `QQ`, ` QUJD`}, `[QUJD QQ==]`, []int{2, 3}},
		{"null literal", []catalog.Type{str, i32}, withNull, []string{`n/a,n/a`, `"n/a",1`, `x,`}, `[(null)|(null) (null)|1]`, []int{2}},
		{"pipes and single quotes", []catalog.Type{str, str}, pipes, []string{`'a|b'|c`, `"a"|'it''s'`, `a,b|c`}, `[a|b|c "a"|it's a,b|c]`, nil},
		{"no quoting", []catalog.Type{str, str}, noQuote, []string{`"a,b"`, `"a"",b`}, `["a|b" "a""|b]`, nil},
		{"comments", []catalog.Type{str}, comments, []string{`#c`, ` a`, `a#`}, `[a#]`, []int{0, 1}},
		{"escape", []catalog.Type{str}, escape, []string{`a\,b`, `ab`}, `[ab]`, []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, left := decodeAll(t, c.types, c.opts, c.records...)
			// Rows with spaces in parentheses.
			shown := make([]string, len(rows))
			for i, r := range rows {
				shown[i] = r
				if strings.Contains(r, " ") {
					shown[i] = "(" + r + ")"
				}
			}
			got := fmt.Sprint(shown)
			if got != c.want {
				t.Errorf("rows %s, want %s", got, c.want)
			}
			if fmt.Sprint(left) != fmt.Sprint(c.left) {
				t.Errorf("left to Flink %v, want %v", left, c.left)
			}
		})
	}
}

// FuzzDecode decodes records of three STRING columns: a record taken must decode to the same
// values when each of its fields is written again quoted (quotes doubled), and a record is
// never taken with a line break, NUL or invalid UTF-8 in it.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`a,b,c`, `"a,1","say ""hi""",x`, `,,`, `a,b,`, `"a"b,c,d`, "\xef\xbb\xbfa,b,c", `"",",",""""`} {
		f.Add([]byte(s))
	}
	types := []catalog.Type{str, str, str}
	f.Fuzz(func(t *testing.T, record []byte) {
		d, err := NewDecoder([]string{"a", "b", "c"}, types, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		_, ok := d.Add(record)
		if ok && (bytes.ContainsAny(record, "\r\n\x00") || !utf8Valid(record)) {
			t.Fatalf("record %q taken", record)
		}
		b, err := d.Finish(memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Release()
		if !ok {
			return
		}
		var again []byte
		for i, c := range b.Columns() {
			if i > 0 {
				again = append(again, ',')
			}
			again = append(again, '"')
			again = append(again, bytes.ReplaceAll([]byte(c.ValueStr(0)), []byte(`"`), []byte(`""`))...)
			again = append(again, '"')
		}
		if _, ok := d.Add(again); !ok {
			t.Fatalf("record %q re-quoted as %q not taken", record, again)
		}
		b2, err := d.Finish(memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		defer b2.Release()
		if a, z := rowTexts(b), rowTexts(b2); fmt.Sprint(a) != fmt.Sprint(z) {
			t.Fatalf("record %q gave %q, re-quoted %q", record, a, z)
		}
	})
}

func utf8Valid(b []byte) bool { return utf8.Valid(b) }
