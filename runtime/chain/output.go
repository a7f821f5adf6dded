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
