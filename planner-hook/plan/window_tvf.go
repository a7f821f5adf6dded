package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/window"
)

// WindowTableFunctionType is the exec node of a window TVF that no aggregation follows
// directly (its rows are selected, filtered or joined).
const WindowTableFunctionType = "stream-exec-window-table-function_1"

// windowTableFunctionJSON is StreamExecWindowTableFunction's JSON.
type windowTableFunctionJSON struct {
	Windowing struct {
		Strategy           string          `json:"strategy"`
		Window             windowSpecJSON  `json:"window"`
		TimeAttributeType  json.RawMessage `json:"timeAttributeType"`
		TimeAttributeIndex int             `json:"timeAttributeIndex"`
		IsRowtime          bool            `json:"isRowtime"`
	} `json:"windowing"`
	OutputType json.RawMessage `json:"outputType"`
}

// WindowTableFunction is a compiled window TVF: its input row and the windows it assigns.
type WindowTableFunction struct {
	InNames  []string
	InTypes  []catalog.Type
	OutNames []string
	OutTypes []catalog.Type
	// TimeCol is the time attribute's input field.
	TimeCol  int
	Assigner *window.Assigner
	// LTZ says whether the time attribute is a TIMESTAMP_LTZ, whose windows align to Zone.
	LTZ  bool
	Zone window.Zone
}

// Function returns the window table function that assigns the node's windows.
func (p *WindowTableFunction) Function() *window.TableFunction {
	return window.NewTableFunction(p.Assigner, p.LTZ, p.Zone)
}

// CompileWindowTableFunction decodes a window TVF node. Reasons say why it cannot run
// natively; err reports malformed input.
func CompileWindowTableFunction(n *IslandNode, options map[string]string) (*WindowTableFunction, []string, error) {
	var j windowTableFunctionJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("window table function %s: %w", n.Name, err)
	}
	p := &WindowTableFunction{TimeCol: j.Windowing.TimeAttributeIndex, Zone: window.FixedZone(0)}
	var err error
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return nil, nil, err
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("window table function %s output type: %w", n.Name, err)
	}
	if p.OutNames, p.OutTypes, err = RowFields(out); err != nil {
		return nil, nil, fmt.Errorf("window table function %s output type: %w", n.Name, err)
	}
	var reasons []string
	w := &j.Windowing
	switch {
	case w.Strategy != "TimeAttribute":
		reasons = append(reasons, fmt.Sprintf("window table function with windowing strategy %s is not supported natively", w.Strategy))
	case !w.IsRowtime:
		// Each row takes the clock when it arrives: not reproducible row by row in a test, and
		// not native yet.
		reasons = append(reasons, "processing-time window table functions (not aggregated directly) are not supported natively yet")
	}
	if p.TimeCol < 0 || p.TimeCol >= len(p.InTypes) {
		return nil, nil, fmt.Errorf("window table function %s: time attribute field %d of %d", n.Name, p.TimeCol, len(p.InTypes))
	}
	switch t := p.InTypes[p.TimeCol]; {
	case t.Kind == catalog.TimestampLTZ && t.Precision <= 3:
		zone, why := sessionZone(options)
		if why != "" {
			reasons = append(reasons, why)
		}
		p.LTZ, p.Zone = true, zone
	case t.Kind != catalog.Timestamp || t.Precision > 3:
		reasons = append(reasons, fmt.Sprintf("window table function on a time attribute of type %s is not supported natively", t))
	}
	if p.Assigner, err = w.Window.assigner(); err != nil {
		reasons = append(reasons, err.Error())
	} else if p.Assigner.Kind == window.Session {
		// Flink plans SESSION without PARTITION BY, aggregated or not, as this table function
		// (sessions over the whole input, merged as rows come).
		reasons = append(reasons, "SESSION window table functions (SESSION without PARTITION BY, or not aggregated directly) are not supported natively yet")
	}
	// The output is the input row and window_start, window_end, window_time.
	if len(p.OutTypes) != len(p.InTypes)+3 {
		return nil, nil, fmt.Errorf("window table function %s: %d output fields for %d input fields, want 3 more", n.Name, len(p.OutTypes), len(p.InTypes))
	}
	if why := sameKinds("window table function input", p.OutTypes[:len(p.InTypes)], p.InTypes); why != "" {
		reasons = append(reasons, why)
	}
	for i, t := range p.OutTypes[len(p.InTypes):] {
		if (t.Kind != catalog.Timestamp && t.Kind != catalog.TimestampLTZ) || t.Precision != 3 {
			reasons = append(reasons, fmt.Sprintf("window table function output field %s of type %s is not supported natively", p.OutNames[len(p.InTypes)+i], t))
		}
	}
	for i, t := range p.InTypes {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("field %s: %s", p.InNames[i], why))
		}
	}
	return p, reasons, nil
}
