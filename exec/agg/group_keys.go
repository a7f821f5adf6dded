package agg

import "github.com/sluice-project/sluice/exec/keytable"

// groupKeys maps one key group's keys (their key rows) to their slots of a group aggregation's
// accumulators, with nothing per key for the Go collector to allocate or trace.
type groupKeys struct {
	table keytable.Table
	slots []int32 // per key id
}

// slot returns the slot of key, giving a new key the slot alloc returns.
func (k *groupKeys) slot(key []byte, alloc func() int32) (s int32, found bool) {
	id, added := k.table.Insert(key)
	if !added {
		return k.slots[id], true
	}
	s = alloc()
	if int(id) == len(k.slots) {
		k.slots = append(k.slots, s)
	} else {
		k.slots[id] = s
	}
	return s, false
}

// remove forgets key.
func (k *groupKeys) remove(key []byte) {
	if id, ok := k.table.Find(key); ok {
		k.table.Delete(id)
	}
}
