package adbc

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	wh "github.com/sluice-project/sluice/catalog/adbc"
	"github.com/sluice-project/sluice/testkit/flightsqltest"
)

// endpoints are the databases the tests run against: the PostgreSQL server of SLUICE_PG_URI
// (`make test` starts one) and a SQLite file, through the drivers of SLUICE_ADBC_DRIVER_DIR.
func endpoints(t *testing.T) map[string]wh.Endpoint {
	t.Helper()
	if os.Getenv(wh.DriverDirEnv) == "" {
		t.Skip(wh.DriverDirEnv + " is not set (make test sets it)")
	}
	out := map[string]wh.Endpoint{"sqlite": {Driver: "sqlite", URI: "file:" + filepath.Join(t.TempDir(), "sink.db")}}
	// A Flight SQL server (SQLite behind it) through ADBC's Go driver.
	srv, err := flightsqltest.Start(filepath.Join(t.TempDir(), "flight.db"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	out["flightsql"] = wh.Endpoint{Driver: wh.FlightSQLDriver, URI: srv.URI}
	if uri := os.Getenv("SLUICE_PG_URI"); uri != "" {
		out["postgresql"] = wh.Endpoint{Driver: "postgresql", URI: uri}
	} else {
		t.Log("SLUICE_PG_URI is not set: PostgreSQL cases skipped")
	}
	return out
}

// fixture is a target table of (id BIGINT, name VARCHAR) in a database, made anew.
type fixture struct {
	t   *testing.T
	c   *wh.Conn
	cfg Config
}

func newFixture(t *testing.T, e wh.Endpoint, g Guarantee) *fixture {
	t.Helper()
	ctx := context.Background()
	c, err := wh.Open(ctx, e, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// Short names: PostgreSQL cuts identifiers at 63 bytes.
	table := fmt.Sprintf("t_%x", sha256.Sum256([]byte(t.Name())))[:18]
	commits := table + "_commits"
	for _, sql := range []string{
		"DROP TABLE IF EXISTS " + wh.QuoteIdent(table),
		"DROP TABLE IF EXISTS " + wh.QuoteIdent(commits),
		"CREATE TABLE " + wh.QuoteIdent(table) + " (" + fixtureColumns(e) + ")",
	} {
		if err := c.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{t: t, c: c, cfg: Config{
		Endpoint:  e,
		Target:    Target{Table: table, Columns: []string{"id", "name"}, CommitTable: commits},
		Guarantee: g,
		Commit:    CommitStage,
		MaxRows:   3,
	}}
}

// forExactlyOnceModes runs a test on a fresh exactly-once fixture of every endpoint in every
// commit mode it takes.
func forExactlyOnceModes(t *testing.T, test func(t *testing.T, f *fixture, mode string)) {
	for name, e := range endpoints(t) {
		for mode, cm := range commitModes(e) {
			t.Run(name+"/"+mode, func(t *testing.T) {
				f := newFixture(t, e, ExactlyOnce)
				f.cfg.Commit = cm
				test(t, f, mode)
			})
		}
	}
}

// commitModes are the exactly-once commit modes an endpoint takes: stage tables everywhere,
// prepared transactions on PostgreSQL (the tests' server allows them).
func commitModes(e wh.Endpoint) map[string]CommitMode {
	if e.Driver == "postgresql" {
		return map[string]CommitMode{"stage": CommitStage, "two-phase": CommitTwoPhase}
	}
	return map[string]CommitMode{"stage": CommitStage}
}

// leftoversOf lists what the checkpoints of sinks with a transactional-id prefix left.
func (f *fixture) leftoversOf(prefix string) []string {
	return f.leftovers("prefix:" + prefix)
}

// leftovers lists what a sink's checkpoints left uncommitted: its stage tables and its
// prepared transactions.
func (f *fixture) leftovers(sinkID string) []string {
	f.t.Helper()
	ctx := context.Background()
	out, err := f.c.TablesLike(ctx, "", stagePrefix(sinkID))
	if err != nil {
		f.t.Fatal(err)
	}
	if f.cfg.Driver == "postgresql" {
		gids, err := f.c.QueryStrings(ctx, "SELECT gid FROM pg_prepared_xacts WHERE gid LIKE "+wh.QuoteString(txnPrefix(sinkID)+"%")+" ORDER BY gid")
		if err != nil {
			f.t.Fatal(err)
		}
		out = append(out, gids...)
	}
	return out
}

// fixtureColumns are the target table's columns: (id BIGINT, name VARCHAR(20)), in the types
// the example Flight SQL server knows for a SQLite behind it.
func fixtureColumns(e wh.Endpoint) string {
	if e.Driver == wh.FlightSQLDriver {
		return "id INTEGER, name TEXT"
	}
	return "id BIGINT, name VARCHAR(20)"
}

// batch is a batch of ids from..to-1, each named "n<id>".
func batch(from, to int64) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "EXPR$0", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := from; i < to; i++ {
		b.Field(0).(*array.Int64Builder).Append(i)
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("n%d", i))
	}
	return b.NewRecordBatch()
}

// ids reads the target table's ids, sorted, as text.
func (f *fixture) ids() string {
	f.t.Helper()
	got, err := f.c.QueryStrings(context.Background(), "SELECT id FROM "+wh.QuoteIdent(f.cfg.Table)+" ORDER BY id")
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.Join(got, ",")
}

func (f *fixture) writer(a Attempt) *Writer {
	f.t.Helper()
	w, err := OpenWriter(context.Background(), f.cfg, a)
	if err != nil {
		f.t.Fatal(err)
	}
	return w
}

func (f *fixture) committer() *Committer {
	f.t.Helper()
	m, err := OpenCommitter(context.Background(), f.cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { m.Close() })
	return m
}

func write(t *testing.T, w *Writer, from, to int64) {
	t.Helper()
	b := batch(from, to)
	defer b.Release()
	if err := w.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
}

func prepare(t *testing.T, w *Writer) *Committable {
	t.Helper()
	c, err := w.PrepareCommit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestExactlyOnceCommitsOnceWhenTheCheckpointCompletes(t *testing.T) {
	forExactlyOnceModes(t, func(t *testing.T, f *fixture, mode string) {
		ctx := context.Background()
		m := f.committer()
		w := f.writer(Attempt{SinkID: "job-1/sink", Parallelism: 1})
		defer w.Close()
		write(t, w, 0, 2)
		write(t, w, 2, 5) // over MaxRows: ingested into the stage table before the checkpoint
		c1 := prepare(t, w)
		if c1 == nil {
			t.Fatal("no committable for a checkpoint with rows")
		}
		if got := f.ids(); got != "" {
			t.Fatalf("rows visible before the checkpoint completed: %s", got)
		}
		if c := prepare(t, w); c != nil {
			t.Fatalf("a committable for a checkpoint without rows: %+v", c)
		}
		write(t, w, 5, 6)
		c3 := prepare(t, w)
		if ok, err := m.Commit(ctx, *c1); err != nil || !ok {
			t.Fatalf("commit: %v %v", ok, err)
		}
		if got := f.ids(); got != "0,1,2,3,4" {
			t.Fatalf("after the first commit: %s", got)
		}
		// A restored job replays its checkpoint's committables: nothing is written twice.
		if ok, err := m.Commit(ctx, *c1); err != nil || ok {
			t.Fatalf("replayed commit: %v %v", ok, err)
		}
		if ok, err := m.Commit(ctx, *c3); err != nil || !ok {
			t.Fatalf("commit: %v %v", ok, err)
		}
		if got := f.ids(); got != "0,1,2,3,4,5" {
			t.Fatalf("after both commits: %s", got)
		}
		if left := f.leftovers("job-1/sink"); len(left) != 0 {
			t.Fatalf("left uncommitted: %v", left)
		}
	})
}

func TestRestoredWriterDropsTheStagesOfCheckpointsThatDidNotComplete(t *testing.T) {
	forExactlyOnceModes(t, func(t *testing.T, f *fixture, mode string) {
		ctx := context.Background()
		m := f.committer()
		a := Attempt{SinkID: "job-2/sink", Subtask: 1, Parallelism: 3}
		w := f.writer(a)
		write(t, w, 0, 3)
		c1 := prepare(t, w) // checkpoint 1 completes (its commit is still to come)
		write(t, w, 3, 6)
		prepare(t, w) // checkpoint 2 never completes
		write(t, w, 6, 7)
		w.Close() // the failure: uncommitted rows are rolled back
		// A subtask beyond the new parallelism left a stage too (the job scales down to 1).
		other := f.writer(Attempt{SinkID: "job-2/sink", Subtask: 2, Parallelism: 3})
		prepare(t, other) // checkpoint 1: no rows
		write(t, other, 100, 103)
		prepare(t, other)
		other.Close()

		a.Subtask, a.Parallelism, a.RestoredCheckpoint = 0, 1, 1
		w0 := f.writer(a)
		defer w0.Close()
		if left := f.leftovers("job-2/sink"); len(left) != 1 || left[0] != c1.Stage {
			t.Fatalf("left uncommitted after the restore: %v, want only %s", left, c1.Stage)
		}
		if ok, err := m.Commit(ctx, *c1); err != nil || !ok {
			t.Fatalf("commit of the restored checkpoint: %v %v", ok, err)
		}
		write(t, w0, 3, 7) // the rows after checkpoint 1, replayed by the source
		c2 := prepare(t, w0)
		if c2.Epoch != 2 {
			t.Fatalf("epoch after restoring checkpoint 1: %d", c2.Epoch)
		}
		if _, err := m.Commit(ctx, *c2); err != nil {
			t.Fatal(err)
		}
		if got := f.ids(); got != "0,1,2,3,4,5,6" {
			t.Fatalf("table: %s", got)
		}
	})
}

func TestMissingStageWithoutRecordFails(t *testing.T) {
	for name, e := range endpoints(t) {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, e, ExactlyOnce)
			m := f.committer()
			_, err := m.Commit(context.Background(), Committable{Stage: stagePrefix("gone") + "0_7", SinkID: "gone", Epoch: 7})
			if err == nil || !strings.Contains(err.Error(), "is missing and its commit is not recorded") || !strings.Contains(err.Error(), f.cfg.Table) {
				t.Fatalf("error: %v", err)
			}
			if name == "postgresql" {
				_, err := m.Commit(context.Background(), Committable{Stage: txnPrefix("gone") + "0_7", Prepared: true, SinkID: "gone", Epoch: 7})
				if err == nil || !strings.Contains(err.Error(), "the prepared transaction "+txnPrefix("gone")+"0_7 of subtask 0 (writer epoch 7) is missing") {
					t.Fatalf("missing prepared transaction: %v", err)
				}
			}
		})
	}
}

