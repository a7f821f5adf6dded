package adbc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	wh "github.com/sluice-project/sluice/catalog/adbc"
)

// Guarantee is a sink's delivery guarantee, named as Flink's connectors name them
// (sink.delivery-guarantee).
type Guarantee int

const (
	// ExactlyOnce: the rows of a checkpoint reach the table once, when the checkpoint completes.
	ExactlyOnce Guarantee = iota
	// AtLeastOnce: rows are committed on every flush and at every checkpoint; a failure may
	// write rows of the last checkpoint interval again.
	AtLeastOnce
	// None: rows are committed on flushes only (size, interval, end of input); a failure may
	// lose or repeat the rows of the last flush interval.
	None
)

// ParseGuarantee reads a sink.delivery-guarantee value.
func ParseGuarantee(s string) (Guarantee, error) {
	switch strings.ToLower(s) {
	case "exactly-once":
		return ExactlyOnce, nil
	case "at-least-once":
		return AtLeastOnce, nil
	case "none":
		return None, nil
	}
	return 0, fmt.Errorf("sink.delivery-guarantee %q: expected exactly-once, at-least-once or none", s)
}

// String is the option value of g.
func (g Guarantee) String() string {
	return [...]string{"exactly-once", "at-least-once", "none"}[g]
}

// CommitMode is how an exactly-once sink makes the rows of a checkpoint visible once.
type CommitMode int

const (
	// CommitAuto is CommitTwoPhase where the database allows it (PostgreSQL with
	// max_prepared_transactions of at least two per subtask, append sinks) and the sink has a
	// transactional-id prefix (so that a later job can roll back what a cancelled one left
	// prepared), else CommitStage.
	CommitAuto CommitMode = iota
	// CommitStage ingests each checkpoint's rows into a stage table of their own, which the
	// committer moves into the table (the server writes every row twice).
	CommitStage
	// CommitTwoPhase ingests each checkpoint's rows into the table inside one transaction,
	// prepared (PostgreSQL's PREPARE TRANSACTION: durable, kept across disconnects and server
	// restarts) before the barrier and committed by the committer (COMMIT PREPARED).
	CommitTwoPhase
)

// ParseCommitMode reads a sink.commit-mode value.
func ParseCommitMode(s string) (CommitMode, error) {
	switch strings.ToLower(s) {
	case "auto":
		return CommitAuto, nil
	case "stage":
		return CommitStage, nil
	case "two-phase":
		return CommitTwoPhase, nil
	}
	return 0, fmt.Errorf("sink.commit-mode %q: expected auto, two-phase or stage", s)
}

// DefaultCommitTable is the table that records the checkpoints an exactly-once sink committed.
const DefaultCommitTable = "sluice_commits"

// Target is the table a sink writes.
type Target struct {
	// Schema is the table's schema (db-schema), or "" for the connection's default.
	Schema string
	// Table is the table's name.
	Table string
	// Columns are the table's columns, in the order of the batches' columns.
	Columns []string
	// CommitTable records committed checkpoints, in the same schema (exactly-once).
	CommitTable string
	// Keys are the primary key's columns of an upsert sink (none: an append sink). An upsert
	// sink takes changelog batches: each row's RowKind decides whether its key is upserted
	// (+I, +U) or deleted (-U, -D), the last change of a key winning, as in Flink's JDBC sink.
	Keys []string
}

// The columns an upsert sink's stage table has after the table's: each row's RowKind and its
// position in the writer's input.
const (
	kindColumn = "_sluice_kind"
	seqColumn  = "_sluice_seq"
)

// Config is a sink writer's configuration.
type Config struct {
	wh.Endpoint
	Target
	Guarantee Guarantee
	// Commit is how an exactly-once sink commits its checkpoints.
	Commit CommitMode
	// TransactionalIDPrefix, when set, names the sink's stage tables and prepared transactions
	// in every job (see Writer.identity); two jobs writing at the same time must not share it.
	TransactionalIDPrefix string
	// MaxRows is how many rows are buffered before they are ingested (at least 1).
	MaxRows int
}

