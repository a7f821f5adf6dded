// Package keyrouting computes the key group and owning subtask of BinaryRowData rows, through
// the decoder and key-group assigner that native operators use: the native side of the
// key-routing property test against Flink's KeyGroupRangeAssignment.
package keyrouting

import (
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// Spec describes how rows of one type are keyed and routed: the row type (Flink's
// serializable type string), the key fields, the maximum parallelism and the parallelism.
type Spec struct {
	RowType        string `json:"rowType"`
	Keys           []int  `json:"keys"`
	MaxParallelism int    `json:"maxParallelism"`
	Parallelism    int    `json:"parallelism"`
}

// RouteRows computes, for BinaryRowData rows (row r is data[offsets[r]:offsets[r+1]]), each
// row's key group and the subtask that owns it: out[2r] is the key group, out[2r+1] the subtask.
// It is the native side of the key-routing property test against Flink's
// KeyGroupRangeAssignment, and goes through the same decoder and assigner as native operators.
func RouteRows(specJSON []byte, data []byte, offsets []int32, out []int32) error {
	var spec Spec
	if err := json.Unmarshal(specJSON, &spec); err != nil {
		return fmt.Errorf("key routing spec: %w", err)
	}
	if err := keygroup.CheckParallelism(spec.MaxParallelism, spec.Parallelism); err != nil {
		return fmt.Errorf("key routing spec: %w", err)
	}
	t, err := catalog.ParseTypeString(spec.RowType)
	if err != nil {
		return fmt.Errorf("key routing spec row type: %w", err)
	}
	names, types, err := plan.RowFields(t)
	if err != nil {
		return fmt.Errorf("key routing spec row type: %w", err)
	}
	keyTypes := make([]catalog.Type, len(spec.Keys))
	for i, k := range spec.Keys {
		if k < 0 || k >= len(types) {
			return fmt.Errorf("key routing spec: key field %d of a row with %d fields", k, len(types))
		}
		keyTypes[i] = types[k]
	}
	n := len(offsets) - 1
	if n < 0 || len(out) < 2*n {
		return fmt.Errorf("key routing: %d output slots for %d rows", len(out), n)
	}
	dec, err := binaryrow.NewDecoder(names, types, memory.NewGoAllocator())
	if err != nil {
		return err
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := dec.Check(data, starts, ends); err != nil {
		return err
	}
	cols, err := dec.DecodeColumns(data, starts, ends, spec.Keys)
	if err != nil {
		return err
	}
	defer releaseAll(cols)
	as, err := keygroup.NewAssigner(keyTypes, spec.MaxParallelism)
	if err != nil {
		return err
	}
	groups := make([]int32, n)
	if err := as.Assign(cols, n, groups, nil); err != nil {
		return err
	}
	for r, g := range groups {
		out[2*r] = g
		out[2*r+1] = int32(keygroup.Subtask(int(g), spec.Parallelism, spec.MaxParallelism))
	}
	return nil
}

func releaseAll(cols []arrow.Array) {
	for _, c := range cols {
		if c != nil {
			c.Release()
		}
	}
}