func TestAtLeastOnceCommitsOnFlush(t *testing.T) {
	for name, e := range endpoints(t) {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, e, AtLeastOnce)
			w := f.writer(Attempt{SinkID: "job-3/sink", Parallelism: 1})
			defer w.Close()
			write(t, w, 0, 2)
			if got := f.ids(); got != "" {
				t.Fatalf("buffered rows visible: %s", got)
			}
			write(t, w, 2, 3) // MaxRows reached: ingested and committed in the background
			if err := w.settle(); err != nil {
				t.Fatal(err)
			}
			if got := f.ids(); got != "0,1,2" {
				t.Fatalf("after a full buffer: %s", got)
			}
			write(t, w, 3, 4)
			if c := prepare(t, w); c != nil {
				t.Fatalf("committable at least once: %+v", c)
			}
			if got := f.ids(); got != "0,1,2,3" {
				t.Fatalf("after the checkpoint: %s", got)
			}
		})
	}
}

func TestErrorsNameTheTable(t *testing.T) {
	for name, e := range endpoints(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, e, AtLeastOnce)
			missing := f.cfg
			missing.Table = "no_such_table"
			w, err := OpenWriter(ctx, missing, Attempt{SinkID: "x", Parallelism: 1})
			if err == nil {
				b := batch(0, 1)
				err = w.Write(ctx, b)
				b.Release()
				if err == nil {
					err = w.Flush(ctx)
				}
				w.Close()
			}
			if err == nil || !strings.Contains(err.Error(), "no_such_table") {
				t.Fatalf("missing table: %v", err)
			}
			if name == "postgresql" {
				// Text into a BIGINT column: the driver refuses the column's type.
				if err := f.c.Exec(ctx, "DROP TABLE IF EXISTS typed; CREATE TABLE typed (id VARCHAR(3), name BIGINT)"); err != nil {
					t.Fatal(err)
				}
				typed := f.cfg
				typed.Table = "typed"
				w := f.writer(Attempt{SinkID: "y", Parallelism: 1})
				w.Close()
				w, err = OpenWriter(ctx, typed, Attempt{SinkID: "y", Parallelism: 1})
				if err != nil {
					t.Fatal(err)
				}
				b := batch(0, 1)
				err = w.Write(ctx, b)
				b.Release()
				if err == nil {
					err = w.Flush(ctx)
				}
				w.Close()
				if err == nil || !strings.Contains(err.Error(), "typed") {
					t.Fatalf("mistyped column: %v", err)
				}
			}
		})
	}
}

