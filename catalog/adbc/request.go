package adbc

import (
	"context"
	"encoding/json"
	"fmt"
)

// Request is one catalog operation as the Java catalog sends it.
type Request struct {
	// Op is schemas, tables, describe, create or drop.
	Op       string `json:"op"`
	Driver   string `json:"driver"`
	URI      string `json:"uri"`
	Username string `json:"username"`
	Password string `json:"password"`
	Schema   string `json:"schema"`
	Table    string `json:"table"`
	// Columns, PrimaryKey and IfNotExists describe the table to create.
	Columns     []Column `json:"columns"`
	PrimaryKey  []string `json:"primaryKey"`
	IfNotExists bool     `json:"ifNotExists"`
	// IfExists: dropping a missing table is no error.
	IfExists bool `json:"ifExists"`
}

// Serve runs a catalog request on a connection of its own and returns the answer as JSON: a
// list of names (schemas, tables), the table (describe; null when it does not exist), or null.
func Serve(request []byte) ([]byte, error) {
	var r Request
	if err := json.Unmarshal(request, &r); err != nil {
		return nil, fmt.Errorf("adbc catalog: %w", err)
	}
	ctx := context.Background()
	c, err := Open(ctx, Endpoint{Driver: r.Driver, URI: r.URI, Username: r.Username, Password: r.Password}, true)
	if err != nil {
		return nil, fmt.Errorf("adbc catalog: %w", err)
	}
	defer c.Close()
	var out any
	switch r.Op {
	case "schemas":
		out, err = c.Schemas(ctx)
	case "tables":
		out, err = c.Tables(ctx, r.Schema)
	case "describe":
		out, err = c.Describe(ctx, r.Schema, r.Table)
	case "create":
		err = c.CreateTable(ctx, r.Schema, r.Table, r.Columns, r.PrimaryKey, r.IfNotExists)
	case "drop":
		drop := "DROP TABLE "
		if r.IfExists {
			drop += "IF EXISTS "
		}
		err = c.Exec(ctx, drop+Qualified(r.Schema, r.Table))
	default:
		err = fmt.Errorf("unknown operation %q", r.Op)
	}
	if err != nil {
		return nil, fmt.Errorf("adbc catalog: %w", err)
	}
	return json.Marshal(out)
}
