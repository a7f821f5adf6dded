package parquet

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// leafConverter chooses the conversion of one leaf (primitive) column of a file.
type leafConverter func(name string, f pqarrow.SchemaField, t catalog.Type) (Converter, error)

// nestedConverter chooses the conversion of a nested file column (a group whose layout
// checkLayout accepted) into a ROW, ARRAY or MAP of the table, as Flink's NestedColumnReader
// reads it: ROW fields, the element of a list, the key and value of a map; the leaves converted
// as flat columns are. The list offsets and validity pqarrow computed from the levels are kept;
// the arrays are relabelled with Sluice's types (a MAP as a list of key/value structs). With
// ids, a ROW's fields are the file's fields of their ids (Iceberg), and a field the file does
// not have reads as NULLs.
func nestedConverter(name string, f pqarrow.SchemaField, t catalog.Type, leaf leafConverter, ids *idMatch) (Converter, error) {
	want, err := catalog.ArrowType(t)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", name, err)
	}
	child := func(name string, f pqarrow.SchemaField, t catalog.Type, ids *idMatch) (Converter, error) {
		if f.IsLeaf() {
			if t.IsNested() {
				return nil, fmt.Errorf("column %s: the file's primitive column cannot be read as %s (Flink: Unexpected type)", name, t)
			}
			return leaf(name, f, t)
		}
		return nestedConverter(name, f, t, leaf, ids)
	}
	mismatch := func() (Converter, error) {
		return nil, fmt.Errorf("column %s: the file's %s column cannot be read as %s", name, f.Field.Type, t)
	}
	if ids != nil && t.Nullable && readsNothing(f, t, ids) {
		// Iceberg's reader of a value none of whose leaves is in the file follows no column
		// (its definition level stays 0), so the value is NULL in every row: a ROW whose
		// fields all are missing, an ARRAY of such ROWs.
		return nullsOf(t), nil
	}
	switch t.Kind {
	case catalog.Array:
		if f.Field.Type.ID() != arrow.LIST || len(f.Children) != 1 {
			return mismatch()
		}
		elem, err := child(name+".element", f.Children[0], *t.Elem, ids.part(0, "element"))
		if err != nil {
			return nil, err
		}
		return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
			values, err := elem(in.(*array.List).ListValues(), mem)
			if err != nil {
				return nil, err
			}
			defer values.Release()
			return relabel(in, want, values.Data()), nil
		}, nil
	case catalog.Map:
		if f.Field.Type.ID() != arrow.MAP || len(f.Children) != 1 || len(f.Children[0].Children) != 2 {
			return mismatch()
		}
		kv := f.Children[0].Children
		key, err := child(name+".key", kv[0], *t.Elem, ids.part(0, "key"))
		if err != nil {
			return nil, err
		}
		value, err := child(name+".value", kv[1], *t.Value, ids.part(1, "value"))
		if err != nil {
			return nil, err
		}
		entries := want.(*arrow.ListType).Elem()
		return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
			m := in.(*array.Map)
			k, err := key(m.Keys(), mem)
			if err != nil {
				return nil, err
			}
			defer k.Release()
			v, err := value(m.Items(), mem)
			if err != nil {
				return nil, err
			}
			defer v.Release()
			kvData := array.NewData(entries, k.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{k.Data(), v.Data()}, 0, 0)
			defer kvData.Release()
			return relabel(in, want, kvData), nil
		}, nil
	case catalog.Row:
		if f.Field.Type.ID() != arrow.STRUCT {
			return mismatch()
		}
		// checkLayout has matched the table's fields with the file's first fields, in order,
		// or with the file's fields of their ids.
		fields := make([]Converter, len(t.Fields))
		for i, tf := range t.Fields {
			j := i
			if ids != nil {
				j = ids.childOf(f, i)
			} else if i >= len(f.Children) || f.Children[i].Field.Name != tf.Name {
				return nil, fmt.Errorf("column %s: the file has no field %s in that place", name, tf.Name)
			}
			if j < 0 {
				fields[i] = nullsOf(tf.Type)
				continue
			}
			src := j
			conv, err := child(name+"."+tf.Name, f.Children[j], tf.Type, ids.part(i, f.Children[j].Field.Name))
			if err != nil {
				return nil, err
			}
			fields[i] = func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
				return conv(in.(*array.Struct).Field(src), mem)
			}
		}
		return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
			children := make([]arrow.ArrayData, len(fields))
			for i, conv := range fields {
				c, err := conv(in, mem)
				if err != nil {
					for _, d := range children[:i] {
						d.Release()
					}
					return nil, err
				}
				children[i] = c.Data()
				children[i].Retain()
				c.Release()
			}
			out := relabelStruct(in, want, children, mem)
			for _, d := range children {
				d.Release()
			}
			return out, nil
		}, nil
	}
	return mismatch()
}

