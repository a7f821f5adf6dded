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
	if err := m.createCommitTable(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return m, nil
}

func (m *Committer) createCommitTable(ctx context.Context) error {
	exists, err := m.tableExists(ctx, m.cfg.CommitTable)
	if err != nil || exists {
		return err
	}
	ddl := "CREATE TABLE IF NOT EXISTS " + wh.Qualified(m.cfg.Schema, m.cfg.CommitTable) + ` (
  stage VARCHAR(63) PRIMARY KEY,
  sink_id VARCHAR(256) NOT NULL,
  subtask INTEGER NOT NULL,
  epoch BIGINT NOT NULL,
  target_table VARCHAR(512) NOT NULL,
  committed_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`
	err = m.c.Exec(ctx, ddl)
	if err == nil {
		err = m.c.Commit(ctx)
	}
	if err != nil {
		// Committers of other subtasks may have created it at the same time (PostgreSQL's
		// IF NOT EXISTS is not safe against that).
		m.c.Rollback(ctx)
		if exists, err2 := m.tableExists(ctx, m.cfg.CommitTable); err2 == nil && exists {
			return m.c.Commit(ctx)
		}
		return fmt.Errorf("adbc sink %s: commit table %s: %w", m.cfg.Table, m.cfg.CommitTable, err)
	}
	return nil
}

func (m *Committer) tableExists(ctx context.Context, name string) (bool, error) {
	names, err := m.c.TablesLike(ctx, m.cfg.Schema, name)
	if err != nil {
		return false, fmt.Errorf("adbc sink %s: %w", m.cfg.Table, err)
	}
	for _, n := range names {
		if n == name {
			return true, nil
		}
	}
	return false, nil
}

// Commit makes a checkpoint's rows visible in the target table, once: it returns false (and
// does nothing but drop a stage table left behind) when the commit table already records it.
func (m *Committer) Commit(ctx context.Context, cm Committable) (committed bool, err error) {
	defer func() {
		if err != nil {
			m.c.Rollback(ctx)
		}
	}()
	stage := wh.Qualified(m.cfg.Schema, cm.Stage)
	done, err := m.c.QueryStrings(ctx, "SELECT stage FROM "+wh.Qualified(m.cfg.Schema, m.cfg.CommitTable)+
		" WHERE stage = "+wh.QuoteString(cm.Stage))
	if err != nil {
		return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
	}
	if len(done) > 0 {
		if err := m.c.Exec(ctx, "DROP TABLE IF EXISTS "+stage); err != nil {
			return false, fmt.Errorf("adbc sink %s: commit of %s: %w", m.cfg.Table, cm.Stage, err)
		}
		return false, m.c.Commit(ctx)
	}
	exists, err := m.tableExists(ctx, cm.Stage)
	if err != nil {
		return false, err
	}
	if !exists {
		return false, fmt.Errorf("adbc sink %s: the stage table %s of subtask %d (writer epoch %d) is missing and its commit is not recorded in %s: its rows cannot be committed",
			m.cfg.Table, cm.Stage, cm.Subtask, cm.Epoch, m.cfg.CommitTable)
	}
	steps := append(moveSQL(m.cfg, cm.Stage),
		"INSERT INTO "+wh.Qualified(m.cfg.Schema, m.cfg.CommitTable)+" (stage, sink_id, subtask, epoch, target_table) VALUES ("+
			wh.QuoteString(cm.Stage)+", "+wh.QuoteString(cm.SinkID)+", "+strconv.Itoa(cm.Subtask)+", "+
			strconv.FormatInt(cm.Epoch, 10)+", "+wh.QuoteString(m.cfg.Table)+")")
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
	return errors.Join(m.c.Close())
}
