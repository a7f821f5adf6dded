package join

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/sluice-project/sluice/exec/stateblob"
)

// State format of one key group (integers little-endian):
//
//	magic "SLWJ" | version u16 | join type u8 | keys u32 |
//	per key: key length u32, key row bytes, null key u8, windows u32,
//	         per window: end i64, left rows u32, right rows u32,
//	                     per row: length u32, BinaryRowData bytes |
//	CRC-32C of everything before, u32.
//
// Every window with rows has its timer, so timers are not stored: a restore registers them.
const (
	stateMagic   = "SLWJ"
	stateVersion = 1
)

// Snapshot serializes the state of key group kg (which this subtask must own); nil when the
// key group holds no rows. Keys and windows are written in sorted order, so equal state gives
// equal bytes.
func (j *WindowJoin) Snapshot(kg int) ([]byte, error) {
	if !j.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("window join snapshot: key group %d outside %v", kg, j.cfg.KeyGroups)
	}
	g := j.groups[kg-j.cfg.KeyGroups.Start]
	if len(g) == 0 {
		return nil, nil
	}
	b, keys := blobHeader(stateMagic, stateVersion, j.cfg.Type, g)
	for _, key := range keys {
		k := g[key]
		b = appendKey(b, key, k.nullKey)
		ws := slices.Clone(k.windows)
		slices.SortFunc(ws, func(x, y keyWindow) int { return cmp.Compare(x.end, y.end) })
		b = binary.LittleEndian.AppendUint32(b, uint32(len(ws)))
		for _, kw := range ws {
			e, w := kw.end, &kw.rows
			b = binary.LittleEndian.AppendUint64(b, uint64(e))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(w.left)))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(w.right)))
			for _, rows := range [][][]byte{w.left, w.right} {
				for _, r := range rows {
					b = binary.LittleEndian.AppendUint32(b, uint32(len(r)))
					b = append(b, r...)
				}
			}
		}
	}
	return sealBlob(b), nil
}

// Restore reads a key group's state written by Snapshot and registers its windows' timers.
func (j *WindowJoin) Restore(kg int, blob []byte) error {
	if err := j.restore(kg, blob); err != nil {
		return fmt.Errorf("window join state of key group %d: %w", kg, err)
	}
	return nil
}

func (j *WindowJoin) restore(kg int, blob []byte) error {
	if !j.cfg.KeyGroups.Contains(kg) {
		return fmt.Errorf("key group outside %v", j.cfg.KeyGroups)
	}
	r, _, err := openBlob(blob, stateMagic, "window join", j.cfg.Type, stateVersion)
	if err != nil {
		return err
	}
	g := j.group(kg)
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := string(r.Bytes())
		k := &keyState{nullKey: r.U8() == 1}
		for w := r.U32(); w > 0 && r.OK(); w-- {
			end := int64(r.U64())
			if k.window(end) >= 0 {
				return fmt.Errorf("key %q holds the window ending at %d twice", key, end)
			}
			rows := windowRows{}
			nl, nr := r.U32(), r.U32()
			for i := uint32(0); i < nl+nr && r.OK(); i++ {
				row := r.Bytes()
				if i < nl {
					rows.left = append(rows.left, row)
				} else {
					rows.right = append(rows.right, row)
				}
			}
			k.windows = append(k.windows, keyWindow{end: end, rows: rows})
			j.timers.Add(timer{At: end, KeyGroup: kg, Key: key})
			for _, side := range [][][]byte{rows.left, rows.right} {
				for _, r := range side {
					j.bytes += int64(len(r))
				}
			}
		}
		if _, ok := g[key]; !ok {
			j.keys++
			j.bytes += int64(len(key))
		}
		g[key] = k
	}
	return r.End()
}

// blobHeader starts the state blob of a key group of a join: magic, version, join type and the
// number of keys; it returns the keys in sorted order, so that equal state gives equal bytes.
func blobHeader[V any](magic string, version uint16, typ Type, g map[string]V) ([]byte, []string) {
	keys := stateblob.SortedKeys(g)
	b := append(stateblob.Header(magic, version), byte(typ))
	return binary.LittleEndian.AppendUint32(b, uint32(len(keys))), keys
}

// appendKey appends a key's length, its key row and whether it holds a NULL the join filters on.
func appendKey(b []byte, key string, nullKey bool) []byte {
	return append(stateblob.AppendBytes(b, []byte(key)), boolByte(nullKey))
}

// sealBlob appends the blob's CRC-32C.
func sealBlob(b []byte) []byte { return stateblob.Seal(b) }

// openBlob checks a state blob's checksum, magic, version (one of versions) and join type and
// returns a reader of what follows the header's join type, and the blob's version.
func openBlob(blob []byte, magic, what string, typ Type, versions ...uint16) (*stateblob.Reader, uint16, error) {
	r, version, err := stateblob.Open(blob, magic, what, versions...)
	if err != nil {
		return nil, 0, err
	}
	t := Type(r.U8())
	if !r.OK() {
		return nil, 0, stateblob.ErrTruncated
	}
	if t != typ {
		return nil, 0, fmt.Errorf("state of a %s join restored into a join of type %s", t, typ)
	}
	return r, version, nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
