package agg

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// bytesAcc is MIN or MAX over CHAR/VARCHAR (Flink's StringMinAggFunction and
// StringMaxAggFunction: BinaryStringData#compareTo, unsigned bytes of the UTF-8 encoding, which
// Go's string comparison is), or FIRST_VALUE / LAST_VALUE over strings and binaries (the first
// or last non-null value in arrival order). Values are copied out of their batches.
type bytesAcc struct {
	resultType
	fn  FuncKind
	val []string
	has []bool
}

// newBytesAccumulator returns the Accumulator of a call over a string or binary argument.
func newBytesAccumulator(c Call) (Accumulator, error) {
	sameFamily := (c.Arg.IsString() && c.Result.IsString()) || (c.Arg.IsBinary() && c.Result.IsBinary())
	switch {
	case (c.Func == Min || c.Func == Max) && c.Arg.IsString() && sameFamily:
	case (c.Func == FirstValue || c.Func == LastValue) && sameFamily:
	default:
		return nil, fmt.Errorf("%s(%s) returning %s is not supported natively", c.Func, c.Arg, c.Result)
	}
	a := &bytesAcc{fn: c.Func}
	a.setType(c.Result)
	return a, nil
}

func (a *bytesAcc) Grow(n int)        { a.val, a.has = grown(a.val, n), grown(a.has, n) }
func (a *bytesAcc) Reset(g int32)     { a.val[g], a.has[g] = "", false }
func (a *bytesAcc) Count(int32) int64 { return 0 }
func (a *bytesAcc) Copy(d, s int32)   { a.val[d], a.has[d] = a.val[s], a.has[s] }

// replaces reports whether value v (non-null) takes the place of group g's value.
func (a *bytesAcc) replaces(g int32, v string) bool {
	switch {
	case !a.has[g]:
		return true
	case a.fn == Min:
		return v < a.val[g]
	case a.fn == Max:
		return v > a.val[g]
	}
	return a.fn == LastValue
}

func (a *bytesAcc) Merge(d, s int32) {
	if a.has[s] && a.replaces(d, a.val[s]) {
		a.val[d], a.has[d] = a.val[s], true
	}
}

func (a *bytesAcc) Accumulate(arg arrow.Array, groups []int32) {
	read := stringReader(arg)
	for r, g := range groups {
		if g < 0 || arg.IsNull(r) {
			continue
		}
		if v := read(r); a.replaces(g, v) {
			a.val[g], a.has[g] = strings.Clone(v), true
		}
	}
}

func (a *bytesAcc) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	dt, err := catalog.ArrowType(a.typ)
	if err != nil {
		return nil, err
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, g := range groups {
		switch bb := b.(type) {
		case *array.StringBuilder:
			if a.has[g] {
				bb.Append(a.val[g])
			} else {
				bb.AppendNull()
			}
		case *array.BinaryBuilder:
			if a.has[g] {
				bb.AppendString(a.val[g])
			} else {
				bb.AppendNull()
			}
		default:
			return nil, fmt.Errorf("%s result of type %s", a.fn, a.typ)
		}
	}
	return b.NewArray(), nil
}

func (a *bytesAcc) FieldTypes() []catalog.Type { return []catalog.Type{a.typ.WithNullable(true)} }

func (a *bytesAcc) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	col, err := a.Result(mem, groups)
	return []arrow.Array{col}, err
}

// mergeFields merges partial values: the same as accumulating them.
func (a *bytesAcc) MergeFields(cols []arrow.Array, groups []int32) { a.Accumulate(cols[0], groups) }

func (a *bytesAcc) GroupBytes() int { return 16 + 1 + 16 }

func (a *bytesAcc) Encode(dst []byte, g int32) []byte {
	dst = appendFixed(dst, a.has[g])
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(a.val[g])))
	return append(dst, a.val[g]...)
}

func (a *bytesAcc) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.has[g])
	if err != nil {
		return nil, err
	}
	n, src, err := readU32(src)
	if err != nil {
		return nil, err
	}
	if uint32(len(src)) < n {
		return nil, errTruncated
	}
	a.val[g] = string(src[:n])
	return src[n:], nil
}
