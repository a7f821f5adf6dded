package adbc

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	wh "github.com/sluice-project/sluice/catalog/adbc"
)

// Committer moves the rows of completed checkpoints from their stage tables into the target
// table (exactly-once sinks). Each commit is one transaction that also records the stage in the
// commit table, so that a commit replayed after a failure (Flink retries the committables of a
// restored checkpoint) finds it recorded and does nothing.
type Committer struct {
	cfg Config
	c   *wh.Conn
	// auto is a connection in autocommit mode, for the prepared transactions of two-phase
	// sinks (opened at their first commit).
	auto *wh.Conn
}

// OpenCommitter connects a sink's committer and creates the commit table if it is missing.
func OpenCommitter(ctx context.Context, cfg Config) (*Committer, error) {
	if cfg.CommitTable == "" {
		cfg.CommitTable = DefaultCommitTable
	}
	c, err := wh.Open(ctx, cfg.Endpoint, false)
	if err != nil {
		return nil, fmt.Errorf("adbc sink %s: %w", cfg.Table, err)
	}
	m := &Committer{cfg: cfg, c: c}
	if err := createCommitTable(ctx, c, cfg); err != nil {
		c.Close()
		return nil, err
	}
	return m, nil
}

// createCommitTable creates a sink's commit table on c if it is missing, and commits.
func createCommitTable(ctx context.Context, c *wh.Conn, cfg Config) error {
	exists, err := tableExists(ctx, c, cfg, cfg.CommitTable)
	if err != nil || exists {
		return err
	}
	ddl := "CREATE TABLE IF NOT EXISTS " + wh.Qualified(cfg.Schema, cfg.CommitTable) + ` (
  stage VARCHAR(63) PRIMARY KEY,
  sink_id VARCHAR(256) NOT NULL,
  subtask INTEGER NOT NULL,
  epoch BIGINT NOT NULL,
  target_table VARCHAR(512) NOT NULL,
  committed_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`
	err = c.Exec(ctx, ddl)
	if err == nil {
		err = c.Commit(ctx)
	}
	if err != nil {
		// Committers and writers of other subtasks may have created it at the same time
		// (PostgreSQL's IF NOT EXISTS is not safe against that).
		c.Rollback(ctx)
		if exists, err2 := tableExists(ctx, c, cfg, cfg.CommitTable); err2 == nil && exists {
			return c.Commit(ctx)
		}
		return fmt.Errorf("adbc sink %s: commit table %s: %w", cfg.Table, cfg.CommitTable, err)
	}
	return nil
}

func tableExists(ctx context.Context, c *wh.Conn, cfg Config, name string) (bool, error) {
	names, err := c.TablesLike(ctx, cfg.Schema, name)
	if err != nil {
		return false, fmt.Errorf("adbc sink %s: %w", cfg.Table, err)
	}
	for _, n := range names {
		if n == name {
			return true, nil
		}
	}
	return false, nil
}

// commitRecordSQL records a committable in the commit table.
func commitRecordSQL(cfg Config, cm Committable) string {
	return "INSERT INTO " + wh.Qualified(cfg.Schema, cfg.CommitTable) + " (stage, sink_id, subtask, epoch, target_table) VALUES (" +
		wh.QuoteString(cm.Stage) + ", " + wh.QuoteString(cm.SinkID) + ", " + strconv.Itoa(cm.Subtask) + ", " +
		strconv.FormatInt(cm.Epoch, 10) + ", " + wh.QuoteString(cfg.Table) + ")"
}

// recorded says whether the commit table records a committable.
func (m *Committer) recorded(ctx context.Context, c *wh.Conn, cm Committable) (bool, error) {
	done, err := c.QueryStrings(ctx, "SELECT stage FROM "+wh.Qualified(m.cfg.Schema, m.cfg.CommitTable)+
		" WHERE stage = "+wh.QuoteString(cm.Stage))
	if err != nil {
		return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
	}
	return len(done) > 0, nil
}

// commitPrepared commits the prepared transaction of a two-phase sink's checkpoint, on a
// connection in autocommit mode (COMMIT PREPARED runs outside a transaction block). A
// transaction no longer prepared was committed before if the commit table records it.
func (m *Committer) commitPrepared(ctx context.Context, cm Committable) (bool, error) {
	if m.auto == nil {
		auto, err := wh.Open(ctx, m.cfg.Endpoint, true)
		if err != nil {
			return false, fmt.Errorf("adbc sink %s: %w", m.cfg.Table, err)
		}
		m.auto = auto
	}
	pending, err := m.auto.QueryStrings(ctx, "SELECT gid FROM pg_prepared_xacts WHERE database = current_database() AND gid = "+
		wh.QuoteString(cm.Stage))
	if err != nil {
		return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
	}
	if len(pending) > 0 {
		if err := m.auto.Exec(ctx, "COMMIT PREPARED "+wh.QuoteString(cm.Stage)); err != nil {
			return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
		}
		return true, nil
	}
	done, err := m.recorded(ctx, m.auto, cm)
	if err != nil || done {
		return false, err
	}
	return false, fmt.Errorf("adbc sink %s: the prepared transaction %s of subtask %d (writer epoch %d) is missing and its commit is not recorded in %s: its rows cannot be committed",
		m.cfg.Table, cm.Stage, cm.Subtask, cm.Epoch, m.cfg.CommitTable)
}

// Commit makes a checkpoint's rows visible in the target table, once: it returns false (and
// does nothing but drop a stage table left behind) when the commit table already records it.
func (m *Committer) Commit(ctx context.Context, cm Committable) (committed bool, err error) {
	if cm.Prepared {
		return m.commitPrepared(ctx, cm)
	}
	defer func() {
		if err != nil {
			m.c.Rollback(ctx)
		}
	}()
	stage := wh.Qualified(m.cfg.Schema, cm.Stage)
	done, err := m.recorded(ctx, m.c, cm)
	if err != nil {
		return false, err
	}
	if done {
		if err := m.c.Exec(ctx, "DROP TABLE IF EXISTS "+stage); err != nil {
			return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
		}
		return false, m.c.Commit(ctx)
	}
	exists, err := tableExists(ctx, m.c, m.cfg, cm.Stage)
	if err != nil {
		return false, err
	}
	if !exists {
		return false, fmt.Errorf("adbc sink %s: the stage table %s of subtask %d (writer epoch %d) is missing and its commit is not recorded in %s: its rows cannot be committed",
			m.cfg.Table, cm.Stage, cm.Subtask, cm.Epoch, m.cfg.CommitTable)
	}
	steps := append(moveSQL(m.cfg, cm.Stage), commitRecordSQL(m.cfg, cm))
	for _, s := range steps {
		if err := m.c.Exec(ctx, s); err != nil {
			return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
		}
	}
	if err := m.c.Commit(ctx); err != nil {
		return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
	}
	return true, nil
}

// Close disconnects.
func (m *Committer) Close() error {
	var err error
	if m.auto != nil {
		err = m.auto.Close()
	}
	return errors.Join(err, m.c.Close())
}
