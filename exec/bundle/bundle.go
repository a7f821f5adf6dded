// Package bundle reproduces the buffer of Flink's mini-batch operators
// (AbstractMapBundleOperator with a CountBundleTrigger): rows are collected per key in a
// java.util.HashMap keyed by the key's BinaryRowData, the bundle is finished after the row that
// brings it to its size (and on every watermark, before a checkpoint barrier and at the end of
// input), and a finished bundle hands its keys over in the HashMap's iteration order, which
// decides the order of what the operator emits.
package bundle

import (
	"fmt"

	"github.com/sluice-project/sluice/javacompat/javahash"
)

// Bundle is the keys of one mini-batch operator's current bundle and its count trigger. The
// HashMap behind it lives as long as the operator (Flink clears it after each bundle, which
// keeps its capacity), so later bundles iterate in the order of a map of that capacity.
type Bundle struct {
	size  int64
	count int64
	index map[string]int32 // key row -> key number in the bundle
	keys  rowKeys
	order javahash.HashMap
}

// New returns an empty bundle finished every size rows (table.exec.mini-batch.size).
func New(size int64) (*Bundle, error) {
	if size <= 0 {
		return nil, fmt.Errorf("bundle: size %d, must be > 0", size)
	}
	return &Bundle{size: size, index: map[string]int32{}, keys: rowKeys{offsets: []int32{0}}}, nil
}

// Add adds a row of key row key (BinaryRowData bytes) and returns the key's number in the
// bundle (0, 1, ... by first arrival) and whether the bundle is now full: the caller finishes
// it before the next row, as CountBundleTrigger#onElement does.
func (b *Bundle) Add(key []byte) (int32, bool) {
	k, ok := b.index[string(key)]
	if !ok {
		k = int32(len(b.keys.offsets) - 1)
		b.keys.data = append(b.keys.data, key...)
		b.keys.offsets = append(b.keys.offsets, int32(len(b.keys.data)))
		b.index[string(key)] = k
		// A put of a key already in the map keeps its place: only new keys change the order.
		b.order.Put(javahash.Bytes(key), int(k), &b.keys)
	}
	b.count++
	return k, b.count >= b.size
}

// Rows is the number of rows added since the bundle was last finished.
func (b *Bundle) Rows() int64 { return b.count }

// Keys is the number of distinct keys in the bundle.
func (b *Bundle) Keys() int { return len(b.keys.offsets) - 1 }

// Key returns key k's row (valid until Clear).
func (b *Bundle) Key(k int32) []byte {
	return b.keys.data[b.keys.offsets[k]:b.keys.offsets[k+1]]
}

// Order appends the bundle's key numbers in the HashMap's iteration order, the order in which
// Flink's MapBundleFunction#finishBundle walks them.
func (b *Bundle) Order(dst []int32) []int32 {
	dst, _ = b.order.AppendEntries(dst, nil)
	return dst
}

// Clear empties the bundle once finished (and resets the trigger's count).
func (b *Bundle) Clear() {
	b.count = 0
	clear(b.index)
	b.keys.data, b.keys.offsets = b.keys.data[:0], b.keys.offsets[:1]
	b.order.Clear()
}

// rowKeys are the bundle's key rows as javahash sees BinaryRowData keys: equal when their
// bytes are, and not comparable (BinaryRowData does not implement Comparable).
type rowKeys struct {
	data    []byte
	offsets []int32
}

func (r *rowKeys) row(i int) []byte { return r.data[r.offsets[i]:r.offsets[i+1]] }

// Codes implements javahash.Keys: BinaryRowData#hashCode.
func (r *rowKeys) Codes(codes []int32) {
	for i := range codes {
		codes[i] = javahash.Bytes(r.row(i))
	}
}

// Equal implements javahash.Keys: BinaryRowData#equals compares the bytes.
func (r *rowKeys) Equal(i, j int) bool { return string(r.row(i)) == string(r.row(j)) }

// Compare implements javahash.Keys: rows are not comparable.
func (r *rowKeys) Compare(int, int) (int, bool) { return 0, false }

// IsNull implements javahash.Keys: a key row is never null.
func (r *rowKeys) IsNull(int) bool { return false }
