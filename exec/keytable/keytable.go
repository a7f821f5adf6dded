// Package keytable is a hash table from byte-string keys to dense ids (0, 1, 2, ... in the
// order the keys were added) that holds no Go pointers: the keys live in one byte arena, the
// table is open addressing over int32 slots. A keyed operator with millions of keys keeps them
// in a few large pointer-free slices that the Go collector neither allocates per key nor traces,
// where a map[string]V would hold a string per key and be scanned in every GC cycle.
//
// Keys are never removed one by one: a table is dropped or reset whole (a window's keys when
// it fires).
package keytable

import (
	"bytes"
	"hash/maphash"
)

// Table maps keys to ids. The zero Table is empty and ready to use.
type Table struct {
	seed maphash.Seed
	// slots holds 1 + the id of the key hashed there (0: empty); its length is a power of two.
	slots []int32
	// Per id: the key's hash and the end of its bytes in arena (its start is the previous end).
	hashes []uint64
	ends   []int
	arena  []byte
}

// Len is the number of keys.
func (t *Table) Len() int { return len(t.hashes) }

// Bytes is the size of the keys' bytes.
func (t *Table) Bytes() int { return len(t.arena) }

// Key returns key id's bytes; they stay valid (and must not be changed) until Reset.
func (t *Table) Key(id int32) []byte {
	start := 0
	if id > 0 {
		start = t.ends[id-1]
	}
	return t.arena[start:t.ends[id]:t.ends[id]]
}

// Find returns the id of key.
func (t *Table) Find(key []byte) (int32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	h := maphash.Bytes(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if id := s - 1; t.hashes[id] == h && bytes.Equal(t.Key(id), key) {
			return id, true
		}
	}
}

// Insert returns the id of key, adding it (a copy of its bytes) when it is new.
func (t *Table) Insert(key []byte) (id int32, added bool) {
	if len(t.slots) == 0 {
		t.seed = maphash.MakeSeed()
		t.slots = make([]int32, 16)
	}
	h := maphash.Bytes(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for ; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			break
		}
		if id := s - 1; t.hashes[id] == h && bytes.Equal(t.Key(id), key) {
			return id, false
		}
	}
	id = int32(len(t.hashes))
	t.arena = append(t.arena, key...)
	t.hashes, t.ends = append(t.hashes, h), append(t.ends, len(t.arena))
	t.slots[i] = id + 1
	if 4*len(t.hashes) > 3*len(t.slots) {
		t.grow()
	}
	return id, true
}

// grow doubles the slots and places every key again by its kept hash.
func (t *Table) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	mask := uint64(len(t.slots) - 1)
	for id, h := range t.hashes {
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(id) + 1
	}
}

// Reset empties the table, keeping its memory for the keys to come.
func (t *Table) Reset() {
	clear(t.slots)
	t.hashes, t.ends, t.arena = t.hashes[:0], t.ends[:0], t.arena[:0]
}
