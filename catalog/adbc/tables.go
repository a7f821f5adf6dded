package adbc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/catalog"
)

// Column is a warehouse table's column as Flink sees it: its Flink type in Flink's serializable
// form ("DECIMAL(10, 2) NOT NULL", "TIMESTAMP(6) WITH LOCAL TIME ZONE").
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Table is a warehouse table as Flink sees it.
type Table struct {
	Columns []Column `json:"columns"`
	// PrimaryKey are the primary key's columns (none: no key), PrimaryKeyName its constraint.
	PrimaryKey     []string `json:"primaryKey,omitempty"`
	PrimaryKeyName string   `json:"primaryKeyName,omitempty"`
}

// stageTablePrefix starts the names of the ADBC sink's stage tables, which the catalog hides.
const stageTablePrefix = "sluice_stage_"

func (c *Conn) postgresOnly(what string) error {
	if c.dialect != PostgreSQL {
		return fmt.Errorf("%s: %s: the adbc catalog supports PostgreSQL only yet", c.where, what)
	}
	return nil
}

// Schemas lists the database's schemas but PostgreSQL's own.
func (c *Conn) Schemas(ctx context.Context) ([]string, error) {
	if err := c.postgresOnly("schemas"); err != nil {
		return nil, err
	}
	return c.QueryStrings(ctx, "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' "+
		"AND nspname <> 'information_schema' ORDER BY nspname")
}

