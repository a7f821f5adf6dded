package plan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sluice-project/sluice/catalog"
	wh "github.com/sluice-project/sluice/catalog/adbc"
)

// The options of an ADBC table (docs/connectors/adbc.md).
const (
	adbcDriver        = "driver"
	adbcURI           = "uri"
	adbcTableName     = "table-name"
	adbcDBSchema      = "db-schema"
	adbcUsername      = "username"
	adbcPassword      = "password"
	adbcMaxRows       = "sink.buffer-flush.max-rows"
	adbcFlushInterval = "sink.buffer-flush.interval"
	adbcGuarantee     = "sink.delivery-guarantee"
	adbcMode          = "sink.mode"
	adbcCommitTable   = "sink.commit-table"
	adbcCommitMode    = "sink.commit-mode"
	adbcTxnPrefix     = "sink.transactional-id-prefix"
)

// The scan options of an ADBC table, named as Flink's JDBC source names them.
const (
	adbcPartitionColumn = "scan.partition.column"
	adbcPartitionNum    = "scan.partition.num"
	adbcPartitionLower  = "scan.partition.lower-bound"
	adbcPartitionUpper  = "scan.partition.upper-bound"
)

// adbcOptions are the options an ADBC table takes (docs/connectors/adbc.md): a table that is
// both read and written has them all.
var adbcOptions = map[string]bool{"connector": true, adbcDriver: true, adbcURI: true, adbcTableName: true,
	adbcDBSchema: true, adbcUsername: true, adbcPassword: true, adbcMaxRows: true, adbcFlushInterval: true,
	adbcGuarantee: true, adbcMode: true, adbcCommitTable: true, adbcCommitMode: true, adbcTxnPrefix: true, adbcPartitionColumn: true, adbcPartitionNum: true,
	adbcPartitionLower: true, adbcPartitionUpper: true}

// unknownAdbcOptions lists the options an ADBC table does not take, sorted.
func unknownAdbcOptions(o map[string]string) []string {
	var unknown []string
	for k := range o {
		if !adbcOptions[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	return unknown
}

// adbcColumn is a column in the description of an ADBC node: its name and Flink type
// (LogicalType#asSerializableString).
type adbcColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// parseAdbcEndpoint checks an ADBC table's options (every one known, the required ones set) and
// returns its endpoint. Errors name the option, not the table.
func parseAdbcEndpoint(o map[string]string) (wh.Endpoint, error) {
	if u := unknownAdbcOptions(o); len(u) > 0 {
		return wh.Endpoint{}, fmt.Errorf("unknown option(s) %s", strings.Join(u, ", "))
	}
	for _, k := range []string{adbcDriver, adbcURI, adbcTableName} {
		if o[k] == "" {
			return wh.Endpoint{}, fmt.Errorf("the option '%s' is required", k)
		}
	}
	return wh.Endpoint{Driver: o[adbcDriver], URI: o[adbcURI], Username: o[adbcUsername], Password: o[adbcPassword]}, nil
}

// parseAdbcColumns reads columns' types, each accepted by check. Errors name the column.
func parseAdbcColumns(cols []adbcColumn, check func(catalog.Type) error) ([]string, []catalog.Type, error) {
	names := make([]string, 0, len(cols))
	types := make([]catalog.Type, 0, len(cols))
	for _, c := range cols {
		t, err := catalog.ParseTypeString(c.Type)
		if err == nil {
			err = check(t)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		names = append(names, c.Name)
		types = append(types, t)
	}
	return names, types, nil
}
