package adbc

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	wh "github.com/sluice-project/sluice/catalog/adbc"
	"github.com/sluice-project/sluice/exec/decimal"
	"github.com/sluice-project/sluice/testkit/flightsqltest"
)

func TestPartitionRangesAsFlinksJdbcSource(t *testing.T) {
	for _, c := range []struct {
		lower, upper int64
		n            int
		want         [][2]int64
	}{
		{1, 10, 3, [][2]int64{{1, 4}, {5, 7}, {8, 10}}},
		{0, 9, 5, [][2]int64{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}}},
		{5, 6, 4, [][2]int64{{5, 5}, {6, 6}}}, // no more ranges than values
		{-3, -3, 1, [][2]int64{{-3, -3}}},
	} {
		got, err := PartitionRanges(c.lower, c.upper, c.n)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("PartitionRanges(%d, %d, %d) = %v, %v; want %v", c.lower, c.upper, c.n, got, err, c.want)
		}
	}
	for _, bad := range [][3]int64{{2, 1, 1}, {0, 1, 0}} {
		if _, err := PartitionRanges(bad[0], bad[1], int(bad[2])); err == nil {
			t.Errorf("PartitionRanges%v: no error", bad)
		}
	}
}

func TestParseNumeric(t *testing.T) {
	for in, want := range map[string][2]string{"-12.340": {"-12340", "3"}, "7": {"7", "0"}, "0.5": {"5", "1"}} {
		v, s, err := parseNumeric(in)
		if err != nil || v.String() != want[0] || s != int(want[1][0]-'0') {
			t.Errorf("parseNumeric(%q) = %v, %d, %v", in, v, s, err)
		}
	}
	for _, bad := range []string{"NaN", "Infinity", "-Infinity", "1e5", ""} {
		if _, _, err := parseNumeric(bad); err == nil {
			t.Errorf("parseNumeric(%q): no error", bad)
		}
	}
}