// Attempt identifies one writer of a sink: SinkID is the same for the sink in every attempt of
// its job and different for every other sink and job (the Flink side makes it when the job is
// planned), Subtask and Parallelism are the writer's, and RestoredCheckpoint is the checkpoint
// the attempt restored (0 for none).
type Attempt struct {
	SinkID             string
	Subtask            int
	Parallelism        int
	RestoredCheckpoint int64
}

// Committable is what an exactly-once writer hands to the committer at a checkpoint: the stage
// table that holds the checkpoint's rows, or (Prepared) the name of the prepared transaction
// that wrote them.
type Committable struct {
	Stage    string `json:"stage"`
	Prepared bool   `json:"prepared,omitempty"`
	SinkID   string `json:"sinkId"`
	Subtask  int    `json:"subtask"`
	Epoch    int64  `json:"epoch"`
}

// Writer ingests a sink subtask's batches. Exactly-once, the rows of each checkpoint go into a
// stage table of their own (created like the target, committed at every flush), which the
// committer moves into the target table once the checkpoint completes, in one transaction with
// the commit table's record of it. At least once and without guarantee, the rows go into the
// target table directly (an upsert sink's through a stage merged in the flush's transaction).
type Writer struct {
	cfg     Config
	attempt Attempt
	c       *wh.Conn
	schema  *arrow.Schema // the batches' schema with the table's column names
	buf     []arrow.RecordBatch
	rows    int
	// epoch names the stage of the rows since the last checkpoint (after Flink's checkpoint
	// ids: see Snapshotted); staged: that stage table exists.
	epoch  int64
	staged bool
	// dirty: rows were ingested into the open transaction (at least once, none, and the
	// epoch's transaction of a two-phase sink).
	dirty bool
	// twoPhase: exactly once by prepared transactions (CommitTwoPhase).
	twoPhase bool
	// autocommit: the server has no transactions; each statement commits itself (at least
	// once and without guarantee only).
	autocommit bool
	// seq numbers an upsert sink's rows.
	seq int64
	// inflight, when not nil, delivers the outcome of the ingestion running in the background:
	// a full buffer is ingested while the next one fills. The connection and the fields the
	// ingestion sets (staged, dirty) are the background's until its outcome is taken (settle).
	inflight chan error
}

// OpenWriter connects a sink writer. Exactly-once, it first drops the stage tables that
// earlier attempts of its subtask left for checkpoints after the restored one (and subtask 0
// those of subtasks beyond the parallelism, after a rescale): their rows never completed a
// checkpoint and are written again.
func OpenWriter(ctx context.Context, cfg Config, attempt Attempt) (*Writer, error) {
	if cfg.MaxRows < 1 {
		cfg.MaxRows = 1
	}
	if cfg.CommitTable == "" {
		cfg.CommitTable = DefaultCommitTable
	}
	c, err := wh.Open(ctx, cfg.Endpoint, false)
	autocommit := false
	if errors.Is(err, wh.ErrNoTransactions) && cfg.Guarantee != ExactlyOnce && len(cfg.Keys) == 0 {
		// At least once and without guarantee, a server without transactions commits each
		// flush's rows as it takes them.
		c, err = wh.Open(ctx, cfg.Endpoint, true)
		autocommit = true
	}
	if err != nil {
		if errors.Is(err, wh.ErrNoTransactions) {
			return nil, fmt.Errorf("adbc sink %s: %w: sink.delivery-guarantee %s needs them (at-least-once and none do not)", cfg.Table, err, cfg.Guarantee)
		}
		return nil, fmt.Errorf("adbc sink %s: %w", cfg.Table, err)
	}
	w := &Writer{cfg: cfg, attempt: attempt, c: c, epoch: attempt.RestoredCheckpoint + 1, autocommit: autocommit}
	if cfg.Guarantee == ExactlyOnce {
		if err := w.openExactlyOnce(ctx); err != nil {
			c.Close()
			return nil, err
		}
	}
	return w, nil
}

