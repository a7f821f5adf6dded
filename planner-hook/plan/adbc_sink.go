package plan

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
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
}

// adbcDefaultMaxRows is sink.buffer-flush.max-rows when the table does not set it: enough rows
// for a bulk COPY to pay off.
const adbcDefaultMaxRows = 65536

// adbcSink is an ADBC sink compiled.
type adbcSink struct {
	table   string
	cfg     adbc.Config
	names   []string
	types   []catalog.Type
	notNull *constraint.NotNull
}

// parseAdbcSink reads a sink's description and its options. Errors are the table's
// configuration mistakes (unknown or malformed options, types the sink cannot write): they fail
// the job at planning, whichever path the sink runs on.
func parseAdbcSink(raw []byte) (*adbcSink, error) {
	var j adbcSinkExec
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, fmt.Errorf("adbc sink: %w", err)
	}
	s := &adbcSink{table: j.Table}
	fail := func(format string, args ...any) (*adbcSink, error) {
		return nil, fmt.Errorf("adbc table %s: %s", j.Table, fmt.Sprintf(format, args...))
	}
	o := j.Options
	e, err := parseAdbcEndpoint(o)
	if err != nil {
		return fail("%v", err)
	}
	s.cfg.Endpoint = e
	s.cfg.Target = adbc.Target{Schema: o[adbcDBSchema], Table: o[adbcTableName], CommitTable: o[adbcCommitTable]}
	s.cfg.MaxRows = adbcDefaultMaxRows
	if v, ok := o[adbcMaxRows]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fail("'%s' = '%s': expected a positive number of rows", adbcMaxRows, v)
		}
		s.cfg.MaxRows = n
	}
	s.cfg.Guarantee = adbc.ExactlyOnce
	if v, ok := o[adbcGuarantee]; ok {
		g, err := adbc.ParseGuarantee(v)
		if err != nil {
			return fail("%v", err)
		}
		s.cfg.Guarantee = g
	}
	s.cfg.TransactionalIDPrefix = o[adbcTxnPrefix]
	if v, ok := o[adbcCommitMode]; ok {
		m, err := adbc.ParseCommitMode(v)
		if err != nil {
			return fail("%v", err)
		}
		s.cfg.Commit = m
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
		s.cfg.Keys = j.PrimaryKey
	default:
		return fail("'%s' = '%s': expected append or upsert", adbcMode, o[adbcMode])
	}
	if s.names, s.types, err = parseAdbcColumns(j.Columns, adbcWritable); err != nil {
		return fail("%v", err)
	}
	s.cfg.Columns = s.names
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

// compileAdbcSink judges an ADBC sink fed by a native chain: the chain's output columns must be
// the table's (up to nullability and string lengths).
func compileAdbcSink(n *IslandNode, options map[string]string) (*adbcSink, []string, error) {
	s, err := parseAdbcSink(n.Exec)
	if err != nil {
		return nil, []string{err.Error()}, nil
	}
	_, inTypes, err := n.RowFields()
	if err != nil {
		return nil, nil, fmt.Errorf("adbc sink %s: %w", n.Name, err)
	}
	if len(inTypes) != len(s.types) {
		return nil, []string{fmt.Sprintf("table %s: the sink's input has %d columns for %d table columns", s.table, len(inTypes), len(s.types))}, nil
	}
	var reasons []string
	if len(s.cfg.Keys) > 0 {
		var j adbcSinkExec
		if err := json.Unmarshal(n.Exec, &j); err == nil && !j.InsertOnly {
			// Native batches carry no RowKinds yet: the sink takes Flink's rows.
			reasons = append(reasons, fmt.Sprintf("table %s: the sink's input has updates or deletes, which reach an upsert sink as rows", s.table))
		}
	}
	for i, t := range inTypes {
		if !writableAs(t, s.types[i].WithNullable(true)) {
			reasons = append(reasons, fmt.Sprintf("table %s: column %s: input %s is written as %s", s.table, s.names[i], t, s.types[i]))
		}
	}
	var constraintReasons []string
	s.notNull, constraintReasons = constraint.ForSink(s.names, s.types, options)
	for _, r := range constraintReasons {
		reasons = append(reasons, fmt.Sprintf("table %s: %s", s.table, r))
	}
	return s, reasons, nil
}

// CheckAdbcSink validates an ADBC sink's description (see parseAdbcSink) when the table's sink
// is created.
func CheckAdbcSink(desc []byte) error {
	_, err := parseAdbcSink(desc)
	return err
}

// AdbcWriter is one subtask's writer of an ADBC sink: batches from a native chain, or Flink's
// rows as BinaryRowData bytes, are bulk-ingested by sinks/adbc.
type AdbcWriter struct {
	s   *adbcSink
	w   *adbc.Writer
	dec *binaryrow.Decoder // rows → batches (the row path)
}

