package plan

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
)

// fsTable is the part of a resolved catalog table, as Flink's plan JSON writes it, that native
// filesystem scans and sinks read.
type fsTable struct {
	Identifier    string `json:"identifier"`
	ResolvedTable struct {
		Schema struct {
			Columns []struct {
				Name     string          `json:"name"`
				Kind     string          `json:"kind"`
				DataType json.RawMessage `json:"dataType"`
			} `json:"columns"`
			// PrimaryKey is the table's PRIMARY KEY, nil without one.
			PrimaryKey *struct {
				Columns []string `json:"columns"`
			} `json:"primaryKey"`
		} `json:"schema"`
		PartitionKeys []string          `json:"partitionKeys"`
		Options       map[string]string `json:"options"`
	} `json:"resolvedTable"`
}

// parquetReasons checks a table for native Parquet reading or writing (verb "read" or
// "written"): ok is false when it is not a filesystem table in Parquet at all; reasons say why
// a filesystem Parquet table is not handled natively (a path off the local file system, options
// that known does not accept).
func (t *fsTable) parquetReasons(verb string, known func(key string) bool) (ok bool, reasons []string) {
	opts := t.ResolvedTable.Options
	if opts["connector"] != "filesystem" || opts["format"] != "parquet" {
		return false, []string{fmt.Sprintf("table %s: only filesystem tables in Parquet are %s natively (connector '%s', format '%s')",
			t.Identifier, verb, opts["connector"], opts["format"])}
	}
	if u, err := url.Parse(opts["path"]); err != nil || (u.Scheme != "" && u.Scheme != "file") {
		reasons = append(reasons, fmt.Sprintf("table %s: path '%s' is not on the local file system (Sluice %s local files only yet)",
			t.Identifier, opts["path"], map[string]string{"read": "reads", "written": "writes"}[verb]))
	}
	var unknown []string
	for k := range opts {
		if !known(k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		reasons = append(reasons, fmt.Sprintf("table %s: option '%s' is not supported natively when the table is %s", t.Identifier, k, verb))
	}
	return true, reasons
}
