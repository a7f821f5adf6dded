package plan

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// icebergSinkNode is the island node of an Iceberg sink of (k BIGINT, d DOUBLE, s STRING) with
// one entry of the description replaced (key "" keeps the base).
func icebergSinkNode(key string, v any) IslandNode {
	exec := map[string]any{
		"id": 0, "type": IcebergSinkType, "table": "lake.db.out", "schema": `{"type":"struct","schema-id":0,"fields":[]}`,
		"fields": []map[string]any{
			{"id": 1, "name": "k", "type": "long", "required": true},
			{"id": 2, "name": "d", "type": "double", "required": false},
			{"id": 3, "name": "s", "type": "string", "required": false},
		},
		"parquet": map[string]any{"codec": "zstd", "rowGroupBytes": 1 << 20, "pageBytes": 1 << 16, "dictBytes": 1 << 16},
	}
	if key != "" {
		exec[key] = v
	}
	raw, _ := json.Marshal(exec)
	return IslandNode{Name: "Sink#1", InputType: json.RawMessage(`"ROW<` + "`k` BIGINT NOT NULL, `d` DOUBLE, `s` VARCHAR(2147483647)" + `>"`), Exec: raw}
}

func TestIcebergSinkVerdict(t *testing.T) {
	cases := []struct {
		name   string
		key    string
		value  any
		reason string // "" for native
	}{
		{"native", "", nil, ""},
		{"java side", "unsupported", []string{"partitioned Iceberg tables are not written natively yet"}, "partitioned"},
		{"type mismatch", "fields", []map[string]any{{"id": 1, "name": "k", "type": "int"}, {"id": 2, "name": "d", "type": "double"}, {"id": 3, "name": "s", "type": "string"}}, "column k"},
		{"arity", "fields", []map[string]any{{"id": 1, "name": "k", "type": "long"}}, "3 columns for 1"},
		{"uuid", "fields", []map[string]any{{"id": 1, "name": "k", "type": "long"}, {"id": 2, "name": "d", "type": "double"}, {"id": 3, "name": "s", "type": "uuid"}}, "uuid"},
		{"lz4", "parquet", map[string]any{"codec": "lz4"}, "compression-codec"},
		{"level without a leveled codec", "parquet", map[string]any{"codec": "snappy", "level": 3}, "compression level"},
		{"partition transform", "partition", []map[string]any{{"sourceId": 2, "transform": "day"}}, "column d"},
		{"partition source", "partition", []map[string]any{{"sourceId": 9, "transform": "identity"}}, "source field 9"},
		{"negative size", "parquet", map[string]any{"codec": "zstd", "pageBytes": -1}, "page-size-bytes"},
	}
	for _, c := range cases {
		n := icebergSinkNode(c.key, c.value)
		s, reasons, err := compileIcebergSink(&n, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := strings.Join(reasons, "; ")
		switch {
		case c.reason == "" && got != "":
			t.Errorf("%s: want native, got %s", c.name, got)
		case c.reason != "" && (!strings.Contains(got, c.reason) || !strings.Contains(got, "lake.db.out")):
			t.Errorf("%s: want a reason with %q naming the table, got %q", c.name, c.reason, got)
		}
		if c.name == "native" && (len(s.fields) != 3 || !s.fields[0].Required || s.opts.Compression != compress.Codecs.Zstd || s.opts.PageBytes != 1<<16) {
			t.Errorf("%s: compiled %+v", c.name, s)
		}
	}
	undescribed := IslandNode{Name: "Sink#1", Exec: []byte(`{"table":"lake.db.x","unsupported":["cannot inspect the Iceberg table: boom"]}`)}
	if _, reasons, err := compileIcebergSink(&undescribed, nil); err != nil || len(reasons) != 1 || !strings.Contains(reasons[0], "boom") {
		t.Errorf("an undescribed table: %v, %v", reasons, err)
	}
}

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
	n := icebergSinkNode("partition", []map[string]any{{"sourceId": 3, "transform": "truncate[1]"}})
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
