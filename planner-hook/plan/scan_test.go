package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/testkit/islands"
)

// A scan Go cannot read says why, naming the table.
func TestScanVerdictReasons(t *testing.T) {
	all := islands.WithPath(t, "parquet_scan_calc_sink.json", "s3://bucket/t")
	var is Island
	if err := json.Unmarshal(all, &is); err != nil {
		t.Fatal(err)
	}
	_, reasons, err := CompileFileScan(&is.Nodes[0], map[string]string{})
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
