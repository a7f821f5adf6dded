// Package adbc reads warehouse tables through ADBC drivers into Sluice's Arrow batches: the
// query's result stream, converted column by column into the layout of the Flink types the
// table declares, with the values Flink's JDBC source reads for them.
package adbc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	wh "github.com/sluice-project/sluice/catalog/adbc"
)

// Column is a column a scan reads: its name in the table and the Flink type it is read as.
type Column struct {
	Name string
	Type catalog.Type
}

// Range restricts a scan to the rows whose Column lies in [Lower, Upper] (SQL BETWEEN), as one
// partition of Flink's JDBC source ('scan.partition.column') reads.
type Range struct {
	Column       string
	Lower, Upper int64
}

// Scan is a query of some columns of a table.
type Scan struct {
	wh.Endpoint
	// Schema is the table's schema, or "" for the connection's default; Table its name.
	Schema, Table string
	Columns       []Column
	// Range, if set, selects one partition of the table.
	Range *Range
	// BatchRows bounds the rows of a batch (0: the driver's batches as they come, which can be
	// large: PostgreSQL's driver fills about 16 MB).
	BatchRows int
}

// Query is the SQL the scan runs.
func (s Scan) Query() string {
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = wh.QuoteIdent(c.Name)
	}
	sel := strings.Join(cols, ", ")
	if len(cols) == 0 {
		// A projection of no columns (SELECT COUNT(*) FROM t): one row per table row.
		sel = "1"
	}
	q := "SELECT " + sel + " FROM " + wh.Qualified(s.Schema, s.Table)
	if r := s.Range; r != nil {
		q += " WHERE " + wh.QuoteIdent(r.Column) + " BETWEEN " + strconv.FormatInt(r.Lower, 10) +
			" AND " + strconv.FormatInt(r.Upper, 10)
	}
	return q
}

// PartitionRanges splits [lower, upper] into n ranges exactly as Flink's
// JdbcNumericBetweenParametersProvider#ofBatchNum does: at most upper-lower+1 ranges, the first
// ones one value longer than the others.
func PartitionRanges(lower, upper int64, n int) ([][2]int64, error) {
	if n < 1 {
		return nil, fmt.Errorf("scan.partition.num %d: expected a positive number", n)
	}
	if lower > upper {
		return nil, fmt.Errorf("scan.partition.lower-bound %d is above scan.partition.upper-bound %d", lower, upper)
	}
	count := upper - lower + 1
	if count <= 0 {
		return nil, fmt.Errorf("scan.partition bounds [%d, %d] hold more values than a long counts", lower, upper)
	}
	if int64(n) > count {
		n = int(count)
	}
	size := (count + int64(n) - 1) / int64(n)
	big := count - (size-1)*int64(n)
	out := make([][2]int64, n)
	start := lower
	for i := range out {
		end := start + size - 1
		if int64(i) >= big {
			end--
		}
		out[i] = [2]int64{start, end}
		start = end + 1
	}
	return out, nil
}

// Readable says whether a scan reads columns of a type.
func Readable(t catalog.Type) error {
	switch t.Kind {
	case catalog.Boolean, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Float, catalog.Double,
		catalog.Decimal, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Date, catalog.Time:
		return nil
	case catalog.Timestamp, catalog.TimestampLTZ:
		if t.Precision <= 6 {
			return nil
		}
	}
	return fmt.Errorf("type %s is not read by the adbc source yet", t)
}

// Reader is an open scan: its connection and the query's result stream.
type Reader struct {
	scan   Scan
	c      *wh.Conn
	rdr    array.RecordReader
	schema *arrow.Schema
	conv   []converter
	skip   int64
	// cur is the converted driver batch being handed out in slices of BatchRows, from row pos.
	cur arrow.RecordBatch
	pos int64
}

// Open connects and runs a scan's query, skipping its first skip rows (those a restored split
// emitted before).
func Open(ctx context.Context, s Scan, skip int64) (*Reader, error) {
	for _, c := range s.Columns {
		if err := Readable(c.Type); err != nil {
			return nil, fmt.Errorf("adbc scan %s: column %s: %w", s.Table, c.Name, err)
		}
	}
	c, err := wh.Open(ctx, s.Endpoint, true)
	if err != nil {
		return nil, fmt.Errorf("adbc scan %s: %w", s.Table, err)
	}
	if c.Dialect() == wh.PostgreSQL {
		// A restored split skips the rows it emitted, so the query must return an unchanged
		// table's rows in the same order every time: no scan joining another one mid-table
		// (synchronized sequential scans), no parallel workers.
		for _, set := range []string{"SET synchronize_seqscans = off", "SET max_parallel_workers_per_gather = 0"} {
			if err := c.Exec(ctx, set); err != nil {
				c.Close()
				return nil, fmt.Errorf("adbc scan %s: %w", s.Table, err)
			}
		}
	}
	rdr, err := c.Query(ctx, s.Query())
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("adbc scan %s: %w", s.Table, err)
	}
	r := &Reader{scan: s, c: c, rdr: rdr, skip: skip}
	got := rdr.Schema()
	if len(s.Columns) > 0 && got.NumFields() != len(s.Columns) {
		r.Close()
		return nil, fmt.Errorf("adbc scan %s: the query returned %d columns for %d", s.Table, got.NumFields(), len(s.Columns))
	}
	fields := make([]arrow.Field, len(s.Columns))
	for i, col := range s.Columns {
		cv, err := converterFor(got.Field(i), col.Type)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("adbc scan %s: column %s: %w", s.Table, col.Name, err)
		}
		r.conv = append(r.conv, cv)
		at, err := catalog.ArrowType(col.Type)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("adbc scan %s: column %s: %w", s.Table, col.Name, err)
		}
		fields[i] = arrow.Field{Name: col.Name, Type: at, Nullable: true}
	}
	r.schema = arrow.NewSchema(fields, nil)
	return r, nil
}

// Next returns the next batch, or nil after the last one. The caller releases it.
func (r *Reader) Next() (arrow.RecordBatch, error) {
	for r.cur == nil {
		if !r.rdr.Next() {
			if err := r.rdr.Err(); err != nil {
				return nil, fmt.Errorf("adbc scan %s: %w", r.scan.Table, err)
			}
			return nil, nil
		}
		in := r.rdr.RecordBatch()
		n := in.NumRows()
		if r.skip >= n {
			r.skip -= n
			continue
		}
		cols := make([]arrow.Array, len(r.conv))
		for i, cv := range r.conv {
			c, err := cv(in.Column(i))
			if err != nil {
				for _, done := range cols[:i] {
					done.Release()
				}
				return nil, fmt.Errorf("adbc scan %s: column %s: %w", r.scan.Table, r.scan.Columns[i].Name, err)
			}
			cols[i] = c
		}
		r.cur = array.NewRecordBatch(r.schema, cols, n)
		for _, c := range cols {
			c.Release()
		}
		r.pos, r.skip = r.skip, 0
	}
	n := r.cur.NumRows()
	end := n
	if r.scan.BatchRows > 0 && r.pos+int64(r.scan.BatchRows) < n {
		end = r.pos + int64(r.scan.BatchRows)
	}
	if r.pos == 0 && end == n {
		b := r.cur
		r.cur = nil
		return b, nil
	}
	b := r.cur.NewSlice(r.pos, end)
	if end == n {
		r.cur.Release()
		r.cur = nil
	} else {
		r.pos = end
	}
	return b, nil
}

// Close ends the query and disconnects.
func (r *Reader) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.rdr != nil {
		r.rdr.Release()
		r.rdr = nil
	}
	return r.c.Close()
}
