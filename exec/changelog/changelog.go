// Package changelog is Flink's RowKind as Sluice's batches carry it: a changelog batch has one
// int8 column more than its fields, the last, named catalog.RowKindColumn, holding each row's
// RowKind#toByteValue; a batch without it holds inserts only.
package changelog

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// RowKinds as Flink's RowKind#toByteValue.
const (
	Insert       int8 = 0
	UpdateBefore int8 = 1
	UpdateAfter  int8 = 2
	Delete       int8 = 3
)

// Retracts reports whether a row of the kind takes a row back (-U, -D) rather than adds one
// (+I, +U).
func Retracts(kind int8) bool { return kind == UpdateBefore || kind == Delete }

// Split takes the RowKind column off a batch of the given number of fields: when the batch has
// one column more and the last is catalog.RowKindColumn, it returns the batch without it (to
// release), the RowKinds and true; otherwise the batch itself (not to release), nil and false.
// what names the reader in errors.
func Split(what string, b arrow.RecordBatch, fields int) (arrow.RecordBatch, []int8, bool, error) {
	n := int(b.NumCols())
	if n != fields+1 || b.Schema().Field(n-1).Name != catalog.RowKindColumn {
		return b, nil, false, nil
	}
	col := b.Column(n - 1)
	if col.DataType().ID() != arrow.INT8 || col.NullN() > 0 {
		return nil, nil, false, fmt.Errorf("%s: the batch's %s column is %s with %d NULLs, not INT8 NOT NULL", what, catalog.RowKindColumn, col.DataType(), col.NullN())
	}
	rest := array.NewRecordBatch(arrow.NewSchema(b.Schema().Fields()[:n-1], nil), b.Columns()[:n-1], b.NumRows())
	return rest, column.Values[int8](col), true, nil
}
