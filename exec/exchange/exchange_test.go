package exchange

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// batch builds a batch of n rows: an INT key (NULL every 7th row), a STRING key and a BIGINT
// row number that identifies each row.
func batch(t testing.TB, n int, distinct int) arrow.RecordBatch {
	t.Helper()
	mem := memory.NewGoAllocator()
	ib := array.NewInt32Builder(mem)
	sb := array.NewStringBuilder(mem)
	nb := array.NewInt64Builder(mem)
	for r := 0; r < n; r++ {
		if r%7 == 3 {
			ib.AppendNull()
		} else {
			ib.Append(int32(r % distinct))
		}
		sb.Append(fmt.Sprintf("k%d", r%distinct))
		nb.Append(int64(r))
	}
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "row", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	cols := []arrow.Array{ib.NewArray(), sb.NewArray(), nb.NewArray()}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(sch, cols, int64(n))
}

var keyTypes = map[string][]catalog.Type{
	"int":        {catalog.IntType(true)},
	"string":     {catalog.StringType(true)},
	"int,string": {catalog.IntType(true), catalog.StringType(true)},
}

var keyCols = map[string][]int{"int": {0}, "string": {1}, "int,string": {0, 1}}

func TestSplitRoutesEveryRowOnceInOrder(t *testing.T) {
	for _, c := range []struct {
		keys              string
		rows, distinct    int
		parallelism, maxP int
	}{
		{"int", 1000, 100, 2, 128},
		{"string", 1000, 1000, 3, 128},
		{"int,string", 500, 37, 4, 7},
		{"int", 100, 1, 3, 128}, // one key, with and without NULL: at most two channels
		{"string", 10, 1, 5, 128},
		{"int", 300, 300, 1, 128},
		{"string", 2000, 50, 128, 128},
	} {
		t.Run(fmt.Sprintf("%s/%d/p%d/max%d", c.keys, c.rows, c.parallelism, c.maxP), func(t *testing.T) {
			b := batch(t, c.rows, c.distinct)
			defer b.Release()
			s, err := NewSplitter(keyCols[c.keys], keyTypes[c.keys], c.parallelism, c.maxP, memory.NewGoAllocator())
			if err != nil {
				t.Fatal(err)
			}
			// The channel of every row, from the key groups as package keygroup computes them.
			as, _ := keygroup.NewAssigner(keyTypes[c.keys], c.maxP)
			var keys []arrow.Array
			for _, k := range keyCols[c.keys] {
				keys = append(keys, b.Column(k))
			}
			groups := make([]int32, c.rows)
			if err := as.Assign(keys, c.rows, groups, nil); err != nil {
				t.Fatal(err)
			}
			parts, err := s.Split(b)
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, c.rows)
			last := -1
			for _, p := range parts {
				if p.Channel <= last {
					t.Fatalf("channel %d after channel %d", p.Channel, last)
				}
				last = p.Channel
				if p.Batch.NumRows() == 0 {
					t.Fatalf("channel %d: empty part", p.Channel)
				}
				if !p.Batch.Schema().Equal(b.Schema()) {
					t.Fatalf("channel %d: schema %s", p.Channel, p.Batch.Schema())
				}
				ids := p.Batch.Column(2).(*array.Int64)
				prev := int64(-1)
				for i := 0; i < ids.Len(); i++ {
					r := ids.Value(i)
					if r <= prev {
						t.Fatalf("channel %d: row %d after row %d", p.Channel, r, prev)
					}
					prev = r
					if seen[r] {
						t.Fatalf("row %d routed twice", r)
					}
					seen[r] = true
					if want := keygroup.Subtask(int(groups[r]), c.parallelism, c.maxP); want != p.Channel {
						t.Fatalf("row %d (key group %d) in channel %d, owner is %d", r, groups[r], p.Channel, want)
					}
					// The other columns travel with their row.
					if got, want := p.Batch.Column(1).(*array.String).Value(i), b.Column(1).(*array.String).Value(int(r)); got != want {
						t.Fatalf("row %d: name %q, want %q", r, got, want)
					}
					if p.Batch.Column(0).IsNull(i) != b.Column(0).IsNull(int(r)) {
						t.Fatalf("row %d: id validity differs", r)
					}
				}
				p.Batch.Release()
			}
			for r, ok := range seen {
				if !ok {
					t.Fatalf("row %d lost", r)
				}
			}
		})
	}
}

