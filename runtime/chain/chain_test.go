package chain

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/islands"
	"github.com/sluice-project/sluice/testkit/rowgen"
)

// bids encodes n rows (auction INT, price BIGINT, ts TIMESTAMP(3)): auctions cycle through
// keys, event time advances one millisecond every msEvery rows from start.
func bids(t testing.TB, n, keys, msEvery int, start int64) ([]byte, []int32) {
	return encodeBids(t, n, keys, msEvery, start, false)
}

// encodeBids encodes bids, with a bidder BIGINT column after the auction (100,000 bidders)
// when withBidder is set.
func encodeBids(t testing.TB, n, keys, msEvery int, start int64, withBidder bool) ([]byte, []int32) {
	t.Helper()
	rec, types := bidsBatch(t, n, keys, msEvery, start, withBidder)
	defer rec.Release()
	data, offsets, err := rowgen.Encode(rec, types, nil)
	if err != nil {
		t.Fatal(err)
	}
	return data, offsets
}

// bidsBatch is the Arrow batch of encodeBids's rows, with its column types.
func bidsBatch(t testing.TB, n, keys, msEvery int, start int64, withBidder bool) (arrow.RecordBatch, []catalog.Type) {
	t.Helper()
	names := []string{"auction", "price", "ts"}
	types := []catalog.Type{catalog.IntType(true), catalog.BigIntType(true), catalog.TimestampType(3, true)}
	if withBidder {
		names = []string{"auction", "bidder", "price", "ts"}
		types = []catalog.Type{catalog.IntType(true), catalog.BigIntType(true), catalog.BigIntType(true), catalog.TimestampType(3, true)}
	}
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	f := 0
	next := func() array.Builder { f++; return b.Field(f - 1) }
	auction, bidder := next().(*array.Int32Builder), (*array.Int64Builder)(nil)
	if withBidder {
		bidder = next().(*array.Int64Builder)
	}
	price, ts := next().(*array.Int64Builder), next().(*array.TimestampBuilder)
	for i := 0; i < n; i++ {
		auction.Append(int32((i * 7919) % keys))
		if bidder != nil {
			bidder.Append(int64((i * 104_729) % 100_000))
		}
		price.Append(int64(i%1000 + 1))
		ts.Append(arrow.Timestamp(start + int64(i/msEvery)))
	}
	return b.NewRecordBatch(), types
}

// scanWindowChain is the local window chain of bench_window_local_chain.json behind a native
// Parquet scan of (auction INT, price BIGINT, ts TIMESTAMP(3)): scan -> watermark assigner ->
// local window aggregate, as a Parquet or Iceberg table's window job plans it.
func scanWindowChain(t testing.TB) []byte {
	t.Helper()
	var chain plan.Island
	if err := json.Unmarshal(islands.Read(t, "bench_window_local_chain.json"), &chain); err != nil {
		t.Fatal(err)
	}
	row := "ROW<`auction` INT, `price` BIGINT, `ts` TIMESTAMP(3)>"
	scan := map[string]any{
		"name": "TableSourceScan#1",
		"exec": map[string]any{
			"id": 1, "type": "stream-exec-table-source-scan_1",
			"scanTableSource": map[string]any{
				"table": map[string]any{
					"identifier": "`default_catalog`.`default_database`.`bids`",
					"resolvedTable": map[string]any{
						"schema": map[string]any{"columns": []map[string]string{
							{"name": "auction", "dataType": "INT"}, {"name": "price", "dataType": "BIGINT"}, {"name": "ts", "dataType": "TIMESTAMP(3)"},
						}},
						"options": map[string]string{"connector": "filesystem", "format": "parquet", "path": "PATH"},
					},
				},
				"abilities": []map[string]any{{"type": "ProjectPushDown", "projectedFields": [][]int{{0}, {1}, {2}}, "producedType": row + " NOT NULL"}},
			},
			"outputType":  row,
			"description": "TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[auction, price, ts])",
		},
	}
	raw, err := json.Marshal(scan)
	if err != nil {
		t.Fatal(err)
	}
	var node plan.IslandNode
	if err := json.Unmarshal(raw, &node); err != nil {
		t.Fatal(err)
	}
	chain.Nodes = append([]plan.IslandNode{node}, chain.Nodes...)
	out, err := json.Marshal(&chain)
	if err != nil {
		t.Fatal(err)
	}
	return islands.WithOptions(t, out, map[string]string{plan.OptAutoWatermarkInterval: "200", "sluice.jvm-time-zone": "UTC", "sluice.jvm-time-zone-offset": "0"})
}