// openExactlyOnce chooses the commit mode and drops what earlier attempts left for
// checkpoints after the restored one: stage tables, and prepared transactions (which an
// attempt that wrote by stages never prepared, but one before it may have).
func (w *Writer) openExactlyOnce(ctx context.Context) error {
	slots, err := preparedTransactionSlots(ctx, w.c)
	if err != nil {
		return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
	}
	// A subtask may hold two prepared transactions: a completed checkpoint's, not committed
	// yet, and the next checkpoint's.
	room := slots >= 2*max(1, w.attempt.Parallelism)
	switch w.cfg.Commit {
	case CommitAuto:
		w.twoPhase = room && len(w.cfg.Keys) == 0 && w.cfg.TransactionalIDPrefix != ""
	case CommitTwoPhase:
		if len(w.cfg.Keys) > 0 {
			return fmt.Errorf("adbc sink %s: sink.commit-mode two-phase takes append sinks only yet (the table has a primary key)", w.cfg.Table)
		}
		if !room {
			return fmt.Errorf("adbc sink %s: sink.commit-mode two-phase needs PostgreSQL with max_prepared_transactions of at least %d (2 per subtask; it is %d on %s)",
				w.cfg.Table, 2*max(1, w.attempt.Parallelism), slots, w.c.Where())
		}
		w.twoPhase = true
	}
	if err := w.dropLeftStages(ctx); err != nil {
		return err
	}
	if slots > 0 {
		if err := w.rollbackLeftPrepared(ctx); err != nil {
			return err
		}
	}
	if w.twoPhase {
		// The epochs' transactions record their commits themselves.
		if err := createCommitTable(ctx, w.c, w.cfg); err != nil {
			return err
		}
	}
	return nil
}

// preparedTransactionSlots is how many prepared transactions the database keeps: PostgreSQL's
// max_prepared_transactions (0 for other databases).
func preparedTransactionSlots(ctx context.Context, c *wh.Conn) (int, error) {
	if c.Dialect() != wh.PostgreSQL {
		return 0, nil
	}
	v, err := c.QueryStrings(ctx, "SELECT setting FROM pg_settings WHERE name = 'max_prepared_transactions'")
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.Join(v, "")))
	if err != nil {
		return 0, nil
	}
	return n, nil
}

// What a writer leaves in the database between a checkpoint and its commit, stage tables and
// prepared transactions, is named <kind><family>_[<job>_]<subtask>_<epoch>. The family is a hash
// of the table's 'sink.transactional-id-prefix' when it has one (the same in every job that sets
// it, so a job restored from a savepoint, or started anew, finds and rolls back what an earlier
// job left for checkpoints after the one it restored), else of the sink's id (the same in every
// attempt of one job only). With a prefix, the job part (a hash of the sink's id) keeps the names
// of one job's checkpoints apart from those of another job of the family, whose epochs start
// over: a name, and the commit record that carries it, stands for one checkpoint of one job.
const (
	stageKind = "sluice_stage_"
	txnKind   = "sluice_txn_"
)

func shortHash(s string, bytes int) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:bytes])
}

// familyPrefix is the name prefix of a family's stage tables or prepared transactions (hashes
// keep names within PostgreSQL's 63 bytes).
func familyPrefix(kind, key string) string {
	return kind + shortHash(key, 8) + "_"
}

// stagePrefix is the name prefix of the stage tables of the family key (a sink id, or
// "prefix:" and a transactional-id prefix).
func stagePrefix(key string) string { return familyPrefix(stageKind, key) }

// txnPrefix is the name prefix of the prepared transactions of the family key.
func txnPrefix(key string) string { return familyPrefix(txnKind, key) }

// family is the name prefix of the writer's family of kind.
func (w *Writer) family(kind string) string {
	if p := w.cfg.TransactionalIDPrefix; p != "" {
		return familyPrefix(kind, "prefix:"+p)
	}
	return familyPrefix(kind, w.attempt.SinkID)
}

// name is the name of the writer's stage table or prepared transaction of an epoch.
func (w *Writer) name(kind string, epoch int64) string {
	n := w.family(kind)
	if w.cfg.TransactionalIDPrefix != "" {
		n += shortHash(w.attempt.SinkID, 4) + "_"
	}
	return n + strconv.Itoa(w.attempt.Subtask) + "_" + strconv.FormatInt(epoch, 10)
}

