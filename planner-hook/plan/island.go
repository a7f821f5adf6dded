// Package plan decodes the island plans that the Flink planner hook sends (Flink's own exec-node
// JSON, the format of COMPILE PLAN), judges whether every node can run natively, and compiles
// each node into the description the runtime (runtime/chain, runtime/scan, runtime/sink) runs.
package plan

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/catalog"
)

// SupportedVersion is the island envelope version this package reads.
const SupportedVersion = 1

// Island is the part of a Flink plan between its source and sink edges.
type Island struct {
	Version int               `json:"version"`
	Nodes   []IslandNode      `json:"nodes"`
	Options map[string]string `json:"options"`
}

// IslandNode is one exec node with the row type it reads.
type IslandNode struct {
	// Name is the planner's name for the node, e.g. "Calc#12".
	Name string `json:"name"`
	// InputType is the row type of the node's input (absent for nodes with several inputs).
	InputType json.RawMessage `json:"inputType"`
	// InputTypes are the row types of the inputs of a node with several (a join: left, right).
	InputTypes []json.RawMessage `json:"inputTypes,omitempty"`
	// Exec is Flink's exec-node JSON.
	Exec json.RawMessage `json:"exec"`
}

// execHeader is what every exec node has.
type execHeader struct {
	ID   int    `json:"id"`
	Type string `json:"type"`
}

// Decode parses an island envelope.
func Decode(data []byte) (*Island, error) {
	var is Island
	if err := json.Unmarshal(data, &is); err != nil {
		return nil, fmt.Errorf("island plan: %w", err)
	}
	if is.Version != SupportedVersion {
		return nil, fmt.Errorf("island plan: version %d, this library reads %d", is.Version, SupportedVersion)
	}
	return &is, nil
}

// Header returns the exec node's id and type (e.g. "stream-exec-calc_1").
func (n *IslandNode) Header() (execHeader, error) {
	var h execHeader
	if err := json.Unmarshal(n.Exec, &h); err != nil {
		return h, fmt.Errorf("node %s: %w", n.Name, err)
	}
	return h, nil
}

// RowFields returns the field names and types of the node's input row type.
func (n *IslandNode) RowFields() ([]string, []catalog.Type, error) {
	if len(n.InputType) == 0 {
		return nil, nil, fmt.Errorf("node %s: no input type", n.Name)
	}
	t, err := catalog.ParseType(n.InputType)
	if err != nil {
		return nil, nil, fmt.Errorf("node %s input type: %w", n.Name, err)
	}
	return RowFields(t)
}

// RowFields returns the field names and types of a ROW type.
func RowFields(t catalog.Type) ([]string, []catalog.Type, error) {
	if t.Kind != catalog.Row {
		return nil, nil, fmt.Errorf("row type expected, got %s", t)
	}
	names := make([]string, len(t.Fields))
	types := make([]catalog.Type, len(t.Fields))
	for i, f := range t.Fields {
		names[i], types[i] = f.Name, f.Type
	}
	return names, types, nil
}

// ParseRowFields is RowFields of a ROW type in LogicalType#asSerializableString form.
func ParseRowFields(rowType string) ([]string, []catalog.Type, error) {
	t, err := catalog.ParseTypeString(rowType)
	if err != nil {
		return nil, nil, err
	}
	return RowFields(t)
}

// CompileNodeIsland decodes the island JSON of a single native node (a scan or a sink, sent
// alone) and compiles it with compile; the node must run natively, so reasons are an error
// naming the node as what it is.
func CompileNodeIsland[T any](data []byte, what string, compile func(*IslandNode, map[string]string) (T, []string, error)) (T, error) {
	var none T
	is, err := Decode(data)
	if err != nil {
		return none, err
	}
	if len(is.Nodes) != 1 {
		return none, fmt.Errorf("%s: %d nodes, its island has one", what, len(is.Nodes))
	}
	c, reasons, err := compile(&is.Nodes[0], is.Options)
	if err == nil && len(reasons) > 0 {
		err = fmt.Errorf("%s %s cannot run natively: %s", what, is.Nodes[0].Name, strings.Join(reasons, "; "))
	}
	return c, err
}
