package adbc

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// postgres connects to the tests' PostgreSQL server (SLUICE_PG_URI; `make test` starts it).
func postgres(t *testing.T) (*Conn, Endpoint) {
	t.Helper()
	uri := os.Getenv("SLUICE_PG_URI")
	if os.Getenv(DriverDirEnv) == "" || uri == "" {
		t.Skip("SLUICE_PG_URI or " + DriverDirEnv + " is not set (make test sets them)")
	}
	e := Endpoint{Driver: "postgresql", URI: uri}
	c, err := Open(context.Background(), e, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, e
}

func TestDescribeMapsTypesAsFlinksJdbcCatalog(t *testing.T) {
	c, _ := postgres(t)
	ctx := context.Background()
	for _, sql := range []string{
		"DROP SCHEMA IF EXISTS cat_test CASCADE",
		"CREATE SCHEMA cat_test",
		`CREATE TABLE cat_test.typed (id serial PRIMARY KEY, b boolean, s smallint, i integer NOT NULL, l bigint,
		   f real, d double precision, n numeric(10, 2), nn numeric, c char(3), c1 char, v varchar(20), vv varchar, t text,
		   by bytea, dt date, tm time, tm3 time(3), ts timestamp, ts3 timestamp(3), tz timestamptz, tz0 timestamptz(0),
		   ai integer[], an numeric(5, 1)[], av varchar(4)[])`,
		"CREATE TABLE cat_test.sluice_stage_0123456789abcdef_0_1 (x int)",
		"CREATE VIEW cat_test.v AS SELECT id FROM cat_test.typed",
		"CREATE TABLE cat_test.odd (j json)",
	} {
		if err := c.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	got, err := c.Describe(ctx, "cat_test", "typed")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"id INT NOT NULL", "b BOOLEAN", "s SMALLINT", "i INT NOT NULL", "l BIGINT", "f FLOAT", "d DOUBLE",
		"n DECIMAL(10, 2)", "nn DECIMAL(38, 18)", "c CHAR(3)", "c1 CHAR(1)", "v VARCHAR(20)", "vv STRING", "t STRING",
		"by BYTES", "dt DATE", "tm TIME(6)", "tm3 TIME(3)", "ts TIMESTAMP(6)", "ts3 TIMESTAMP(3)",
		"tz TIMESTAMP(6) WITH LOCAL TIME ZONE", "tz0 TIMESTAMP(0) WITH LOCAL TIME ZONE",
		"ai ARRAY<INT>", "an ARRAY<DECIMAL(5, 1)>", "av ARRAY<VARCHAR(4)>",
	}
	var cols []string
	for _, col := range got.Columns {
		cols = append(cols, col.Name+" "+col.Type)
	}
	if !reflect.DeepEqual(cols, want) {
		t.Errorf("columns\n got %v\nwant %v", cols, want)
	}
	if !reflect.DeepEqual(got.PrimaryKey, []string{"id"}) || got.PrimaryKeyName != "typed_pkey" {
		t.Errorf("primary key %v %q", got.PrimaryKey, got.PrimaryKeyName)
	}
	tables, err := c.Tables(ctx, "cat_test")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tables, []string{"odd", "typed", "v"}) {
		t.Errorf("tables %v (stage tables are hidden)", tables)
	}
	schemas, err := c.Schemas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(","+strings.Join(schemas, ",")+",", ",cat_test,") || strings.Contains(strings.Join(schemas, ","), "pg_catalog") {
		t.Errorf("schemas %v", schemas)
	}
	if _, err := c.Describe(ctx, "cat_test", "odd"); err == nil || !strings.Contains(err.Error(), "Doesn't support Postgres type 'json' yet") {
		t.Errorf("json column: %v", err)
	}
	if missing, err := c.Describe(ctx, "cat_test", "missing"); missing != nil || err != nil {
		t.Errorf("missing table: %v %v", missing, err)
	}
}

// A table created from Flink types describes as the same Flink types.
func TestCreateTableRoundTrip(t *testing.T) {
	_, e := postgres(t)
	cols := []Column{
		{"k", "BIGINT NOT NULL"}, {"b", "BOOLEAN"}, {"i", "INT"}, {"d", "DOUBLE"}, {"f", "FLOAT"},
		{"n", "DECIMAL(18, 3)"}, {"c", "CHAR(2)"}, {"v", "VARCHAR(7)"}, {"s", "VARCHAR(2147483647)"},
		{"by", "VARBINARY(2147483647)"}, {"dt", "DATE"}, {"tm", "TIME(0)"}, {"ts", "TIMESTAMP(3)"},
		{"tz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
	}
	req := func(r Request) []byte {
		r.Driver, r.URI, r.Schema = e.Driver, e.URI, "public"
		b, _ := json.Marshal(r)
		return b
	}
	if _, err := Serve(req(Request{Op: "drop", Table: "created", IfExists: true})); err != nil {
		t.Fatal(err)
	}
	if _, err := Serve(req(Request{Op: "create", Table: "created", Columns: cols, PrimaryKey: []string{"k"}})); err != nil {
		t.Fatal(err)
	}
	out, err := Serve(req(Request{Op: "describe", Table: "created"}))
	if err != nil {
		t.Fatal(err)
	}
	var got Table
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"s": "STRING", "by": "BYTES"}
	for i, c := range got.Columns {
		w := cols[i].Type
		if alt, ok := want[c.Name]; ok {
			w = alt
		}
		if c.Name != cols[i].Name || c.Type != w {
			t.Errorf("column %d: %s %s, want %s %s", i, c.Name, c.Type, cols[i].Name, w)
		}
	}
	if !reflect.DeepEqual(got.PrimaryKey, []string{"k"}) {
		t.Errorf("primary key %v", got.PrimaryKey)
	}
	if _, err := Serve(req(Request{Op: "create", Table: "created", Columns: cols})); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second create: %v", err)
	}
	if _, err := Serve(req(Request{Op: "create", Table: "created", Columns: cols, IfNotExists: true})); err != nil {
		t.Errorf("create if not exists: %v", err)
	}
}

func TestRedactRemovesPasswords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgresql://u:secret@h:5/db", "postgresql://u@h:5/db"},
		{"postgresql://h/db?password=secret&sslmode=off", "postgresql://h/db?password=redacted&sslmode=off"},
		{"host=h password=secret dbname=x", "host=h password=redacted dbname=x"},
		{"host=h password = 'se cret' dbname=x", "host=h password = redacted dbname=x"},
		{"file:/tmp/x.db", "file:/tmp/x.db"},
	} {
		if got := redact(tc.in); got != tc.want {
			t.Errorf("redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
