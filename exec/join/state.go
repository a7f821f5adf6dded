package join

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sort"
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

var (
	errTruncated = errors.New("truncated")
	castagnoli   = crc32.MakeTable(crc32.Castagnoli)
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
	b, keys := blobHeader(stateMagic, j.cfg.Type, g)
	for _, key := range keys {
		k := g[key]
		b = appendKey(b, key, k.nullKey)
		ends := make([]int64, 0, len(k.windows))
		for e := range k.windows {
			ends = append(ends, e)
		}
		sort.Slice(ends, func(x, y int) bool { return ends[x] < ends[y] })
		b = binary.LittleEndian.AppendUint32(b, uint32(len(ends)))
		for _, e := range ends {
			w := k.windows[e]
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
	r, err := openBlob(blob, stateMagic, "window join", j.cfg.Type)
	if err != nil {
		return err
	}
	g := j.group(kg)
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		key := string(r.bytes(int(r.u32())))
		k := &keyState{nullKey: r.byte() == 1, windows: map[int64]*windowRows{}}
		for w := r.u32(); w > 0 && r.err == nil; w-- {
			end := int64(r.u64())
			rows := &windowRows{}
			nl, nr := r.u32(), r.u32()
			for i := uint32(0); i < nl+nr && r.err == nil; i++ {
				row := r.bytes(int(r.u32()))
				if i < nl {
					rows.left = append(rows.left, row)
				} else {
					rows.right = append(rows.right, row)
				}
			}
			k.windows[end] = rows
			heap.Push(&j.timers, timer{end: end, kg: kg, key: key})
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
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the state", len(r.b))
	}
	return r.err
}

// blobHeader starts the state blob of a key group of a join: magic, version, join type and the
// number of keys; it returns the keys in sorted order, so that equal state gives equal bytes.
func blobHeader[V any](magic string, typ Type, g map[string]V) ([]byte, []string) {
	b := append([]byte(magic), 0, 0, byte(typ))
	binary.LittleEndian.PutUint16(b[4:], stateVersion)
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return binary.LittleEndian.AppendUint32(b, uint32(len(keys))), keys
}

// appendKey appends a key's length, its key row and whether it holds a NULL the join filters on.
func appendKey(b []byte, key string, nullKey bool) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(key)))
	b = append(b, key...)
	return append(b, boolByte(nullKey))
}

// sealBlob appends the blob's CRC-32C.
func sealBlob(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// openBlob checks a state blob's checksum, magic, version and join type and returns a reader
// of what follows the header's join type.
func openBlob(blob []byte, magic, what string, typ Type) (reader, error) {
	body, err := checkedBody(blob, magic, what)
	if err != nil {
		return reader{}, err
	}
	if t := Type(body[6]); t != typ {
		return reader{}, fmt.Errorf("state of a %s join restored into a join of type %s", t, typ)
	}
	return reader{b: body[7:]}, nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// reader reads a state blob; the first error sticks and later reads return zeros.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || len(r.b) < n {
		if r.err == nil {
			r.err = errTruncated
		}
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

// bytes returns a copy, so that restored rows do not pin the blob.
func (r *reader) bytes(n int) []byte {
	return append([]byte(nil), r.take(n)...)
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
