package join

import (
	"encoding/binary"
	"fmt"

	"github.com/sluice-project/sluice/exec/keytimer"
)

// State format of one key group of an interval join (integers little-endian):
//
//	magic "SLIJ" | version u16 | join type u8 | keys u32 |
//	per key: key length u32, key row bytes, null key u8,
//	         per input (left, right): timer set u8, timer i64, times u32,
//	                                  per time: time i64, rows u32,
//	                                            per row: joined u8, length u32, BinaryRowData bytes |
//	CRC-32C of everything before, u32.
//
// A restore registers the keys' timers again. The subtask-wide expiration times are not state,
// as in Flink: a restored join starts them at 0.
const intervalStateMagic = "SLIJ"

// Snapshot serializes the state of key group kg (which this subtask must own); nil when the
// key group holds nothing. Keys are written in sorted order, so equal state gives equal bytes.
func (j *IntervalJoin) Snapshot(kg int) ([]byte, error) {
	if !j.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("interval join snapshot: key group %d outside %v", kg, j.cfg.KeyGroups)
	}
	g := j.groups[kg-j.cfg.KeyGroups.Start]
	if len(g) == 0 {
		return nil, nil
	}
	b, keys := blobHeader(intervalStateMagic, stateVersion, j.cfg.Type, g)
	for _, key := range keys {
		k := g[key]
		b = appendKey(b, key, k.nullKey)
		for side := range k.caches {
			b = append(b, boolByte(k.hasTimer[side]))
			b = binary.LittleEndian.AppendUint64(b, uint64(k.timer[side]))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(k.caches[side])))
			for _, tr := range k.caches[side] {
				b = binary.LittleEndian.AppendUint64(b, uint64(tr.time))
				b = binary.LittleEndian.AppendUint32(b, uint32(len(tr.rows)))
				for i, r := range tr.rows {
					b = append(b, boolByte(tr.joined[i]))
					b = binary.LittleEndian.AppendUint32(b, uint32(len(r)))
					b = append(b, r...)
				}
			}
		}
	}
	return sealBlob(b), nil
}

// Restore reads a key group's state written by Snapshot and registers its keys' timers.
func (j *IntervalJoin) Restore(kg int, blob []byte) error {
	if err := j.restore(kg, blob); err != nil {
		return fmt.Errorf("interval join state of key group %d: %w", kg, err)
	}
	return nil
}

func (j *IntervalJoin) restore(kg int, blob []byte) error {
	if !j.cfg.KeyGroups.Contains(kg) {
		return fmt.Errorf("key group outside %v", j.cfg.KeyGroups)
	}
	r, _, err := openBlob(blob, intervalStateMagic, "interval join", j.cfg.Type, stateVersion)
	if err != nil {
		return err
	}
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := r.Bytes()
		k := j.key(kg, key, r.U8() == 1)
		for side := range k.caches {
			set, at := r.U8() == 1, int64(r.U64())
			for t := r.U32(); t > 0 && r.OK(); t-- {
				tr := newTimeRows(int64(r.U64()))
				for i := r.U32(); i > 0 && r.OK(); i-- {
					tr.joined = append(tr.joined, r.U8() == 1)
					row := r.Bytes()
					tr.rows = append(tr.rows, row)
					j.bytes += int64(len(row))
				}
				k.caches[side] = append(k.caches[side], tr)
			}
			if set {
				k.timer[side], k.hasTimer[side] = at, true
				j.timers.Add(keytimer.Timer{At: at, KeyGroup: kg, Key: string(key)})
			}
		}
	}
	return r.End()
}
