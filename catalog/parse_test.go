package catalog

import (
	"encoding/json"
	"testing"
)

func TestParseTypeString(t *testing.T) {
	cases := []struct {
		in   string
		want string // String() of the parsed type; "" means same as in
	}{
		{"INT", ""},
		{"INT NOT NULL", ""},
		{"BIGINT", ""},
		{"DECIMAL(10, 2)", ""},
		{"DECIMAL(38, 18) NOT NULL", ""},
		{"VARCHAR(2147483647)", ""},
		{"STRING", "VARCHAR(2147483647)"},
		{"CHAR(3) NOT NULL", ""},
		{"BYTES", "VARBINARY(2147483647)"},
		{"TIMESTAMP(3)", ""},
		{"TIMESTAMP(6) WITHOUT TIME ZONE", "TIMESTAMP(6)"},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", ""},
		{"TIMESTAMP_LTZ(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
		{"TIMESTAMP(3) *ROWTIME*", ""},
		{"DATE", ""},
		{"TIME(0)", ""},
		{"DOUBLE", ""},
		{"ARRAY<INT NOT NULL>", ""},
		{"MAP<VARCHAR(2147483647), BIGINT>", ""},
		{"ROW<`a` INT, `b c` VARCHAR(2147483647) NOT NULL>", ""},
		{"ROW<`x``y` INT>", ""},
		{"INTERVAL DAY(2) TO SECOND(3)", ""},
		{"INTERVAL YEAR(2) TO MONTH NOT NULL", ""},
	}
	for _, c := range cases {
		got, err := ParseTypeString(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		want := c.want
		if want == "" {
			want = c.in
		}
		if got.String() != want {
			t.Errorf("%s: parsed as %s", c.in, got)
		}
	}
}

func TestParseTypeErrors(t *testing.T) {
	for _, in := range []string{"", "INTEGRAL", "DECIMAL(10,", "ROW<`a` INT", "INT NOT", "VARCHAR(x)"} {
		if _, err := ParseTypeString(in); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

func TestParseTypeObject(t *testing.T) {
	cases := []struct {
		json string
		want string
	}{
		{`{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","nullable":false,"precision":3,"kind":"ROWTIME"}`, "TIMESTAMP(3) NOT NULL *ROWTIME*"},
		{`{"type":"TIMESTAMP_WITH_LOCAL_TIME_ZONE","precision":3,"kind":"PROCTIME"}`, "TIMESTAMP(3) WITH LOCAL TIME ZONE *PROCTIME*"},
		{`{"type":"VARCHAR","nullable":false,"length":0}`, "VARCHAR(0) NOT NULL"},
		{`{"type":"ROW","fields":[{"name":"ts","fieldType":{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","precision":3,"kind":"ROWTIME"}},{"name":"a","fieldType":"INT"}]}`,
			"ROW<`ts` TIMESTAMP(3) *ROWTIME*, `a` INT>"},
		{`{"type":"SYMBOL","nullable":false}`, "SYMBOL NOT NULL"},
		{`"BIGINT NOT NULL"`, "BIGINT NOT NULL"},
	}
	for _, c := range cases {
		got, err := ParseType(json.RawMessage(c.json))
		if err != nil {
			t.Errorf("%s: %v", c.json, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s: got %s want %s", c.json, got, c.want)
		}
	}
}

func FuzzParseTypeString(f *testing.F) {
	for _, s := range []string{"INT", "ROW<`a` INT, `b` ARRAY<MAP<INT, STRING>>>", "DECIMAL(38, 2) NOT NULL", "RAW('a', 'b')"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseTypeString(s)
		if err != nil {
			return
		}
		// Whatever parses must print and parse again to the same type.
		again, err := ParseTypeString(typ.String())
		if err != nil {
			t.Fatalf("%q parsed as %s, which does not parse: %v", s, typ, err)
		}
		if again.String() != typ.String() {
			t.Fatalf("%q: %s then %s", s, typ, again)
		}
	})
}
