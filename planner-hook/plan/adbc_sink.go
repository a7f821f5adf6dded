package plan

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/catalog"
	wh "github.com/sluice-project/sluice/catalog/adbc"
	"github.com/sluice-project/sluice/sinks/adbc"
	"github.com/sluice-project/sluice/sinks/constraint"
)

// AdbcSinkType is the node type under which the planner sends a sink into an ADBC table
// ('connector' = 'adbc'). The same description opens the sink's writer on both of its paths:
// fed with the Arrow batches of a native chain, or with Flink's rows when the job runs on Flink.
const AdbcSinkType = "sluice-adbc-sink_1"

// adbcSinkExec is the description of an ADBC sink.
type adbcSinkExec struct {
	// Table is the Flink table's identifier, for messages.
	Table string `json:"table"`
	// Options are the table's options (its WITH clause).
	Options map[string]string `json:"options"`
	// Columns are the table's physical columns with their Flink types.
	Columns []adbcColumn `json:"columns"`
	// PrimaryKey are the table's primary key columns (an upsert sink), if it has one.
	PrimaryKey []string `json:"primaryKey"`
	// InsertOnly: the sink's input has inserts only.
	InsertOnly bool `json:"insertOnly"`
	// UpsertMaterialize: Flink puts its SinkUpsertMaterializer in front of the sink (the
	// input's upsert key is not the primary key).
	UpsertMaterialize bool `json:"upsertMaterialize"`
}

// adbcDefaultMaxRows is sink.buffer-flush.max-rows when the table does not set it: enough rows
// for a bulk COPY to pay off.
const adbcDefaultMaxRows = 65536

// AdbcSink is an ADBC sink compiled.
type AdbcSink struct {
	Table   string
	Cfg     adbc.Config
	Names   []string
	Types   []catalog.Type
	NotNull *constraint.NotNull
}

// ParseAdbcSink reads a sink's description and its options. Errors are the table's
// configuration mistakes (unknown or malformed options, types the sink cannot write): they fail
// the job at planning, whichever path the sink runs on.
func ParseAdbcSink(raw []byte) (*AdbcSink, error) {
	var j adbcSinkExec
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, fmt.Errorf("adbc sink: %w", err)
	}
	s := &AdbcSink{Table: j.Table}
	fail := func(format string, args ...any) (*AdbcSink, error) {
		return nil, fmt.Errorf("adbc table %s: %s", j.Table, fmt.Sprintf(format, args...))
	}
	o := j.Options
	e, err := parseAdbcEndpoint(o)
	if err != nil {
		return fail("%v", err)
	}
	s.Cfg.Endpoint = e
	s.Cfg.Target = adbc.Target{Schema: o[adbcDBSchema], Table: o[adbcTableName], CommitTable: o[adbcCommitTable]}
	s.Cfg.MaxRows = adbcDefaultMaxRows
	if v, ok := o[adbcMaxRows]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fail("'%s' = '%s': expected a positive number of rows", adbcMaxRows, v)
		}
		s.Cfg.MaxRows = n
	}
	s.Cfg.Guarantee = adbc.ExactlyOnce
	if v, ok := o[adbcGuarantee]; ok {
		g, err := adbc.ParseGuarantee(v)
		if err != nil {
			return fail("%v", err)
		}
		s.Cfg.Guarantee = g
	}
	s.Cfg.TransactionalIDPrefix = o[adbcTxnPrefix]
	if v, ok := o[adbcCommitMode]; ok {
		m, err := adbc.ParseCommitMode(v)
		if err != nil {
			return fail("%v", err)
		}
		s.Cfg.Commit = m
	}
	// Upserts by the primary key when the table has one ('sink.mode' = 'upsert', the default
	// then), else appends.
	mode := "append"
	if len(j.PrimaryKey) > 0 {
		mode = "upsert"
	}
	if v, ok := o[adbcMode]; ok {
		mode = strings.ToLower(v)
	}
	switch mode {
	case "append":
		if !j.InsertOnly {
			return fail("the sink's input has updates or deletes, but the table is written in append mode (upserts need a PRIMARY KEY)")
		}
	case "upsert":
		if len(j.PrimaryKey) == 0 {
			return fail("'%s' = 'upsert' needs a PRIMARY KEY on the table", adbcMode)
		}
		if d, err := wh.DialectOf(o[adbcDriver]); err != nil || d != wh.PostgreSQL {
			return fail("upserts (a table with a PRIMARY KEY) are supported into PostgreSQL only yet")
		}
		s.Cfg.Keys = j.PrimaryKey
	default:
		return fail("'%s' = '%s': expected append or upsert", adbcMode, o[adbcMode])
	}
	if s.Names, s.Types, err = parseAdbcColumns(j.Columns, adbcWritable); err != nil {
		return fail("%v", err)
	}
	s.Cfg.Columns = s.Names
	return s, nil
}

// adbcWritable says whether the sink writes values of a type (as the Arrow type Sluice's batches
// hold it, which ADBC's drivers bind to the matching warehouse types).
func adbcWritable(t catalog.Type) error {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double,
		catalog.Decimal, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time:
		return nil
	case catalog.Timestamp, catalog.TimestampLTZ:
		if t.Precision <= 6 {
			return nil
		}
	}
	return fmt.Errorf("type %s is not supported by the adbc sink yet", t)
}

// CompileAdbcSink judges an ADBC sink fed by a native chain: the chain's output columns must be
// the table's (up to nullability and string lengths).
func CompileAdbcSink(n *IslandNode, options map[string]string) (*AdbcSink, []string, error) {
	s, err := ParseAdbcSink(n.Exec)
	if err != nil {
		return nil, []string{err.Error()}, nil
	}
	_, inTypes, err := n.RowFields()
	if err != nil {
		return nil, nil, fmt.Errorf("adbc sink %s: %w", n.Name, err)
	}
	if len(inTypes) != len(s.Types) {
		return nil, []string{fmt.Sprintf("table %s: the sink's input has %d columns for %d table columns", s.Table, len(inTypes), len(s.Types))}, nil
	}
	var reasons []string
	var j adbcSinkExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("adbc sink %s: %w", n.Name, err)
	}
	// Changes come as batches with their RowKinds; what Flink puts in front of a sink with a
	// primary key is not reproduced.
	if !j.InsertOnly && j.UpsertMaterialize {
		reasons = append(reasons, fmt.Sprintf("table %s: the input's upsert key is not the primary key, so Flink materializes the changes in front of the sink (SinkUpsertMaterializer), which is not native yet", s.Table))
	}
	if len(j.PrimaryKey) > 0 && strings.EqualFold(options[keyedShuffleOption], "FORCE") {
		reasons = append(reasons, fmt.Sprintf("table %s: '%s' = 'FORCE' shuffles the rows by primary key in front of the sink, which is not native yet", s.Table, keyedShuffleOption))
	}
	for i, t := range inTypes {
		if !writableAs(t, s.Types[i].WithNullable(true)) {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: input %s is written as %s", s.Table, s.Names[i], t, s.Types[i]))
		}
	}
	var constraintReasons []string
	s.NotNull, constraintReasons = constraint.ForSink(s.Names, s.Types, options)
	for _, r := range constraintReasons {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", s.Table, r))
	}
	return s, reasons, nil
}

// CheckAdbcSink validates an ADBC sink's description (see parseAdbcSink) when the table's sink
// is created.
func CheckAdbcSink(desc []byte) error {
	_, err := ParseAdbcSink(desc)
	return err
}
