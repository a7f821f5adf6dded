package agg

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// groupDistinct is a DISTINCT call of a group aggregation as Flink's DistinctAggCodeGen runs it:
// per group a count per distinct value (its MapView), and the inner call (the same function
// without DISTINCT) accumulating a value when its count goes from 0 to 1 and retracting it when
// its count comes back from 1 to 0. Counts go negative for values retracted before they were
// accumulated, as Flink's do. NULL values reach no inner function Flink has (they all skip
// NULL), so they are not counted.
type groupDistinct[K distinctKey] struct {
	inner GroupAccumulator
	// retractor is inner as a Retractor (nil over input without retractions).
	retractor Retractor
	// counts holds per group each value's count, by pointer: assigning to a map's string key
	// stores the key again (Go updates string keys), which would put the batch's memory back.
	counts []map[K]*int64
	read   func(arrow.Array) func(int) K
	// own copies a value read from a batch into memory of its own (strings read from Arrow
	// share the batch's buffers, which are recycled).
	own       func(K) K
	keyBytes  int // memory estimate per value
	encodeKey func([]byte, K) []byte
	decodeKey func([]byte) (K, []byte, error)
	pass      []int32
}

// NewGroupDistinct returns the accumulator of a group aggregation's DISTINCT call: over input
// with retractions (retract) a Retractor, otherwise a GroupAccumulator; or an error saying why
// it cannot run natively.
func NewGroupDistinct(c Call, retract bool) (GroupAccumulator, error) {
	inner := c
	inner.Distinct, inner.DistinctGroup = false, -1
	var acc GroupAccumulator
	var r Retractor
	var err error
	if retract {
		r, err = NewRetractor(inner)
		acc = r
	} else {
		acc, err = NewAccumulator(inner)
	}
	if err != nil {
		return nil, err
	}
	unsupported := fmt.Errorf("%s(DISTINCT %s) is not supported natively yet", c.Func, c.Arg)
	k := c.Arg.Kind
	switch {
	case c.Arg.IsIntegral() || k == catalog.Date || k == catalog.Time || k == catalog.Boolean ||
		((k == catalog.Timestamp || k == catalog.TimestampLTZ) && c.Arg.Precision <= 6):
		return newGroupDistinctInt(acc, r, int64Reader(c.Arg)), nil
	case k == catalog.Float || k == catalog.Double:
		// Flink's view is keyed by the boxed value: Double#equals compares doubleToLongBits, so
		// every NaN is one value and 0.0 and -0.0 are two.
		return newGroupDistinctInt(acc, r, floatBitsReader(k)), nil
	case c.Arg.IsString() || c.Arg.IsBinary():
		return newGroupDistinctString(acc, r, stringReader, 24), nil
	case k == catalog.Decimal:
		// One scale per column: equal values have equal unscaled values.
		return newGroupDistinctString(acc, r, decimalReader, 32), nil
	}
	return nil, unsupported
}

func newGroupDistinctInt(acc GroupAccumulator, r Retractor, read func(arrow.Array) func(int) int64) *groupDistinct[int64] {
	return &groupDistinct[int64]{inner: acc, retractor: r, read: read, own: func(v int64) int64 { return v }, keyBytes: 8,
		encodeKey: func(dst []byte, v int64) []byte { return binary.LittleEndian.AppendUint64(dst, uint64(v)) },
		decodeKey: func(src []byte) (int64, []byte, error) {
			if len(src) < 8 {
				return 0, nil, errTruncated
			}
			return int64(binary.LittleEndian.Uint64(src)), src[8:], nil
		}}
}

func newGroupDistinctString(acc GroupAccumulator, r Retractor, read func(arrow.Array) func(int) string, keyBytes int) *groupDistinct[string] {
	return &groupDistinct[string]{inner: acc, retractor: r, read: read, own: strings.Clone, keyBytes: keyBytes,
		encodeKey: func(dst []byte, v string) []byte {
			return append(binary.LittleEndian.AppendUint32(dst, uint32(len(v))), v...)
		},
		decodeKey: func(src []byte) (string, []byte, error) {
			if len(src) < 4 {
				return "", nil, errTruncated
			}
			n := binary.LittleEndian.Uint32(src)
			if uint64(len(src)-4) < uint64(n) {
				return "", nil, errTruncated
			}
			return string(src[4 : 4+n]), src[4+n:], nil
		}}
}

