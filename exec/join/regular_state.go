package join

import (
	"encoding/binary"
	"fmt"

	"github.com/sluice-project/sluice/exec/stateblob"
)

// State format of one key group of a regular join (integers little-endian):
//
//	magic "SLRJ" | version u16 (3) | join type u8 | keys u32 | left layout u8 | right layout u8 |
//	per key: key length u32, key row bytes, null key u8,
//	         per input (left, right): rows u32,
//	                                  per row: count i32, associations i32,
//	                                           last write in epoch ms i64 (version 3),
//	                                           [unique key length u32, unique key row bytes: a UniqueKey side]
//	                                           length u32, BinaryRowData bytes |
//	CRC-32C of everything before, u32.
//
// Version 1 (joins of inputs that only insert) has no layouts, which are NoUniqueKey; rows of
// versions 1 and 2 restore as written at the restore.
const (
	regularStateMagic   = "SLRJ"
	regularStateVersion = 3
)

// Snapshot serializes the state of key group kg (which this subtask must own); nil when the
// key group holds nothing. Keys are written in sorted order, each input's rows in their order
// in state.
func (j *RegularJoin) Snapshot(kg int) ([]byte, error) {
	if !j.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("regular join snapshot: key group %d outside %v", kg, j.cfg.KeyGroups)
	}
	g := &j.groups[kg-j.cfg.KeyGroups.Start]
	if j.cfg.StateTTL[0].Enabled() || j.cfg.StateTTL[1].Enabled() {
		// Rows whose time to live has passed are dropped (Flink's cleanup of expired state).
		now := j.cfg.StateTTL[0].Now()
		for id := range int32(g.keys.IDs()) {
			if !g.keys.Live(id) {
				continue
			}
			k := &g.entries[id]
			if j.purge(k, now); k.empty() {
				j.dropKey(g, id)
			}
		}
		if j.store.needsCompaction() {
			j.store.compact(j.groups)
		}
	}
	if g.keys.Len() == 0 {
		return nil, nil
	}
	b := append(stateblob.Header(regularStateMagic, regularStateVersion), byte(j.cfg.Type))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.keys.Len()))
	b = append(b, byte(j.cfg.Layouts[0]), byte(j.cfg.Layouts[1]))
	for _, id := range g.keys.SortedIDs(nil) {
		k := &g.entries[id]
		b = append(stateblob.AppendBytes(b, g.keys.Key(id)), boolByte(k.nullKey))
		for side := range k.sides {
			l := &k.sides[side]
			b = binary.LittleEndian.AppendUint32(b, uint32(l.n))
			for i := range l.n {
				r := j.store.at(l, i)
				b = binary.LittleEndian.AppendUint32(b, uint32(r.count))
				b = binary.LittleEndian.AppendUint32(b, uint32(r.assoc))
				b = binary.LittleEndian.AppendUint64(b, uint64(r.written))
				if j.cfg.Layouts[side] == UniqueKey {
					b = stateblob.AppendBytes(b, j.store.identity(Side(side), r))
				}
				b = stateblob.AppendBytes(b, j.store.row(r))
			}
		}
	}
	return sealBlob(b), nil
}

// Restore reads a key group's state written by Snapshot.
func (j *RegularJoin) Restore(kg int, blob []byte) error {
	if err := j.restore(kg, blob); err != nil {
		return fmt.Errorf("regular join state of key group %d: %w", kg, err)
	}
	return nil
}

func (j *RegularJoin) restore(kg int, blob []byte) error {
	if !j.cfg.KeyGroups.Contains(kg) {
		return fmt.Errorf("key group outside %v", j.cfg.KeyGroups)
	}
	r, version, err := openBlob(blob, regularStateMagic, "regular join", j.cfg.Type, 1, regularStateVersion)
	if err != nil {
		return err
	}
	keys := r.U32()
	now := j.cfg.StateTTL[0].Now()
	layouts := [2]Layout{NoUniqueKey, NoUniqueKey}
	if version >= 2 {
		layouts = [2]Layout{Layout(r.U8()), Layout(r.U8())}
	}
	if r.OK() && layouts != j.cfg.Layouts {
		// Flink's state views would not read the other layout's state either.
		return fmt.Errorf("state kept by %s and %s restored into a join that keeps its inputs by %s and %s",
			layouts[0], layouts[1], j.cfg.Layouts[0], j.cfg.Layouts[1])
	}
	for n := keys; n > 0 && r.OK(); n-- {
		key := r.Bytes()
		if _, dup := j.groups[kg-j.cfg.KeyGroups.Start].keys.Find(key); dup {
			return fmt.Errorf("key %q twice", key)
		}
		_, k := j.key(kg, key, r.U8() == 1)
		for side := range k.sides {
			l := &k.sides[side]
			for m := r.U32(); m > 0 && r.OK(); m-- {
				a := Arrival{}
				count, assoc := int32(r.U32()), int32(r.U32())
				written := now
				if version >= 3 {
					written = int64(r.U64())
				}
				if layouts[side] == UniqueKey {
					a.UniqueKey = r.Take(int(r.U32()))
				}
				a.Row = r.Take(int(r.U32()))
				if !r.OK() {
					break
				}
				if count <= 0 || (count > 1 && layouts[side] != NoUniqueKey) {
					return fmt.Errorf("a row kept %d times on a side kept by %s", count, layouts[side])
				}
				if _, dup := j.store.find(Side(side), l, j.identity(Side(side), &a)); dup {
					return fmt.Errorf("a row kept twice on one side of a key")
				}
				j.addRecord(Side(side), l, &a, assoc)
				rec := j.store.at(l, l.n-1)
				rec.count, rec.written = count, written
			}
		}
	}
	return r.End()
}
