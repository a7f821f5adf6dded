package parquet

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// leafConverter chooses the conversion of one leaf (primitive) column of a file.
type leafConverter func(name string, f pqarrow.SchemaField, t catalog.Type) (Converter, error)

// nestedConverter chooses the conversion of a nested file column (a group) into a ROW, ARRAY or
// MAP of the table, as Flink's NestedColumnReader reads it: ROW fields by name (exact, else the
// first that matches ignoring case, as ParquetSplitReaderUtil#lookupColumnByName; a field the
// file lacks fails), the element of a list, the key and value of a map; the leaves converted
// as flat columns are. The list offsets and validity pqarrow computed from the levels are kept;
// the arrays are relabelled with Sluice's types (a MAP as a list of key/value structs).
func nestedConverter(name string, f pqarrow.SchemaField, t catalog.Type, leaf leafConverter) (Converter, error) {
	want, err := catalog.ArrowType(t)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", name, err)
	}
	child := func(name string, f pqarrow.SchemaField, t catalog.Type) (Converter, error) {
		if f.IsLeaf() {
			if t.IsNested() {
				return nil, fmt.Errorf("column %s: the file's primitive column cannot be read as %s (Flink: Unexpected type)", name, t)
			}
			return leaf(name, f, t)
		}
		return nestedConverter(name, f, t, leaf)
	}
	mismatch := func() (Converter, error) {
		return nil, fmt.Errorf("column %s: the file's %s column cannot be read as %s", name, f.Field.Type, t)
	}
	switch t.Kind {
	case catalog.Array:
		if f.Field.Type.ID() != arrow.LIST || len(f.Children) != 1 {
			return mismatch()
		}
		elem, err := child(name+".element", f.Children[0], *t.Elem)
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
		key, err := child(name+".key", kv[0], *t.Elem)
		if err != nil {
			return nil, err
		}
		value, err := child(name+".value", kv[1], *t.Value)
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
		fields := make([]Converter, len(t.Fields))
		source := make([]int, len(t.Fields))
		for i, tf := range t.Fields {
			j := fieldByName(f.Children, tf.Name)
			if j < 0 {
				return nil, fmt.Errorf("column %s: the file has no field %s in it (Flink: Can not find column io for parquet reader)", name, tf.Name)
			}
			if fields[i], err = child(name+"."+tf.Name, f.Children[j], tf.Type); err != nil {
				return nil, err
			}
			source[i] = j
		}
		return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
			s := in.(*array.Struct)
			children := make([]arrow.ArrayData, len(fields))
			for i, conv := range fields {
				c, err := conv(s.Field(source[i]), mem)
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

// fieldByName is ParquetSplitReaderUtil#lookupColumnByName: the child of that name, else the
// first whose name equals it ignoring case; -1 when none does.
func fieldByName(children []pqarrow.SchemaField, name string) int {
	for i, c := range children {
		if c.Field.Name == name {
			return i
		}
	}
	for i, c := range children {
		if strings.EqualFold(c.Field.Name, name) {
			return i
		}
	}
	return -1
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
