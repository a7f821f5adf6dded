package expr

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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

// int64At is value i of an integer-backed column (DATE, TIME, TIMESTAMP, BIGINT) as an int64,
// for tests that compare such columns with expected values.
func int64At(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Time32:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Duration:
		return int64(a.Value(i))
	}
	panic(fmt.Sprintf("int64At: column of type %s", a.DataType()))
}
