package sink

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/testkit/islands"
)

// frames splits an Iceberg writer's output into bytes per partition.
func frames(t *testing.T, out []byte) map[int32][]byte {
	t.Helper()
	m := map[int32][]byte{}
	for len(out) > 0 {
		if len(out) < 8 {
			t.Fatalf("a frame of %d bytes", len(out))
		}
		p, n := int32(binary.BigEndian.Uint32(out)), int(binary.BigEndian.Uint32(out[4:]))
		m[p] = append(m[p], out[8:8+n]...)
		out = out[8+n:]
	}
	return m
}

// TestIcebergWriterFilesPerPartition drives the writer as the JNI layer does: batches in,
// file bytes per partition out, then each finished file's float metrics and partition values.
func TestIcebergWriterFilesPerPartition(t *testing.T) {
	n := plan.IslandNode(islands.IcebergSinkNode("partition", []map[string]any{{"sourceId": 3, "transform": "truncate[1]"}}))
	island, _ := json.Marshal(map[string]any{"version": 1, "nodes": []any{n}, "options": map[string]string{}})
	w, err := OpenIcebergWriter(island)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	mem := memory.DefaultAllocator
	kb := array.NewInt64Builder(mem)
	kb.AppendValues([]int64{1, 2, 3, 4}, nil)
	db := array.NewFloat64Builder(mem)
	db.AppendValues([]float64{math.NaN(), math.Copysign(0, -1), 0, 7}, nil)
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"ab", "", "ac", "b"}, []bool{true, false, true, true})
	cols := []arrow.Array{kb.NewArray(), db.NewArray(), sb.NewArray()}
	sch := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "d", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	batch := array.NewRecordBatch(sch, cols, 4)
	defer batch.Release()
	out, err := w.Write(batch)
	if err != nil {
		t.Fatal(err)
	}
	files := frames(t, out)
	if len(files) != 3 {
		t.Fatalf("%d partitions written, want 3 ('a', NULL, 'b')", len(files))
	}
	want := map[string]bool{`["a"]`: true, `[null]`: true, `["b"]`: true}
	for p, head := range files {
		tail, err := w.Finish(p)
		if err != nil {
			t.Fatal(err)
		}
		file := append(head, tail...)
		if string(file[:4]) != "PAR1" || string(file[len(file)-4:]) != "PAR1" {
			t.Fatalf("partition %d: not a Parquet file", p)
		}
		vals, _ := w.PartitionJSON(p)
		if _, ok := want[string(vals)]; !ok {
			t.Errorf("partition %d values %s", p, vals)
		}
		js, _ := w.FloatMetricsJSON(p)
		var ms []floatMetricsJSON
		if err := json.Unmarshal(js, &ms); err != nil || len(ms) != 1 {
			t.Fatalf("float metrics %s: %v", js, err)
		}
		if string(vals) == `["a"]` && (ms[0].Values != 2 || ms[0].NaNs != 1 || *ms[0].Lower != 0 || *ms[0].Upper != 0) {
			t.Errorf("partition 'a': float metrics %s (NaN and 0.0)", js)
		}
		if string(vals) == `[null]` && (ms[0].Values != 1 || *ms[0].Lower != int64(math.Float64bits(math.Copysign(0, -1)))) {
			t.Errorf("partition NULL: float metrics %s (-0.0)", js)
		}
	}
	if _, err := w.Finish(0); err == nil {
		t.Error("finishing a partition without an open file must fail")
	}
}