func (w *Writer) txnName(epoch int64) string { return w.name(txnKind, epoch) }

// rollbackLeftPrepared rolls back the prepared transactions of checkpoints after the restored
// one (on a connection of its own: ROLLBACK PREPARED runs outside a transaction block).
func (w *Writer) rollbackLeftPrepared(ctx context.Context) error {
	auto, err := wh.Open(ctx, w.cfg.Endpoint, true)
	if err != nil {
		return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
	}
	defer auto.Close()
	prefix := w.family(txnKind)
	gids, err := auto.QueryStrings(ctx, "SELECT gid FROM pg_prepared_xacts WHERE database = current_database() AND gid LIKE "+
		wh.QuoteString(prefix+"%"))
	if err != nil {
		return fmt.Errorf("adbc sink %s: prepared transactions: %w", w.cfg.Table, err)
	}
	for _, gid := range gids {
		if w.leftBehind(gid, prefix) {
			if err := auto.Exec(ctx, "ROLLBACK PREPARED "+wh.QuoteString(gid)); err != nil {
				return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
			}
		}
	}
	return nil
}

// leftBehind says whether a stage table or prepared transaction of the writer's family holds
// rows of a checkpoint after the restored one that this writer replays: its subtask's, or
// (subtask 0) those of subtasks beyond the parallelism, after a rescale; with a prefix, those
// of every job of the family.
func (w *Writer) leftBehind(name, family string) bool {
	subtask, epoch, ok := parseName(name, family, w.cfg.TransactionalIDPrefix != "")
	if !ok || epoch <= w.attempt.RestoredCheckpoint {
		return false
	}
	return subtask == w.attempt.Subtask || (w.attempt.Subtask == 0 && subtask >= w.attempt.Parallelism)
}

func (w *Writer) stageName(epoch int64) string { return w.name(stageKind, epoch) }

// dropLeftStages drops the stage tables of checkpoints after the restored one.
func (w *Writer) dropLeftStages(ctx context.Context) error {
	prefix := w.family(stageKind)
	names, err := w.c.TablesLike(ctx, w.cfg.Schema, prefix)
	if err != nil {
		return fmt.Errorf("adbc sink %s: stage tables: %w", w.cfg.Table, err)
	}
	for _, n := range names {
		if !w.leftBehind(n, prefix) {
			continue
		}
		if err := w.c.Exec(ctx, "DROP TABLE IF EXISTS "+wh.Qualified(w.cfg.Schema, n)); err != nil {
			return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
		}
	}
	return w.c.Commit(ctx)
}

// parseName reads the subtask and epoch of a name of a family (withJob: a name with a job
// part).
func parseName(name, family string, withJob bool) (subtask int, epoch int64, ok bool) {
	rest, found := strings.CutPrefix(name, family)
	if !found {
		return 0, 0, false
	}
	if withJob {
		if _, rest, found = strings.Cut(rest, "_"); !found {
			return 0, 0, false
		}
	}
	s, e, found := strings.Cut(rest, "_")
	if !found {
		return 0, 0, false
	}
	st, err1 := strconv.Atoi(s)
	ep, err2 := strconv.ParseInt(e, 10, 64)
	return st, ep, err1 == nil && err2 == nil
}

// Write buffers a batch of inserts (its columns are the table's columns in order) and ingests
// the buffer once it holds MaxRows rows. The batch stays the caller's.
func (w *Writer) Write(ctx context.Context, b arrow.RecordBatch) error {
	return w.WriteChanges(ctx, b, nil)
}

