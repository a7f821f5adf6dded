package join

import (
	"encoding/binary"
	"fmt"
)

// State format of one key group of a regular join (integers little-endian):
//
//	magic "SLRJ" | version u16 | join type u8 | keys u32 |
//	per key: key length u32, key row bytes, null key u8,
//	         per input (left, right): rows u32,
//	                                  per row: count i32, associations i32, length u32, BinaryRowData bytes |
//	CRC-32C of everything before, u32.
const regularStateMagic = "SLRJ"

// Snapshot serializes the state of key group kg (which this subtask must own); nil when the
// key group holds nothing. Keys are written in sorted order, each input's rows in the order they
// first came.
func (j *RegularJoin) Snapshot(kg int) ([]byte, error) {
	if !j.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("regular join snapshot: key group %d outside %v", kg, j.cfg.KeyGroups)
	}
	g := j.groups[kg-j.cfg.KeyGroups.Start]
	if len(g) == 0 {
		return nil, nil
	}
	b, keys := blobHeader(regularStateMagic, j.cfg.Type, g)
	for _, key := range keys {
		k := g[key]
		b = appendKey(b, key, k.nullKey)
		for _, s := range k.sides {
			b = binary.LittleEndian.AppendUint32(b, uint32(len(s.recs)))
			for _, r := range s.recs {
				b = binary.LittleEndian.AppendUint32(b, uint32(r.count))
				b = binary.LittleEndian.AppendUint32(b, uint32(r.assoc))
				b = binary.LittleEndian.AppendUint32(b, uint32(len(r.row)))
				b = append(b, r.row...)
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
	r, err := openBlob(blob, regularStateMagic, "regular join", j.cfg.Type)
	if err != nil {
		return err
	}
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := r.Bytes()
		k, err := j.key(kg, key, r.U8() == 1)
		if err != nil {
			return err
		}
		for side := range k.sides {
			for m := r.U32(); m > 0 && r.OK(); m-- {
				count, assoc := int32(r.U32()), int32(r.U32())
				row := r.Take(int(r.U32()))
				if !r.OK() {
					break
				}
				if count <= 0 {
					return fmt.Errorf("a row kept %d times", count)
				}
				if _, dup := k.sides[side].index[string(row)]; dup {
					return fmt.Errorf("a row kept twice on one side of a key")
				}
				j.addRecord(&k.sides[side], row, assoc).count = count
			}
		}
	}
	return r.End()
}
