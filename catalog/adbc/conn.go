// Package adbc connects to databases through ADBC drivers (ADBC's C drivers loaded by the driver
// manager: PostgreSQL, SQLite; ADBC's Go driver for Flight SQL servers) and describes their tables to Flink: schemas, tables and columns,
// with column types mapped as Flink's JDBC catalog maps them. The ADBC sink (sinks/adbc) writes
// through the same connections.
package adbc

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-adbc/go/adbc/driver/flightsql"
	"github.com/apache/arrow-adbc/go/adbc/drivermgr"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DriverDirEnv names the environment variable of a directory holding ADBC driver libraries
// (libadbc_driver_<name>.so); a driver given by name is looked up there first.
const DriverDirEnv = "SLUICE_ADBC_DRIVER_DIR"

// Endpoint is where a sink or catalog connects: an ADBC driver and its database options.
type Endpoint struct {
	// Driver is a driver name (postgresql, sqlite, ...) or the path of a driver library.
	Driver string
	// URI is the database URI the driver understands.
	URI string
	// Username and Password, when set, are passed as ADBC's username and password options.
	Username, Password string
}

// Dialect is what differs between the SQL the sink sends to different databases.
type Dialect int

const (
	// PostgreSQL: the PostgreSQL driver.
	PostgreSQL Dialect = iota
	// SQLite: the SQLite driver.
	SQLite
	// FlightSQL: a Flight SQL server through ADBC's Go driver (driver "flightsql"), whatever
	// database it serves: standard SQL only.
	FlightSQL
)

// FlightSQLDriver is the driver name of ADBC's Flight SQL driver, which is Go (no library).
const FlightSQLDriver = "flightsql"