// OpenAdbcWriter opens a sink writer from the sink's island JSON (native path: its NOT NULL
// columns are checked here, as Flink's ConstraintEnforcer) or from its description alone (row
// path: Flink checks them). sinkID identifies the sink across its job's attempts.
func OpenAdbcWriter(data []byte, sinkID string, subtask, parallelism int, restoredCheckpoint int64) (*AdbcWriter, error) {
	s, err := openAdbcSink(data)
	if err != nil {
		return nil, err
	}
	w, err := adbc.OpenWriter(context.Background(), s.cfg, adbc.Attempt{
		SinkID: sinkID, Subtask: subtask, Parallelism: parallelism, RestoredCheckpoint: restoredCheckpoint})
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &AdbcWriter{s: s, w: w}, nil
}

// openAdbcSink compiles an island JSON of the sink node, or a bare description.
func openAdbcSink(data []byte) (*adbcSink, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("adbc sink: %w", err)
	}
	if head.Type == AdbcSinkType {
		return parseAdbcSink(data)
	}
	return compileNodeIsland(data, "sink", compileAdbcSink)
}

// WriteBatch writes a batch of the native chain (it stays the caller's).
func (a *AdbcWriter) WriteBatch(b arrow.RecordBatch) error {
	if a.s.notNull != nil {
		checked, err := a.s.notNull.Enforce(b, memory.DefaultAllocator)
		if err != nil {
			return fmt.Errorf("table %s: %w", a.s.table, err)
		}
		if checked == nil {
			return nil
		}
		defer checked.Release()
		b = checked
	}
	return a.w.Write(context.Background(), b)
}

// WriteRows writes rows Flink made (BinaryRowData bytes, row i at data[offsets[i]:offsets[i+1]]).
func (a *AdbcWriter) WriteRows(data []byte, offsets []int32) error {
	if a.dec == nil {
		d, err := binaryrow.NewDecoder(a.s.names, a.s.types, memory.DefaultAllocator)
		if err != nil {
			return fmt.Errorf("table %s: %w", a.s.table, err)
		}
		a.dec = d
	}
	b, err := a.dec.Decode(data, offsets)
	if err != nil {
		return fmt.Errorf("table %s: %w", a.s.table, err)
	}
	defer b.Release()
	// The decoder's last column is the RowKind.
	cols := b.Columns()[:len(a.s.names)]
	kinds := b.Column(len(a.s.names)).(*array.Int8).Int8Values()
	rows := array.NewRecordBatch(arrow.NewSchema(b.Schema().Fields()[:len(cols)], nil), cols, b.NumRows())
	defer rows.Release()
	return a.w.WriteChanges(context.Background(), rows, kinds)
}

// Flush ingests the buffered rows (sink.buffer-flush.interval, end of input).
func (a *AdbcWriter) Flush() error {
	return a.w.Flush(context.Background())
}

// PrepareCommit ends the writer's checkpoint: it returns the committable (JSON) or nil.
func (a *AdbcWriter) PrepareCommit() ([]byte, error) {
	c, err := a.w.PrepareCommit(context.Background())
	if err != nil || c == nil {
		return nil, err
	}
	return json.Marshal(c)
}

// Snapshotted tells the writer that Flink took checkpoint id (see adbc.Writer#Snapshotted).
func (a *AdbcWriter) Snapshotted(id int64) {
	a.w.Snapshotted(id)
}

// Close rolls back what was not committed and disconnects.
func (a *AdbcWriter) Close() error {
	return a.w.Close()
}

// AdbcCommitter commits the checkpoints of an exactly-once ADBC sink.
type AdbcCommitter struct {
	s *adbcSink
	c *adbc.Committer
}

// OpenAdbcCommitter opens a committer from the sink's island JSON or description.
func OpenAdbcCommitter(data []byte) (*AdbcCommitter, error) {
	s, err := openAdbcSink(data)
	if err != nil {
		return nil, err
	}
	c, err := adbc.OpenCommitter(context.Background(), s.cfg)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &AdbcCommitter{s: s, c: c}, nil
}

// Commit commits one committable (as PrepareCommit returned it); false: it was committed
// before.
func (a *AdbcCommitter) Commit(committable []byte) (bool, error) {
	var c adbc.Committable
	if err := json.Unmarshal(committable, &c); err != nil {
		return false, fmt.Errorf("table %s: committable: %w", a.s.table, err)
	}
	return a.c.Commit(context.Background(), c)
}

// Close disconnects.
func (a *AdbcCommitter) Close() error {
	return a.c.Close()
}
