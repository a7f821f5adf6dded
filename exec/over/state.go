package over

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/sluice-project/sluice/exec/stateblob"
)

// State format of one key group (integers little-endian):
//
//	magic "SLOV" | version u16 | keys u32 |
//	per key: key length u32, key row bytes, count u64, last triggering time i64,
//	         has cleanup u8, cleanup time i64, timers u32, timer times i64...,
//	         each call's accumulator (exec/agg's encoding),
//	         frame rows u32, per row: time i64, length u32, BinaryRowData bytes,
//	         pending times u32, per time (ascending): time i64, rows u32, per row: length u32, bytes |
//	CRC-32C of everything before, u32.
const (
	stateMagic   = "SLOV"
	stateVersion = 1
)

// Snapshot serializes key group kg's state (nil when it holds no keys), keys in sorted order.
func (o *Over) Snapshot(kg int) ([]byte, error) {
	m, err := o.group(kg)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, nil
	}
	le := binary.LittleEndian
	b := le.AppendUint32(stateblob.Header(stateMagic, stateVersion), uint32(len(m)))
	for _, key := range stateblob.SortedKeys(m) {
		k := m[key]
		b = stateblob.AppendBytes(b, []byte(key))
		b = le.AppendUint64(le.AppendUint64(b, uint64(k.count)), uint64(k.lastTriggering))
		cleanup := byte(0)
		if k.hasCleanup {
			cleanup = 1
		}
		b = le.AppendUint64(append(b, cleanup), uint64(k.cleanup))
		timers := make([]int64, 0, len(k.timers))
		for at := range k.timers {
			timers = append(timers, at)
		}
		slices.Sort(timers)
		b = le.AppendUint32(b, uint32(len(timers)))
		for _, at := range timers {
			b = le.AppendUint64(b, uint64(at))
		}
		for _, a := range o.accs {
			b = a.Encode(b, k.slot)
		}
		b = le.AppendUint32(b, uint32(len(k.window)))
		for _, r := range k.window {
			b = stateblob.AppendBytes(le.AppendUint64(b, uint64(r.ts)), r.row)
		}
		times := make([]int64, 0, len(k.pending))
		for ts := range k.pending {
			times = append(times, ts)
		}
		slices.Sort(times)
		b = le.AppendUint32(b, uint32(len(times)))
		for _, ts := range times {
			rows := k.pending[ts]
			b = le.AppendUint32(le.AppendUint64(b, uint64(ts)), uint32(len(rows)))
			for _, r := range rows {
				b = stateblob.AppendBytes(b, r.row)
			}
		}
	}
	return stateblob.Seal(b), nil
}

// Restore reads a key group's state written by Snapshot and registers its timers.
func (o *Over) Restore(kg int, blob []byte) error {
	if err := o.restore(kg, blob); err != nil {
		return fmt.Errorf("over aggregate state of key group %d: %w", kg, err)
	}
	return nil
}

func (o *Over) restore(kg int, blob []byte) error {
	m, err := o.group(kg)
	if err != nil {
		return err
	}
	r, _, err := stateblob.Open(blob, stateMagic, "over aggregate", stateVersion)
	if err != nil {
		return err
	}
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := string(r.Bytes())
		if _, dup := m[key]; dup {
			return fmt.Errorf("key %q twice", key)
		}
		k := o.newKey(m, key)
		k.count, k.lastTriggering = int64(r.U64()), int64(r.U64())
		k.hasCleanup, k.cleanup = r.U8() == 1, int64(r.U64())
		for t := r.U32(); t > 0 && r.OK(); t-- {
			o.register(k, kg, key, int64(r.U64()))
		}
		for _, a := range o.accs {
			r.Read(func(rest []byte) ([]byte, error) { return a.Decode(rest, k.slot) })
		}
		for w := r.U32(); w > 0 && r.OK(); w-- {
			ts := int64(r.U64())
			row := r.Bytes()
			k.window = append(k.window, stored{ts: ts, row: row})
			o.bytes += int64(len(row))
		}
		for p := r.U32(); p > 0 && r.OK(); p-- {
			ts := int64(r.U64())
			for c := r.U32(); c > 0 && r.OK(); c-- {
				row := r.Bytes()
				k.pending[ts] = append(k.pending[ts], stored{ts: ts, row: row})
				o.bytes += int64(len(row))
			}
		}
	}
	return r.End()
}
