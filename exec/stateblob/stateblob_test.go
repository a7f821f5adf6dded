package stateblob

import (
	"strings"
	"testing"
)

// A sealed blob reads back; a flipped bit, another magic, an unknown version, a short body and
// trailing bytes are each refused.
func TestSealOpen(t *testing.T) {
	blob := Seal(AppendBytes(append(Header("TEST", 2), 7), []byte("row")))
	r, v, err := Open(blob, "TEST", "test", 1, 2)
	if err != nil || v != 2 {
		t.Fatalf("open: %v, version %d", err, v)
	}
	if r.U8() != 7 || string(r.Bytes()) != "row" || r.End() != nil {
		t.Fatalf("body read back wrong: %v", r.End())
	}
	r, _, _ = Open(blob, "TEST", "test", 2)
	r.U8()
	if r.End() == nil || !strings.Contains(r.End().Error(), "bytes after") {
		t.Errorf("trailing bytes: %v", r.End())
	}
	r, _, _ = Open(blob, "TEST", "test", 2)
	r.Take(100)
	if r.OK() || r.End() != ErrTruncated {
		t.Errorf("short body: %v", r.End())
	}
	for name, c := range map[string]struct {
		blob     []byte
		magic    string
		versions []uint16
		want     string
	}{
		"checksum": {append(append([]byte(nil), blob[:len(blob)-1]...), blob[len(blob)-1]^1), "TEST", []uint16{2}, "checksum"},
		"magic":    {blob, "OTHR", []uint16{2}, "not test state"},
		"version":  {blob, "TEST", []uint16{1}, "version 2"},
		"short":    {blob[:5], "TEST", []uint16{2}, "truncated"},
	} {
		if _, _, err := Open(c.blob, c.magic, "test", c.versions...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}
