package window

import "encoding/binary"

// slotTable16 maps a 16-byte key row (a one-field key of a fixed-width type) and a slice end to
// the group of the key's open accumulator for that slice: open addressing with linear probing
// over a power-of-two array of entries, the key and end stored inline, so that a lookup is one
// hash and, usually, one cache line. The local phase looks up every row of a batch here.
type slotTable16 struct {
	entries []slotEntry16
	used    int
	shift   uint
}

// slotEntry16 is one (key row, slice end) → group entry; g is the group + 1, 0 when empty.
type slotEntry16 struct {
	k0, k1 uint64
	end    int64
	g      int32
}

func newSlotTable16() *slotTable16 {
	const initial = 1 << 10
	return &slotTable16{entries: make([]slotEntry16, initial), shift: 64 - 10}
}

// hashSlot mixes a key row's two words and a slice end into 64 bits (the top bits pick the
// entry).
func hashSlot(k0, k1 uint64, end int64) uint64 {
	h := k1*0x9E3779B97F4A7C15 ^ k0 ^ uint64(end)*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h
}

// find returns the group of (key, end), or -1 and the entry to fill with insert.
func (t *slotTable16) find(key []byte, end int64) (int32, int) {
	k0 := binary.LittleEndian.Uint64(key[0:8])
	k1 := binary.LittleEndian.Uint64(key[8:16])
	mask := len(t.entries) - 1
	i := int(hashSlot(k0, k1, end) >> t.shift)
	for {
		e := &t.entries[i]
		if e.g == 0 {
			return -1, i
		}
		if e.k1 == k1 && e.end == end && e.k0 == k0 {
			return e.g - 1, i
		}
		i = (i + 1) & mask
	}
}

// insert fills entry i (from find) with (key, end) → g, growing the table past 3/4 full.
func (t *slotTable16) insert(i int, key []byte, end int64, g int32) {
	t.entries[i] = slotEntry16{
		k0: binary.LittleEndian.Uint64(key[0:8]), k1: binary.LittleEndian.Uint64(key[8:16]), end: end, g: g + 1,
	}
	t.used++
	if t.used*4 >= len(t.entries)*3 {
		t.grow()
	}
}

// grow doubles the entries and places the used ones again.
func (t *slotTable16) grow() {
	old := t.entries
	t.entries = make([]slotEntry16, 2*len(old))
	t.shift--
	mask := len(t.entries) - 1
	for _, e := range old {
		if e.g == 0 {
			continue
		}
		i := int(hashSlot(e.k0, e.k1, e.end) >> t.shift)
		for t.entries[i].g != 0 {
			i = (i + 1) & mask
		}
		t.entries[i] = e
	}
}

// reset empties the table, keeping its size.
func (t *slotTable16) reset() {
	if t.used > 0 {
		clear(t.entries)
		t.used = 0
	}
}
