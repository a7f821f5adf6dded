package agg

import (
	"cmp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// nanoExtremeAcc is MIN or MAX of a TIMESTAMP(7..9) or TIMESTAMP_LTZ(7..9): per group the
// epoch millisecond and nanos of the millisecond of the current extreme, compared as
// TimestampData#compareTo (millisecond, then nanos), NULL until a value arrives.
type nanoExtremeAcc struct {
	resultType
	max   bool
	ms    []int64
	nanos []int32
	has   []bool
}

func (a *nanoExtremeAcc) Grow(n int) {
	a.ms, a.nanos, a.has = grown(a.ms, n), grown(a.nanos, n), grown(a.has, n)
}
func (a *nanoExtremeAcc) Reset(g int32)     { a.ms[g], a.nanos[g], a.has[g] = 0, 0, false }
func (a *nanoExtremeAcc) Count(int32) int64 { return 0 }
func (a *nanoExtremeAcc) GroupBytes() int   { return 8 + 4 + 1 }
func (a *nanoExtremeAcc) Copy(d, s int32) {
	a.ms[d], a.nanos[d], a.has[d] = a.ms[s], a.nanos[s], a.has[s]
}

// offer makes (ms, nanos) group g's value when it is the first or beats the current one.
func (a *nanoExtremeAcc) offer(g int32, ms int64, nanos int32) {
	if a.has[g] {
		c := cmp.Compare(ms, a.ms[g])
		if c == 0 {
			c = cmp.Compare(nanos, a.nanos[g])
		}
		if (a.max && c <= 0) || (!a.max && c >= 0) {
			return
		}
	}
	a.ms[g], a.nanos[g], a.has[g] = ms, nanos, true
}

func (a *nanoExtremeAcc) Merge(d, s int32) {
	if a.has[s] {
		a.offer(d, a.ms[s], a.nanos[s])
	}
}

func (a *nanoExtremeAcc) Accumulate(arg arrow.Array, groups []int32) {
	ms, nanos := column.NanoTimestamps(arg)
	bits, off := column.ValidBits(arg)
	for r, g := range groups {
		if g >= 0 && column.Valid(bits, off, r) {
			a.offer(g, ms[r], nanos[r])
		}
	}
}

// mergeFields merges partial MIN/MAX values: the same as accumulating them.
func (a *nanoExtremeAcc) MergeFields(cols []arrow.Array, groups []int32) {
	a.Accumulate(cols[0], groups)
}

func (a *nanoExtremeAcc) FieldTypes() []catalog.Type { return []catalog.Type{a.typ.WithNullable(true)} }

func (a *nanoExtremeAcc) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	dt, err := catalog.ArrowType(a.typ)
	if err != nil {
		return nil, err
	}
	msBuf, nanoBuf, ms, nanos := column.NewNanoTimestamps(mem, len(groups))
	valid := column.NewBitmap(mem, len(groups))
	for i, g := range groups {
		if a.has[g] {
			ms[i], nanos[i] = a.ms[g], a.nanos[g]
			bitutil.SetBit(valid.Bytes(), i)
		} else {
			ms[i], nanos[i] = 0, 0
		}
	}
	return column.MakeNanoTimestamps(dt, len(groups), valid, msBuf, nanoBuf), nil
}

func (a *nanoExtremeAcc) Fields(mem memory.Allocator, groups []int32) ([]arrow.Array, error) {
	col, err := a.Result(mem, groups)
	return []arrow.Array{col}, err
}

func (a *nanoExtremeAcc) Encode(dst []byte, g int32) []byte {
	return appendFixed(appendFixed(appendFixed(dst, a.has[g]), a.ms[g]), a.nanos[g])
}

func (a *nanoExtremeAcc) Decode(src []byte, g int32) ([]byte, error) {
	src, err := readFixed(src, &a.has[g])
	if err != nil {
		return nil, err
	}
	if src, err = readFixed(src, &a.ms[g]); err != nil {
		return nil, err
	}
	return readFixed(src, &a.nanos[g])
}