func TestUnreachableServer(t *testing.T) {
	if os.Getenv(wh.DriverDirEnv) == "" {
		t.Skip(wh.DriverDirEnv + " is not set (make test sets it)")
	}
	cfg := Config{Endpoint: wh.Endpoint{Driver: "postgresql", URI: "postgresql://nobody:secret@127.0.0.1:1/none"}, Target: Target{Table: "t", Columns: []string{"a"}}}
	_, err := OpenWriter(context.Background(), cfg, Attempt{SinkID: "z", Parallelism: 1})
	if err == nil || !strings.Contains(err.Error(), "adbc sink t") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("error: %v", err)
	}
}

func TestParseGuarantee(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Guarantee
		err  bool
	}{{"exactly-once", ExactlyOnce, false}, {"AT-LEAST-ONCE", AtLeastOnce, false}, {"none", None, false}, {"twice", 0, true}} {
		g, err := ParseGuarantee(tc.in)
		if (err != nil) != tc.err || (!tc.err && g != tc.want) {
			t.Errorf("%s: %v %v", tc.in, g, err)
		}
	}
}

// TestArrowTypesBindToPostgreSQLColumns writes the Arrow types of Flink types whose PostgreSQL
// column has another width or kind (TINYINT into smallint, TIME with milliseconds, TIMESTAMP_LTZ
// into timestamptz) and reads them back as the server renders them.
func TestArrowTypesBindToPostgreSQLColumns(t *testing.T) {
	e, ok := endpoints(t)["postgresql"]
	if !ok {
		t.Skip("no PostgreSQL")
	}
	ctx := context.Background()
	f := newFixture(t, e, AtLeastOnce)
	if err := f.c.Exec(ctx, "DROP TABLE IF EXISTS "+wh.QuoteIdent(f.cfg.Table)+"; CREATE TABLE "+wh.QuoteIdent(f.cfg.Table)+
		" (tiny smallint, tm time(3), ltz timestamptz(3), ltz6 timestamptz(6))"); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Exec(ctx, "SET TIME ZONE 'UTC'"); err != nil {
		t.Fatal(err)
	}
	f.cfg.Columns = []string{"tiny", "tm", "ltz", "ltz6"}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true},
		{Name: "c", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "d", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int8Builder).AppendValues([]int8{-128, 127}, nil)
	b.Field(1).(*array.Time32Builder).AppendValues([]arrow.Time32{45296789, 0}, nil)
	b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1700000000123, -1}, nil)
	b.Field(3).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1700000000123456, -1}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	w := f.writer(Attempt{SinkID: "types", Parallelism: 1})
	defer w.Close()
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := f.c.QueryStrings(ctx, "SELECT concat_ws(' | ', tiny, tm, ltz, ltz6) FROM "+wh.QuoteIdent(f.cfg.Table)+" ORDER BY tiny")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"-128 | 12:34:56.789 | 2023-11-14 22:13:20.123+00 | 2023-11-14 22:13:20.123456+00",
		"127 | 00:00:00 | 1969-12-31 23:59:59.999+00 | 1969-12-31 23:59:59.999999+00",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUpsertsApplyTheLastChangeOfEachKey writes a changelog into a table with a primary key:
