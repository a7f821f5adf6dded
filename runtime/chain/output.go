package chain

import (
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// outputDecoder returns a decoder of a chain's output rows: the output type of its last node
// (compiled: its compiled form).
func outputDecoder(last *plan.IslandNode, compiled plan.Node) (*binaryrow.Decoder, error) {
	if s, ok := compiled.(plan.Scan); ok {
		// A chain of a scan alone (e.g. INSERT INTO t SELECT * FROM s): the scan's columns.
		types := s.Columns()
		names := make([]string, len(types))
		for i := range names {
			names[i] = fmt.Sprintf("f%d", i)
		}
		return binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
	}
	var h struct {
		OutputType json.RawMessage `json:"outputType"`
	}
	if err := json.Unmarshal(last.Exec, &h); err != nil {
		return nil, fmt.Errorf("chain output type: %w", err)
	}
	t, err := catalog.ParseType(h.OutputType)
	if err != nil {
		return nil, fmt.Errorf("chain output type: %w", err)
	}
	names, types, err := plan.RowFields(t)
	if err != nil {
		return nil, fmt.Errorf("chain output type: %w", err)
	}
	return binaryrow.NewDecoder(names, types, memory.DefaultAllocator)
}

// rowOutput gathers the rows a stage emits in one call (BinaryRowData bytes, row i at
// data[offsets[i]:offsets[i+1]]) from several emitting steps.
type rowOutput struct {
	data    []byte
	offsets []int32
}

// reset forgets the rows of the last call.
func (o *rowOutput) reset() { o.data, o.offsets = o.data[:0], append(o.offsets[:0], 0) }

// append adds rows given as bytes and offsets (len(offsets) = rows + 1).
func (o *rowOutput) append(data []byte, offsets []int32) {
	if len(offsets) < 2 {
		return
	}
	base := int32(len(o.data)) - offsets[0]
	o.data = append(o.data, data[offsets[0]:offsets[len(offsets)-1]]...)
	for _, off := range offsets[1:] {
		o.offsets = append(o.offsets, base+off)
	}
}
