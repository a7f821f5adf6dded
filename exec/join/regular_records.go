package join

import (
	"bytes"

	"github.com/sluice-project/sluice/exec/keytable"
)

// A regular join keeps every row of both inputs until it is retracted: millions of keys and
// rows. They are kept with nothing per key or row that the Go collector allocates or traces:
// each key group's keys in a keytable.Table with a pointer-free entry per key id, every kept
// record in one slab (each key's records of an input in a region of it), and the records' bytes
// in one arena. Retracted records and dropped keys leave dead space in the slab and the arena,
// which compact copies away once it outweighs the live state. Before that, a new record's bytes
// go where a retracted record's of the same size were (rows of fixed-width types all have one
// size), from the Add after the one that retracted it: the rows an Add emits stay unchanged
// until the next Add, as its caller reads them after it returns.

// regularGroup is one key group's keys: their key rows, and per key id its entry.
type regularGroup struct {
	keys    keytable.Table
	entries []regularKey
}

// regularKey is a key's state: whether it holds a NULL the join filters on, and its records of
// each input.
type regularKey struct {
	nullKey bool
	sides   [2]recordList
	// purged is the processing time its expired rows were last taken out at (with a TTL).
	purged int64
}

func (k *regularKey) empty() bool { return k.sides[0].n == 0 && k.sides[1].n == 0 }

// recordList is one input's records of a key: n records from start in the record slab, in a
// region of capacity records there. They are found by their identity in the input's Layout
// (the row, its unique key, or "" for the one row of a JoinKeyUnique side): by a scan while
// the key has few rows (most keys: nothing to allocate), through an index (index is 1 + its
// position in the store's indexes; 0: none) once it has more than indexFrom.
type recordList struct {
	start, n, capacity, index int32
}

// indexFrom is the number of rows of a key's side up to which they are found by a scan.
var indexFrom = 8 // a variable for the tests, which run both ways

// keptRecord is a row a side keeps: size bytes at start in the arena, its identity (a
// UniqueKey side's unique key row) followed by the row from split on.
type keptRecord struct {
	start int
	size  int32
	split int32
	count int32
	// assoc is the row's number of associations on an outer side (-1 on an inner one).
	assoc int32
	// written is the processing time of the record's last write (with a state TTL).
	written int64
}

// recordStore holds the kept records of a regular join, with their bytes.
type recordStore struct {
	layouts [2]Layout
	recs    []keptRecord
	arena   []byte
	// deadRecs and deadBytes are the slab's and the arena's space no key uses any more.
	deadRecs, deadBytes int
	// freed holds the dead bytes of retracted records since the current Add began; reusable,
	// per size, where earlier ones were, for new records of that size.
	freed    []chunk
	reusable map[int32][]int
	// indexes holds the identity indexes of the lists with many records: identity -> the
	// record's position in its list. freeIndexes are positions in indexes to reuse.
	indexes     []map[string]int32
	freeIndexes []int32
}

// chunk is where a record's bytes were in the arena.
type chunk struct {
	start int
	size  int32
}

// beginAdd makes the bytes records retracted before the Add that begins reusable.
func (s *recordStore) beginAdd() {
	if len(s.freed) == 0 {
		return
	}
	if s.reusable == nil {
		s.reusable = map[int32][]int{}
	}
	for _, c := range s.freed {
		s.reusable[c.size] = append(s.reusable[c.size], c.start)
	}
	s.freed = s.freed[:0]
}

// free gives up a retracted record's bytes.
func (s *recordStore) free(r *keptRecord) {
	s.deadBytes += int(r.size)
	s.freed = append(s.freed, chunk{start: r.start, size: r.size})
}

// at returns record i of a list. The pointer is valid until a record is added to any list.
func (s *recordStore) at(l *recordList, i int32) *keptRecord { return &s.recs[l.start+i] }

// row is a record's row; its bytes stay valid while the join runs (records are never
// overwritten in place, and a compaction copies them).
func (s *recordStore) row(r *keptRecord) []byte {
	end := r.start + int(r.size)
	return s.arena[r.start+int(r.split) : end : end]
}

// identity is a record's identity on a side.
func (s *recordStore) identity(side Side, r *keptRecord) []byte {
	switch s.layouts[side] {
	case UniqueKey:
		return s.arena[r.start : r.start+int(r.split)]
	case JoinKeyUnique:
		return nil
	}
	return s.arena[r.start : r.start+int(r.size)]
}

// find returns the position in l of the record of a side whose identity is id.
func (s *recordStore) find(side Side, l *recordList, id []byte) (int32, bool) {
	if l.index != 0 {
		i, ok := s.indexes[l.index-1][string(id)]
		return i, ok
	}
	for i := range l.n {
		if bytes.Equal(s.identity(side, s.at(l, i)), id) {
			return i, true
		}
	}
	return 0, false
}