// WriteChanges is Write for a changelog: kinds holds each row's RowKind byte (Flink's
// RowKind#toByteValue; nil: inserts). Only an upsert sink takes other kinds than inserts.
func (w *Writer) WriteChanges(ctx context.Context, b arrow.RecordBatch, kinds []int8) error {
	if b.NumRows() == 0 {
		return nil
	}
	if int(b.NumCols()) != len(w.cfg.Columns) {
		return fmt.Errorf("adbc sink %s: a batch of %d columns for %d table columns", w.cfg.Table, b.NumCols(), len(w.cfg.Columns))
	}
	upsert := len(w.cfg.Keys) > 0
	if !upsert {
		for _, k := range kinds {
			if k != 0 {
				return fmt.Errorf("adbc sink %s: an append table received an update or delete (RowKind %d)", w.cfg.Table, k)
			}
		}
	}
	if w.schema == nil {
		fields := make([]arrow.Field, len(w.cfg.Columns), len(w.cfg.Columns)+2)
		for i, f := range b.Schema().Fields() {
			fields[i] = arrow.Field{Name: w.cfg.Columns[i], Type: f.Type, Nullable: true}
		}
		if upsert {
			fields = append(fields, arrow.Field{Name: kindColumn, Type: arrow.PrimitiveTypes.Int16},
				arrow.Field{Name: seqColumn, Type: arrow.PrimitiveTypes.Int64})
		}
		w.schema = arrow.NewSchema(fields, nil)
	}
	cols := b.Columns()
	if upsert {
		kb := array.NewInt16Builder(memory.DefaultAllocator)
		sb := array.NewInt64Builder(memory.DefaultAllocator)
		kb.Reserve(int(b.NumRows()))
		sb.Reserve(int(b.NumRows()))
		for i := 0; i < int(b.NumRows()); i++ {
			var k int8
			if kinds != nil {
				k = kinds[i]
			}
			kb.UnsafeAppend(int16(k))
			sb.UnsafeAppend(w.seq)
			w.seq++
		}
		ka, sa := kb.NewArray(), sb.NewArray()
		kb.Release()
		sb.Release()
		defer ka.Release()
		defer sa.Release()
		cols = append(append(cols[:len(cols):len(cols)], ka), sa)
	}
	w.buf = append(w.buf, array.NewRecordBatch(w.schema, cols, b.NumRows()))
	w.rows += int(b.NumRows())
	if w.rows >= w.cfg.MaxRows {
		return w.ingestInBackground(ctx)
	}
	return nil
}

// settle waits for the background ingestion, if one runs, and returns its error.
func (w *Writer) settle() error {
	if w.inflight == nil {
		return nil
	}
	err := <-w.inflight
	w.inflight = nil
	return err
}

// ingestInBackground starts ingesting the buffered rows on another goroutine once the previous
// ingestion is done (whose error it returns), so that the chain fills the next buffer meanwhile.
func (w *Writer) ingestInBackground(ctx context.Context) error {
	if err := w.settle(); err != nil {
		return err
	}
	if len(w.buf) == 0 {
		return nil
	}
	batches := w.takeBuffer()
	done := make(chan error, 1)
	go func() {
		defer func() {
			// Outside the JNI call, a panic would end the JVM: it fails the ingestion instead.
			if r := recover(); r != nil {
				done <- fmt.Errorf("adbc sink %s: ingestion panicked: %v\n%s", w.cfg.Table, r, debug.Stack())
			}
		}()
		done <- w.ingestBatches(ctx, batches)
	}()
	w.inflight = done
	return nil
}

// ingest writes the buffered rows into the stage table (exactly-once) or the target table, after
// the background ingestion.
func (w *Writer) ingest(ctx context.Context) error {
	if err := w.settle(); err != nil {
		return err
	}
	if len(w.buf) == 0 {
		return nil
	}
	return w.ingestBatches(ctx, w.takeBuffer())
}

// takeBuffer hands the buffered batches over (to an ingestion, which releases them).
func (w *Writer) takeBuffer() []arrow.RecordBatch {
	batches := w.buf
	w.buf, w.rows = nil, 0
	return batches
}

