package jsonformat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// flink marks a record left to Flink's deserializer.
const flink = "<flink>"

// decodeOne decodes one record into rows of the row type and renders them ("" for no row).
func decodeOne(t *testing.T, rowType string, opts Options, record string) string {
	t.Helper()
	rt, err := catalog.ParseTypeString(rowType)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(rt.Fields))
	types := make([]catalog.Type, len(rt.Fields))
	for i, f := range rt.Fields {
		names[i], types[i] = f.Name, f.Type
	}
	d, err := NewDecoder(names, types, opts)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	// Records before and after (all NULLs, where the type allows them) check that a record
	// left to Flink leaves nothing behind.
	pad := `{}`
	if strings.Contains(rowType, "NOT NULL") || opts.FailOnMissingField {
		pad = ""
	}
	for _, r := range []string{pad, record, pad} {
		if _, ok := d.Add([]byte(r)); !ok {
			if r != record {
				t.Fatalf("%s: %q left to Flink", rowType, r)
			}
			return flink
		}
	}
	b, err := d.Finish(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	var rows []string
	first, last := 0, int(b.NumRows())
	if pad != "" {
		if b.NumRows() < 2 {
			t.Fatalf("%d rows for the records around %q", b.NumRows(), record)
		}
		first, last = 1, last-1
	}
	for r := first; r < last; r++ {
		var vals []string
		for _, c := range b.Columns() {
			vals = append(vals, render(c, r))
		}
		rows = append(rows, strings.Join(vals, "|"))
	}
	return strings.Join(rows, "\n")
}

func render(c arrow.Array, i int) string {
	if c.IsNull(i) {
		return "null"
	}
	switch a := c.(type) {
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(i)))
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		if st.NumFields() == 2 && st.Field(1).Name == "nano_of_millisecond" { // TIMESTAMP(7..9)
			return fmt.Sprintf("%d+%dns", a.Field(0).(*array.Int64).Value(i), a.Field(1).(*array.Int32).Value(i))
		}
		parts := make([]string, a.NumField())
		for f := range parts {
			parts[f] = render(a.Field(f), i)
		}
		return "(" + strings.Join(parts, ",") + ")"
	case *array.Binary:
		return fmt.Sprintf("%x", a.Value(i))
	}
	return c.ValueStr(i)
}

