package plan

import "sort"

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