func TestSplitPassesSingleChannelBatchesThrough(t *testing.T) {
	b := batch(t, 50, 1000)
	defer b.Release()
	s, err := NewSplitter([]int{2}, []catalog.Type{catalog.BigIntType(false)}, 1, 128, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	parts, err := s.Split(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 || parts[0].Batch != b || parts[0].Channel != 0 {
		t.Fatalf("parts %v: want the batch itself on channel 0", parts)
	}
	parts[0].Batch.Release()
}

func TestSplitterErrors(t *testing.T) {
	mem := memory.NewGoAllocator()
	for _, c := range []struct {
		name        string
		cols        []int
		types       []catalog.Type
		p, maxP     int
		splitErrOnB bool
	}{
		{"parallelism above max", []int{0}, keyTypes["int"], 5, 4, false},
		{"zero parallelism", []int{0}, keyTypes["int"], 0, 128, false},
		{"types and columns differ", []int{0, 1}, keyTypes["int"], 2, 128, false},
		{"key column outside the batch", []int{9}, keyTypes["int"], 2, 128, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewSplitter(c.cols, c.types, c.p, c.maxP, mem)
			if !c.splitErrOnB {
				if err == nil {
					t.Fatal("NewSplitter accepted it")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := batch(t, 10, 3)
			defer b.Release()
			if _, err := s.Split(b); err == nil {
				t.Fatal("Split accepted it")
			}
		})
	}
}

func BenchmarkSplit(b *testing.B) {
	in := batch(b, 8192, 10000)
	defer in.Release()
	s, err := NewSplitter([]int{0, 1}, keyTypes["int,string"], 2, 128, memory.NewGoAllocator())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		parts, err := s.Split(in)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range parts {
			p.Batch.Release()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*8192), "ns/row")
}

func TestIPCRoundTrip(t *testing.T) {
	b := batch(t, 5000, 20) // repetitive keys: compressible
	defer b.Release()
	sizes := map[bool]int{}
	for _, lz4 := range []bool{false, true} {
		data, err := EncodeBatch(b, lz4)
		if err != nil {
			t.Fatal(err)
		}
		sizes[lz4] = len(data)
		got, err := DecodeBatch(data)
		if err != nil {
			t.Fatalf("lz4=%v: %v", lz4, err)
		}
		if !array.RecordEqual(got, b) {
			t.Errorf("lz4=%v: the batch changed in the round trip", lz4)
		}
		got.Release()
	}
	if sizes[true] >= sizes[false] {
		t.Errorf("LZ4 did not shrink a repetitive batch: %d bytes vs %d", sizes[true], sizes[false])
	}
	for _, bad := range [][]byte{nil, []byte("not arrow"), func() []byte { d, _ := EncodeBatch(b, true); return d[:len(d)/2] }()} {
		if _, err := DecodeBatch(bad); err == nil {
			t.Errorf("DecodeBatch accepted %d bad bytes", len(bad))
		}
	}
}

// TestWriteBatchReusesBuffer writes batches of different sizes into one buffer, reset between
// them as batchToIpc's pool does: each record reads back as its batch, and a buffer grown for
// the larger batch takes the smaller one without growing again.
func TestWriteBatchReusesBuffer(t *testing.T) {
	large, small := batch(t, 5000, 20), batch(t, 300, 7)
	defer large.Release()
	defer small.Release()
	var buf bytes.Buffer
	for i, b := range []arrow.RecordBatch{large, small, large} {
		before := buf.Cap()
		buf.Reset()
		if err := WriteBatch(&buf, b, i == 1); err != nil {
			t.Fatal(err)
		}
		if i > 0 && buf.Cap() != before {
			t.Errorf("batch %d: the buffer grew from %d to %d", i, before, buf.Cap())
		}
		got, err := DecodeBatch(buf.Bytes())
		if err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		if !array.RecordEqual(got, b) {
			t.Errorf("batch %d changed in the round trip through a reused buffer", i)
		}
		got.Release()
	}
}

func BenchmarkWriteBatch(b *testing.B) {
	in := batch(b, 8192, 1000)
	defer in.Release()
	var buf bytes.Buffer
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := WriteBatch(&buf, in, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*8192), "ns/row")
}
