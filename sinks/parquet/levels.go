package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// stepKind is what one step from a nested column down to one of its leaves goes through.
type stepKind uint8

const (
	stepLeaf   stepKind = iota
	stepStruct          // a ROW, or a MAP's key/value entry (the repeated group key_value)
	stepList            // an ARRAY or a MAP: the repeated group below it
)

// step is one node on the path from a nested column to a leaf, as the Parquet schema nests
// it (Flink's ParquetSchemaConverter): a ROW's group, an ARRAY's LIST group with its repeated
// "list" group, a MAP's MAP group with its repeated "key_value" group, and the leaf.
type step struct {
	kind     stepKind
	optional bool  // OPTIONAL in the schema: one definition level when present
	field    int   // stepStruct: the child followed
	repDepth int16 // stepList: the repetition level of its elements after the first
	// listsBelow: a list at this step or under it, so that a value ending here has no slot
	// among the leaf's values (which hold one per element of the innermost list).
	listsBelow bool
	// mapKey: the node is a MAP's key, REQUIRED in the file whatever its type says.
	mapKey bool
}

// LeafPath is the way from a nested column of a batch down to one of its leaf (primitive)
// columns, which Parquet writes as a column chunk of its own with repetition and definition
// levels (the Dremel encoding).
type LeafPath struct {
	steps  []step
	maxDef int16
	maxRep int16
	// elemDef is the definition level of an element of the innermost list (0 without one):
	// the level entries at or above it are the ones with a slot among the values.
	elemDef int16
	// leaf is the type of the leaf values.
	leaf catalog.Type
}

// Leaves lists the paths to the leaves of a nested column of type t, in the order of the
// Parquet schema's leaf columns (depth first: ROW fields in order, a MAP's key before its value).
func Leaves(t catalog.Type) []*LeafPath {
	var out []*LeafPath
	// walk visits node t, reached by path, with the levels of its parent; its own step is
	// made by at(kind, field).
	var walk func(t catalog.Type, path []step, def, rep, elemDef int16, optional, mapKey bool)
	walk = func(t catalog.Type, path []step, def, rep, elemDef int16, optional, mapKey bool) {
		if optional {
			def++
		}
		at := func(kind stepKind, field int) []step {
			return withStep(path, step{kind: kind, optional: optional, field: field, repDepth: rep + 1, mapKey: mapKey})
		}
		switch t.Kind {
		case catalog.Row:
			for k, f := range t.Fields {
				walk(f.Type, at(stepStruct, k), def, rep, elemDef, f.Type.Nullable, false)
			}
		case catalog.Array:
			walk(*t.Elem, at(stepList, 0), def+1, rep+1, def+1, t.Elem.Nullable, false)
		case catalog.Map:
			list := at(stepList, 0)
			// The key is REQUIRED in the file whatever its type says (Flink's converter).
			walk(*t.Elem, withStep(list, step{kind: stepStruct, field: 0}), def+1, rep+1, def+1, false, true)
			walk(*t.Value, withStep(list, step{kind: stepStruct, field: 1}), def+1, rep+1, def+1, t.Value.Nullable, false)
		default:
			p := &LeafPath{steps: at(stepLeaf, 0), maxDef: def, maxRep: rep, elemDef: elemDef, leaf: t}
			below := false
			for i := len(p.steps) - 1; i >= 0; i-- {
				below = below || p.steps[i].kind == stepList
				p.steps[i].listsBelow = below
			}
			out = append(out, p)
		}
	}
	walk(t, nil, 0, 0, 0, t.Nullable, false)
	return out
}

// withStep is a copy of path with s appended.
func withStep(path []step, s step) []step {
	return append(append(make([]step, 0, len(path)+1), path...), s)
}

// Type is the type of the leaf's values.
func (p *LeafPath) Type() catalog.Type { return p.leaf }

// Present appends, for level entries defs and n values with a slot for each entry at or above
// the innermost list's element level, the slots whose value is present (defined at the leaf),
// in order: what a writer of raw values (INT96) writes beside the levels. Without definition
// levels (nil defs: no optional or repeated node on the path) every value is present.
func (p *LeafPath) Present(defs []int16, n int, dst []int) []int {
	if defs == nil {
		for i := range n {
			dst = append(dst, i)
		}
		return dst
	}
	slot := 0
	for _, d := range defs {
		if d < p.elemDef {
			continue
		}
		if d == p.maxDef {
			dst = append(dst, slot)
		}
		slot++
	}
	return dst
}

// MaxDefinition is the leaf's definition level when its value is present: the number of
// OPTIONAL and repeated nodes on its path.
func (p *LeafPath) MaxDefinition() int16 { return p.maxDef }

