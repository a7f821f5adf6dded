// Package golden reads the golden files that Sluice's tests compare with: files written by the
// io.sluice.tools programs from a real JVM and Flink, one record per line, fields separated by
// white space, byte strings in hex ("-" for none).
package golden

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// Lines returns the fields of each line of the file at path.
func Lines(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		lines = append(lines, strings.Fields(sc.Text()))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// Bytes decodes a hex field ("-" is nil).
func Bytes(t testing.TB, s string) []byte {
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