// ingestBatches writes batches into the stage table (exactly-once by stages, upserts) or the
// target table, and releases them.
func (w *Writer) ingestBatches(ctx context.Context, batches []arrow.RecordBatch) error {
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	table := w.cfg.Table
	upsert := len(w.cfg.Keys) > 0
	if (w.cfg.Guarantee == ExactlyOnce && !w.twoPhase) || upsert {
		// Exactly once: the checkpoint's stage. At least once, an upsert sink's rows are staged
		// too, merged into the table and dropped in the flush's transaction.
		epoch := w.epoch
		if w.cfg.Guarantee != ExactlyOnce {
			epoch = 0
		}
		table = w.stageName(epoch)
		if !w.staged {
			if err := w.c.Exec(ctx, stageDDL(w.cfg, table)); err != nil {
				return fmt.Errorf("adbc sink %s: stage table: %w", w.cfg.Table, err)
			}
			w.staged = true
		}
	}
	rdr, err := array.NewRecordReader(w.schema, batches)
	if err != nil {
		return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
	}
	defer rdr.Release()
	if _, err := w.c.Ingest(ctx, w.cfg.Schema, table, rdr); err != nil {
		return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
	}
	w.dirty = true
	if w.twoPhase {
		// The rows stay in the epoch's transaction, prepared at the checkpoint.
		return nil
	}
	if w.cfg.Guarantee == ExactlyOnce {
		// The stage is committed at once: it is durable, named after its checkpoint, and
		// dropped by a restored writer if that checkpoint did not complete. No transaction
		// stays open between flushes (the committer, on the same thread, could not take the
		// table's locks otherwise).
		return w.commitOpen(ctx)
	}
	if upsert {
		// At least once, an upsert sink's flush is merged into the table in its transaction.
		for _, sql := range moveSQL(w.cfg, table) {
			if err := w.c.Exec(ctx, sql); err != nil {
				return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
			}
		}
		w.staged = false
	}
	return w.commitOpen(ctx)
}

// stageDDL creates a stage table like the target (so that the driver binds the values as it
// would for it), with an upsert sink's RowKind and sequence columns.
func stageDDL(cfg Config, stage string) string {
	extra := ""
	if len(cfg.Keys) > 0 {
		extra = ", CAST(0 AS SMALLINT) AS " + kindColumn + ", CAST(0 AS BIGINT) AS " + seqColumn
	}
	return fmt.Sprintf("CREATE TABLE %s AS SELECT %s%s FROM %s WHERE 1 = 0",
		wh.Qualified(cfg.Schema, stage), columnList(cfg.Columns), extra, wh.Qualified(cfg.Schema, cfg.Table))
}

// moveSQL moves a stage table's rows into the target and drops the stage. An upsert sink
// applies the last change of each key (by sequence): deletes (-U, -D) and then upserts (+I, +U,
// INSERT ... ON CONFLICT (keys) DO UPDATE), as Flink's JDBC sink applies a flush's reduced
// buffer; the table's final state is the same as after applying every change in order.
func moveSQL(cfg Config, stage string) []string {
	target := wh.Qualified(cfg.Schema, cfg.Table)
	src := wh.Qualified(cfg.Schema, stage)
	cols := columnList(cfg.Columns)
	drop := "DROP TABLE " + src
	if len(cfg.Keys) == 0 {
		return []string{"INSERT INTO " + target + " (" + cols + ") SELECT " + cols + " FROM " + src, drop}
	}
	keys := columnList(cfg.Keys)
	last := "(SELECT DISTINCT ON (" + keys + ") * FROM " + src + " ORDER BY " + keys + ", " + seqColumn + " DESC) l"
	match := make([]string, len(cfg.Keys))
	for i, k := range cfg.Keys {
		match[i] = "t." + wh.QuoteIdent(k) + " = l." + wh.QuoteIdent(k)
	}
	var set []string
	for _, c := range cfg.Columns {
		isKey := false
		for _, k := range cfg.Keys {
			isKey = isKey || k == c
		}
		if !isKey {
			set = append(set, wh.QuoteIdent(c)+" = EXCLUDED."+wh.QuoteIdent(c))
		}
	}
	conflict := " ON CONFLICT (" + keys + ") DO NOTHING"
	if len(set) > 0 {
		conflict = " ON CONFLICT (" + keys + ") DO UPDATE SET " + strings.Join(set, ", ")
	}
	lcols := make([]string, len(cfg.Columns))
	for i, c := range cfg.Columns {
		lcols[i] = "l." + wh.QuoteIdent(c)
	}
	return []string{
		"DELETE FROM " + target + " t USING " + last + " WHERE l." + kindColumn + " IN (1, 3) AND " + strings.Join(match, " AND "),
		"INSERT INTO " + target + " (" + cols + ") SELECT " + strings.Join(lcols, ", ") + " FROM " + last +
			" WHERE l." + kindColumn + " IN (0, 2)" + conflict,
		drop,
	}
}