// InCollection tells whether the leaf is inside an ARRAY or a MAP.
func (p *LeafPath) InCollection() bool { return p.maxRep > 0 }

// Nullable tells whether the leaf is OPTIONAL in the file (a MAP key never is).
func (p *LeafPath) Nullable() bool { return p.steps[len(p.steps)-1].optional }

// levelBuilder computes one leaf's levels over a column: the arrays of every step of the path
// (the children of structs are aligned with their parent, the values of lists indexed by its
// offsets), their validity bitmaps and list offsets, read once per column.
type levelBuilder struct {
	p          *LeafPath
	arrs       []arrow.Array
	valid      [][]byte // nil: no NULLs at that step
	validOff   []int
	offs       [][]int32 // list steps: their offsets
	defs, reps []int16
	slots      []int32 // indexes into the leaf array of the values with a slot, -1 for NULL
	nullKey    bool    // a MAP key that is NULL: Flink's writer fails on it
	// nullRequired: a NULL in a field that is REQUIRED in the file (NOT NULL in its type)
	nullRequired bool
}

// Levels computes the leaf's definition and repetition levels over the nested column col
// (nil when the leaf has no optional or repeated ancestors) and its values: one per level entry
// that reaches into the innermost list's elements (every row when there is no list), in order,
// taken from the leaf's child column (the caller releases it). A NULL MAP key fails as in
// Flink's ParquetRowDataWriter.
func (p *LeafPath) Levels(col arrow.Array, mem memory.Allocator) (values arrow.Array, defs, reps []int16, err error) {
	n := len(p.steps)
	b := levelBuilder{p: p, arrs: make([]arrow.Array, n), valid: make([][]byte, n), validOff: make([]int, n), offs: make([][]int32, n)}
	a := col
	for d, s := range p.steps {
		b.arrs[d] = a
		b.valid[d], b.validOff[d] = column.ValidBits(a)
		switch s.kind {
		case stepStruct:
			a = a.(*array.Struct).Field(s.field)
		case stepList:
			b.offs[d] = column.ListOffsets(a.(*array.List))
			a = a.(*array.List).ListValues()
		}
	}
	leafArr := b.arrs[n-1]
	size := max(col.Len(), leafArr.Len())
	b.defs, b.reps, b.slots = make([]int16, 0, size), make([]int16, 0, size), make([]int32, 0, leafArr.Len())
	for i := 0; i < col.Len(); i++ {
		b.visit(i, 0, 0, 0)
	}
	if b.nullKey {
		return nil, nil, nil, fmt.Errorf("Parquet does not support null keys in maps")
	}
	if b.nullRequired {
		return nil, nil, nil, fmt.Errorf("a NULL in a part of the column that is NOT NULL (REQUIRED in the file), which Flink's writers fail on too")
	}
	values, err = column.TakeOrNull(leafArr, b.slots, mem)
	if err != nil {
		return nil, nil, nil, err
	}
	if p.maxDef > 0 {
		defs = b.defs
	}
	if p.maxRep > 0 {
		reps = b.reps
	}
	return values, defs, reps, nil
}

func (b *levelBuilder) emit(def, rep int16, slot int, hasSlot bool) {
	b.defs = append(b.defs, def)
	b.reps = append(b.reps, rep)
	if hasSlot {
		b.slots = append(b.slots, int32(slot))
	}
}

// visit writes the levels of value i of the array at step d of the path, reached with
// definition level def and repetition level rep.
func (b *levelBuilder) visit(i, d int, def, rep int16) {
	s := &b.p.steps[d]
	if !column.Valid(b.valid[d], b.validOff[d], i) {
		switch {
		case s.optional:
			// A slot NULL in the values whatever the leaf's own bit says (the child of a NULL
			// ROW may hold anything), so that the values agree with the levels for every writer.
			b.emit(def, rep, -1, !s.listsBelow)
			return
		case s.mapKey:
			b.nullKey = true
			return
		default:
			// A NULL where the file's field is REQUIRED: Flink's writers fail on it too
			// (parquet-mr misses a required value; Iceberg's required writers get null).
			b.nullRequired = true
			return
		}
	}
	if s.optional {
		def++
	}
	switch s.kind {
	case stepLeaf:
		b.emit(def, rep, i, true)
	case stepStruct:
		b.visit(i, d+1, def, rep)
	case stepList:
		start, end := int(b.offs[d][i]), int(b.offs[d][i+1])
		if start == end {
			b.emit(def, rep, i, false)
			return
		}
		for j := start; j < end; j++ {
			r := rep
			if j > start {
				r = s.repDepth
			}
			b.visit(j, d+1, def+1, r)
		}
	}
}
