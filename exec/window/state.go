package window

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
)

// State format of one key group (all integers little-endian):
//
//	magic "SLWA" | version u16 | spec fingerprint u32 | keys u32 |
//	per key: key length u32, key row bytes, slices u32,
//	         per slice: end i64, then each aggregate's accumulator;
//	         timers u32, per timer: window end i64 |
//	CRC-32C of everything before, u32.
//
// The fingerprint covers the window and the aggregates' types, so state cannot be restored
// into a different aggregation by mistake.
const (
	stateMagic = "SLWA"
	// Version 2: distinct sets start with a byte for the kind of their values.
	stateVersion = 2
)

var (
	errTruncated = errors.New("truncated")
	castagnoli   = crc32.MakeTable(crc32.Castagnoli)
)

func (o *Operator) fingerprint() uint32 { return fingerprint(o.spec) }

// fingerprint covers a spec's window, zone, key types and aggregates.
func fingerprint(spec Spec) uint32 {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|", spec.Assigner, spec.Zone)
	for _, t := range spec.KeyTypes {
		fmt.Fprintf(&b, "%s,", t)
	}
	for _, c := range spec.Calls {
		fmt.Fprintf(&b, "|%s(%v %s):%s", c.Func, c.Distinct, c.Arg, c.Result)
	}
	return crc32.Checksum([]byte(b.String()), castagnoli)
}

// Snapshot serializes the state of key group kg (which this subtask must own). A key group
// without state gives nil.
func (o *Operator) Snapshot(kg int) ([]byte, error) {
	if !o.spec.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("window aggregate snapshot: key group %d outside %v", kg, o.spec.KeyGroups)
	}
	// Flink flushes the window buffer before the barrier; nothing arrives in between.
	o.flush()
	m := o.keys[kg-o.spec.KeyGroups.Start]
	if len(m) == 0 {
		return nil, nil
	}
	b := append([]byte(stateMagic), 0, 0)
	binary.LittleEndian.PutUint16(b[4:], stateVersion)
	b = binary.LittleEndian.AppendUint32(b, o.fingerprint())
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m)))
	for _, ks := range m {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(ks.key)))
		b = append(b, ks.key...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(ks.slices)))
		for _, s := range ks.slices {
			b = binary.LittleEndian.AppendUint64(b, uint64(s.end))
			for _, acc := range o.accs {
				b = acc.Encode(b, s.g)
			}
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(len(ks.timers)))
		for _, t := range ks.timers {
			b = binary.LittleEndian.AppendUint64(b, uint64(t))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// Restore loads the state of key group kg written by Snapshot. It fails, without changing the
// operator, on a blob that is corrupt, truncated, of another version or of another aggregation.
func (o *Operator) Restore(kg int, blob []byte) error {
	if err := o.restore(kg, blob); err != nil {
		return fmt.Errorf("window aggregate restore of key group %d (%d bytes): %w", kg, len(blob), err)
	}
	return nil
}

func (o *Operator) restore(kg int, blob []byte) error {
	if !o.spec.KeyGroups.Contains(kg) {
		return fmt.Errorf("key group outside this subtask's %v", o.spec.KeyGroups)
	}
	if len(blob) == 0 {
		return nil
	}
	if len(blob) < 4+2+4+4+4 || string(blob[:4]) != stateMagic {
		return errors.New("not Sluice window state (bad magic or too short)")
	}
	body, sum := blob[:len(blob)-4], binary.LittleEndian.Uint32(blob[len(blob)-4:])
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return fmt.Errorf("checksum mismatch (stored %08x, computed %08x)", sum, got)
	}
	v := binary.LittleEndian.Uint16(body[4:])
	if v != stateVersion && v != 1 {
		return fmt.Errorf("state version %d, this library reads 1 and %d", v, stateVersion)
	}
	// Version 1 wrote distinct sets without their kind byte.
	for _, a := range o.accs {
		if d, ok := a.(interface{ setUnmarked(bool) }); ok {
			d.setUnmarked(v == 1)
			defer d.setUnmarked(false)
		}
	}
	if fp := binary.LittleEndian.Uint32(body[6:]); fp != o.fingerprint() {
		return errors.New("state was written by a different window aggregation (window, keys or aggregates changed)")
	}
	m := o.keys[kg-o.spec.KeyGroups.Start]
	// Decode into fresh key states first, so that a bad blob leaves the operator untouched.
	var restored []*keyState
	var groups []int32
	fail := func(err error) error {
		for _, g := range groups {
			o.freeGroup(g)
		}
		return err
	}
	src := body[10:]
	nkeys, src, err := readU32(src)
	if err != nil {
		return err
	}
	for k := uint32(0); k < nkeys; k++ {
		var klen uint32
		if klen, src, err = readU32(src); err != nil {
			return fail(err)
		}
		if uint32(len(src)) < klen {
			return fail(fmt.Errorf("key %d: %w", k, errTruncated))
		}
		ks := &keyState{key: string(src[:klen]), kg: int32(kg)}
		src = src[klen:]
		if _, dup := m[ks.key]; dup {
			return fail(fmt.Errorf("key %d restored twice", k))
		}
		var ns uint32
		if ns, src, err = readU32(src); err != nil {
			return fail(err)
		}
		for s := uint32(0); s < ns; s++ {
			var end uint64
			if len(src) < 8 {
				return fail(fmt.Errorf("key %d slice %d: %w", k, s, errTruncated))
			}
			end, src = binary.LittleEndian.Uint64(src), src[8:]
			g := o.newGroup()
			groups = append(groups, g)
			for i, acc := range o.accs {
				if src, err = acc.Decode(src, g); err != nil {
					return fail(fmt.Errorf("key %d slice %d aggregate %d: %w", k, s, i, err))
				}
			}
			ks.slices = append(ks.slices, slot{int64(end), g})
		}
		var nt uint32
		if nt, src, err = readU32(src); err != nil {
			return fail(err)
		}
		if uint64(len(src)) < 8*uint64(nt) {
			return fail(fmt.Errorf("key %d timers: %w", k, errTruncated))
		}
		for t := uint32(0); t < nt; t++ {
			ks.timers = append(ks.timers, int64(binary.LittleEndian.Uint64(src)))
			src = src[8:]
		}
		restored = append(restored, ks)
	}
	if len(src) != 0 {
		return fail(fmt.Errorf("%d bytes after the last key", len(src)))
	}
	for _, ks := range restored {
		m[ks.key] = ks
		for _, end := range ks.timers {
			o.seq++
			heap.Push(&o.timers, timer{end: end, seq: o.seq, ks: ks})
		}
	}
	return nil
}

func readU32(src []byte) (uint32, []byte, error) {
	if len(src) < 4 {
		return 0, nil, errTruncated
	}
	return binary.LittleEndian.Uint32(src), src[4:], nil
}
