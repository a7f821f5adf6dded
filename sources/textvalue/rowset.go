package textvalue

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

// RowSet is the rows a decoder of a flat row type has decoded since its last Finish: a Column
// per field, which the decoder appends a record's values to, then Commits (or Rollbacks).
// Decoders embed it for Schema, Rows, DropLast and Finish.
type RowSet struct {
	// Cols are the fields' columns, their Type set.
	Cols   []Column
	schema *arrow.Schema
	rows   int
}

// NewRowSet returns the empty rows of the named fields.
func NewRowSet(names []string, types []catalog.Type) (RowSet, error) {
	schema, err := catalog.ArrowSchema(names, types)
	if err != nil {
		return RowSet{}, err
	}
	s := RowSet{Cols: make([]Column, len(types)), schema: schema}
	for i, t := range types {
		s.Cols[i].Type = t
	}
	return s, nil
}

// Schema is the schema of the decoded batches.
func (s *RowSet) Schema() *arrow.Schema { return s.schema }

// Rows is the number of rows decoded since the last Finish.
func (s *RowSet) Rows() int { return s.rows }

// Commit makes the values appended since the last row one more row.
func (s *RowSet) Commit() { s.rows++ }

// Rollback takes back the values appended since the last row (a record not taken).
func (s *RowSet) Rollback() {
	for i := range s.Cols {
		s.Cols[i].Truncate(s.rows)
	}
}

// DropLast takes back the last row (a Kafka key's, when the record's value is left to Flink).
func (s *RowSet) DropLast() {
	if s.rows == 0 {
		return
	}
	s.rows--
	s.Rollback()
}

// Finish returns the rows since the last Finish as a batch, and starts a new one.
func (s *RowSet) Finish(mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(s.Cols))
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i := range s.Cols {
		a, err := s.Cols[i].Array(mem, s.schema.Field(i).Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", s.schema.Field(i).Name, err)
		}
		cols[i] = a
		s.Cols[i].Reset()
	}
	rows := s.rows
	s.rows = 0
	return array.NewRecordBatch(s.schema, cols, int64(rows)), nil
}