// driverPath resolves a driver name to a library: a path is used as given; a name is looked up
// as libadbc_driver_<name>.so in $SLUICE_ADBC_DRIVER_DIR, else left to the driver manager's own
// search (manifests and the dynamic loader's path).
func driverPath(driver string) string {
	if strings.ContainsRune(driver, '/') {
		return driver
	}
	if dir := os.Getenv(DriverDirEnv); dir != "" {
		p := filepath.Join(dir, "libadbc_driver_"+driver+".so")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return driver
}

// DialectOf tells the SQL dialect from the driver's name or library.
func DialectOf(driver string) (Dialect, error) {
	base := strings.ToLower(filepath.Base(driver))
	switch {
	case base == FlightSQLDriver:
		return FlightSQL, nil
	case strings.Contains(base, "postgres"):
		return PostgreSQL, nil
	case strings.Contains(base, "sqlite"):
		return SQLite, nil
	}
	return 0, fmt.Errorf("adbc driver %q: unknown database (known: postgresql, sqlite, flightsql)", driver)
}

// ErrNoTransactions is the error of an Open that asked for a transaction of a server that has
// none (a Flight SQL server that reports no transaction support).
var ErrNoTransactions = errors.New("the server does not support transactions")

// Conn is one open ADBC connection with its database.
type Conn struct {
	db      adbc.Database
	cn      adbc.Connection
	dialect Dialect
	where   string // the endpoint, for errors (without credentials)
}

// Dialect is the database's SQL dialect.
func (c *Conn) Dialect() Dialect { return c.dialect }

// Where names the endpoint for messages (without credentials).
func (c *Conn) Where() string {
	return c.where
}

// Open connects to an endpoint. autocommit false starts the connection in a transaction.
func Open(ctx context.Context, e Endpoint, autocommit bool) (*Conn, error) {
	dialect, err := DialectOf(e.Driver)
	if err != nil {
		return nil, err
	}
	where := fmt.Sprintf("adbc %s %s", e.Driver, redact(e.URI))
	opts := map[string]string{adbc.OptionKeyURI: e.URI}
	if e.Username != "" {
		opts[adbc.OptionKeyUsername] = e.Username
	}
	if e.Password != "" {
		opts[adbc.OptionKeyPassword] = e.Password
	}
	var drv adbc.Driver
	if dialect == FlightSQL {
		drv = flightsql.NewDriver(memory.DefaultAllocator)
	} else {
		opts["driver"] = driverPath(e.Driver)
		drv = &drivermgr.Driver{}
	}
	db, err := drv.NewDatabase(opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	cn, err := db.Open(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: connect: %w", where, err)
	}
	c := &Conn{db: db, cn: cn, dialect: dialect, where: where}
	if !autocommit {
		if err := c.setAutocommit(false); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// redact drops the passwords of a URI for messages: the user info's, a password query
// parameter, a password=... keyword of a libpq connection string.
func redact(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme != "" {
		if u.User != nil {
			u.User = url.User(u.User.Username())
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "redacted")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return passwordKeyword.ReplaceAllString(uri, "${1}redacted")
}

// passwordKeyword is a password in a keyword/value connection string.
var passwordKeyword = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)`)

func (c *Conn) setAutocommit(on bool) error {
	v := adbc.OptionValueDisabled
	if on {
		v = adbc.OptionValueEnabled
	}
	po, ok := c.cn.(adbc.PostInitOptions)
	if !ok {
		return fmt.Errorf("%s: the driver's connections take no options (autocommit)", c.where)
	}
	if err := po.SetOption(adbc.OptionKeyAutoCommit, v); err != nil {
		var ae adbc.Error
		if !on && errors.As(err, &ae) && ae.Code == adbc.StatusNotImplemented {
			return fmt.Errorf("%s: %w (%v)", c.where, ErrNoTransactions, err)
		}
		return fmt.Errorf("%s: autocommit %s: %w", c.where, v, err)
	}
	return nil
}

// Exec runs a statement that returns no rows.
func (c *Conn) Exec(ctx context.Context, sql string) error {
	st, err := c.cn.NewStatement()
	if err != nil {
		return fmt.Errorf("%s: %w", c.where, err)
	}
	defer st.Close()
	if err := st.SetSqlQuery(sql); err != nil {
		return fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	if _, err := st.ExecuteUpdate(ctx); err != nil {
		return fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	return nil
}

// QueryStrings runs a query and returns its first column's values as text (NULL as "").
func (c *Conn) QueryStrings(ctx context.Context, sql string) ([]string, error) {
	rows, err := c.QueryRows(ctx, sql)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[0]
	}
	return out, nil
}

// Query runs a query and returns its result stream; releasing the reader closes the query.
func (c *Conn) Query(ctx context.Context, sql string) (array.RecordReader, error) {
	st, err := c.cn.NewStatement()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.where, err)
	}
	if err := st.SetSqlQuery(sql); err != nil {
		st.Close()
		return nil, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	rdr, _, err := st.ExecuteQuery(ctx)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	return &queryResult{RecordReader: rdr, st: st}, nil
}

// queryResult is a query's result stream that closes its statement when released.
type queryResult struct {
	array.RecordReader
	st adbc.Statement
}

// Release releases the stream and closes the statement.
func (q *queryResult) Release() {
	q.RecordReader.Release()
	if q.st != nil {
		q.st.Close()
		q.st = nil
	}
}

// QueryRows runs a query and returns its rows' values as text (NULL as "").
func (c *Conn) QueryRows(ctx context.Context, sql string) ([][]string, error) {
	st, err := c.cn.NewStatement()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.where, err)
	}
	defer st.Close()
	if err := st.SetSqlQuery(sql); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	rdr, _, err := st.ExecuteQuery(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	defer rdr.Release()
	var out [][]string
	for rdr.Next() {
		b := rdr.RecordBatch()
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]string, b.NumCols())
			for k, col := range b.Columns() {
				if !col.IsNull(r) {
					// Copied: the driver's buffers go with the reader.
					row[k] = strings.Clone(col.ValueStr(r))
				}
			}
			out = append(out, row)
		}
	}
	if err := rdr.Err(); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	return out, nil
}

// Ingest appends the batches of a reader to a table by the driver's bulk ingestion (through a
// Flight SQL server, by a prepared INSERT with the batches bound: the example servers and many
// others do not take Flight SQL's bulk ingestion command).
func (c *Conn) Ingest(ctx context.Context, schema, table string, rows array.RecordReader) (int64, error) {
	if c.dialect == FlightSQL {
		return c.insertBound(ctx, schema, table, rows)
	}
	st, err := c.cn.NewStatement()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", c.where, err)
	}
	defer st.Close()
	if err := st.SetOption(adbc.OptionKeyIngestTargetTable, table); err != nil {
		return 0, fmt.Errorf("%s: ingest into %s: %w", c.where, table, err)
	}
	if schema != "" {
		if err := st.SetOption(adbc.OptionValueIngestTargetDBSchema, schema); err != nil {
			return 0, fmt.Errorf("%s: ingest into %s.%s: %w", c.where, schema, table, err)
		}
	}
	if err := st.SetOption(adbc.OptionKeyIngestMode, adbc.OptionValueIngestModeAppend); err != nil {
		return 0, fmt.Errorf("%s: ingest into %s: %w", c.where, table, err)
	}
	if err := st.BindStream(ctx, rows); err != nil {
		return 0, fmt.Errorf("%s: ingest into %s: %w", c.where, table, err)
	}
	n, err := st.ExecuteUpdate(ctx)
	if err != nil {
		return 0, fmt.Errorf("%s: ingest into %s: %w", c.where, table, err)
	}
	return n, nil
}

// insertBound appends the batches of a reader to a table by one prepared INSERT with the
// batches bound as its parameters (a Flight SQL server that does not take bulk ingestion:
// still one request per reader, the rows travelling as Arrow).
func (c *Conn) insertBound(ctx context.Context, schema, table string, rows array.RecordReader) (int64, error) {
	fields := rows.Schema().Fields()
	cols := make([]string, len(fields))
	marks := make([]string, len(fields))
	for i, f := range fields {
		cols[i], marks[i] = QuoteIdent(f.Name), "?"
	}
	sql := "INSERT INTO " + Qualified(schema, table) + " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")"
	st, err := c.cn.NewStatement()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", c.where, err)
	}
	defer st.Close()
	if err := st.SetSqlQuery(sql); err != nil {
		return 0, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	if err := st.Prepare(ctx); err != nil {
		return 0, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	if err := st.BindStream(ctx, rows); err != nil {
		return 0, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	n, err := st.ExecuteUpdate(ctx)
	if err != nil {
		return 0, fmt.Errorf("%s: %s: %w", c.where, sql, err)
	}
	return n, nil
}

// Commit commits the open transaction.
func (c *Conn) Commit(ctx context.Context) error {
	if err := c.cn.Commit(ctx); err != nil {
		return fmt.Errorf("%s: commit: %w", c.where, err)
	}
	return nil
}

// Rollback rolls the open transaction back.
func (c *Conn) Rollback(ctx context.Context) error {
	if err := c.cn.Rollback(ctx); err != nil {
		return fmt.Errorf("%s: rollback: %w", c.where, err)
	}
	return nil
}

// Close disconnects.
func (c *Conn) Close() error {
	return errors.Join(c.cn.Close(), c.db.Close())
}

// QuoteIdent quotes an SQL identifier (both dialects use double quotes).
func QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// QuoteString quotes an SQL string literal.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// Qualified is a table name with its schema, quoted.
func Qualified(schema, table string) string {
	if schema == "" {
		return QuoteIdent(table)
	}
	return QuoteIdent(schema) + "." + QuoteIdent(table)
}

// TablesLike lists the tables of a schema whose names start with prefix.
func (c *Conn) TablesLike(ctx context.Context, schema, prefix string) ([]string, error) {
	var sql string
	switch c.dialect {
	case PostgreSQL:
		where := "current_schema()"
		if schema != "" {
			where = QuoteString(schema)
		}
		sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = " + where +
			" AND starts_with(table_name, " + QuoteString(prefix) + ")"
	case SQLite:
		sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, " +
			strconv.Itoa(len(prefix)) + ") = " + QuoteString(prefix)
	case FlightSQL:
		return c.objectsLike(ctx, schema, prefix)
	}
	return c.QueryStrings(ctx, sql)
}

// objectsLike lists the tables of a schema whose names start with prefix through ADBC's
// GetObjects (the Flight SQL server's GetTables), for servers whose catalog tables are unknown.
func (c *Conn) objectsLike(ctx context.Context, schema, prefix string) ([]string, error) {
	var dbSchema *string
	if schema != "" {
		dbSchema = &schema
	}
	// The pattern's wildcards ('_' in the prefix) may match more: the names are filtered below.
	// (Servers differ on escapes in patterns.)
	pattern := prefix + "%"
	rdr, err := c.cn.GetObjects(ctx, adbc.ObjectDepthTables, nil, dbSchema, &pattern, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: tables like %s: %w", c.where, prefix, err)
	}
	defer rdr.Release()
	var out []string
	for rdr.Next() {
		b := rdr.RecordBatch()
		// catalog_db_schemas: list<struct<db_schema_name, db_schema_tables: list<struct<table_name, ...>>>>
		schemas := b.Column(1).(*array.List)
		schemaStructs := schemas.ListValues().(*array.Struct)
		tables := schemaStructs.Field(1).(*array.List)
		tableStructs := tables.ListValues().(*array.Struct)
		names := tableStructs.Field(0).(*array.String)
		for i := 0; i < names.Len(); i++ {
			if n := names.Value(i); strings.HasPrefix(n, prefix) {
				out = append(out, strings.Clone(n))
			}
		}
	}
	if err := rdr.Err(); err != nil {
		return nil, fmt.Errorf("%s: tables like %s: %w", c.where, prefix, err)
	}
	return out, nil
}
