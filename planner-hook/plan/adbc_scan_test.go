package plan

import (
	"encoding/json"
	"strings"
	"testing"
)

func adbcScanDesc(t *testing.T, options map[string]string, fields ...string) []byte {
	t.Helper()
	o := map[string]string{"connector": "adbc", "driver": "postgresql", "uri": "postgresql://x@127.0.0.1/db", "table-name": "t"}
	for k, v := range options {
		o[k] = v
	}
	var fs []map[string]string
	for i := 0; i+1 < len(fields); i += 2 {
		fs = append(fs, map[string]string{"name": fields[i], "type": fields[i+1]})
	}
	raw, err := json.Marshal(map[string]any{"type": AdbcScanType, "table": "cat.db.t", "options": o, "fields": fs})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestParseAdbcScan(t *testing.T) {
	partitioned := map[string]string{"scan.partition.column": "id", "scan.partition.num": "3",
		"scan.partition.lower-bound": "1", "scan.partition.upper-bound": "10"}
	s, err := ParseAdbcScan(adbcScanDesc(t, partitioned, "id", "INT NOT NULL", "v", "VARCHAR(5)"))
	if err != nil {
		t.Fatal(err)
	}
	if s.splits() != 3 {
		t.Fatalf("splits: %d", s.splits())
	}
	sc, err := s.Split(1)
	if err != nil {
		t.Fatal(err)
	}
	if q := sc.Query(); q != `SELECT "id", "v" FROM "t" WHERE "id" BETWEEN 5 AND 7` {
		t.Errorf("split 1 query: %s", q)
	}
	if _, err := s.Split(3); err == nil {
		t.Error("split 3 of 3: no error")
	}
	one, err := ParseAdbcScan(adbcScanDesc(t, map[string]string{"db-schema": "wh"}, "id", "INT"))
	if err != nil || one.splits() != 1 {
		t.Fatalf("unpartitioned: %v, %v", one, err)
	}
	if sc, _ := one.Split(0); sc.Query() != `SELECT "id" FROM "wh"."t"` {
		t.Errorf("unpartitioned query: %s", sc.Query())
	}
	for _, c := range []struct {
		options map[string]string
		fields  []string
		want    string
	}{
		{map[string]string{"scan.fetch-size": "10"}, nil, "unknown option(s) scan.fetch-size"},
		{map[string]string{"scan.partition.column": "id"}, nil, "must all be set, or none"},
		{map[string]string{"scan.partition.column": "id", "scan.partition.num": "x", "scan.partition.lower-bound": "1", "scan.partition.upper-bound": "2"}, nil, "expected a number"},
		{map[string]string{"scan.partition.column": "id", "scan.partition.num": "2", "scan.partition.lower-bound": "5", "scan.partition.upper-bound": "2"}, nil, "is above"},
		{map[string]string{"driver": "nosuch"}, nil, "nosuch"},
		{map[string]string{"uri": ""}, nil, "'uri' is required"},
		{nil, []string{"a", "ARRAY<INT>"}, "column a: type ARRAY<INT> is not read by the adbc source yet"},
		{nil, []string{"ts", "TIMESTAMP(9)"}, "column ts: type TIMESTAMP(9)"},
	} {
		_, err := ParseAdbcScan(adbcScanDesc(t, c.options, c.fields...))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "adbc table cat.db.t") {
			t.Errorf("%v %v: %v; want %q", c.options, c.fields, err, c.want)
		}
	}
}
