package javahash

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// TestHashMapOrderMatchesJava replays the puts of testdata/hashmap_order.txt, which Java 17
// printed (io.sluice.tools.HashMapOrderGolden), and compares the iteration order.
func TestHashMapOrderMatchesJava(t *testing.T) {
	f, err := os.Open("testdata/hashmap_order.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var m HashMap
	lines, trees := 0, 0
	for sc.Scan() {
		lines++
		line := sc.Text()
		typ, rest, _ := strings.Cut(line, " ")
		keyText, want, _ := strings.Cut(rest, "|")
		var texts []string
		if keyText != "" {
			texts = strings.Split(keyText, ",")
		}
		ct, err := catalog.ParseTypeString(typ)
		if err != nil {
			t.Fatalf("line %d: %v", lines, err)
		}
		a := buildKeys(t, ct, texts)
		keys, err := NewKeys(a, ct)
		if err != nil {
			t.Fatalf("line %d: %v", lines, err)
		}
		codes := make([]int32, a.Len())
		keys.Codes(codes)
		m.Reset()
		for i := range codes {
			m.Put(codes[i], i, keys)
		}
		for _, e := range m.table {
			if e != none && m.nodes[e].tree {
				trees++
			}
		}
		ks, vs := m.AppendEntries(nil, nil)
		var got strings.Builder
		for i := range ks {
			if i > 0 {
				got.WriteByte(' ')
			}
			fmt.Fprintf(&got, "%d:%d", ks[i], vs[i])
		}
		if got.String() != want {
			t.Errorf("line %d (%s, %d keys):\n got  %s\n want %s", lines, typ, len(texts), got.String(), want)
		}
		a.Release()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 450 || trees < 20 {
		t.Fatalf("only %d cases read, %d tree buckets left in them", lines, trees)
	}
}

// buildKeys makes a key column of type t from the golden file's key texts.
func buildKeys(t *testing.T, ct catalog.Type, texts []string) arrow.Array {
	t.Helper()
	dt, err := catalog.ArrowType(ct)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for _, s := range texts {
		if s == "N" {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *array.Int8Builder:
			b.Append(int8(mustInt(t, s, 8)))
		case *array.Int16Builder:
			b.Append(int16(mustInt(t, s, 16)))
		case *array.Int32Builder:
			b.Append(int32(mustInt(t, s, 32)))
		case *array.Int64Builder:
			b.Append(mustInt(t, s, 64))
		case *array.Float64Builder:
			u, err := strconv.ParseUint(s, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			b.Append(math.Float64frombits(u))
		case *array.Float32Builder:
			u, err := strconv.ParseUint(s, 16, 32)
			if err != nil {
				t.Fatal(err)
			}
			b.Append(math.Float32frombits(uint32(u)))
		case *array.StringBuilder:
			raw, err := hex.DecodeString(strings.TrimPrefix(s, "x"))
			if err != nil {
				t.Fatal(err)
			}
			b.Append(string(raw))
		case *array.Decimal128Builder:
			v, ok := new(big.Int).SetString(s, 10)
			if !ok {
				t.Fatalf("bad decimal %q", s)
			}
			b.Append(decimal128.FromBigInt(v))
		case *array.TimestampBuilder:
			ms, nanos, _ := strings.Cut(s, ".")
			micros := mustInt(t, ms, 64)*1000 + mustInt(t, nanos, 32)/1000
			b.Append(arrow.Timestamp(micros))
		case *array.BooleanBuilder:
			b.Append(s == "t")
		default:
			t.Fatalf("no builder for %s", ct)
		}
	}
	return b.NewArray()
}

func mustInt(t *testing.T, s string, bits int) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// BenchmarkHashMapStringKeys replays maps of 8 string keys, as a MAP cast does per row.
func BenchmarkHashMapStringKeys(b *testing.B) {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range 8 * 1024 {
		sb.Append(fmt.Sprintf("key-%d", i%1000))
	}
	a := sb.NewArray()
	defer a.Release()
	keys, err := NewKeys(a, catalog.StringType(true))
	if err != nil {
		b.Fatal(err)
	}
	codes := make([]int32, a.Len())
	var m HashMap
	var ks, vs []int32
	b.ResetTimer()
	for range b.N {
		keys.Codes(codes)
		ks, vs = ks[:0], vs[:0]
		for row := 0; row < a.Len(); row += 8 {
			m.Reset()
			for j := row; j < row+8; j++ {
				m.Put(codes[j], j, keys)
			}
			ks, vs = m.AppendEntries(ks, vs)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*a.Len()), "ns/entry")
}
