package plan

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestIcebergScanVerdict(t *testing.T) {
	base := map[string]any{
		"id": 0, "type": IcebergScanType, "table": "lake.db.t", "fileFormat": "parquet",
		"fields": []map[string]any{
			{"id": 1, "name": "k", "type": "BIGINT"},
			{"id": 2, "name": "s", "type": "VARCHAR(2147483647)"},
			{"id": 3, "name": "d", "type": "DECIMAL(10, 2)"},
		},
	}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range base {
			m[a] = b
		}
		if k != "" {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name   string
		exec   map[string]any
		reason string // "" for native
	}{
		{"native", with("", nil), ""},
		{"streaming", with("streaming", true), ""},
		{"limit", with("limit", 3), "LIMIT"},
		{"orc", with("fileFormat", "orc"), `"orc"`},
		{"position deletes", with("deleteFiles", 2), ""},
		{"equality deletes", with("equalityDeletes", 5), "5 equality delete files"},
		{"watermark column", with("watermarkColumn", "ts"), "watermark-column"},
		{"java side", with("unsupported", []string{"Iceberg metadata tables are not read natively"}), "metadata tables"},
		{"timestamp", with("fields", []map[string]any{{"id": 4, "name": "ts", "type": "TIMESTAMP(6)"}}), ""},
		{"nanos", with("fields", []map[string]any{{"id": 4, "name": "ts", "type": "TIMESTAMP(9)"}}), "column ts"},
	}
	for _, c := range cases {
		raw, _ := json.Marshal(c.exec)
		s, reasons, err := CompileIcebergScan(&IslandNode{Name: "TableSourceScan#1", Exec: raw}, map[string]string{"sluice.batch.rows": "100"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := strings.Join(reasons, "; ")
		switch {
		case c.reason == "" && got != "":
			t.Errorf("%s: want native, got %s", c.name, got)
		case c.reason != "" && (!strings.Contains(got, c.reason) || !strings.Contains(got, "lake.db.t")):
			t.Errorf("%s: want a reason with %q naming the table, got %q", c.name, c.reason, got)
		}
		if c.name == "native" && (s.BatchRows != 100 || len(s.Fields) != 3 || s.Fields[2].Type.Scale != 2) {
			t.Errorf("%s: compiled %+v", c.name, s)
		}
	}
	if _, _, err := CompileIcebergScan(&IslandNode{Name: "x", Exec: []byte(`{"fields":[{"id":1,"name":"k","type":"NO SUCH TYPE"}]}`)}, nil); err == nil {
		t.Error("an unparsable type must be an error")
	}
}