func TestDecodeValues(t *testing.T) {
	for _, c := range []struct {
		rowType string
		record  string
		want    string
	}{
		// Objects, fields by exact name, unknown fields skipped, missing fields NULL.
		{"ROW<`a` INT, `b` VARCHAR(2147483647)>", `{"a":1,"b":"x"}`, "1|x"},
		{"ROW<`a` INT, `b` VARCHAR(2147483647)>", ` { "b" : "y" , "z":[1,{"q":null}], "a" : -7 } `, "-7|y"},
		{"ROW<`a` INT, `b` VARCHAR(2147483647)>", `{"A":1}`, "null|null"},
		{"ROW<`a` INT, `b` VARCHAR(2147483647)>", `{"\u0061":2}`, "2|null"},
		{"ROW<`a` INT>", `{"a":null}`, "null"},
		{"ROW<`a` INT>", `{"a":1} trailing text Flink never reads`, "1"},
		// Left to Flink: not an object, duplicates, malformed JSON, containers for scalars.
		{"ROW<`a` INT>", `[{"a":1}]`, flink},
		{"ROW<`a` INT>", `7`, flink},
		{"ROW<`a` INT, `b` INT>", `{"a":1,"a":2,"b":3}`, flink},
		{"ROW<`a` INT>", `{"a":1,}`, flink},
		{"ROW<`a` INT>", `{"a":01}`, flink},
		{"ROW<`a` INT>", `{"a":{"c":7}}`, flink},
		{"ROW<`a` BOOLEAN, `c` INT>", `{"a":{"c":7},"c":5}`, flink},
		{"ROW<`a` INT NOT NULL>", `{}`, flink},
		{"ROW<`a` VARCHAR(2147483647)>", `{"a":"\ud83d"}`, flink},
		{"ROW<`a` VARCHAR(2147483647)>", "{\"a\":\"\xff\"}", flink},
		// BOOLEAN: literals, case-insensitive "true" (trimmed), anything else false.
		{"ROW<`a` BOOLEAN>", `{"a":true}`, "true"},
		{"ROW<`a` BOOLEAN>", `{"a":" TRUE "}`, "true"},
		{"ROW<`a` BOOLEAN>", `{"a":1}`, "false"},
		{"ROW<`a` BOOLEAN>", `{"a":"yes"}`, "false"},
		// Integers: strings parsed, floats truncated for INT/BIGINT only, ranges checked.
		{"ROW<`a` TINYINT>", `{"a":"-12"}`, "-12"},
		{"ROW<`a` TINYINT>", `{"a":128}`, flink},
		{"ROW<`a` SMALLINT>", `{"a":1.0}`, flink},
		{"ROW<`a` INT>", `{"a":1.9}`, "1"},
		{"ROW<`a` INT>", `{"a":-1.9e0}`, "-1"},
		{"ROW<`a` INT>", `{"a":2147483647.4}`, flink},
		{"ROW<`a` INT>", `{"a":" 12 "}`, "12"},
		{"ROW<`a` INT>", `{"a":"1.0"}`, flink},
		{"ROW<`a` INT>", `{"a":"１２"}`, flink},
		{"ROW<`a` INT>", `{"a":true}`, flink},
		{"ROW<`a` BIGINT>", `{"a":9223372036854775807}`, "9223372036854775807"},
		{"ROW<`a` BIGINT>", `{"a":9223372036854775808.0}`, "9223372036854775807"},
		{"ROW<`a` BIGINT>", `{"a":9223372036854775808}`, flink},
		// Floats: rounded once to the type; strings in Java's grammar, anything else Flink's.
		{"ROW<`a` FLOAT>", `{"a":0.1}`, "0.1"},
		{"ROW<`a` DOUBLE>", `{"a":1e400}`, "+Inf"},
		{"ROW<`a` DOUBLE>", `{"a":"2.5"}`, "2.5"},
		{"ROW<`a` DOUBLE>", `{"a":"NaN"}`, "NaN"},
		{"ROW<`a` FLOAT>", `{"a":" 1.5f"}`, "1.5"},
		{"ROW<`a` DOUBLE>", `{"a":"inf"}`, flink},
		{"ROW<`a` DOUBLE>", `{"a":false}`, flink},
		{"ROW<`a` DOUBLE>", `{"a":3}`, "3"},
		// DECIMAL: HALF_UP from the exact text, NULL past the precision.
		{"ROW<`a` DECIMAL(5, 2)>", `{"a":1.005}`, "1.01"},
		{"ROW<`a` DECIMAL(5, 2)>", `{"a":-1.005}`, "-1.01"},
		{"ROW<`a` DECIMAL(5, 2)>", `{"a":"1E2"}`, "100"},
		{"ROW<`a` DECIMAL(5, 2)>", `{"a":1000}`, "null"},
		{"ROW<`a` DECIMAL(5, 2)>", `{"a":1e-99}`, "0"},
		{"ROW<`a` DECIMAL(5, 2)>", `{"a":1e-999}`, flink},
		{"ROW<`a` DECIMAL(5, 2)>", `{"a":true}`, flink},
		// Strings: numbers and literals keep their text.
		{"ROW<`a` VARCHAR(2147483647)>", `{"a":1.50}`, "1.50"},
		{"ROW<`a` VARCHAR(3)>", `{"a":"abcdef"}`, "abcdef"},
		{"ROW<`a` VARCHAR(2147483647)>", `{"a":"tab\tand \"q\" \u00e9 \ud83d\ude00"}`, "tab\tand \"q\" é 😀"},
		{"ROW<`a` VARCHAR(2147483647)>", `{"a":false}`, "false"},
		{"ROW<`a` VARCHAR(2147483647)>", `{"a":[1]}`, flink},
		// Binary: padded base64 only.
		{"ROW<`a` BYTES>", `{"a":"AQID"}`, "010203"},
		{"ROW<`a` BYTES>", `{"a":"QR=="}`, "41"},
		{"ROW<`a` BYTES>", `{"a":"QQ"}`, flink},
		{"ROW<`a` BYTES>", `{"a":"QQ== "}`, flink},
		// Dates and times.
		{"ROW<`a` DATE>", `{"a":"2024-02-29"}`, "2024-02-29"},
		{"ROW<`a` DATE>", `{"a":"2023-02-29"}`, flink},
		{"ROW<`a` TIME(3)>", `{"a":"12:34:56.789"}`, "12:34:56.000"},
		{"ROW<`a` TIME(0)>", `{"a":"12:34"}`, flink},
		{"ROW<`a` TIMESTAMP(3)>", `{"a":"1970-01-02 00:00:01.5"}`, "86401500"},
		{"ROW<`a` TIMESTAMP(3)>", `{"a":"2021-02-30 00:00:00"}`, flink},
		{"ROW<`a` TIMESTAMP(3)>", `{"a":"2020-01-01 24:00:00"}`, flink},
		{"ROW<`a` TIMESTAMP(3)>", `{"a":"2020-01-01T00:00:00"}`, flink},
		// Nanoseconds below TIMESTAMP(6)'s microseconds: Flink's TimestampData keeps them.
		{"ROW<`a` TIMESTAMP(6)>", `{"a":"1970-01-01 00:00:00.000001999"}`, "<flink>"},
		{"ROW<`a` TIMESTAMP(6)>", `{"a":"1970-01-01 00:00:00.000001"}`, "1"},
		{"ROW<`a` TIMESTAMP(9)>", `{"a":"1969-12-31 23:59:59.999999999"}`, "-1+999999ns"},
		{"ROW<`a` TIMESTAMP_LTZ(3)>", `{"a":"1970-01-01 00:00:01Z"}`, "1000"},
		{"ROW<`a` TIMESTAMP_LTZ(3)>", `{"a":"1970-01-01 00:00:01"}`, flink},
		// Nested ROWs: the same field matching inside, NULL for a null or missing row (its
		// fields too), a non-object left to Flink.
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1,"r":{"y":"s","z":[1],"x":2}}`, "1|(2,s)"},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"r":{"x":3},"a":1}`, "1|(3,null)"},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1,"r":null}`, "1|null"},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1}`, "1|null"},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1,"r":{}}`, "1|(null,null)"},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1,"r":{"x":1,"x":2}}`, flink},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1,"r":[1]}`, flink},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1,"r":5}`, flink},
		{"ROW<`a` INT, `r` ROW<`x` INT, `y` VARCHAR(2147483647)>>", `{"a":1,"r":{"x":"q"}}`, flink},
		{"ROW<`r` ROW<`s` ROW<`x` BIGINT>>>", `{"r":{"s":{"x":9}}}`, "((9))"},
		// Left to Flink after a nested field was decoded: nothing of it stays behind.
		{"ROW<`r` ROW<`x` INT, `y` INT>>", `{"r":{"x":1,"y":"q"}}`, flink},
		{"ROW<`r` ROW<`s` ROW<`x` INT>, `y` INT>>", `{"r":{"s":{"x":1},"y":true}}`, flink},
		{"ROW<`r` ROW<`x` INT NOT NULL>>", `{"r":{}}`, flink},
	} {
		if got := decodeOne(t, c.rowType, Options{}, c.record); got != c.want {
			t.Errorf("%s %s: got %q, want %q", c.rowType, c.record, got, c.want)
		}
	}
}