// the table ends as after applying every change in order, exactly once (at the commit) and at
// least once (at each flush).
func TestUpsertsApplyTheLastChangeOfEachKey(t *testing.T) {
	e, ok := endpoints(t)["postgresql"]
	if !ok {
		t.Skip("no PostgreSQL")
	}
	for _, g := range []Guarantee{ExactlyOnce, AtLeastOnce} {
		t.Run(g.String(), func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, e, g)
			if err := f.c.Exec(ctx, "ALTER TABLE "+wh.QuoteIdent(f.cfg.Table)+" ADD PRIMARY KEY (id)"); err != nil {
				t.Fatal(err)
			}
			f.cfg.Keys = []string{"id"}
			f.cfg.MaxRows = 100
			w := f.writer(Attempt{SinkID: "upsert-" + g.String(), Parallelism: 1})
			defer w.Close()
			changes := func(kinds []int8, ids ...int64) {
				t.Helper()
				b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{
					{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil))
				defer b.Release()
				for i, id := range ids {
					b.Field(0).(*array.Int64Builder).Append(id)
					b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("v%d-%d", id, i))
				}
				rec := b.NewRecordBatch()
				defer rec.Release()
				if err := w.WriteChanges(ctx, rec, kinds); err != nil {
					t.Fatal(err)
				}
			}
			// +I 1, +I 2, -U 1, +U 1, -D 2, +I 3 | then +I 2 again, -D 3, +U 4
			changes([]int8{0, 0, 1, 2, 3, 0}, 1, 2, 1, 1, 2, 3)
			c1 := prepare(t, w)
			changes([]int8{0, 3, 2}, 2, 3, 4)
			c2 := prepare(t, w)
			if g == ExactlyOnce {
				if got := f.ids(); got != "" {
					t.Fatalf("rows visible before the commit: %s", got)
				}
				m := f.committer()
				if _, err := m.Commit(ctx, *c1); err != nil {
					t.Fatal(err)
				}
				if got := f.ids(); got != "1,3" {
					t.Fatalf("after the first checkpoint: %s", got)
				}
				if _, err := m.Commit(ctx, *c2); err != nil {
					t.Fatal(err)
				}
			}
			got, err := f.c.QueryStrings(ctx, "SELECT id || '=' || name FROM "+wh.QuoteIdent(f.cfg.Table)+" ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ",") != "1=v1-3,2=v2-0,4=v4-2" {
				t.Fatalf("table: %v", got)
			}
		})
	}
}

