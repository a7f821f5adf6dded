package bundle

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/sluice-project/sluice/javacompat/javahash"
)

// bucket is the bucket of a key row in a java.util.HashMap of capacity n.
func bucket(key []byte, n int32) int32 {
	h := javahash.Bytes(key)
	return (h ^ int32(uint32(h)>>16)) & (n - 1)
}

// keysInBuckets returns count distinct keys that fall into distinct buckets of a map of
// capacity n, in the order of their buckets.
func keysInBuckets(count int, n int32) [][]byte {
	seen := map[int32]bool{}
	var keys [][]byte
	for i := 0; len(keys) < count; i++ {
		k := []byte(fmt.Sprintf("key-%d", i))
		if b := bucket(k, n); !seen[b] {
			seen[b] = true
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b []byte) int { return int(bucket(a, n) - bucket(b, n)) })
	return keys
}

func TestBundleTriggerAndKeys(t *testing.T) {
	b, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range []string{"x", "y", "x", "z"} {
		n, full := b.Add([]byte(k))
		got = append(got, fmt.Sprint(n, full))
	}
	if want := []string{"0 false", "1 false", "0 true", "2 true"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Add: got %q, want %q", got, want)
	}
	if b.Keys() != 3 || b.Rows() != 4 || string(b.Key(2)) != "z" {
		t.Errorf("keys %d, rows %d, key 2 %q", b.Keys(), b.Rows(), b.Key(2))
	}
	b.Clear()
	if n, full := b.Add([]byte("z")); n != 0 || full || b.Rows() != 1 {
		t.Errorf("after Clear: key %d, full %v, rows %d", n, full, b.Rows())
	}
	if _, err := New(0); err == nil {
		t.Error("New(0): no error")
	}
}

// A bundle's keys come out in bucket order, and a map that grew keeps its capacity after a
// clear (HashMap#clear), so the next bundle iterates by the larger table's buckets.
func TestBundleOrderKeepsCapacity(t *testing.T) {
	b, _ := New(1000)
	keys := keysInBuckets(5, 16)
	for i := len(keys) - 1; i >= 0; i-- {
		b.Add(keys[i])
	}
	var got [][]byte
	for _, k := range b.Order(nil) {
		got = append(got, slices.Clone(b.Key(k)))
	}
	if !reflect.DeepEqual(got, keys) {
		t.Errorf("order %q, want the buckets' %q", got, keys)
	}
	// 13 keys pass the threshold of 16 buckets (12): the table grows to 32.
	for i := 0; i < 13; i++ {
		b.Add([]byte(fmt.Sprintf("fill-%d", i)))
	}
	b.Clear()
	wide := keysInBuckets(5, 32)
	for i := len(wide) - 1; i >= 0; i-- {
		b.Add(wide[i])
	}
	got = got[:0]
	for _, k := range b.Order(nil) {
		got = append(got, slices.Clone(b.Key(k)))
	}
	if !reflect.DeepEqual(got, wide) {
		t.Errorf("after a clear: order %q, want the 32 buckets' %q", got, wide)
	}
}
