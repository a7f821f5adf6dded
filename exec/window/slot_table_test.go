package window

import (
	"encoding/binary"
	"math/rand"
	"testing"
)

// TestSlotTable16 checks the slot table against a Go map over keys that differ in either word,
// slice ends that collide with keys, growth past several doublings, slices opened before and
// after new keys, and reuse after reset (keys kept, groups gone).
func TestSlotTable16(t *testing.T) {
	type slot struct {
		key [16]byte
		end int64
	}
	tests := []struct {
		name   string
		keys   int
		ends   int
		rounds int
	}{
		{"one key many ends", 1, 5000, 1},
		{"many keys one end", 20000, 1, 1},
		{"keys x ends, reset between rounds", 3000, 7, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rnd := rand.New(rand.NewSource(int64(tc.keys)))
			tab := newSlotTable16()
			for round := 0; round < tc.rounds; round++ {
				want := map[slot]int32{}
				var next int32
				for n := 0; n < 4*tc.keys*tc.ends; n++ {
					var s slot
					k := rnd.Intn(tc.keys)
					// Half the keys differ in the header word only (null bit patterns).
					binary.LittleEndian.PutUint64(s.key[0:8], uint64(k%2)<<8)
					binary.LittleEndian.PutUint64(s.key[8:16], uint64(k/2))
					s.end = int64(rnd.Intn(tc.ends)) * 10_000
					g, at := tab.find(s.key[:], s.end)
					w, ok := want[s]
					switch {
					case !ok && g >= 0:
						t.Fatalf("round %d: %v found as group %d before it was inserted", round, s, g)
					case ok && g != w:
						t.Fatalf("round %d: %v found as group %d, want %d", round, s, g, w)
					case !ok:
						want[s] = next
						tab.insert(at, next)
						next++
					}
				}
				keys := map[[16]byte]bool{}
				for s := range want {
					keys[s.key] = true
				}
				if int(tab.nkeys) < len(keys) || int(tab.nkeys) > tc.keys {
					t.Fatalf("round %d: %d keys, want %d to %d", round, tab.nkeys, len(keys), tc.keys)
				}
				tab.reset()
				if len(tab.slices) != 0 {
					t.Fatalf("after reset: %d open slices", len(tab.slices))
				}
			}
		})
	}
}

// TestSlotTable16ComparesWholeEntries puts a key that differs from the looked-up one in one word
// only (the header or the value) in the looked-up key's home entry, or gives the key a group in
// another slice only: the lookup must not take that group.
func TestSlotTable16ComparesWholeEntries(t *testing.T) {
	key := func(k0, k1 uint64) []byte {
		b := make([]byte, 16)
		binary.LittleEndian.PutUint64(b[0:8], k0)
		binary.LittleEndian.PutUint64(b[8:16], k1)
		return b
	}
	want := key(1<<8, 42)
	for _, other := range []struct {
		name string
		key  []byte
		end  int64
	}{
		{"header word", key(0, 42), 10},
		{"value word", key(1<<8, 43), 10},
		{"slice end", want, 20},
	} {
		tab := newSlotTable16()
		home := int(hashKey16(1<<8, 42) >> tab.shift)
		tab.keys[home] = keyEntry16{
			k0: binary.LittleEndian.Uint64(other.key[0:8]), k1: binary.LittleEndian.Uint64(other.key[8:16]), id: 1,
		}
		tab.nkeys = 1
		tab.insert(slotRef{slice: tab.slice(other.end), id: 0}, 7)
		if g, _ := tab.find(want, 10); g >= 0 {
			t.Errorf("%s differs: found group %d", other.name, g)
		}
	}
}

// TestSlotTable16DropsManyKeys checks that a reset keeps up to maxKeptKeys keys and drops
// (and shrinks back from) more.
func TestSlotTable16DropsManyKeys(t *testing.T) {
	tab := newSlotTable16()
	var k [16]byte
	for i := 0; i <= maxKeptKeys; i++ {
		binary.LittleEndian.PutUint64(k[8:16], uint64(i))
		g, at := tab.find(k[:], 0)
		if g >= 0 {
			t.Fatalf("key %d found before insert", i)
		}
		tab.insert(at, int32(i))
		if i == maxKeptKeys-1 {
			tab.reset()
			if int(tab.nkeys) != maxKeptKeys {
				t.Fatalf("reset with %d keys kept %d", maxKeptKeys, tab.nkeys)
			}
		}
	}
	tab.reset()
	if tab.nkeys != 0 || len(tab.keys) != 1<<initialKeyBits {
		t.Fatalf("reset with %d keys: %d kept, %d entries", maxKeptKeys+1, tab.nkeys, len(tab.keys))
	}
}
