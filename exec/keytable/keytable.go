// Package keytable is a hash table from byte-string keys to small integer ids that holds no Go
// pointers: the keys live in one byte arena, the table is open addressing over int32 slots. A
// keyed operator with millions of keys keeps them, and its per-key values in slices indexed by
// id, in a few large pointer-free slices that the Go collector neither allocates per key nor
// traces, where a map[string]V would hold a string per key and be scanned in every GC cycle.
//
// Ids are dense: a table that never deletes gives 0, 1, 2, ... in the order keys are added. A
// deleted key's id is given to a later new key, so ids stay below IDs() and a caller's slices
// indexed by id stay as long as the most keys the table held at once.
package keytable

import (
	"bytes"
	"hash/maphash"
	"slices"
)

// Slot values besides 1 + id.
const (
	emptySlot   = 0
	deletedSlot = -1 // a tombstone: probes go on past it
)

// compactFrom is the size of deleted keys' bytes from which the arena is compacted once they
// are more than the live keys' bytes.
const compactFrom = 1 << 12

// Table maps keys to ids. The zero Table is empty and ready to use.
type Table struct {
	seed maphash.Seed
	// slots holds 1 + the id of the key hashed there, emptySlot or deletedSlot; its length is
	// a power of two. used counts the slots not empty (keys and tombstones).
	slots []int32
	used  int
	// Per id: the key's hash, and where its bytes are in arena (length -1: a free id).
	hashes []uint64
	starts []int
	lens   []int32
	arena  []byte
	// free holds the deleted keys' ids, reused last deleted first.
	free []int32
	// dead is the size of the deleted keys' bytes still in arena.
	dead int
}

// Len is the number of keys.
func (t *Table) Len() int { return len(t.hashes) - len(t.free) }

// IDs is one more than the largest id given so far: every id of a key is below it.
func (t *Table) IDs() int { return len(t.hashes) }

// Live reports whether id (below IDs) is a key's id, not one freed by Delete.
func (t *Table) Live(id int32) bool { return t.lens[id] >= 0 }

// Bytes is the size of the keys' bytes.
func (t *Table) Bytes() int { return len(t.arena) - t.dead }

// Key returns key id's bytes; they stay valid (and must not be changed) until the next Delete
// or Reset.
func (t *Table) Key(id int32) []byte {
	end := t.starts[id] + int(t.lens[id])
	return t.arena[t.starts[id]:end:end]
}

// Find returns the id of key.
func (t *Table) Find(key []byte) (int32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	h := maphash.Bytes(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s := t.slots[i]; s {
		case emptySlot:
			return 0, false
		case deletedSlot:
		default:
			if id := s - 1; t.hashes[id] == h && bytes.Equal(t.Key(id), key) {
				return id, true
			}
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
	at := -1 // the first tombstone on the probe, where a new key goes
	i := h & mask
	for ; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == emptySlot {
			break
		}
		if s == deletedSlot {
			if at < 0 {
				at = int(i)
			}
			continue
		}
		if id := s - 1; t.hashes[id] == h && bytes.Equal(t.Key(id), key) {
			return id, false
		}
	}
	if at < 0 {
		at = int(i)
		t.used++
	}
	if n := len(t.free); n > 0 {
		id = t.free[n-1]
		t.free = t.free[:n-1]
		t.hashes[id], t.starts[id], t.lens[id] = h, len(t.arena), int32(len(key))
	} else {
		id = int32(len(t.hashes))
		t.hashes, t.starts, t.lens = append(t.hashes, h), append(t.starts, len(t.arena)), append(t.lens, int32(len(key)))
	}
	t.arena = append(t.arena, key...)
	t.slots[at] = id + 1
	if 4*t.used > 3*len(t.slots) {
		t.rehash()
	}
	return id, true
}

// Delete removes key id (which must be live); the id goes to a later new key.
func (t *Table) Delete(id int32) {
	mask := uint64(len(t.slots) - 1)
	i := t.hashes[id] & mask
	for t.slots[i] != id+1 {
		i = (i + 1) & mask
	}
	t.slots[i] = deletedSlot
	t.dead += int(t.lens[id])
	t.lens[id] = -1
	t.free = append(t.free, id)
	if t.dead > compactFrom && t.dead > len(t.arena)-t.dead {
		t.compact()
	}
}

// rehash places every key again by its kept hash, into twice the slots when keys fill more
// than half of them (else the same number: the tombstones are what filled it).
func (t *Table) rehash() {
	n := len(t.slots)
	if 2*t.Len() > n {
		n *= 2
	}
	t.slots = make([]int32, n)
	t.used = t.Len()
	mask := uint64(n - 1)
	for id, h := range t.hashes {
		if t.lens[id] < 0 {
			continue
		}
		i := h & mask
		for t.slots[i] != emptySlot {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(id) + 1
	}
}

// compact copies the live keys' bytes into a new arena, dropping the deleted ones'.
func (t *Table) compact() {
	arena := make([]byte, 0, 2*(len(t.arena)-t.dead))
	for id, n := range t.lens {
		if n < 0 {
			continue
		}
		start := t.starts[id]
		t.starts[id] = len(arena)
		arena = append(arena, t.arena[start:start+int(n)]...)
	}
	t.arena, t.dead = arena, 0
}

// SortedIDs appends the keys' ids to dst in the order of their bytes (a snapshot's order, so
// that equal state gives equal bytes).
func (t *Table) SortedIDs(dst []int32) []int32 {
	from := len(dst)
	for id, n := range t.lens {
		if n >= 0 {
			dst = append(dst, int32(id))
		}
	}
	slices.SortFunc(dst[from:], func(a, b int32) int { return bytes.Compare(t.Key(a), t.Key(b)) })
	return dst
}

// Reset empties the table, keeping its memory for the keys to come.
func (t *Table) Reset() {
	clear(t.slots)
	t.used, t.dead = 0, 0
	t.hashes, t.starts, t.lens, t.arena, t.free = t.hashes[:0], t.starts[:0], t.lens[:0], t.arena[:0], t.free[:0]
}
