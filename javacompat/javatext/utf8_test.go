package javatext

import (
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestAppendDecodedUTF8Golden compares with Java 17's new String(bytes, UTF_8) on the byte
// strings of testdata/utf8_decode.txt (io.sluice.tools.Utf8DecodeGolden).
func TestAppendDecodedUTF8Golden(t *testing.T) {
	data, err := os.ReadFile("testdata/utf8_decode.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 1000 {
		t.Fatalf("only %d lines", len(lines))
	}
	for _, line := range lines {
		in, want, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("malformed line %q", line)
		}
		b, err := hex.DecodeString(in)
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		for _, u := range AppendDecodedUTF8(nil, b) {
			fmt.Fprintf(&got, "%04x", u)
		}
		if g := got.String(); g != strings.TrimPrefix(want, "-") {
			t.Errorf("%s: got %s, Java decodes %s", in, g, want)
		}
	}
}

func TestAppendDecodedUTF8Valid(t *testing.T) {
	for _, s := range []string{"", "abc", "Grüße, 世界 🌍", "\u00ff\u0800\uffff\U00010000\U0010ffff"} {
		if got := string(utf16.Decode(AppendDecodedUTF8(nil, []byte(s)))); got != s {
			t.Errorf("%q decoded as %q", s, got)
		}
	}
}