// pgScan is a scan of the tests' PostgreSQL server (SLUICE_PG_URI; `make test` starts it).
func pgScan(t *testing.T) (*wh.Conn, Scan) {
	t.Helper()
	uri := os.Getenv("SLUICE_PG_URI")
	if os.Getenv(wh.DriverDirEnv) == "" || uri == "" {
		t.Skip("SLUICE_PG_URI or " + wh.DriverDirEnv + " is not set (make test sets them)")
	}
	e := wh.Endpoint{Driver: "postgresql", URI: uri}
	c, err := wh.Open(context.Background(), e, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, Scan{Endpoint: e, Schema: "scan_test"}
}

func readAll(t *testing.T, s Scan, skip int64) ([][]string, error) {
	t.Helper()
	r, err := Open(context.Background(), s, skip)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var rows [][]string
	for {
		b, err := r.Next()
		if err != nil || b == nil {
			return rows, err
		}
		for i := 0; i < int(b.NumRows()); i++ {
			row := make([]string, b.NumCols())
			for k, col := range b.Columns() {
				row[k] = cell(col, i)
			}
			rows = append(rows, row)
		}
		b.Release()
	}
}

// cell renders a value for comparisons (a copy: string values point into the batch); decimals
// with their scale's digits.
func cell(col arrow.Array, i int) string {
	if d, ok := col.(*array.Decimal128); ok && d.IsValid(i) {
		return decimal.PlainString(d.Value(i).BigInt(), int(d.DataType().(*arrow.Decimal128Type).Scale))
	}
	return strings.Clone(col.ValueStr(i))
}

func TestScanReadsValuesAsFlinksJdbcSource(t *testing.T) {
	c, s := pgScan(t)
	ctx := context.Background()
	for _, sql := range []string{
		"DROP SCHEMA IF EXISTS scan_test CASCADE",
		"CREATE SCHEMA scan_test",
		`CREATE TABLE scan_test.t (id integer, s smallint, l bigint, n numeric(6, 2), nn numeric, v varchar(5), c char(3),
		   tm time, ts3 timestamp(3), ts timestamp, tz timestamptz, dt date, by bytea)`,
		`INSERT INTO scan_test.t VALUES
		   (1, -2, 3, 1234.56, 1.1234567890123456789, 'é', 'a', '12:34:56.789', '2020-01-02 03:04:05.678', '1969-12-31 23:59:59.999999', '2020-01-02 03:04:05.5+02', '1900-02-28', '\x00ff'),
		   (2, NULL, NULL, NULL, 123456789012345678901, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		   (3, 0, 0, -0.5, 12345678901234567890.5, '', '', '00:00:00', '1970-01-01', '1970-01-01', '1970-01-01 00:00:00+00', '1970-01-01', '')`,
	} {
		if err := c.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	col := func(name, typ string) Column {
		ty, err := catalog.ParseTypeString(typ)
		if err != nil {
			t.Fatal(err)
		}
		return Column{Name: name, Type: ty}
	}
	s.Table = "t"
	s.Columns = []Column{col("id", "INT"), col("s", "SMALLINT"), col("l", "BIGINT"), col("n", "DECIMAL(6, 2)"),
		col("nn", "DECIMAL(38, 18)"), col("v", "VARCHAR(5)"), col("c", "CHAR(3)"), col("tm", "TIME(0)"),
		col("ts3", "TIMESTAMP(3)"), col("ts", "TIMESTAMP(6)"), col("tz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
		col("dt", "DATE"), col("by", "BYTES")}
	s.Range = &Range{Column: "id", Lower: 1, Upper: 3}
	rows, err := readAll(t, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		// TIME loses its fraction (java.sql.Time#toLocalTime); numeric is rounded HALF_UP to the
		// scale, NULL past the precision (DecimalData#fromBigDecimal).
		{"1", "-2", "3", "1234.56", "1.123456789012345679", "é", "a  ", "12:34:56.000", "2020-01-02T03:04:05.678", "1969-12-31T23:59:59.999999", "2020-01-02T01:04:05.5Z", "1900-02-28", "AP8="},
		{"2", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)"},
		{"3", "0", "0", "-0.50", "12345678901234567890.500000000000000000", "", "   ", "00:00:00.000", "1970-01-01T00:00:00", "1970-01-01T00:00:00", "1970-01-01T00:00:00Z", "1970-01-01", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows: %v", len(rows), rows)
	}
	for i := range want {
		if !reflect.DeepEqual(rows[i], want[i]) {
			t.Errorf("row %d:\n got %q\nwant %q", i, rows[i], want[i])
		}
	}
	// Batches of at most BatchRows rows; a skip inside the driver's batch.
	s.BatchRows = 2
	r, err := Open(ctx, s, 1)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for {
		b, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		sizes = append(sizes, b.NumRows())
		if len(sizes) == 1 && b.Column(0).ValueStr(0) != "2" {
			t.Errorf("after skipping 1 row, the first row is %s", b.Column(0).ValueStr(0))
		}
		b.Release()
	}
	r.Close()
	if !reflect.DeepEqual(sizes, []int64{2}) {
		t.Errorf("batch sizes %v, want [2]", sizes)
	}
	s.BatchRows = 1
	if rows, err := readAll(t, s, 0); err != nil || len(rows) != 3 {
		t.Errorf("one-row batches: %d rows, %v", len(rows), err)
	}
	s.BatchRows = 0
	// A restored split skips the rows it emitted; a range reads its rows only.
	s.Range = &Range{Column: "id", Lower: 2, Upper: 3}
	if rows, err = readAll(t, s, 1); err != nil || len(rows) != 1 || rows[0][0] != "3" {
		t.Errorf("range [2, 3] after 1 row: %v, %v", rows, err)
	}
}

func TestScanErrorsNameTheColumn(t *testing.T) {
	c, s := pgScan(t)
	ctx := context.Background()
	for _, sql := range []string{
		"DROP SCHEMA IF EXISTS scan_test CASCADE",
		"CREATE SCHEMA scan_test",
		"CREATE TABLE scan_test.e (big bigint, txt text, n numeric, us timestamp)",
		"INSERT INTO scan_test.e VALUES (3000000000, 'x', 'NaN', '2020-01-01 00:00:00.000001')",
	} {
		if err := c.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	s.Table = "e"
	for _, c := range []struct {
		col  Column
		want string
	}{
		{Column{"big", catalog.IntType(true)}, "column big: row 0: 3000000000 is out of the range of INT"},
		{Column{"txt", catalog.IntType(true)}, "column txt: the database column is PostgreSQL text (utf8), which is not read as INT"},
		{Column{"n", catalog.DecimalType(10, 2, true)}, "has no DECIMAL value"},
		{Column{"us", catalog.TimestampType(3, true)}, "column us: row 0: the timestamp has more fractional digits"},
		{Column{"missing", catalog.IntType(true)}, "missing"},
		{Column{"txt", catalog.TimestampType(9, true)}, "not read by the adbc source yet"},
	} {
		s.Columns = []Column{c.col}
		_, err := readAll(t, s, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "adbc scan e") {
			t.Errorf("%s as %s: %v; want %q", c.col.Name, c.col.Type, err, c.want)
		}
	}
}

func TestScanThroughFlightSQL(t *testing.T) {
	if os.Getenv(wh.DriverDirEnv) == "" {
		t.Skip(wh.DriverDirEnv + " is not set (make test sets it)")
	}
	srv, err := flightsqltest.Start(filepath.Join(t.TempDir(), "scan.db"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	e := wh.Endpoint{Driver: wh.FlightSQLDriver, URI: srv.URI}
	c, err := wh.Open(context.Background(), e, true)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, sql := range []string{
		"CREATE TABLE f (id INTEGER, name TEXT, score REAL, raw BLOB)",
		// (No NULL blob: the example server reads one as an empty value.)
		"INSERT INTO f VALUES (1, 'ä', 1.5, x'00ff'), (2, NULL, NULL, x'01'), (3000000000, 'z', -0.25, x'')",
	} {
		if err := c.Exec(context.Background(), sql); err != nil {
			t.Fatal(err)
		}
	}
	s := Scan{Endpoint: e, Table: "f", Columns: []Column{{"id", catalog.BigIntType(true)}, {"name", catalog.StringType(true)},
		{"score", catalog.DoubleType(true)}, {"raw", catalog.Type{Kind: catalog.VarBinary, Length: 2147483647, Nullable: true}}}}
	rows, err := readAll(t, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "ä", "1.5", "AP8="}, {"2", "(null)", "(null)", "AQ=="}, {"3000000000", "z", "-0.25", ""}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows:\n got %q\nwant %q", rows, want)
	}
	// SQLite's integers are 64-bit: INT takes them while they fit.
	s.Columns = []Column{{"id", catalog.IntType(true)}}
	if _, err := readAll(t, s, 0); err == nil || !strings.Contains(err.Error(), "3000000000 is out of the range of INT") {
		t.Errorf("INT over 3000000000: %v", err)
	}
}

func TestRoundingDigits(t *testing.T) {
	for _, c := range [][3]string{
		{"1.23456", "2", "1.234"}, {"1.2", "2", "1.2"}, {"7", "0", "7"}, {"-0.00049", "3", "-0.0004"},
		{"1." + strings.Repeat("4", 500) + "9", "18", "1." + strings.Repeat("4", 19)},
	} {
		scale := int(c[1][0] - '0')
		if len(c[1]) == 2 {
			scale = 18
		}
		if got := roundingDigits(c[0], scale); got != c[2] {
			t.Errorf("roundingDigits(%.20s..., %d) = %.30s; want %.30s", c[0], scale, got, c[2])
		}
	}
}

func TestScanEdgeValues(t *testing.T) {
	c, s := pgScan(t)
	ctx := context.Background()
	for _, sql := range []string{
		"DROP SCHEMA IF EXISTS scan_test CASCADE",
		"CREATE SCHEMA scan_test",
		"CREATE TABLE scan_test.edge (tm time, n numeric, ts timestamp)",
		// PostgreSQL's 24:00:00; a numeric with 501 fraction digits; a lone timestamp column
		// (its batch keeps the driver's buffers).
		"INSERT INTO scan_test.edge VALUES ('24:00:00', 1." + strings.Repeat("4", 500) + "9, '2001-02-03 04:05:06.789012')",
	} {
		if err := c.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	s.Table = "edge"
	s.Columns = []Column{{"tm", catalog.Type{Kind: catalog.Time, Nullable: true}}, {"n", catalog.DecimalType(38, 18, true)}}
	rows, err := readAll(t, s, 0)
	if err != nil || len(rows) != 1 || !reflect.DeepEqual(rows[0], []string{"00:00:00.000", "1.444444444444444444"}) {
		t.Errorf("edge values: %q, %v", rows, err)
	}
	s.Columns = []Column{{"ts", catalog.TimestampType(6, true)}}
	r, err := Open(ctx, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Next()
	if err != nil || b == nil {
		t.Fatalf("timestamp batch: %v", err)
	}
	if next, err := r.Next(); next != nil || err != nil {
		t.Fatalf("a second batch: %v", err)
	}
	r.Close() // the driver's batch and stream are gone; the batch holds its buffers
	if got := b.Column(0).ValueStr(0); got != "2001-02-03T04:05:06.789012" {
		t.Errorf("timestamp after the reader closed: %s", got)
	}
	b.Release()
}