// Tables lists a schema's tables and views (not the sink's stage tables).
func (c *Conn) Tables(ctx context.Context, schema string) ([]string, error) {
	if err := c.postgresOnly("tables"); err != nil {
		return nil, err
	}
	names, err := c.QueryStrings(ctx, "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON c.relnamespace = n.oid "+
		"WHERE n.nspname = "+QuoteString(schema)+" AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY c.relname")
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if !strings.HasPrefix(n, stageTablePrefix) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Describe returns a table's columns with their Flink types (nil when the table does not exist).
func (c *Conn) Describe(ctx context.Context, schema, table string) (*Table, error) {
	if err := c.postgresOnly("describe"); err != nil {
		return nil, err
	}
	rows, err := c.QueryRows(ctx, "SELECT a.attname, t.typname, a.atttypmod, a.attnotnull, coalesce(e.typname, '') "+
		"FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid JOIN pg_namespace n ON c.relnamespace = n.oid "+
		"JOIN pg_type t ON a.atttypid = t.oid LEFT JOIN pg_type e ON t.typelem = e.oid AND t.typcategory = 'A' "+
		"WHERE n.nspname = "+QuoteString(schema)+" AND c.relname = "+QuoteString(table)+
		" AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	t := &Table{}
	for _, r := range rows {
		mod, _ := strconv.Atoi(r[2])
		ft, err := FlinkType(r[1], r[4], mod, r[3] == "true")
		if err != nil {
			return nil, fmt.Errorf("table %s.%s: column %s: %w", schema, table, r[0], err)
		}
		t.Columns = append(t.Columns, Column{Name: r[0], Type: ft})
	}
	key, err := c.QueryRows(ctx, "SELECT a.attname, con.conname FROM pg_constraint con "+
		"JOIN pg_class c ON con.conrelid = c.oid JOIN pg_namespace n ON c.relnamespace = n.oid "+
		"JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(con.conkey) "+
		"WHERE con.contype = 'p' AND n.nspname = "+QuoteString(schema)+" AND c.relname = "+QuoteString(table)+
		" ORDER BY array_position(con.conkey, a.attnum)")
	if err != nil {
		return nil, err
	}
	for _, k := range key {
		t.PrimaryKey = append(t.PrimaryKey, k[0])
		t.PrimaryKeyName = k[1]
	}
	return t, nil
}

// FlinkType maps a PostgreSQL column type (pg_type's name, the element type's name for arrays,
// the column's type modifier) to the Flink type Flink's JDBC catalog for PostgreSQL gives it
// (PostgresTypeMapper): numeric without a precision is DECIMAL(38, 18), varchar without a length
// STRING, timestamps and times without a precision have 6 digits, timestamptz is TIMESTAMP_LTZ.
func FlinkType(typname, elem string, typmod int, notNull bool) (string, error) {
	var t string
	if strings.HasPrefix(typname, "_") && elem != "" {
		et, err := scalarFlinkType(elem, typmod)
		if err != nil {
			return "", err
		}
		t = "ARRAY<" + et + ">"
	} else {
		var err error
		if t, err = scalarFlinkType(typname, typmod); err != nil {
			return "", err
		}
	}
	if notNull {
		t += " NOT NULL"
	}
	return t, nil
}

func scalarFlinkType(typname string, typmod int) (string, error) {
	switch typname {
	case "bool":
		return "BOOLEAN", nil
	case "bytea":
		return "BYTES", nil
	case "int2":
		return "SMALLINT", nil
	case "int4":
		return "INT", nil
	case "int8":
		return "BIGINT", nil
	case "float4":
		return "FLOAT", nil
	case "float8":
		return "DOUBLE", nil
	case "numeric":
		if typmod < 4 {
			return "DECIMAL(38, 18)", nil
		}
		p, s := ((typmod-4)>>16)&0xffff, (typmod-4)&0xffff
		return fmt.Sprintf("DECIMAL(%d, %d)", p, s), nil
	case "bpchar":
		n := 1
		if typmod >= 4 {
			n = typmod - 4
		}
		return fmt.Sprintf("CHAR(%d)", n), nil
	case "varchar":
		if typmod < 4 {
			return "STRING", nil
		}
		return fmt.Sprintf("VARCHAR(%d)", typmod-4), nil
	case "text":
		return "STRING", nil
	case "date":
		return "DATE", nil
	case "time":
		return fmt.Sprintf("TIME(%d)", fractionDigits(typmod)), nil
	case "timestamp":
		return fmt.Sprintf("TIMESTAMP(%d)", fractionDigits(typmod)), nil
	case "timestamptz":
		return fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", fractionDigits(typmod)), nil
	}
	// Flink's JDBC catalog's words.
	return "", fmt.Errorf("Doesn't support Postgres type '%s' yet", typname)
}

// fractionDigits is the precision of a time or timestamp column (6 without a modifier).
func fractionDigits(typmod int) int {
	if typmod < 0 {
		return 6
	}
	return typmod
}

// ColumnDDL is the PostgreSQL column type of a Flink type, for CREATE TABLE.
func ColumnDDL(t catalog.Type) (string, error) {
	var s string
	switch t.Kind {
	case catalog.Boolean:
		s = "boolean"
	case catalog.TinyInt, catalog.SmallInt:
		s = "smallint"
	case catalog.Int:
		s = "integer"
	case catalog.BigInt:
		s = "bigint"
	case catalog.Float:
		s = "real"
	case catalog.Double:
		s = "double precision"
	case catalog.Decimal:
		s = fmt.Sprintf("numeric(%d, %d)", t.Precision, t.Scale)
	case catalog.Char:
		s = fmt.Sprintf("char(%d)", t.Length)
	case catalog.VarChar:
		if t.Length >= catalog.MaxVarLength {
			s = "text"
		} else {
			s = fmt.Sprintf("varchar(%d)", t.Length)
		}
	case catalog.Binary, catalog.VarBinary:
		s = "bytea"
	case catalog.Date:
		s = "date"
	case catalog.Time:
		s = fmt.Sprintf("time(%d)", min(t.Precision, 6))
	case catalog.Timestamp, catalog.TimestampLTZ:
		if t.Precision > 6 {
			return "", fmt.Errorf("type %s: PostgreSQL keeps at most 6 fractional digits", t)
		}
		s = fmt.Sprintf("timestamp(%d)", t.Precision)
		if t.Kind == catalog.TimestampLTZ {
			s = fmt.Sprintf("timestamptz(%d)", t.Precision)
		}
	default:
		return "", fmt.Errorf("type %s has no PostgreSQL column type in the adbc catalog yet", t)
	}
	if !t.Nullable {
		s += " NOT NULL"
	}
	return s, nil
}

// CreateTable creates a table (columns with Flink types) in a schema.
func (c *Conn) CreateTable(ctx context.Context, schema, table string, columns []Column, primaryKey []string, ifNotExists bool) error {
	if err := c.postgresOnly("create table"); err != nil {
		return err
	}
	defs := make([]string, 0, len(columns)+1)
	for _, col := range columns {
		t, err := catalog.ParseTypeString(col.Type)
		if err != nil {
			return fmt.Errorf("table %s.%s: column %s: %w", schema, table, col.Name, err)
		}
		ddl, err := ColumnDDL(t)
		if err != nil {
			return fmt.Errorf("table %s.%s: column %s: %w", schema, table, col.Name, err)
		}
		defs = append(defs, QuoteIdent(col.Name)+" "+ddl)
	}
	if len(primaryKey) > 0 {
		q := make([]string, len(primaryKey))
		for i, k := range primaryKey {
			q[i] = QuoteIdent(k)
		}
		defs = append(defs, "PRIMARY KEY ("+strings.Join(q, ", ")+")")
	}
	create := "CREATE TABLE "
	if ifNotExists {
		create += "IF NOT EXISTS "
	}
	return c.Exec(ctx, create+Qualified(schema, table)+" ("+strings.Join(defs, ", ")+")")
}
