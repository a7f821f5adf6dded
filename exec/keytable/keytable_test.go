package keytable

import (
	"fmt"
	"math/rand/v2"
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
