package chain

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/islands"
	"github.com/sluice-project/sluice/testkit/rowgen"
)

// randomRows encodes n random rows of the island's input type as BinaryRowData.
func randomRows(t testing.TB, island []byte, n int) ([]byte, []int32) {
	return randomRowsSeed(t, island, n, 1)
}

func randomRowsSeed(t testing.TB, island []byte, n int, seed int64) ([]byte, []int32) {
	t.Helper()
	is, err := plan.Decode(island)
	if err != nil {
		t.Fatal(err)
	}
	names, types, err := is.Nodes[0].RowFields()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(seed))
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := 0; i < n; i++ {
		for c, f := range b.Fields() {
			if types[c].Nullable && rnd.Intn(20) == 0 {
				f.AppendNull()
				continue
			}
			switch fb := f.(type) {
			case *array.Int64Builder:
				fb.Append(rnd.Int63n(200000))
			case *array.Int32Builder:
				fb.Append(rnd.Int31())
			case *array.Float64Builder:
				fb.Append(rnd.NormFloat64())
			case *array.BooleanBuilder:
				fb.Append(rnd.Intn(2) == 0)
			case *array.Decimal128Builder:
				fb.Append(decimal128.FromI64(rnd.Int63n(1000000)))
			case *array.StringBuilder:
				if rnd.Intn(10) == 0 {
					fb.Append(fmt.Sprintf("Grüße-%x", rnd.Int63()))
				} else {
					fb.Append(fmt.Sprintf("s%x", rnd.Int63()))
				}
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(rnd.Int63n(2e12)))
			default:
				t.Fatalf("no generator for %T", f)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	data, offsets, err := rowgen.Encode(rec, types, nil)
	if err != nil {
		t.Fatal(err)
	}
	return data, offsets
}

func TestDemoPipelineRuns(t *testing.T) {
	island := islands.Read(t, "demo_calc.json")
	p, err := OpenRowPipeline(island)
	if err != nil {
		t.Fatal(err)
	}
	data, offsets := randomRows(t, island, 1000)
	if err := p.Process(data, offsets); err != nil {
		t.Fatal(err)
	}
	out, outOffsets, sel := p.Output()
	if len(sel) == 0 || len(sel) == 1000 {
		t.Fatalf("filter kept %d of 1000 rows", len(sel))
	}
	if len(outOffsets) != len(sel)+1 || int(outOffsets[len(sel)]) != len(out) {
		t.Fatalf("offsets %d for %d rows, %d bytes", len(outOffsets), len(sel), len(out))
	}
}

func BenchmarkDemoPipeline(b *testing.B) { benchmarkIsland(b, "demo_calc.json") }

// BenchmarkCalcBenchPipeline is the Go side of `make bench`'s Calc query.
func BenchmarkCalcBenchPipeline(b *testing.B) { benchmarkIsland(b, "bench_calc.json") }

func benchmarkIsland(b *testing.B, name string) {
	island := islands.Read(b, name)
	p, err := OpenRowPipeline(island)
	if err != nil {
		b.Fatal(err)
	}
	const n = 8192
	data, offsets := randomRows(b, island, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Process(data, offsets); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

// TestPipelinesRunConcurrently runs one pipeline per goroutine, as Flink runs one per task
// thread; `go test -race` (part of make test) checks that they share no mutable state.
func TestPipelinesRunConcurrently(t *testing.T) {
	island := islands.Read(t, "demo_calc.json")
	data, offsets := randomRows(t, island, 2000)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := OpenRowPipeline(island)
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < 5; i++ {
				if err := p.Process(data, offsets); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestRecycledBuffersDoNotLeakBetweenBatches runs batch A, then B, then A again through one
// pipeline, whose buffers are recycled between batches: A must come out the same both times.
func TestRecycledBuffersDoNotLeakBetweenBatches(t *testing.T) {
	for _, name := range []string{"demo_calc.json", "bench_calc.json"} {
		island := islands.Read(t, name)
		p, err := OpenRowPipeline(island)
		if err != nil {
			t.Fatal(err)
		}
		aData, aOffsets := randomRowsSeed(t, island, 3000, 7)
		bData, bOffsets := randomRowsSeed(t, island, 1000, 8)
		run := func(data []byte, offsets []int32) string {
			if err := p.Process(data, offsets); err != nil {
				t.Fatal(err)
			}
			out, offs, sel := p.Output()
			return fmt.Sprint(out, offs, sel)
		}
		first := run(aData, aOffsets)
		run(bData, bOffsets)
		if again := run(aData, aOffsets); again != first {
			t.Errorf("%s: the same batch encoded differently after another batch", name)
		}
	}
}

func TestMalformedPlansAreErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"version":2,"nodes":[]}`, `{"version":1,"nodes":[{"name":"x","exec":{"type":"stream-exec-calc_1","projection":[{"kind":"INPUT_REF"}]}}]}`} {
		_, err := OpenRowPipeline([]byte(in))
		if err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

func FuzzOpenRowPipeline(f *testing.F) {
	f.Add(`{"version":1,"nodes":[]}`)
	f.Add(`{"version":1,"nodes":[{"name":"c","inputType":"ROW<` + "`a`" + ` INT>","exec":{"id":1,"type":"stream-exec-calc_1","projection":[{"kind":"INPUT_REF","inputIndex":0,"type":"INT"}],"outputType":"ROW<` + "`a`" + ` INT>"}}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		// Malformed plans must produce errors, never panics.
		if p, err := OpenRowPipeline([]byte(s)); err == nil {
			_ = p
		}
	})
}
