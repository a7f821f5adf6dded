package expr

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// goldenLines reads a golden file printed by one of io.sluice.tools' Java programs: the
// whitespace-separated fields of each line.
func goldenLines(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, strings.Fields(sc.Text()))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// goldenBytes decodes a golden file's string field: the hex of its UTF-8 bytes, "-" for "".
func goldenBytes(t *testing.T, s string) []byte {
	t.Helper()
	if s == "-" {
		return nil
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("golden file: %v", err)
	}
	return b
}