func (w *Writer) releaseBuffer() {
	for _, b := range w.buf {
		b.Release()
	}
	w.buf, w.rows = w.buf[:0], 0
}

func (w *Writer) commitOpen(ctx context.Context) error {
	if !w.dirty || w.autocommit {
		w.dirty = false
		return nil
	}
	if err := w.c.Commit(ctx); err != nil {
		return fmt.Errorf("adbc sink %s: %w", w.cfg.Table, err)
	}
	w.dirty = false
	return nil
}

// Flush ingests the buffered rows (sink.buffer-flush.interval, end of input); at least once and
// without guarantee they are committed too.
func (w *Writer) Flush(ctx context.Context) error {
	return w.ingest(ctx)
}

// PrepareCommit is called before a checkpoint barrier passes the writer. Exactly-once, it
// ingests the buffered rows into the epoch's stage table, commits it and returns it as the
// checkpoint's committable (nil when the epoch has no rows); at least once, the rows are
// ingested and committed; without guarantee, nothing happens (rows wait for a flush). The
// writer then starts its next epoch.
func (w *Writer) PrepareCommit(ctx context.Context) (*Committable, error) {
	if w.cfg.Guarantee == None {
		return nil, nil
	}
	if err := w.ingest(ctx); err != nil {
		return nil, err
	}
	if w.twoPhase {
		return w.prepareEpoch(ctx)
	}
	var out *Committable
	if w.staged {
		out = &Committable{Stage: w.stageName(w.epoch), SinkID: w.attempt.SinkID, Subtask: w.attempt.Subtask, Epoch: w.epoch}
	}
	w.staged = false
	w.epoch++
	return out, nil
}

// prepareEpoch ends the epoch of a two-phase sink: its transaction, with the commit table's
// record of it, is prepared under the epoch's name and returned as the committable (nil when the
// epoch has no rows); the next epoch's transaction begins.
func (w *Writer) prepareEpoch(ctx context.Context) (*Committable, error) {
	var out *Committable
	if w.dirty {
		c := Committable{Stage: w.txnName(w.epoch), Prepared: true, SinkID: w.attempt.SinkID, Subtask: w.attempt.Subtask, Epoch: w.epoch}
		for _, sql := range []string{commitRecordSQL(w.cfg, c), "PREPARE TRANSACTION " + wh.QuoteString(c.Stage), "BEGIN"} {
			if err := w.c.Exec(ctx, sql); err != nil {
				return nil, fmt.Errorf("adbc sink %s: prepare %s: %w", w.cfg.Table, c.Stage, err)
			}
		}
		w.dirty = false
		out = &c
	}
	w.epoch++
	return out, nil
}

// Snapshotted tells the writer that Flink took checkpoint id: the rows that follow belong to a
// later checkpoint, and their stage is named after id+1. Epochs thus never run ahead of
// checkpoint ids, and a stage holds rows of checkpoints after the restored one exactly when its
// epoch is above it (OpenWriter drops those).
func (w *Writer) Snapshotted(id int64) {
	// PrepareCommit, which Flink calls first, left no ingestion running.
	if w.inflight == nil && !w.staged && !(w.twoPhase && w.dirty) && id+1 > w.epoch {
		w.epoch = id + 1
	}
}

// Close rolls back what was not committed and disconnects.
func (w *Writer) Close() error {
	pending := w.settle()
	w.releaseBuffer()
	var err error
	if (w.dirty || w.staged) && !w.autocommit {
		err = w.c.Rollback(context.Background())
	}
	return errors.Join(pending, err, w.c.Close())
}

// columnList is the quoted, comma-separated column names.
func columnList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = wh.QuoteIdent(c)
	}
	return strings.Join(q, ", ")
}