// checkLayout refuses the nested Parquet layouts Flink's reader does not read as their Arrow
// reading says, so that no file gives other values natively than on Flink: a collection must
// be a LIST (or MAP) group of the standard three levels (Flink reads a bare repeated field or a
// two-level list with wrong levels or not at all), a ROW's fields must be the file group's
// first fields with the same names in the same order (Flink looks them up by name, exact then
// ignoring case, but checks their types by position and fails on some mismatches); a field
// missing from the file fails, as in Flink.
func checkLayout(name string, n schema.Node, t catalog.Type, ids *idMatch) error {
	refuse := func(why string) error {
		return fmt.Errorf("column %s: %s is not read natively (read it on Flink's reader)", name, why)
	}
	if n.RepetitionType() == parquet.Repetitions.Repeated {
		return refuse("a repeated field outside a LIST or MAP group")
	}
	g, isGroup := n.(*schema.GroupNode)
	if !t.IsNested() {
		if isGroup {
			return fmt.Errorf("column %s: the file's group cannot be read as %s (Flink: Unexpected type)", name, t)
		}
		return nil
	}
	if !isGroup {
		return fmt.Errorf("column %s: the file's primitive column cannot be read as %s (Flink: Unexpected type)", name, t)
	}
	annotated := func(lt schema.LogicalType, cts ...schema.ConvertedType) bool {
		if n.LogicalType() != nil && n.LogicalType().Equals(lt) {
			return true
		}
		for _, ct := range cts {
			if n.ConvertedType() == ct {
				return true
			}
		}
		return false
	}
	repeatedGroup := func(children int) (*schema.GroupNode, error) {
		if g.NumFields() != 1 || g.Field(0).RepetitionType() != parquet.Repetitions.Repeated {
			return nil, refuse("a collection group without one repeated child")
		}
		r, ok := g.Field(0).(*schema.GroupNode)
		if !ok || r.NumFields() != children {
			return nil, refuse("a two-level collection (its repeated child is not a group of the element)")
		}
		return r, nil
	}
	switch t.Kind {
	case catalog.Array:
		if !annotated(schema.ListLogicalType{}, schema.ConvertedTypes.List) {
			return refuse("a group without the LIST annotation read as " + t.String())
		}
		r, err := repeatedGroup(1)
		if err != nil {
			return err
		}
		return checkLayout(name+".element", r.Field(0), *t.Elem, ids.part(0, "element"))
	case catalog.Map:
		if !annotated(schema.MapLogicalType{}, schema.ConvertedTypes.Map, schema.ConvertedTypes.MapKeyValue) {
			return refuse("a group without the MAP annotation read as " + t.String())
		}
		r, err := repeatedGroup(2)
		if err != nil {
			return err
		}
		if err := checkLayout(name+".key", r.Field(0), *t.Elem, ids.part(0, "key")); err != nil {
			return err
		}
		return checkLayout(name+".value", r.Field(1), *t.Value, ids.part(1, "value"))
	case catalog.Row:
		if annotated(schema.ListLogicalType{}, schema.ConvertedTypes.List) || annotated(schema.MapLogicalType{}, schema.ConvertedTypes.Map) {
			return fmt.Errorf("column %s: the file's collection cannot be read as %s (Flink: Unexpected type)", name, t)
		}
		for i, tf := range t.Fields {
			if ids != nil {
				if err := checkFieldByID(name+"."+tf.Name, g, tf, ids, i); err != nil {
					return err
				}
				continue
			}
			j := g.FieldIndexByName(tf.Name)
			if j < 0 {
				for k := 0; k < g.NumFields() && j < 0; k++ {
					if strings.EqualFold(g.Field(k).Name(), tf.Name) {
						j = k
					}
				}
			}
			if j < 0 {
				return fmt.Errorf("column %s: the file has no field %s in it (Flink: Can not find column io for parquet reader)", name, tf.Name)
			}
			if j != i || g.Field(j).Name() != tf.Name {
				return refuse(fmt.Sprintf("field %s in another place or spelling than the file's (%s at %d)", tf.Name, g.Field(j).Name(), j))
			}
			if err := checkLayout(name+"."+tf.Name, g.Field(j), tf.Type, nil); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("column %s: %s is not read natively", name, t)
}

// checkFieldByID checks the file's field of ROW field i's id (Iceberg): a field the file does
// not have reads as NULLs when it may be NULL; a NOT NULL one is an error, as in Iceberg's
// reader.
func checkFieldByID(name string, g *schema.GroupNode, tf catalog.Field, ids *idMatch, i int) error {
	want := ids.ids.part(i)
	if want == nil {
		return fmt.Errorf("column %s: no field id for it", name)
	}
	for k := 0; k < g.NumFields(); k++ {
		if ids.fileID(g.Field(k).Name(), int(g.Field(k).FieldID())) == want.ID {
			return checkLayout(name, g.Field(k), tf.Type, ids.part(i, g.Field(k).Name()))
		}
	}
	if !tf.Type.Nullable {
		return fmt.Errorf("column %s: the file has no field of id %d, and the field is NOT NULL", name, want.ID)
	}
	return nil
}

// readsNothing reports whether a nested value of type t matched with the file group f reads
// none of the file's leaves: a ROW none of whose fields (or whose fields' parts) the file has,
// an ARRAY of such elements, a MAP of such keys (as Iceberg's readers pick the column they
// follow: a struct its first child's that has one, a list its element's, a map its key's).
func readsNothing(f pqarrow.SchemaField, t catalog.Type, ids *idMatch) bool {
	if f.IsLeaf() {
		return false
	}
	switch t.Kind {
	case catalog.Array:
		return len(f.Children) == 1 && readsNothing(f.Children[0], *t.Elem, ids.part(0, "element"))
	case catalog.Map:
		return len(f.Children) == 1 && len(f.Children[0].Children) == 2 &&
			readsNothing(f.Children[0].Children[0], *t.Elem, ids.part(0, "key"))
	case catalog.Row:
		for i := range t.Fields {
			if j := ids.childOf(f, i); j >= 0 && !readsNothing(f.Children[j], t.Fields[i].Type, ids.part(i, f.Children[j].Field.Name)) {
				return false
			}
		}
		return true
	}
	return false
}

// idMatch matches the parts of a nested column with the file's by Iceberg field id: the ids of
// the table's parts at one level, and where that level is in the file. A file written by
// Iceberg has the ids in its schema; a file without them (imported) gets them from the table's
// name mapping by their paths (Iceberg's ApplyNameMapping: field names joined by dots, a
// list's element as "element", a map's key and value as "key" and "value"). A nil idMatch
// matches by name (Flink's filesystem format).
type idMatch struct {
	ids *ColumnIDs
	// path is the file node's path; mapping, when set, gives the ids of paths (an empty one:
	// Iceberg's fallback ids, which nested fields do not get).
	path    string
	mapping map[string]int
}

// part is the match of the table's part i, found in the file under the name fileName.
func (m *idMatch) part(i int, fileName string) *idMatch {
	if m == nil {
		return nil
	}
	return &idMatch{ids: m.ids.part(i), path: m.path + "." + fileName, mapping: m.mapping}
}

// fileID is the field id of the file's child fileName (whose Parquet field id is parquetID),
// or -1.
func (m *idMatch) fileID(fileName string, parquetID int) int {
	if m.mapping == nil {
		return parquetID
	}
	if id, ok := m.mapping[m.path+"."+fileName]; ok {
		return id
	}
	return -1
}

// childOf is the place in a file group of the child with the id of the table's part i, or -1.
func (m *idMatch) childOf(f pqarrow.SchemaField, i int) int {
	want := m.ids.part(i)
	for j, c := range f.Children {
		if want != nil && m.fileID(c.Field.Name, fieldID(c)) == want.ID {
			return j
		}
	}
	return -1
}

// nullsOf is the converter of a value the file does not have: NULLs of its type.
func nullsOf(t catalog.Type) Converter {
	dt, err := catalog.ArrowType(t)
	return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
		if err != nil {
			return nil, err
		}
		return array.MakeArrayOfNull(mem, dt, in.Len()), nil
	}
}

// relabel makes a list array of type want from a list or map array's validity and offsets and
// a new child.
func relabel(in arrow.Array, want arrow.DataType, child arrow.ArrayData) arrow.Array {
	d := in.Data()
	out := array.NewData(want, d.Len(), d.Buffers()[:2], []arrow.ArrayData{child}, d.NullN(), d.Offset())
	defer out.Release()
	return array.MakeFromData(out)
}

// relabelStruct makes a struct array of type want from a struct array's validity and new
// children (as array.Struct#Field gives them: the struct's slice of each, from offset 0).
func relabelStruct(in arrow.Array, want arrow.DataType, children []arrow.ArrayData, mem memory.Allocator) arrow.Array {
	d := in.Data()
	validity := d.Buffers()[0]
	if d.Offset() != 0 {
		validity = column.CopyValidity(in, mem)
		if validity != nil {
			defer validity.Release()
		}
	}
	out := array.NewData(want, d.Len(), []*memory.Buffer{validity}, children, d.NullN(), 0)
	defer out.Release()
	return array.MakeFromData(out)
}
