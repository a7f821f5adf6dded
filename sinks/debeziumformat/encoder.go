// Package debeziumformat writes rows with their RowKinds as Flink's debezium-json format writes
// them (DebeziumJsonSerializationSchema): each row in a Debezium envelope, a JSON object of the
// fields before, after and op, serialized by Flink's json format with the format's options. An
// insert or an update's new row (+I, +U) is {"before":null,"after":ROW,"op":"c"}, a delete or an
// update's old row (-D, -U) is {"before":ROW,"after":null,"op":"d"}; with
// 'debezium-json.encode.ignore-null-fields' the NULL one of before and after is left out, as are
// NULL fields of the row.
package debeziumformat

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/sinks/jsonformat"
	"github.com/sluice-project/sluice/sinks/recordends"
)

// Encoder writes rows of one row type as Debezium JSON records.
type Encoder struct {
	row                      *jsonformat.Encoder
	addHead, addTail         []byte // around an added row (+I, +U)
	retractHead, retractTail []byte // around a retracted row (-U, -D)
}

// NewEncoder returns an encoder of rows of the named fields, the json format's options opts
// (read from the 'debezium-json.' options). The row's types are those the json encoder takes.
func NewEncoder(names []string, types []catalog.Type, opts jsonformat.Options) (*Encoder, error) {
	row, err := jsonformat.NewEncoder(names, types, opts)
	if err != nil {
		return nil, fmt.Errorf("debezium-json: %w", err)
	}
	e := &Encoder{row: row}
	if opts.IgnoreNullFields {
		e.addHead, e.addTail = []byte(`{"after":`), []byte(`,"op":"c"}`)
		e.retractHead, e.retractTail = []byte(`{"before":`), []byte(`,"op":"d"}`)
	} else {
		e.addHead, e.addTail = []byte(`{"before":null,"after":`), []byte(`,"op":"c"}`)
		e.retractHead, e.retractTail = []byte(`{"before":`), []byte(`,"after":null,"op":"d"}`)
	}
	return e, nil
}

// AppendRecords appends a record per row of b, every row an insert, to body and each record's
// end to ends.
func (e *Encoder) AppendRecords(body []byte, ends []uint32, b arrow.RecordBatch) ([]byte, []uint32, error) {
	return e.AppendChanges(body, ends, b, nil)
}

// AppendChanges appends a record per row of b, of the RowKind kinds[r] (nil: all inserts), to
// body and each record's end to ends.
func (e *Encoder) AppendChanges(body []byte, ends []uint32, b arrow.RecordBatch, kinds []int8) ([]byte, []uint32, error) {
	n := int(b.NumRows())
	if kinds != nil && len(kinds) != n {
		return nil, nil, fmt.Errorf("debezium-json: %d RowKinds for %d rows", len(kinds), n)
	}
	var err error
	for r := range n {
		head, tail := e.addHead, e.addTail
		if kinds != nil && changelog.Retracts(kinds[r]) {
			head, tail = e.retractHead, e.retractTail
		}
		body = append(body, head...)
		if body, err = e.row.AppendRecord(body, b, r); err != nil {
			return nil, nil, fmt.Errorf("debezium-json: row %d: %w", r, err)
		}
		body = append(body, tail...)
		if err := recordends.Check("debezium-json", len(body)); err != nil {
			return nil, nil, err
		}
		ends = append(ends, uint32(len(body)))
	}
	return body, ends, nil
}
