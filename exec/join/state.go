package join

import (
	"bytes"
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
	// The key group's entries of every window, windows in order of their ends; then by key.
	type kept struct {
		w *joinWindow
		e int32
	}
	var all []kept
	for _, w := range j.windows {
		order := w.sortedEntries()
		from, _ := slices.BinarySearchFunc(order, int32(kg), func(e, kg int32) int { return cmp.Compare(w.entries[e].keyGroup, kg) })
		for _, e := range order[from:] {
			if w.entries[e].keyGroup != int32(kg) {
				break
			}
			all = append(all, kept{w, e})
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(all, func(a, b kept) int { return bytes.Compare(a.w.keys.Key(a.e), b.w.keys.Key(b.e)) })
	keys := 0
	for i := range all {
		if i == 0 || !bytes.Equal(all[i].w.keys.Key(all[i].e), all[i-1].w.keys.Key(all[i-1].e)) {
			keys++
		}
	}
	b := append(stateblob.Header(stateMagic, stateVersion), byte(j.cfg.Type))
	b = binary.LittleEndian.AppendUint32(b, uint32(keys))
	var lefts, rights [][]byte
	for i := 0; i < len(all); {
		key := all[i].w.keys.Key(all[i].e)
		n := 1
		for i+n < len(all) && bytes.Equal(all[i+n].w.keys.Key(all[i+n].e), key) {
			n++
		}
		b = appendKey(b, string(key), all[i].w.entries[all[i].e].nullKey)
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
		for _, k := range all[i : i+n] {
			lefts, rights = k.w.rowsOf(lefts[:0], k.e, LeftSide), k.w.rowsOf(rights[:0], k.e, RightSide)
			b = binary.LittleEndian.AppendUint64(b, uint64(k.w.end))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(lefts)))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(rights)))
			for _, rows := range [][][]byte{lefts, rights} {
				for _, r := range rows {
					b = binary.LittleEndian.AppendUint32(b, uint32(len(r)))
					b = append(b, r...)
				}
			}
		}
		i += n
	}
	return sealBlob(b), nil
}

// Restore reads a key group's state written by Snapshot.
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
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := r.Bytes()
		nullKey := r.U8() == 1
		for windows := r.U32(); windows > 0 && r.OK(); windows-- {
			w := j.window(int64(r.U64()))
			e, added, err := w.entry(kg, key, nullKey)
			if err != nil {
				return err
			}
			if !added {
				return fmt.Errorf("key %q holds the window ending at %d twice", key, w.end)
			}
			j.keys++
			j.bytes += int64(len(key))
			nl, nr := r.U32(), r.U32()
			for i := uint32(0); i < nl+nr && r.OK(); i++ {
				row := r.Bytes()
				side := LeftSide
				if i >= nl {
					side = RightSide
				}
				w.add(e, side, row)
				j.bytes += int64(len(row))
			}
		}
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
