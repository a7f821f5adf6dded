package plan

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/sluice-project/sluice/testkit/islands"
)

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
		n := IslandNode(islands.IcebergSinkNode(c.key, c.value))
		s, reasons, err := CompileIcebergSink(&n, nil)
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
		if c.name == "native" && (len(s.Fields) != 3 || !s.Fields[0].Required || s.Opts.Compression != compress.Codecs.Zstd || s.Opts.PageBytes != 1<<16) {
			t.Errorf("%s: compiled %+v", c.name, s)
		}
	}
	undescribed := IslandNode{Name: "Sink#1", Exec: []byte(`{"table":"lake.db.x","unsupported":["cannot inspect the Iceberg table: boom"]}`)}
	if _, reasons, err := CompileIcebergSink(&undescribed, nil); err != nil || len(reasons) != 1 || !strings.Contains(reasons[0], "boom") {
		t.Errorf("an undescribed table: %v, %v", reasons, err)
	}
}
