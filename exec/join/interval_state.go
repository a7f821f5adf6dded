package join

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sort"
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
	b := append([]byte(intervalStateMagic), 0, 0, byte(j.cfg.Type))
	binary.LittleEndian.PutUint16(b[4:], stateVersion)
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, key := range keys {
		k := g[key]
		b = binary.LittleEndian.AppendUint32(b, uint32(len(key)))
		b = append(b, key...)
		b = append(b, boolByte(k.nullKey))
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
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
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
	body, err := checkedBody(blob, intervalStateMagic, "interval join")
	if err != nil {
		return err
	}
	if t := Type(body[6]); t != j.cfg.Type {
		return fmt.Errorf("state of a %s interval join restored into one of type %s", t, j.cfg.Type)
	}
	r := reader{b: body[7:]}
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		key := r.bytes(int(r.u32()))
		k := j.key(kg, key, r.byte() == 1)
		for side := range k.caches {
			set, at := r.byte() == 1, int64(r.u64())
			for t := r.u32(); t > 0 && r.err == nil; t-- {
				tr := newTimeRows(int64(r.u64()))
				for i := r.u32(); i > 0 && r.err == nil; i-- {
					tr.joined = append(tr.joined, r.byte() == 1)
					row := r.bytes(int(r.u32()))
					tr.rows = append(tr.rows, row)
					j.bytes += int64(len(row))
				}
				k.caches[side] = append(k.caches[side], tr)
			}
			if set {
				k.timer[side], k.hasTimer[side] = at, true
				heap.Push(&j.timers, timer{end: at, kg: kg, key: string(key)})
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the state", len(r.b))
	}
	return r.err
}

// checkedBody checks a state blob's checksum, magic and version and returns it without its
// checksum.
func checkedBody(blob []byte, magic, what string) ([]byte, error) {
	if len(blob) < len(magic)+3+4+4 {
		return nil, errTruncated
	}
	body, sum := blob[:len(blob)-4], binary.LittleEndian.Uint32(blob[len(blob)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, errors.New("checksum mismatch")
	}
	if string(body[:4]) != magic {
		return nil, fmt.Errorf("not %s state (magic %q)", what, body[:4])
	}
	if v := binary.LittleEndian.Uint16(body[4:]); v != stateVersion {
		return nil, fmt.Errorf("state version %d, this build reads %d", v, stateVersion)
	}
	return body, nil
}
