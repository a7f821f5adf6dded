package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// splitRowKinds takes the RowKind column off a changelog batch of a columnar exchange: when the
// batch has one column more than the fields read and the last is catalog.RowKindColumn, it
// returns the batch without it (to release) and the RowKinds; otherwise the batch itself (not to
// release) and nil. what names the reader in errors.
func splitRowKinds(what string, b arrow.RecordBatch, fields int) (arrow.RecordBatch, []int8, bool, error) {
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
