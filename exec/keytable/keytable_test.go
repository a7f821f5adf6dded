package keytable

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The table agrees with a map over random inserts and lookups, through growth and a reset.
func TestTableAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var tab Table
	for round := range 2 {
		ref := map[string]int32{}
		var order []string
		for range 5000 {
			// Keys of every length from 0, many repeated, some sharing prefixes.
			k := fmt.Sprintf("%03x", rng.IntN(3000))[:rng.IntN(4)] + fmt.Sprint(rng.IntN(1500))
			if rng.IntN(50) == 0 {
				k = ""
			}
			if rng.IntN(3) == 0 {
				got, ok := tab.Find([]byte(k))
				want, wantOK := ref[k]
				if ok != wantOK || (ok && got != want) {
					t.Fatalf("round %d: Find(%q) = %d %v, want %d %v", round, k, got, ok, want, wantOK)
				}
				continue
			}
			id, added := tab.Insert([]byte(k))
			want, seen := ref[k]
			if added == seen || (seen && id != want) {
				t.Fatalf("round %d: Insert(%q) = %d %v, want %d %v", round, k, id, added, want, !seen)
			}
			if added {
				if int(id) != len(order) {
					t.Fatalf("round %d: id %d for the %d-th key", round, id, len(order))
				}
				ref[k] = id
				order = append(order, k)
			}
		}
		if tab.Len() != len(order) {
			t.Fatalf("round %d: %d keys, want %d", round, tab.Len(), len(order))
		}
		size := 0
		for id, k := range order {
			if string(tab.Key(int32(id))) != k {
				t.Fatalf("round %d: Key(%d) = %q, want %q", round, id, tab.Key(int32(id)), k)
			}
			size += len(k)
		}
		if tab.Bytes() != size {
			t.Fatalf("round %d: %d key bytes, want %d", round, tab.Bytes(), size)
		}
		tab.Reset()
		if _, ok := tab.Find([]byte(order[0])); ok || tab.Len() != 0 {
			t.Fatalf("round %d: keys left after Reset", round)
		}
	}
	var empty Table
	if _, ok := empty.Find(nil); ok {
		t.Fatal("an empty table finds a key")
	}
}

// With deletes mixed in, the table agrees with a map: a new key takes a deleted key's id (the
// last deleted first) before a new one, and the keys' bytes survive the compactions and the
// rehashes that many deletes cause.
func TestTableWithDeletesAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var tab Table
	ref := map[string]int32{}
	byID := map[int32]string{}
	var free []int32
	for step := range 200000 {
		// A long key now and then, so that deleted bytes pass compactFrom.
		k := fmt.Sprint(rng.IntN(4000))
		if rng.IntN(10) == 0 {
			k += strings.Repeat("x", rng.IntN(200))
		}
		switch op := rng.IntN(8); {
		case op < 3:
			id, ok := tab.Find([]byte(k))
			want, wantOK := ref[k]
			if ok != wantOK || (ok && id != want) {
				t.Fatalf("step %d: Find(%q) = %d %v, want %d %v", step, k, id, ok, want, wantOK)
			}
		case op < 6:
			id, added := tab.Insert([]byte(k))
			want, seen := ref[k]
			if added == seen || (seen && id != want) {
				t.Fatalf("step %d: Insert(%q) = %d %v, want %d %v", step, k, id, added, want, !seen)
			}
			if !added {
				continue
			}
			wantID := int32(len(byID) + len(free))
			if n := len(free); n > 0 {
				wantID, free = free[n-1], free[:n-1]
			}
			if id != wantID {
				t.Fatalf("step %d: new key %q got id %d, want %d", step, k, id, wantID)
			}
			ref[k], byID[id] = id, k
		default:
			id, ok := ref[k]
			if !ok {
				continue
			}
			tab.Delete(id)
			delete(ref, k)
			delete(byID, id)
			free = append(free, id)
		}
	}
	// Most keys go at the end: their bytes must be compacted away.
	for k, id := range ref {
		if id%10 != 0 {
			tab.Delete(id)
			delete(ref, k)
			delete(byID, id)
			free = append(free, id)
		}
	}
	size := 0
	for id := range int32(tab.IDs()) {
		k, live := byID[id]
		if tab.Live(id) != live {
			t.Fatalf("Live(%d) = %v, want %v", id, tab.Live(id), live)
		}
		if live && string(tab.Key(id)) != k {
			t.Fatalf("Key(%d) = %q, want %q", id, tab.Key(id), k)
		}
		size += len(k)
	}
	if tab.Len() != len(ref) || tab.Bytes() != size || tab.IDs() != len(byID)+len(free) {
		t.Fatalf("%d keys of %d bytes under %d ids, want %d of %d under %d", tab.Len(), tab.Bytes(), tab.IDs(), len(ref), size, len(byID)+len(free))
	}
	ids := tab.SortedIDs(nil)
	if len(ids) != len(ref) || !slices.IsSortedFunc(ids, func(a, b int32) int { return strings.Compare(byID[a], byID[b]) }) {
		t.Fatalf("SortedIDs gives %d ids, want the %d keys' in order", len(ids), len(ref))
	}
	if len(tab.arena) > 2*size+compactFrom {
		t.Fatalf("the arena holds %d bytes for %d live ones: deleted keys were not compacted", len(tab.arena), size)
	}
}

// Deleting and adding keys without end keeps the table's slots bounded: tombstones are
// rehashed away instead of growing the table.
func TestTableTombstonesDoNotGrowIt(t *testing.T) {
	var tab Table
	for i := range 100000 {
		tab.Insert(fmt.Appendf(nil, "k%d", i))
		if i >= 10 {
			old, ok := tab.Find(fmt.Appendf(nil, "k%d", i-10))
			if !ok {
				t.Fatalf("key k%d lost", i-10)
			}
			tab.Delete(old)
		}
	}
	if tab.Len() != 10 || len(tab.slots) > 64 || tab.IDs() > 11 {
		t.Fatalf("%d keys in %d slots under %d ids", tab.Len(), len(tab.slots), tab.IDs())
	}
}

// The key a caller passes is copied: changing it afterwards changes nothing in the table.
func TestTableCopiesKeys(t *testing.T) {
	var tab Table
	k := []byte("abc")
	tab.Insert(k)
	k[0] = 'x'
	if _, ok := tab.Find([]byte("abc")); !ok || string(tab.Key(0)) != "abc" {
		t.Fatal("the table kept the caller's bytes")
	}
}

func BenchmarkTableInsert(b *testing.B) {
	keys := make([][]byte, 1<<16)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "key-%d", i*7919)
	}
	var tab Table
	b.ReportAllocs()
	for b.Loop() {
		tab.Reset()
		for _, k := range keys {
			tab.Insert(k)
		}
		for _, k := range keys {
			tab.Find(k)
		}
	}
}

func BenchmarkMapInsert(b *testing.B) {
	keys := make([][]byte, 1<<16)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "key-%d", i*7919)
	}
	b.ReportAllocs()
	for b.Loop() {
		m := map[string]int32{}
		for i, k := range keys {
			m[string(k)] = int32(i)
		}
		for _, k := range keys {
			_ = m[string(k)]
		}
	}
}
