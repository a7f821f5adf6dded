// Package rowgen turns Arrow record batches into BinaryRowData buffers, as the Java side hands
// them to the native library: test input for the row edge and pipeline tests and benchmarks.
package rowgen

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
)

// Encode writes every row of rec (whose columns have the given types) as BinaryRowData and
// returns the bytes and the len+1 row offsets. kinds gives each row's RowKind, or nil for +I.
func Encode(rec arrow.RecordBatch, types []catalog.Type, kinds []int8) ([]byte, []int32, error) {
	enc, err := binaryrow.NewEncoder(types)
	if err != nil {
		return nil, nil, fmt.Errorf("rowgen: %w", err)
	}
	n := int(rec.NumRows())
	cols := rec.Columns()[:len(types)]
	offsets := make([]int32, n+1)
	if err := enc.Layout(cols, n, offsets); err != nil {
		return nil, nil, fmt.Errorf("rowgen: %w", err)
	}
	data := make([]byte, offsets[n])
	if err := enc.Encode(cols, kinds, n, offsets, data); err != nil {
		return nil, nil, fmt.Errorf("rowgen: %w", err)
	}
	return data, offsets, nil
}
