package window

import (
	"encoding/binary"
	"math/rand"
	"testing"
)

// TestSlotTable16 checks the slot table against a Go map over keys that differ in either word,
// slice ends that collide with keys, growth past several doublings and reuse after reset.
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
						tab.insert(at, s.key[:], s.end, next)
						next++
					}
				}
				if tab.used != len(want) {
					t.Fatalf("round %d: %d entries used, want %d", round, tab.used, len(want))
				}
				tab.reset()
				if tab.used != 0 {
					t.Fatalf("after reset: %d entries used", tab.used)
				}
			}
		})
	}
}

// TestSlotTable16ComparesWholeEntries puts an entry that differs from the looked-up one in one
// part only (the header word, the value word or the slice end) in its home entry: the lookup
// must go past it.
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
		_, home := tab.find(want, 10)
		tab.insert(home, other.key, other.end, 7)
		if g, _ := tab.find(want, 10); g >= 0 {
			t.Errorf("%s differs: found group %d", other.name, g)
		}
	}
}
