package sink

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
	"github.com/sluice-project/sluice/sources/parquet"
	"github.com/sluice-project/sluice/testkit/islands"
)

// The partitioner splits the sink's rows by partition and the writer writes the other columns.
func TestPartitionedSinkWritesDataColumns(t *testing.T) {
	data := islands.ParquetSink(t, []string{"y"}, nil, "", map[string]string{plan.OptJavaVersion: "17"})
	part, err := OpenFilePartitioner(data)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := catalog.ArrowSchema([]string{"x", "y", "t"},
		[]catalog.Type{catalog.IntType(true), catalog.StringType(true), catalog.TimestampType(3, true)})
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	bld.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2, 3}, nil)
	bld.Field(1).(*array.StringBuilder).AppendValues([]string{"a:b", "", "a:b"}, []bool{true, false, true})
	bld.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1000, 2000, 3000}, nil)
	b := bld.NewRecordBatch()
	defer b.Release()
	parts, err := part.Split(b)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range parts {
		paths = append(paths, p.Path)
	}
	if got := strings.Join(paths, " "); got != "y=a%3Ab/ y=__DEFAULT_PARTITION__/" {
		t.Fatalf("partitions %q", got)
	}
	w, err := OpenFileWriter(data, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	for _, p := range parts[:1] {
		out, err := w.Write(p.Batch)
		if err != nil {
			t.Fatal(err)
		}
		file.Write(out)
	}
	for _, p := range parts {
		p.Batch.Release()
	}
	out, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	file.Write(out)
	path := filepath.Join(t.TempDir(), "part")
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back := parquet.Schema{Names: []string{"x", "t"}, Types: []catalog.Type{catalog.IntType(true), catalog.TimestampType(3, true)}}
	r, err := parquet.OpenSplit(parquet.Split{Path: path, Length: 1 << 40}, back, parquet.Options{BatchRows: 100}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Next()
	if err != nil || got == nil {
		t.Fatalf("reading the file: %v", err)
	}
	defer got.Release()
	if got.NumCols() != 2 || got.Column(0).String() != "[1 3]" {
		t.Errorf("file: %d columns, x = %s; want x = [1 3] and t", got.NumCols(), got.Column(0))
	}
}
