package chain

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/runtime/scan"
	"github.com/sluice-project/sluice/runtime/sink"
	sinkparquet "github.com/sluice-project/sluice/sinks/parquet"
	"github.com/sluice-project/sluice/sources/parquet"
	"github.com/sluice-project/sluice/testkit/islands"
)

// The path of a Parquet job inside Go: the scan reads a file, the chain (scan -> Calc) filters
// and projects the batch and hands Arrow batches to the sink, which writes a file that the
// reader reads back with the chain's values under the sink table's column names.
func TestParquetScanChainAndSink(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a", "b", "c", "ts"}
	types := []catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.DoubleType(true), catalog.TimestampType(3, true)}
	sch, err := catalog.ArrowSchema(names, types)
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer rb.Release()
	for r := 0; r < 7; r++ {
		rb.Field(0).(*array.Int32Builder).Append(int32(r))
		rb.Field(1).(*array.StringBuilder).Append(strings.Repeat("x", r))
		rb.Field(2).(*array.Float64Builder).Append(float64(r) / 2) // c > 1.5 from row 4 on
		rb.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(r) * 1000))
	}
	in := rb.NewRecordBatch()
	defer in.Release()
	var file bytes.Buffer
	w, err := sinkparquet.NewWriter(names, types, sinkparquet.DefaultOptions(), &file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(in); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "part-0")
	if err := os.WriteFile(src, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	all := islands.WithPath(t, "parquet_scan_calc_sink.json", dir)
	v, err := plan.JudgeJSON(all)
	if err != nil || !strings.Contains(string(v), `"supported":true`) || strings.Contains(string(v), `"supported":false`) {
		t.Fatalf("verdict: %s %v", v, err)
	}
	scan, err := scan.OpenFileScan(islands.Nodes(t, all, 0, 1, nil), 0, true)
	if err != nil {
		t.Fatal(err)
	}
	split, err := scan.OpenSplit(src, 0, int64(file.Len()), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer split.Close()
	chain, err := Open(islands.Nodes(t, all, 0, 2, map[string]string{plan.OptBatchOutput: "true"}))
	if err != nil {
		t.Fatal(err)
	}
	sink, err := sink.OpenFileWriter(islands.WithPath(t, "parquet_sink.json", ""), 0, true)
	if err != nil {
		t.Fatal(err)
	}
	var written bytes.Buffer
	rows := 0
	for {
		b, err := split.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		if b.NumRows() > 3 {
			t.Fatalf("a batch of %d rows with sluice.batch.rows = 3", b.NumRows())
		}
		if err := chain.ProcessBatch(b); err != nil {
			t.Fatal(err)
		}
		b.Release()
		n := chain.OutputRows()
		if n == 0 {
			continue
		}
		out, err := chain.OutputBatch(0, n)
		if err != nil {
			t.Fatal(err)
		}
		rows += n
		bs, err := sink.Write(out)
		out.Release()
		if err != nil {
			t.Fatal(err)
		}
		written.Write(bs)
	}
	bs, err := sink.Finish()
	if err != nil {
		t.Fatal(err)
	}
	written.Write(bs)
	if rows != 3 {
		t.Fatalf("the Calc let %d rows through, want 3 (c > 1.5)", rows)
	}

	out := filepath.Join(dir, "out")
	if err := os.WriteFile(out, written.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back := parquet.Schema{Names: []string{"x", "y", "t"}, Types: []catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.TimestampType(3, true)}}
	r, err := parquet.OpenSplit(parquet.Split{Path: out, Length: 1 << 40}, back, parquet.Options{BatchRows: 100}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Next()
	if err != nil || got == nil {
		t.Fatalf("reading the sink's file: %v", err)
	}
	defer got.Release()
	for i, want := range []string{"[5 6 7]", `["xxxx" "xxxxx" "xxxxxx"]`} {
		if s := got.Column(i).String(); s != want {
			t.Errorf("column %s: %s, want %s", back.Names[i], s, want)
		}
	}
	ts := got.Column(2).(*array.Timestamp)
	for i, ms := range []int64{4000, 5000, 6000} {
		if int64(ts.Value(i)) != ms {
			t.Errorf("ts row %d: %d, want %d", i, ts.Value(i), ms)
		}
	}
}
