package plan

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/catalog"
	wh "github.com/sluice-project/sluice/catalog/adbc"
	"github.com/sluice-project/sluice/sources/adbc"
)

// AdbcScanType is the node type under which the planner sends a scan of an ADBC table
// ('connector' = 'adbc', or a table of an ADBC catalog). The same description opens the scan's
// readers on both of its paths: Arrow batches into a native chain, or Flink's rows when the job
// runs on Flink.
const AdbcScanType = "sluice-adbc-scan_1"

// adbcScanExec is the description of an ADBC scan.
type adbcScanExec struct {
	// Table is the Flink table's identifier, for messages.
	Table string `json:"table"`
	// Options are the table's options (its WITH clause).
	Options map[string]string `json:"options"`
	// Fields are the columns the scan produces (after projection pushdown) with their Flink
	// types.
	Fields []adbcColumn `json:"fields"`
}

// AdbcScan is an ADBC scan compiled: the query of each split.
type AdbcScan struct {
	Table  string
	scan   adbc.Scan
	ranges [][2]int64 // the partitions' ranges (none: one split reads the table)
}

// Types returns the types of the scan's columns.
func (s *AdbcScan) Types() []catalog.Type {
	ts := make([]catalog.Type, len(s.scan.Columns))
	for i, c := range s.scan.Columns {
		ts[i] = c.Type
	}
	return ts
}

// splits is the number of splits the scan reads.
func (s *AdbcScan) splits() int {
	return max(1, len(s.ranges))
}

// Split is the scan of split i.
func (s *AdbcScan) Split(i int) (adbc.Scan, error) {
	if i < 0 || i >= s.splits() {
		return adbc.Scan{}, fmt.Errorf("adbc table %s: split %d of %d", s.Table, i, s.splits())
	}
	sc := s.scan
	if len(s.ranges) > 0 {
		r := *sc.Range
		r.Lower, r.Upper = s.ranges[i][0], s.ranges[i][1]
		sc.Range = &r
	}
	return sc, nil
}

// ParseAdbcScan reads a scan's description. Errors are the table's configuration mistakes
// (unknown or malformed options, types the source cannot read): the job fails at planning,
// whichever path the scan runs on.
func ParseAdbcScan(raw []byte) (*AdbcScan, error) {
	var j adbcScanExec
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, fmt.Errorf("adbc scan: %w", err)
	}
	fail := func(format string, args ...any) (*AdbcScan, error) {
		return nil, fmt.Errorf("adbc table %s: %s", j.Table, fmt.Sprintf(format, args...))
	}
	o := j.Options
	e, err := parseAdbcEndpoint(o)
	if err != nil {
		return fail("%v", err)
	}
	if _, err := wh.DialectOf(e.Driver); err != nil {
		return fail("%v", err)
	}
	s := &AdbcScan{Table: j.Table, scan: adbc.Scan{
		Endpoint: e, Schema: o[adbcDBSchema], Table: o[adbcTableName], BatchRows: defaultScanBatchRows,
	}}
	names, types, err := parseAdbcColumns(j.Fields, adbc.Readable)
	if err != nil {
		return fail("%v", err)
	}
	for i, n := range names {
		s.scan.Columns = append(s.scan.Columns, adbc.Column{Name: n, Type: types[i]})
	}
	// Partitioned reads take all four options, as Flink's JDBC source.
	partition := []string{adbcPartitionColumn, adbcPartitionNum, adbcPartitionLower, adbcPartitionUpper}
	set := 0
	for _, k := range partition {
		if _, ok := o[k]; ok {
			set++
		}
	}
	if set == 0 {
		return s, nil
	}
	if set != len(partition) {
		return fail("the options %s must all be set, or none", strings.Join(partition, ", "))
	}
	num, err := strconv.Atoi(o[adbcPartitionNum])
	if err != nil {
		return fail("'%s' = '%s': expected a number", adbcPartitionNum, o[adbcPartitionNum])
	}
	bounds := [2]int64{}
	for i, k := range []string{adbcPartitionLower, adbcPartitionUpper} {
		if bounds[i], err = strconv.ParseInt(o[k], 10, 64); err != nil {
			return fail("'%s' = '%s': expected a long", k, o[k])
		}
	}
	if s.ranges, err = adbc.PartitionRanges(bounds[0], bounds[1], num); err != nil {
		return fail("%v", err)
	}
	s.scan.Range = &adbc.Range{Column: o[adbcPartitionColumn]}
	return s, nil
}

// CompileAdbcScan compiles an ADBC scan that starts a native chain: it reads every type it
// accepts, so it has no reasons to stay on Flink.
func CompileAdbcScan(n *IslandNode, options map[string]string) (*AdbcScan, []string, error) {
	s, err := ParseAdbcScan(n.Exec)
	if err != nil {
		return nil, nil, err
	}
	s.scan.BatchRows = scanBatchRows(options)
	return s, nil, nil
}

// CheckAdbcScan validates an ADBC scan's description (see parseAdbcScan) when the table's
// source is created, and returns the number of splits it reads.
func CheckAdbcScan(desc []byte) (int, error) {
	s, err := ParseAdbcScan(desc)
	if err != nil {
		return 0, err
	}
	return s.splits(), nil
}
