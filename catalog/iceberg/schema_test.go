package iceberg

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/catalog"
)

// A schema as Iceberg 1.x's SchemaParser#toJson prints it, with every nested type.
const nestedSchema = `{"type":"struct","schema-id":0,"fields":[
 {"id":1,"name":"k","required":true,"type":"int"},
 {"id":2,"name":"r","required":false,"type":{"type":"struct","fields":[
   {"id":5,"name":"a","required":false,"type":"decimal(10, 2)"},
   {"id":6,"name":"b","required":true,"type":{"type":"list","element-id":7,"element":"string","element-required":false}}]}},
 {"id":3,"name":"m","required":false,"type":{"type":"map","key-id":8,"key":"string","value-id":9,
   "value":{"type":"list","element-id":10,"element":"fixed[16]","element-required":true},"value-required":false}},
 {"id":4,"name":"doc","required":false,"type":"timestamptz","doc":"a comment"}]}`

func TestParseSchema(t *testing.T) {
	cols, err := ParseSchema(nestedSchema)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cols {
		got = append(got, c.Name+" "+c.Type.String())
	}
	want := []string{
		"k int",
		"r struct<5: a: optional decimal(10, 2), 6: b: required list<string>>",
		"m map<string, list<fixed[16]>>",
		"doc timestamptz",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("columns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	r, ok := FindField(cols, 2)
	if !ok || !r.Type.IsStruct() || len(r.Type.Parts()) != 2 {
		t.Fatalf("field 2: %+v", r)
	}
	b := r.Type.Parts()[1]
	if !b.Required || !b.Type.IsList() || b.Type.Element.ID != 7 || b.Type.Element.Required || b.Type.Element.Name != "element" {
		t.Errorf("r.b: %+v, element %+v", b, b.Type.Element)
	}
	m, _ := FindField(cols, 3)
	parts := m.Type.Parts()
	if !m.Type.IsMap() || parts[0].ID != 8 || !parts[0].Required || parts[1].ID != 9 || parts[1].Required ||
		parts[1].Type.Element.ID != 10 || !parts[1].Type.Element.Required {
		t.Errorf("m: %+v", parts)
	}
	if _, ok := FindField(cols, 7); ok {
		t.Error("FindField looked below the columns")
	}
}

func TestParseSchemaErrors(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"type":"struct","fields":[{"name":"a","type":"int"}]}`, "without an id"},
		{`{"type":"struct","fields":[{"id":1,"name":"a","type":{"type":"list","element":"int"}}]}`, "element-id"},
		{`{"type":"struct","fields":[{"id":1,"name":"a","type":{"type":"map","key-id":2,"key":"int","value-id":3}}]}`, "value"},
		{`{"type":"struct","fields":[{"id":1,"name":"a","type":{"type":"variant"}}]}`, `unknown nested type "variant"`},
		{`"int"`, "not a struct"},
		{`{`, "iceberg schema"},
	} {
		_, err := ParseSchema(c.json)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.json, err, c.want)
		}
	}
}

func TestWalk(t *testing.T) {
	cols, err := ParseSchema(nestedSchema)
	if err != nil {
		t.Fatal(err)
	}
	parse := func(s string) catalog.Type {
		ct, err := catalog.ParseTypeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return ct
	}
	var leaves []string
	collect := func(t catalog.Type, prim string) error {
		leaves = append(leaves, t.String()+"="+prim)
		return nil
	}
	if err := Walk(parse("ROW<`a` DECIMAL(10, 2), `b` ARRAY<STRING> NOT NULL>"), cols[1].Type, collect); err != nil {
		t.Fatal(err)
	}
	if err := Walk(parse("MAP<STRING, ARRAY<BINARY(16)>>"), cols[2].Type, collect); err != nil {
		t.Fatal(err)
	}
	want := "DECIMAL(10, 2)=decimal(10, 2) VARCHAR(2147483647)=string VARCHAR(2147483647)=string BINARY(16)=fixed[16]"
	if got := strings.Join(leaves, " "); got != want {
		t.Errorf("leaves %s, want %s", got, want)
	}
	for _, c := range []struct {
		flink string
		col   int
	}{
		{"ROW<`a` INT>", 1},     // one field for two
		{"ARRAY<INT>", 2},       // a map
		{"MAP<STRING, INT>", 1}, // a struct
		{"INT", 2},              // a primitive for a map
		{"MULTISET<STRING>", 2}, // no such Iceberg type
		{"ROW<`a` ROW<`x` INT>, `b` ARRAY<STRING>>", 1}, // a struct for a primitive
	} {
		if err := Walk(parse(c.flink), cols[c.col].Type, collect); err == nil || !strings.Contains(err.Error(), "does not match") {
			t.Errorf("%s over %s: %v", c.flink, cols[c.col].Type, err)
		}
	}
}
