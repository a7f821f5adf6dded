package window

import (
	"encoding/binary"
	"slices"
)

// slotTable16 maps a 16-byte key row (a one-field key of a fixed-width type) and a slice end to
// the group of the key's open accumulator for that slice. It is two tables:
//
//   - key rows → dense key ids: open addressing with linear probing over a power-of-two array,
//     the key's two words inline, kept across flushes (the same keys usually come back in the
//     next slice) until it holds more than maxKeptKeys keys;
//   - per open slice end, a group per key id (a plain array).
//
// Keys whose row is a non-NULL value below directKeys (small integer keys, as ids often are)
// also find their id by direct indexing of an array, which stays small enough for the cache.
//
// A lookup is one probe of the key table, whose entries are smaller than they would be with
// the slice end in them and exist once per key rather than once per key and slice, and one
// index into the slice's array; the rows of a batch mostly share their slice. The local phase
// looks up every row of a batch here.
type slotTable16 struct {
	keys  []keyEntry16
	nkeys int32
	shift uint
	// direct[v] is the id + 1 of the key row (header 0, value word v) for v < len(direct).
	direct []int32
	// slices are the open slices (a few: the current one and late or early rows' ones);
	// last is the index of the slice looked up last.
	slices []sliceGroups
	last   int
	// spare keeps the group arrays of closed slices for reuse.
	spare [][]int32
}

// keyEntry16 is one key row → key id entry; id is the key id + 1, 0 when the entry is empty.
type keyEntry16 struct {
	k0, k1 uint64
	id     int32
}

// sliceGroups holds the groups of one open slice: groups[id] is the group + 1 of key id, 0
// when the key has no accumulator in the slice. It may be shorter than the number of keys.
type sliceGroups struct {
	end    int64
	groups []int32
}

// slotRef locates a (key, slice) pair found by find, for insert.
type slotRef struct {
	slice int
	id    int32
}

const (
	initialKeyBits = 10
	// maxKeptKeys bounds the keys the table keeps across a reset (about 3 MiB of entries):
	// beyond it, a reset also drops the keys and shrinks the table.
	maxKeptKeys = 1 << 17
	// directKeys bounds the value words looked up in the direct array (256 KiB at most).
	directKeys = 1 << 16
)

func newSlotTable16() *slotTable16 {
	return &slotTable16{keys: make([]keyEntry16, 1<<initialKeyBits), shift: 64 - initialKeyBits}
}

// hashKey16 mixes a key row's two words into 64 bits (the top bits pick the entry).
func hashKey16(k0, k1 uint64) uint64 {
	h := k1*0x9E3779B97F4A7C15 ^ k0
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h
}

// find returns the group of (key, end), or -1; the reference locates the pair for insert.
func (t *slotTable16) find(key []byte, end int64) (int32, slotRef) {
	id := t.keyID(binary.LittleEndian.Uint64(key[0:8]), binary.LittleEndian.Uint64(key[8:16]))
	s := t.slice(end)
	gs := t.slices[s].groups
	if int(id) >= len(gs) {
		return -1, slotRef{s, id}
	}
	return gs[id] - 1, slotRef{s, id}
}

// insert records g as the group of the pair that find located.
func (t *slotTable16) insert(ref slotRef, g int32) {
	sg := &t.slices[ref.slice]
	if int(ref.id) >= len(sg.groups) {
		// Keys added after the slice opened: extend its array to every key known now.
		n, old := max(int(t.nkeys), int(ref.id)+1), len(sg.groups)
		sg.groups = slices.Grow(sg.groups, n-old)[:n]
		clear(sg.groups[old:])
	}
	sg.groups[ref.id] = g + 1
}

// keyID returns the id of a key row, giving it the next id when it is new.
func (t *slotTable16) keyID(k0, k1 uint64) int32 {
	if k0 != 0 || k1 >= directKeys {
		return t.hashedKeyID(k0, k1)
	}
	if k1 < uint64(len(t.direct)) {
		if id := t.direct[k1]; id != 0 {
			return id - 1
		}
	} else {
		n, old := min(max(2*len(t.direct), int(k1)+1, 1024), directKeys), len(t.direct)
		t.direct = slices.Grow(t.direct, n-old)[:n]
		clear(t.direct[old:])
	}
	id := t.hashedKeyID(k0, k1)
	t.direct[k1] = id + 1
	return id
}

// hashedKeyID is keyID through the key table.
func (t *slotTable16) hashedKeyID(k0, k1 uint64) int32 {
	mask := len(t.keys) - 1
	i := int(hashKey16(k0, k1) >> t.shift)
	for {
		e := &t.keys[i]
		if e.id == 0 {
			t.nkeys++
			*e = keyEntry16{k0: k0, k1: k1, id: t.nkeys}
			if int(t.nkeys)*4 >= len(t.keys)*3 {
				t.grow()
			}
			return t.nkeys - 1
		}
		if e.k1 == k1 && e.k0 == k0 {
			return e.id - 1
		}
		i = (i + 1) & mask
	}
}

// slice returns the index of the open slice ending at end, opening it if needed.
func (t *slotTable16) slice(end int64) int {
	if t.last < len(t.slices) && t.slices[t.last].end == end {
		return t.last
	}
	for i := range t.slices {
		if t.slices[i].end == end {
			t.last = i
			return i
		}
	}
	var groups []int32
	if n := len(t.spare); n > 0 {
		groups = t.spare[n-1][:0]
		t.spare = t.spare[:n-1]
	}
	t.slices = append(t.slices, sliceGroups{end: end, groups: groups})
	t.last = len(t.slices) - 1
	return t.last
}

// grow doubles the key entries and places the used ones again.
func (t *slotTable16) grow() {
	old := t.keys
	t.keys = make([]keyEntry16, 2*len(old))
	t.shift--
	mask := len(t.keys) - 1
	for _, e := range old {
		if e.id == 0 {
			continue
		}
		i := int(hashKey16(e.k0, e.k1) >> t.shift)
		for t.keys[i].id != 0 {
			i = (i + 1) & mask
		}
		t.keys[i] = e
	}
}

// reset closes every slice (their arrays are kept for reuse). The keys stay unless there are
// more than maxKeptKeys of them: then the key table starts again at its initial size.
func (t *slotTable16) reset() {
	for _, s := range t.slices {
		t.spare = append(t.spare, s.groups[:0])
	}
	t.slices, t.last = t.slices[:0], 0
	if t.nkeys > maxKeptKeys {
		t.keys, t.shift, t.nkeys = make([]keyEntry16, 1<<initialKeyBits), 64-initialKeyBits, 0
		t.direct = nil
		t.spare = t.spare[:0]
	}
}
