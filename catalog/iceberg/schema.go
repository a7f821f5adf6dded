// Package iceberg is an Iceberg table schema as Iceberg's own SchemaParser prints it to JSON:
// the field ids, names, requiredness and types at every level of nesting. The Java side sends
// it with Iceberg scans and sinks; Go matches and writes Parquet columns by these ids.
package iceberg

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/catalog"
)

// Type is an Iceberg type: a primitive, or a struct, list or map of fields.
type Type struct {
	// Primitive is a primitive type as Iceberg prints it ("int", "decimal(10, 2)",
	// "fixed[16]", "timestamptz", ...); empty for a struct, list or map.
	Primitive string
	// Fields are a struct's fields.
	Fields []Field
	// Element is a list's element; Key and Value are a map's key and value. Their names are
	// the ones Iceberg's Parquet schema gives them ("element", "key", "value").
	Element, Key, Value *Field
}

// Field is a field of a struct (or a table), or the element, key or value of a collection.
type Field struct {
	ID       int
	Name     string
	Required bool
	Type     Type
}

// IsStruct, IsList and IsMap say which nested type t is.
func (t Type) IsStruct() bool { return t.Primitive == "" && t.Element == nil && t.Key == nil }

// IsList reports whether t is a list.
func (t Type) IsList() bool { return t.Element != nil }

// IsMap reports whether t is a map.
func (t Type) IsMap() bool { return t.Key != nil }

// IsPrimitive reports whether t is a primitive type.
func (t Type) IsPrimitive() bool { return t.Primitive != "" }

// Parts are a nested type's fields in the order Flink's types have them: a struct's fields,
// a list's element, a map's key and value.
func (t Type) Parts() []Field {
	switch {
	case t.IsPrimitive():
		return nil
	case t.IsList():
		return []Field{*t.Element}
	case t.IsMap():
		return []Field{*t.Key, *t.Value}
	}
	return t.Fields
}

// String prints t as Iceberg does (struct<1: a: optional int>, list<int>, map<string, int>).
func (t Type) String() string {
	switch {
	case t.IsPrimitive():
		return t.Primitive
	case t.IsList():
		return "list<" + t.Element.Type.String() + ">"
	case t.IsMap():
		return "map<" + t.Key.Type.String() + ", " + t.Value.Type.String() + ">"
	}
	parts := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		req := "optional"
		if f.Required {
			req = "required"
		}
		parts[i] = fmt.Sprintf("%d: %s: %s %s", f.ID, f.Name, req, f.Type)
	}
	return "struct<" + strings.Join(parts, ", ") + ">"
}

// Walk visits the Flink type t of a column beside its Iceberg type it, level by level, and
// calls leaf with each primitive Flink type and its Iceberg type (as Iceberg prints it). It
// fails where the shapes differ: a ROW must be a struct of as many fields, an ARRAY a list, a
// MAP a map (as Flink's Iceberg connector converts them).
func Walk(t catalog.Type, it Type, leaf func(t catalog.Type, primitive string) error) error {
	ok := false
	switch t.Kind {
	case catalog.Row:
		ok = it.IsStruct() && len(it.Fields) == len(t.Fields)
	case catalog.Array:
		ok = it.IsList()
	case catalog.Map:
		ok = it.IsMap()
	case catalog.Multiset:
	default:
		if !it.IsPrimitive() {
			return fmt.Errorf("the Flink type %s does not match the Iceberg type %s", t, it)
		}
		return leaf(t, it.Primitive)
	}
	if !ok {
		return fmt.Errorf("the Flink type %s does not match the Iceberg type %s", t, it)
	}
	parts := it.Parts()
	for i, pt := range t.Parts() {
		if err := Walk(pt, parts[i].Type, leaf); err != nil {
			return err
		}
	}
	return nil
}

// ParseSchema reads a schema printed by Iceberg's SchemaParser#toJson: its columns.
func ParseSchema(schemaJSON string) ([]Field, error) {
	var t Type
	if err := json.Unmarshal([]byte(schemaJSON), &t); err != nil {
		return nil, fmt.Errorf("iceberg schema: %w", err)
	}
	if !t.IsStruct() {
		return nil, fmt.Errorf("iceberg schema: a %s, not a struct", t)
	}
	return t.Fields, nil
}

// FindField returns the column with the given field id.
func FindField(columns []Field, id int) (Field, bool) {
	for _, f := range columns {
		if f.ID == id {
			return f, true
		}
	}
	return Field{}, false
}

// jsonField is a struct field in SchemaParser's JSON.
type jsonField struct {
	ID       *int   `json:"id"`
	Name     string `json:"name"`
	Required bool   `json:"required"`
	Type     Type   `json:"type"`
}

// UnmarshalJSON reads a type as SchemaParser prints it: a string for a primitive, an object
// with "type" = struct, list or map otherwise.
func (t *Type) UnmarshalJSON(data []byte) error {
	var prim string
	if err := json.Unmarshal(data, &prim); err == nil {
		if prim == "" {
			return fmt.Errorf("an empty type name")
		}
		*t = Type{Primitive: prim}
		return nil
	}
	var obj struct {
		Type            string      `json:"type"`
		Fields          []jsonField `json:"fields"`
		ElementID       *int        `json:"element-id"`
		Element         *Type       `json:"element"`
		ElementRequired bool        `json:"element-required"`
		KeyID           *int        `json:"key-id"`
		Key             *Type       `json:"key"`
		ValueID         *int        `json:"value-id"`
		Value           *Type       `json:"value"`
		ValueRequired   bool        `json:"value-required"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	part := func(what string, id *int, name string, required bool, pt *Type) (*Field, error) {
		if id == nil || pt == nil {
			return nil, fmt.Errorf("a %s without its %s or %s-id", obj.Type, what, what)
		}
		return &Field{ID: *id, Name: name, Required: required, Type: *pt}, nil
	}
	var err error
	switch obj.Type {
	case "struct":
		*t = Type{Fields: make([]Field, len(obj.Fields))}
		for i, f := range obj.Fields {
			if f.ID == nil || f.Name == "" {
				return fmt.Errorf("struct field %d without an id or a name", i)
			}
			t.Fields[i] = Field{ID: *f.ID, Name: f.Name, Required: f.Required, Type: f.Type}
		}
		return nil
	case "list":
		*t = Type{}
		t.Element, err = part("element", obj.ElementID, "element", obj.ElementRequired, obj.Element)
		return err
	case "map":
		*t = Type{}
		if t.Key, err = part("key", obj.KeyID, "key", true, obj.Key); err != nil {
			return err
		}
		t.Value, err = part("value", obj.ValueID, "value", obj.ValueRequired, obj.Value)
		return err
	}
	return fmt.Errorf("unknown nested type %q", obj.Type)
}