// TestScanChainKeepsBatchesThroughWatermarks feeds the same bids to the local window chain as
// rows and, behind a native scan, as Arrow batches that stay columnar through the watermark
// assigner: the watermarks (and where they fall) and the partial aggregates must be the same.
func TestScanChainKeepsBatchesThroughWatermarks(t *testing.T) {
	rc, err := Open(islands.WithOptions(t, islands.Read(t, "bench_window_local_chain.json"), map[string]string{plan.OptAutoWatermarkInterval: "200"}))
	if err != nil {
		t.Fatal(err)
	}
	bc, err := Open(scanWindowChain(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bc.batchWatermarks {
		t.Fatal("the scan chain does not keep its batches through the watermark assigner")
	}
	partials := 0
	compare := func(step string) {
		t.Helper()
		if got, want := bc.Markers(), rc.Markers(); !slices.Equal(got, want) {
			t.Fatalf("%s: markers %v, rows give %v", step, got, want)
		}
		gd, go_, _ := bc.Output()
		wd, wo, _ := rc.Output()
		if !slices.Equal(go_, wo) || string(gd) != string(wd) {
			t.Fatalf("%s: %d output rows, rows give %d (or their bytes differ)", step, len(go_)-1, len(wo)-1)
		}
		partials += len(wo) - 1
	}
	// 12 batches of 5,000 rows, 100 keys, 3 rows per ms from 10 s: watermarks inside batches,
	// slices of 10 s flushing along the way.
	for i := 0; i < 12; i++ {
		start := int64(10_000 + i*5_000/3)
		rec, _ := bidsBatch(t, 5_000, 100, 3, start, false)
		data, offsets := bids(t, 5_000, 100, 3, start)
		if err := rc.Process(data, offsets); err != nil {
			t.Fatal(err)
		}
		if err := bc.ProcessBatch(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		compare("batch " + strconv.Itoa(i))
	}
	if len(rc.Markers()) == 0 {
		t.Fatal("no watermark in the last batch: the case tests nothing")
	}
	for _, step := range []string{"checkpoint", "end of input"} {
		var errR, errB error
		if step == "checkpoint" {
			errR, errB = rc.PrepareCheckpoint(), bc.PrepareCheckpoint()
		} else {
			errR, errB = rc.AdvanceWatermark(1<<63-1), bc.AdvanceWatermark(1<<63-1)
		}
		if errR != nil || errB != nil {
			t.Fatal(errR, errB)
		}
		compare(step)
	}
	if partials < 200 {
		t.Errorf("%d partial aggregates in all: too few to compare the paths", partials)
	}
}

func TestWatermarkAssignerChainSplitsBatchesAtWatermarks(t *testing.T) {
	island := islands.WithOptions(t, islands.Read(t, "bench_window_local_chain.json"), map[string]string{plan.OptAutoWatermarkInterval: "200"})
	c, err := Open(island)
	if err != nil {
		t.Fatal(err)
	}
	// 3000 rows, event time from 10s, one ms per row: the watermark (ts - 5s) first exceeds
	// the initial 0, then rises by more than 200 ms every 201 rows.
	data, offsets := bids(t, 3000, 100, 1, 10_000)
	if err := c.Process(data, offsets); err != nil {
		t.Fatal(err)
	}
	ms := c.Markers()
	if len(ms) != 1+(3000-1)/201 {
		t.Fatalf("%d watermarks: %v", len(ms), ms)
	}
	if ms[0].Watermark != 5_000 || ms[1].Watermark != 5_201 {
		t.Errorf("watermarks %v, want 5000, 5201, ...", ms[:2])
	}
	// Windows of 10 s fire only at the end: the local phase flushes at slice ends.
	if err := c.AdvanceWatermark(1<<63 - 1); err != nil {
		t.Fatal(err)
	}
	_, offs, sel := c.Output()
	if len(offs)-1 != 100 || sel != nil {
		t.Errorf("end of input: %d partial aggregates (want one per key), selection %v", len(offs)-1, sel != nil)
	}
	if ms := c.Markers(); len(ms) != 1 || ms[0].Watermark != 1<<63-1 || ms[0].Pos != 100 {
		t.Errorf("end of input markers %v", ms)
	}
}

func BenchmarkWindowLocalChain(b *testing.B) {
	island := islands.WithOptions(b, islands.Read(b, "bench_window_local_chain.json"), map[string]string{plan.OptAutoWatermarkInterval: "200"})
	// 32 batches of 8192 rows over 10,000 keys, event time advancing 100 rows per ms: the
	// watermark moves every 20,000 rows and the 10 s windows' slices flush as in a stream.
	const n, batches = 8192, 32
	type batch struct {
		data    []byte
		offsets []int32
	}
	var all []batch
	for i := 0; i < batches; i++ {
		data, offsets := bids(b, n, 10_000, 100, 10_000+int64(i*n/100))
		all = append(all, batch{data, offsets})
	}
	var c *Chain
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%batches == 0 {
			var err error
			if c, err = Open(island); err != nil {
				b.Fatal(err)
			}
		}
		bt := all[i%batches]
		if err := c.Process(bt.data, bt.offsets); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

// TestColumnarExchangeMatchesRowExchange runs a two-phase window job twice: the local chain's
// partial aggregates reach one global chain as rows, or are split by a columnar exchange into
// batches for two global subtasks (each owning half of the key groups). Both must produce the
// same windows. (Java's window parity tests compare the same against Flink itself.)
func TestColumnarExchangeMatchesRowExchange(t *testing.T) {
	const maxP, parallelism = 128, 2
	local := func(exchange bool) *Chain {
		opts := map[string]string{plan.OptAutoWatermarkInterval: "200"}
		if exchange {
			opts[plan.OptExchangeKeys] = "[0]"
			opts[plan.OptExchangeParallelism] = "2"
			opts[plan.OptExchangeMaxParallelism] = "128"
		}
		c, err := Open(islands.WithOptions(t, islands.Read(t, "bench_window_local_chain.json"), opts))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	global := func(batchInput bool, start, end int) *Chain {
		opts := map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: strconv.Itoa(start), plan.OptKeyGroupEnd: strconv.Itoa(end)}
		if batchInput {
			opts[plan.OptBatchInput] = "true"
		}
		c, err := Open(islands.WithOptions(t, islands.Read(t, "bench_window_global_chain.json"), opts))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	rowsOf := func(c *Chain) []string {
		data, offsets, _ := c.Output()
		var out []string
		for r := 0; r+1 < len(offsets); r++ {
			out = append(out, string(data[offsets[r]:offsets[r+1]]))
		}
		return out
	}
	data, offsets := bids(t, 20_000, 300, 10, 10_000)
	const end = 1<<63 - 1

	// Row exchange: every partial aggregate to one global subtask.
	rowLocal, rowGlobal := local(false), global(false, 0, maxP-1)
	for _, step := range []func(*Chain) error{
		func(c *Chain) error { return c.Process(data, offsets) },
		func(c *Chain) error { return c.AdvanceWatermark(end) },
	} {
		if err := step(rowLocal); err != nil {
			t.Fatal(err)
		}
		d, o, _ := rowLocal.Output()
		if err := rowGlobal.Process(d, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := rowGlobal.AdvanceWatermark(end); err != nil {
		t.Fatal(err)
	}
	want := rowsOf(rowGlobal)
	if len(want) == 0 {
		t.Fatal("the row exchange run fired no window")
	}

	// Columnar exchange: batches split per channel, each subtask reads its own.
	colLocal := local(true)
	subtasks := make([]*Chain, parallelism)
	for s := range subtasks {
		r, err := keygroupRange(maxP, parallelism, s)
		if err != nil {
			t.Fatal(err)
		}
		subtasks[s] = global(true, r[0], r[1])
	}
	for _, step := range []func(*Chain) error{
		func(c *Chain) error { return c.Process(data, offsets) },
		func(c *Chain) error { return c.AdvanceWatermark(end) },
	} {
		if err := step(colLocal); err != nil {
			t.Fatal(err)
		}
		parts, err := colLocal.Partition(0, colLocal.OutputRows())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			if err := subtasks[p.Channel].ProcessBatch(p.Batch); err != nil {
				t.Fatalf("channel %d: %v", p.Channel, err)
			}
			p.Batch.Release()
		}
	}
	var got []string
	for s, c := range subtasks {
		if err := c.AdvanceWatermark(end); err != nil {
			t.Fatal(err)
		}
		rows := rowsOf(c)
		if len(rows) == 0 {
			t.Errorf("subtask %d fired no window: the exchange sent it nothing", s)
		}
		got = append(got, rows...)
	}
	sort.Strings(want)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Fatalf("columnar exchange: %d window rows, row exchange: %d, or they differ", len(got), len(want))
	}
}

// keygroupRange is the key-group range [start, end] of a subtask.
func keygroupRange(maxP, parallelism, subtask int) ([2]int, error) {
	r, err := keygroup.RangeOf(maxP, parallelism, subtask)
	return [2]int{r.Start, r.End}, err
}

func TestBatchInputRejectsForeignBatches(t *testing.T) {
	island := islands.WithOptions(t, islands.Read(t, "bench_window_global_chain.json"),
		map[string]string{plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127", plan.OptBatchInput: "true"})
	c, err := Open(island)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	b := array.NewInt64Builder(mem)
	b.Append(1)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, 1)
	defer rec.Release()
	if err := c.ProcessBatch(rec); err == nil {
		t.Fatal("a batch of another row type was accepted")
	}
}

// BenchmarkWindowDistinctChains runs the window benchmark's COUNT(DISTINCT) query through both
// native chains of one subtask: watermark assigner -> Calc -> local aggregate, the columnar
// exchange, global aggregate -> Calc. ns/row is per input row.
func BenchmarkWindowDistinctChains(b *testing.B) {
	const n, batches = 8192, 64
	var inputs [][2]any
	for i := 0; i < batches; i++ {
		data, offsets := encodeBids(b, n, 10_000, 100, 10_000+int64(i*n/100), true)
		inputs = append(inputs, [2]any{data, offsets})
	}
	open := func() (*Chain, *Chain) {
		local, err := Open(islands.WithOptions(b, islands.Read(b, "bench_window_distinct_local_chain.json"), map[string]string{
			plan.OptAutoWatermarkInterval: "200", plan.OptExchangeKeys: "[0]", plan.OptExchangeParallelism: "1", plan.OptExchangeMaxParallelism: "128"}))
		if err != nil {
			b.Fatal(err)
		}
		global, err := Open(islands.WithOptions(b, islands.Read(b, "bench_window_distinct_global_chain.json"), map[string]string{
			plan.OptMaxParallelism: "128", plan.OptKeyGroupStart: "0", plan.OptKeyGroupEnd: "127", plan.OptBatchInput: "true"}))
		if err != nil {
			b.Fatal(err)
		}
		return local, global
	}
	forward := func(local, global *Chain) {
		from := 0
		for _, m := range append(local.Markers(), Marker{Pos: int32(local.OutputRows())}) {
			if int(m.Pos) > from {
				parts, err := local.Partition(from, int(m.Pos))
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range parts {
					if err := global.ProcessBatch(p.Batch); err != nil {
						b.Fatal(err)
					}
					p.Batch.Release()
				}
				from = int(m.Pos)
			}
			if m.Watermark != 0 {
				if err := global.AdvanceWatermark(m.Watermark); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	var local, global *Chain
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%batches == 0 {
			local, global = open()
		}
		in := inputs[i%batches]
		if err := local.Process(in[0].([]byte), in[1].([]int32)); err != nil {
			b.Fatal(err)
		}
		forward(local, global)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}
