// Package stateblob is the frame of the state blobs native operators write into Flink's raw
// keyed state, one per key group: a 4-byte magic naming the operator, a u16 version, the
// operator's body, and a CRC-32C of everything before it (integers little-endian). Writers
// start with Header and end with Seal; Open checks a blob and reads its body.
package stateblob

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"sort"
)

// ErrTruncated reports a blob that ends before its body does.
var ErrTruncated = errors.New("truncated")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header starts a blob: its magic and version.
func Header(magic string, version uint16) []byte {
	return binary.LittleEndian.AppendUint16([]byte(magic), version)
}

// Seal appends the CRC-32C of the blob so far.
func Seal(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// AppendBytes appends a u32 length and the bytes.
func AppendBytes(b, v []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(v))), v...)
}

// SortedKeys returns a key group's keys in order, so that equal state gives equal bytes.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Open checks a blob's checksum, magic (what names the operator in errors) and version, which
// must be one of versions, and returns a reader of its body and the version.
func Open(blob []byte, magic, what string, versions ...uint16) (*Reader, uint16, error) {
	if len(blob) < len(magic)+2+4 {
		return nil, 0, ErrTruncated
	}
	body, sum := blob[:len(blob)-4], binary.LittleEndian.Uint32(blob[len(blob)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, 0, errors.New("checksum mismatch")
	}
	if string(body[:len(magic)]) != magic {
		return nil, 0, fmt.Errorf("not %s state (magic %q)", what, body[:len(magic)])
	}
	v := binary.LittleEndian.Uint16(body[len(magic):])
	if !slices.Contains(versions, v) {
		return nil, 0, fmt.Errorf("state version %d, this build reads %v", v, versions)
	}
	return &Reader{rest: body[len(magic)+2:]}, v, nil
}

// Reader reads a blob's body. The first error sticks: later reads return zeros.
type Reader struct {
	rest []byte
	err  error
}

// OK says whether every read so far succeeded.
func (r *Reader) OK() bool { return r.err == nil }

// Fail records an error of the body's content (the first one sticks).
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// End returns the first error, or one for bytes left after the body.
func (r *Reader) End() error {
	if r.err == nil && len(r.rest) != 0 {
		r.err = fmt.Errorf("%d bytes after the state", len(r.rest))
	}
	return r.err
}

// Read lets a decoder of its own format read on: f gets the rest of the body and returns what
// it left unread (an error sticks).
func (r *Reader) Read(f func(rest []byte) ([]byte, error)) {
	if r.err != nil {
		return
	}
	rest, err := f(r.rest)
	if err != nil {
		r.Fail(err)
		return
	}
	r.rest = rest
}

// Take returns the next n bytes (a view of the blob).
func (r *Reader) Take(n int) []byte {
	if r.err != nil || n < 0 || len(r.rest) < n {
		r.Fail(ErrTruncated)
		return nil
	}
	out := r.rest[:n:n]
	r.rest = r.rest[n:]
	return out
}

// Copy returns a copy of the next n bytes, so that restored state does not pin the blob.
func (r *Reader) Copy(n int) []byte { return append([]byte(nil), r.Take(n)...) }

// Bytes reads a u32 length and returns a copy of that many bytes.
func (r *Reader) Bytes() []byte { return r.Copy(int(r.U32())) }

// U8 reads a byte.
func (r *Reader) U8() byte {
	if b := r.Take(1); b != nil {
		return b[0]
	}
	return 0
}

// U16 reads a u16.
func (r *Reader) U16() uint16 {
	if b := r.Take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

// U32 reads a u32.
func (r *Reader) U32() uint32 {
	if b := r.Take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// U64 reads a u64.
func (r *Reader) U64() uint64 {
	if b := r.Take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