func (a *groupDistinct[K]) Grow(n int) {
	a.counts = grown(a.counts, n)
	a.inner.Grow(n)
}

func (a *groupDistinct[K]) Reset(g int32) {
	a.counts[g] = nil
	a.inner.Reset(g)
}

// count adds delta to the count of each valid row's value in its group, and passes on (in
// a.pass, -1 elsewhere) the rows whose count reaches at: 1 for an accumulation, 0 for a
// retraction.
func (a *groupDistinct[K]) count(arg arrow.Array, groups []int32, delta, at int64) []int32 {
	read := a.read(arg)
	bits, off := column.ValidBits(arg)
	a.pass = grown(a.pass[:0], len(groups))[:len(groups)]
	for r, g := range groups {
		a.pass[r] = -1
		if g < 0 || !column.Valid(bits, off, r) {
			continue
		}
		m := a.counts[g]
		if m == nil {
			m = map[K]*int64{}
			a.counts[g] = m
		}
		v := read(r)
		p := m[v]
		if p == nil {
			p = new(int64)
			m[a.own(v)] = p
		}
		*p += delta
		c := *p
		if c == 0 {
			delete(m, v)
		}
		if c == at {
			a.pass[r] = g
		}
	}
	return a.pass
}

func (a *groupDistinct[K]) Accumulate(arg arrow.Array, groups []int32) {
	a.inner.Accumulate(arg, a.count(arg, groups, 1, 1))
}

// Retract counts values down; a value whose count comes back to 0 leaves the inner call.
func (a *groupDistinct[K]) Retract(arg arrow.Array, groups []int32) {
	a.retractor.Retract(arg, a.count(arg, groups, -1, 0))
}

// CopyResult copies the inner call's result (the counts are not read by Result).
func (a *groupDistinct[K]) CopyResult(d, s int32) { a.retractor.CopyResult(d, s) }

// Copy copies the inner call's result: over input without retractions a snapshot only needs
// what Result reads.
func (a *groupDistinct[K]) Copy(d, s int32) { a.inner.(Accumulator).Copy(d, s) }

func (a *groupDistinct[K]) Result(mem memory.Allocator, groups []int32) (arrow.Array, error) {
	return a.inner.Result(mem, groups)
}

func (a *groupDistinct[K]) GroupBytes() int { return a.inner.GroupBytes() + 48 }

// Encode appends the inner accumulator, then the number of values and each value (in order)
// with its count (i64).
func (a *groupDistinct[K]) Encode(dst []byte, g int32) []byte {
	dst = a.inner.Encode(dst, g)
	m := a.counts[g]
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(m)))
	for _, v := range slices.SortedFunc(maps.Keys(m), cmp.Compare[K]) {
		dst = binary.LittleEndian.AppendUint64(a.encodeKey(dst, v), uint64(*m[v]))
	}
	return dst
}

func (a *groupDistinct[K]) Decode(src []byte, g int32) ([]byte, error) {
	src, err := a.inner.Decode(src, g)
	if err != nil {
		return nil, err
	}
	if len(src) < 4 {
		return nil, errTruncated
	}
	n := binary.LittleEndian.Uint32(src)
	src = src[4:]
	if uint64(len(src)) < uint64(n)*9 {
		return nil, errTruncated
	}
	var m map[K]*int64
	if n > 0 {
		m = make(map[K]*int64, n)
	}
	for range n {
		var v K
		if v, src, err = a.decodeKey(src); err != nil {
			return nil, err
		}
		if len(src) < 8 {
			return nil, errTruncated
		}
		c := int64(binary.LittleEndian.Uint64(src))
		m[v] = &c
		src = src[8:]
	}
	a.counts[g] = m
	return src, nil
}
