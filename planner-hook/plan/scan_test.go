package plan

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	sinkparquet "github.com/sluice-project/sluice/sinks/parquet"
	"github.com/sluice-project/sluice/sources/parquet"
)

// island reads a testdata island and replaces PATH with path.
func island(t *testing.T, name, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(data, []byte("PATH"), []byte(path))
}

// nodes returns an island with only the nodes [from, to) and the given extra options.
func nodes(t *testing.T, data []byte, from, to int, opts map[string]string) []byte {
	t.Helper()
	var is Island
	if err := json.Unmarshal(data, &is); err != nil {
		t.Fatal(err)
	}
	is.Nodes = is.Nodes[from:to]
	out, err := json.Marshal(&is)
	if err != nil {
		t.Fatal(err)
	}
	return withOptions(t, out, opts)
}

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

	all := island(t, "parquet_scan_calc_sink.json", dir)
	v, err := JudgeJSON(all)
	if err != nil || !strings.Contains(string(v), `"supported":true`) || strings.Contains(string(v), `"supported":false`) {
		t.Fatalf("verdict: %s %v", v, err)
	}
	scan, err := OpenScan(nodes(t, all, 0, 1, nil), 0, true)
	if err != nil {
		t.Fatal(err)
	}
	split, err := scan.OpenSplit(src, 0, int64(file.Len()), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer split.Close()
	chain, err := Open(nodes(t, all, 0, 2, map[string]string{OptBatchOutput: "true"}))
	if err != nil {
		t.Fatal(err)
	}
	sink, err := OpenSinkWriter(island(t, "parquet_sink.json", ""), 0, true)
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

// A scan Go cannot read says why, naming the table.
func TestScanVerdictReasons(t *testing.T) {
	all := island(t, "parquet_scan_calc_sink.json", "s3://bucket/t")
	var is Island
	if err := json.Unmarshal(all, &is); err != nil {
		t.Fatal(err)
	}
	_, reasons, err := compileScan(&is.Nodes[0], map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(reasons, "\n")
	for _, want := range []string{"is not on the local file system", "JVM's time zone"} {
		if !strings.Contains(joined, want) {
			t.Errorf("reasons %q lack %q", joined, want)
		}
	}
}

// TestScanTypeReasonNested checks which nested column types a native scan reads: ROW, ARRAY and
// MAP of natively read types at any depth, but no timestamp inside them.
func TestScanTypeReasonNested(t *testing.T) {
	i, s := catalog.IntType(true), catalog.StringType(true)
	ts := catalog.TimestampType(3, true)
	arr := func(e catalog.Type) catalog.Type { return catalog.Type{Kind: catalog.Array, Nullable: true, Elem: &e} }
	row := func(f catalog.Type) catalog.Type {
		return catalog.Type{Kind: catalog.Row, Nullable: true, Fields: []catalog.Field{{Name: "a", Type: i}, {Name: "f", Type: f}}}
	}
	mp := func(k, v catalog.Type) catalog.Type {
		return catalog.Type{Kind: catalog.Map, Nullable: true, Elem: &k, Value: &v}
	}
	for _, c := range []struct {
		typ    catalog.Type
		native bool
	}{
		{arr(i), true},
		{row(arr(s)), true},
		{mp(s, row(arr(arr(i)))), true},
		{arr(ts), false},
		{row(row(ts)), false},
		{mp(i, arr(ts)), false},
		{arr(catalog.TimestampType(9, true)), false},
		{catalog.TimestampType(9, true), true},
		{catalog.Type{Kind: catalog.TimestampLTZ, Precision: 7}, true},
	} {
		why := scanTypeReason(c.typ)
		if (why == "") != c.native {
			t.Errorf("%s: reason %q, want native %v", c.typ, why, c.native)
		}
	}
}