func TestAppendSinkRefusesChanges(t *testing.T) {
	e := endpoints(t)["sqlite"]
	f := newFixture(t, e, AtLeastOnce)
	w := f.writer(Attempt{SinkID: "append", Parallelism: 1})
	defer w.Close()
	b := batch(0, 2)
	defer b.Release()
	if err := w.WriteChanges(context.Background(), b, []int8{0, 3}); err == nil || !strings.Contains(err.Error(), "RowKind 3") {
		t.Fatalf("error: %v", err)
	}
}

// TestEpochsFollowCheckpointIds: after Flink's checkpoint 5 (its counter runs ahead of the
// writer's checkpoints after a failover), the next rows are staged as epoch 6, so a writer
// restored from checkpoint 5 drops them and keeps the stages of checkpoint 5.
func TestEpochsFollowCheckpointIds(t *testing.T) {
	e := endpoints(t)["sqlite"]
	ctx := context.Background()
	f := newFixture(t, e, ExactlyOnce)
	a := Attempt{SinkID: "epochs", Parallelism: 1, RestoredCheckpoint: 2}
	w := f.writer(a)
	write(t, w, 0, 3)
	c := prepare(t, w) // checkpoint 5's barrier
	if c.Epoch != 3 {
		t.Fatalf("first epoch after restoring checkpoint 2: %d", c.Epoch)
	}
	w.Snapshotted(5)
	write(t, w, 3, 6)
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Close()
	a.RestoredCheckpoint = 5
	w2 := f.writer(a)
	defer w2.Close()
	left, err := f.c.TablesLike(ctx, "", stagePrefix("epochs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0] != c.Stage {
		t.Fatalf("stages after restoring checkpoint 5: %v, want only %s", left, c.Stage)
	}
}

// A job restored from a savepoint of another job (or started anew) with the same
// transactional-id prefix rolls back what the earlier job left for checkpoints after the one it
// restored, whatever the earlier job's sink id.
func TestTransactionalIDPrefixCleansUpAcrossJobs(t *testing.T) {
	forExactlyOnceModes(t, func(t *testing.T, f *fixture, mode string) {
		ctx := context.Background()
		f.cfg.TransactionalIDPrefix = "orders-" + mode
		m := f.committer()
		old := f.writer(Attempt{SinkID: "job-a/sink", Parallelism: 1})
		write(t, old, 0, 3)
		c1 := prepare(t, old) // checkpoint 1: the savepoint
		write(t, old, 3, 5)
		prepare(t, old) // checkpoint 2, never completed; then the job is cancelled
		old.Close()
		// A new job (another sink id) restored from checkpoint 1.
		w := f.writer(Attempt{SinkID: "job-b/sink", Parallelism: 1, RestoredCheckpoint: 1})
		defer w.Close()
		if left := f.leftoversOf(f.cfg.TransactionalIDPrefix); len(left) != 1 || left[0] != c1.Stage {
			t.Fatalf("left after the new job opened: %v, want only %s", left, c1.Stage)
		}
		if ok, err := m.Commit(ctx, *c1); err != nil || !ok {
			t.Fatalf("commit of the savepoint's checkpoint: %v %v", ok, err)
		}
		// A job started anew with the prefix drops everything of its subtasks.
		write(t, w, 3, 4)
		prepare(t, w)
		w.Close()
		fresh := f.writer(Attempt{SinkID: "job-c/sink", Parallelism: 1})
		defer fresh.Close()
		if left := f.leftoversOf(f.cfg.TransactionalIDPrefix); len(left) != 0 {
			t.Fatalf("left after a fresh start: %v", left)
		}
		if got := f.ids(); got != "0,1,2" {
			t.Fatalf("table: %s", got)
		}
	})
}

// Jobs of one transactional-id prefix, one after the other, commit their checkpoints each
// (their epochs start over; their names, and commit records, must not meet).
func TestJobsOfOnePrefixCommitTheirOwnCheckpoints(t *testing.T) {
	forExactlyOnceModes(t, func(t *testing.T, f *fixture, mode string) {
		ctx := context.Background()
		f.cfg.TransactionalIDPrefix = "daily"
		m := f.committer()
		for job, ids := range [][2]int64{{0, 3}, {3, 5}, {5, 9}} {
			w := f.writer(Attempt{SinkID: fmt.Sprintf("job-%d/sink", job), Parallelism: 1})
			write(t, w, ids[0], ids[1])
			c := prepare(t, w)
			if ok, err := m.Commit(ctx, *c); err != nil || !ok {
				t.Fatalf("job %d: commit of %s: %v %v", job, c.Stage, ok, err)
			}
			w.Close()
		}
		if got := f.ids(); got != "0,1,2,3,4,5,6,7,8" {
			t.Fatalf("table after three jobs: %s", got)
		}
	})
}

// A Flight SQL server without transactions takes at-least-once and unguaranteed sinks (each
// flush commits itself) and refuses exactly-once ones, saying why.
func TestFlightSQLServerWithoutTransactions(t *testing.T) {
	if os.Getenv(wh.DriverDirEnv) == "" {
		t.Skip(wh.DriverDirEnv + " is not set (make test sets it)")
	}
	srv, err := flightsqltest.StartWithoutTransactions(filepath.Join(t.TempDir(), "notxn.db"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	e := wh.Endpoint{Driver: wh.FlightSQLDriver, URI: srv.URI}
	for _, g := range []Guarantee{AtLeastOnce, None} {
		f := newFixture(t, e, g)
		w := f.writer(Attempt{SinkID: "notxn", Parallelism: 1})
		write(t, w, 0, 4) // over MaxRows: ingested in the background
		if err := w.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := f.ids(); got != "0,1,2,3" {
			t.Fatalf("%s: after a flush: %s", g, got)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("%s: close: %v", g, err)
		}
	}
	f := newFixture(t, e, ExactlyOnce)
	_, err = OpenWriter(context.Background(), f.cfg, Attempt{SinkID: "notxn", Parallelism: 1})
	if err == nil || !strings.Contains(err.Error(), "does not support transactions") || !strings.Contains(err.Error(), "exactly-once") {
		t.Fatalf("exactly once without transactions: %v", err)
	}
}