// Options change which records are decoded here and how timestamps read.
func TestDecodeOptions(t *testing.T) {
	iso := Options{ISOTimestamps: true}
	for _, c := range []struct {
		opts    Options
		rowType string
		record  string
		want    string
	}{
		{iso, "ROW<`a` TIMESTAMP(3)>", `{"a":"1970-01-01T00:01"}`, "60000"},
		{iso, "ROW<`a` TIMESTAMP(3)>", `{"a":"1970-01-01 00:01:00"}`, flink},
		{iso, "ROW<`a` TIMESTAMP_LTZ(3)>", `{"a":"1970-01-01T00:00:01.25Z"}`, "1250"},
		{Options{FailOnMissingField: true}, "ROW<`a` INT, `b` INT>", `{"a":1}`, flink},
		{Options{FailOnMissingField: true}, "ROW<`a` INT, `b` INT>", `{"b":2,"a":1}`, "1|2"},
	} {
		if got := decodeOne(t, c.rowType, c.opts, c.record); got != c.want {
			t.Errorf("%+v %s %s: got %q, want %q", c.opts, c.rowType, c.record, got, c.want)
		}
	}
}

// Null and empty values (Kafka tombstones) add no row and are no error.
func TestDecodeEmptyValues(t *testing.T) {
	d, err := NewDecoder([]string{"a"}, []catalog.Type{catalog.IntType(true)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range [][]byte{nil, {}} {
		if rows, ok := d.Add(v); rows != 0 || !ok {
			t.Errorf("Add(%q) = %d rows, ok %v", v, rows, ok)
		}
	}
	if d.Rows() != 0 {
		t.Fatalf("%d rows", d.Rows())
	}
}

// Nested types are Flink's to decode: a table with them keeps Flink's deserializer.
func TestDecoderRefusesNestedTypes(t *testing.T) {
	rt, err := catalog.ParseTypeString("ARRAY<INT>")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewDecoder([]string{"a"}, []catalog.Type{rt}, Options{}); err == nil || !strings.Contains(err.Error(), "field a") {
		t.Fatalf("got %v, want an error naming field a", err)
	}
}

func BenchmarkDecode(b *testing.B) {
	names := []string{"auction", "bidder", "price", "channel", "url", "ts", "extra"}
	types := []catalog.Type{catalog.BigIntType(true), catalog.BigIntType(true), catalog.BigIntType(true),
		catalog.StringType(true), catalog.StringType(true), catalog.TimestampType(3, true), catalog.StringType(true)}
	d, err := NewDecoder(names, types, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var records [][]byte
	for i := range 1024 {
		records = append(records, fmt.Appendf(nil, `{"auction":%d,"bidder":%d,"price":%d,"channel":"Google","url":"https://www.nexmark.com/abc/item.htm?query=1&channel_id=%d","dateTime":"2015-07-15 00:00:%02d.%03d","extra":"pad-%d"}`,
			1000+i%97, 2000+i*7, 100+i*13, i, i%60, i%1000, i))
	}
	mem := memory.NewGoAllocator()
	b.ReportAllocs()
	b.SetBytes(int64(len(records) * len(records[0])))
	for b.Loop() {
		for _, r := range records {
			if _, ok := d.Add(r); !ok {
				b.Fatalf("%s left to Flink", r)
			}
		}
		batch, err := d.Finish(mem)
		if err != nil {
			b.Fatal(err)
		}
		batch.Release()
	}
}

// FuzzDecode feeds arbitrary records: the decoder never panics, takes back every value of a
// record it leaves to Flink, and its batch holds one row per record it decoded.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":"x","c":1.5,"d":"2024-01-01 00:00:00.1","e":"QQ==","f":true,"g":"1.25"}`,
		`{"a":"7","c":"1e3","z":[{"q":null}]}`, `[]`, `{"a":01}`, `{"b":"\ud83d\ude00"}`, ``,
		`{"r":{"x":1,"y":{"s":"t"}},"a":2}`, `{"r":{"x":1,"y":null}}`} {
		f.Add([]byte(s))
	}
	rt, err := catalog.ParseTypeString("ROW<`a` INT, `b` VARCHAR(2147483647), `c` DOUBLE, `d` TIMESTAMP(3), `e` BYTES, `f` BOOLEAN, `g` DECIMAL(10, 2), `r` ROW<`x` BIGINT, `y` ROW<`s` STRING>>>")
	if err != nil {
		f.Fatal(err)
	}
	names := make([]string, len(rt.Fields))
	types := make([]catalog.Type, len(rt.Fields))
	for i, fl := range rt.Fields {
		names[i], types[i] = fl.Name, fl.Type
	}
	f.Fuzz(func(t *testing.T, record []byte) {
		d, err := NewDecoder(names, types, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, r := range [][]byte{record, []byte(`{"a":1}`), record} {
			n, ok := d.Add(r)
			if !ok && n != 0 {
				t.Fatalf("a record left to Flink added %d rows", n)
			}
			want += n
		}
		b, err := d.Finish(memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Release()
		if int(b.NumRows()) != want {
			t.Fatalf("%d rows for %d decoded records", b.NumRows(), want)
		}
		for _, c := range b.Columns() {
			checkLen(t, c, want)
		}
	})
}

// checkLen checks that an array and its struct fields (at every depth) hold n values.
func checkLen(t *testing.T, c arrow.Array, n int) {
	t.Helper()
	if c.Len() != n {
		t.Fatalf("a column of %d values in a batch of %d rows", c.Len(), n)
	}
	if s, ok := c.(*array.Struct); ok {
		for f := range s.NumField() {
			checkLen(t, s.Field(f), n)
		}
	}
}

// A record left to Flink after some of a nested row's fields were decoded leaves none of them
// behind for the next record's row.
func TestDecodeNestedTakesBack(t *testing.T) {
	rt, err := catalog.ParseTypeString("ROW<`r` ROW<`x` INT, `y` INT>>")
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecoder([]string{"r"}, []catalog.Type{rt.Fields[0].Type}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Add([]byte(`{"r":{"x":1,"y":"q"}}`)); ok {
		t.Fatal("a string for an INT was decoded natively")
	}
	if _, ok := d.Add([]byte(`{"r":{"y":3,"x":2}}`)); !ok {
		t.Fatal("a plain record was left to Flink")
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b, err := d.Finish(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if got := render(b.Column(0), 0); b.NumRows() != 1 || got != "(2,3)" {
		t.Fatalf("%d rows, row 0 %s; want one row (2,3)", b.NumRows(), got)
	}
}

// TestTreeValues checks the values the tree deserializer (Options.Tree) converts otherwise than
// the streaming parser: those records are left to Flink, the rest decoded as before.
func TestTreeValues(t *testing.T) {
	for _, c := range []struct {
		name   string
		types  []catalog.Type
		record string
		tree   bool // decoded natively in tree mode
	}{
		{"string from a float", []catalog.Type{catalog.StringType(true)}, `{"v":1.50}`, false},
		{"string from -0", []catalog.Type{catalog.StringType(true)}, `{"v":-0}`, false},
		{"string from an integer", []catalog.Type{catalog.StringType(true)}, `{"v":15}`, true},
		{"double from -0", []catalog.Type{catalog.DoubleType(true)}, `{"v":-0}`, false},
		{"double from -0.0", []catalog.Type{catalog.DoubleType(true)}, `{"v":-0.0}`, false},
		{"double from 1.5", []catalog.Type{catalog.DoubleType(true)}, `{"v":1.5}`, true},
		{"float rounded twice", []catalog.Type{{Kind: catalog.Float, Nullable: true}}, `{"v":1.00000005960464478}`, false},
		{"float rounded once", []catalog.Type{{Kind: catalog.Float, Nullable: true}}, `{"v":1.25}`, true},
		{"decimal from a padded string", []catalog.Type{catalog.DecimalType(10, 2, true)}, `{"v":" 1.5"}`, false},
		{"decimal from a string", []catalog.Type{catalog.DecimalType(10, 2, true)}, `{"v":"1.5"}`, true},
		{"int from a float beside a decimal", []catalog.Type{catalog.IntType(true), catalog.DecimalType(10, 2, true)}, `{"v":2.5}`, false},
		{"int from a float", []catalog.Type{catalog.IntType(true)}, `{"v":2.5}`, true},
		{"a huge exponent beside a decimal", []catalog.Type{catalog.IntType(true), catalog.DecimalType(10, 2, true)}, `{"x":1e2147483648,"v":1}`, false},
		{"a huge exponent", []catalog.Type{catalog.IntType(true)}, `{"x":1e2147483648,"v":1}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"v", "w"}[:len(c.types)]
			for _, tree := range []bool{false, true} {
				d, err := NewDecoder(names, c.types, Options{Tree: tree})
				if err != nil {
					t.Fatal(err)
				}
				_, ok := d.Add([]byte(c.record))
				if want := !tree || c.tree; ok != want {
					t.Errorf("tree %v: decoded natively %v, want %v", tree, ok, want)
				}
			}
		})
	}
}