// newRecord copies a row (after its identity, on a UniqueKey side) into the arena: where a
// retracted record of its size was, if there is one, else at the end.
func (s *recordStore) newRecord(side Side, id, row []byte, assoc int32) keptRecord {
	split := 0
	if s.layouts[side] == UniqueKey {
		split = len(id)
	}
	size := int32(split + len(row))
	if starts := s.reusable[size]; len(starts) > 0 {
		start := starts[len(starts)-1]
		s.reusable[size] = starts[:len(starts)-1]
		s.deadBytes -= int(size)
		copy(s.arena[start:], id[:split])
		copy(s.arena[start+split:], row)
		return keptRecord{start: start, size: size, split: int32(split), count: 1, assoc: assoc}
	}
	start := len(s.arena)
	s.arena = append(append(s.arena, id[:split]...), row...)
	return keptRecord{start: start, size: size, split: int32(split), count: 1, assoc: assoc}
}

// replace puts rec in place of record i of l (of the same identity).
func (s *recordStore) replace(l *recordList, i int32, rec keptRecord) {
	s.free(s.at(l, i))
	*s.at(l, i) = rec
}

// push appends rec to l, moving the list to a region twice as large when its own is full.
func (s *recordStore) push(side Side, l *recordList, rec keptRecord) {
	if l.n == l.capacity {
		c := max(1, 2*l.capacity)
		start := int32(len(s.recs))
		s.recs = append(s.recs, s.recs[l.start:l.start+l.n]...)
		s.recs = append(s.recs, make([]keptRecord, c-l.n)...)
		s.deadRecs += int(l.capacity)
		l.start, l.capacity = start, c
	}
	s.recs[l.start+l.n] = rec
	l.n++
	switch {
	case l.index != 0:
		s.indexes[l.index-1][string(s.identity(side, &rec))] = l.n - 1
	case int(l.n) > indexFrom:
		m := make(map[string]int32, 2*l.n)
		for i := range l.n {
			m[string(s.identity(side, s.at(l, i)))] = i
		}
		if n := len(s.freeIndexes); n > 0 {
			l.index = s.freeIndexes[n-1] + 1
			s.freeIndexes = s.freeIndexes[:n-1]
			s.indexes[l.index-1] = m
		} else {
			s.indexes = append(s.indexes, m)
			l.index = int32(len(s.indexes))
		}
	}
}

// remove takes record i off l (the last record moves to i).
func (s *recordStore) remove(side Side, l *recordList, i int32) {
	rec := s.at(l, i)
	s.free(rec)
	if l.index != 0 {
		delete(s.indexes[l.index-1], string(s.identity(side, rec)))
	}
	last := l.n - 1
	if i != last {
		*rec = *s.at(l, last)
		if l.index != 0 {
			s.indexes[l.index-1][string(s.identity(side, rec))] = i
		}
	}
	*s.at(l, last) = keptRecord{}
	l.n--
}

// release gives up an emptied list's region and index (its key is dropped).
func (s *recordStore) release(l *recordList) {
	s.deadRecs += int(l.capacity)
	if l.index != 0 {
		s.indexes[l.index-1] = nil
		s.freeIndexes = append(s.freeIndexes, l.index-1)
	}
	*l = recordList{}
}

// compactFrom is the dead space (records, or bytes) from which the store is compacted once it
// is more than the live state's.
var compactFrom = 1 << 16 // a variable for the tests, which compact at every chance

// needsCompaction reports whether dead space outweighs the live state.
func (s *recordStore) needsCompaction() bool {
	return (s.deadRecs > compactFrom && 2*s.deadRecs > len(s.recs)) ||
		(s.deadBytes > compactFrom && 2*s.deadBytes > len(s.arena))
}

// compact copies the records of every key of groups, and their bytes, into a new slab and
// arena, each list into a region of its size and a quarter.
func (s *recordStore) compact(groups []regularGroup) {
	recs := make([]keptRecord, 0, 2*(len(s.recs)-s.deadRecs))
	arena := make([]byte, 0, 2*(len(s.arena)-s.deadBytes))
	for g := range groups {
		grp := &groups[g]
		for id := range int32(grp.keys.IDs()) {
			if !grp.keys.Live(id) {
				continue
			}
			for side := range grp.entries[id].sides {
				l := &grp.entries[id].sides[side]
				start := int32(len(recs))
				for _, r := range s.recs[l.start : l.start+l.n] {
					data := s.arena[r.start : r.start+int(r.size)]
					r.start = len(arena)
					arena = append(arena, data...)
					recs = append(recs, r)
				}
				// A list of a few records keeps room for a quarter more, so that its next rows do
				// not all move it at once.
				capacity := l.n + l.n/4
				for range capacity - l.n {
					recs = append(recs, keptRecord{})
				}
				l.start, l.capacity = start, capacity
			}
		}
	}
	s.recs, s.arena, s.deadRecs, s.deadBytes = recs, arena, 0, 0
	s.freed = s.freed[:0]
	clear(s.reusable)
}
