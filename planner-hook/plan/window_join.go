package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/window"
)

// WindowJoinType is the exec node of a join of two window TVFs on their windows and keys.
const WindowJoinType = "stream-exec-window-join_1"

type windowAttachedJSON struct {
	Strategy          string          `json:"strategy"`
	Window            windowSpecJSON  `json:"window"`
	TimeAttributeType json.RawMessage `json:"timeAttributeType"`
	WindowStart       int             `json:"windowStart"`
	WindowEnd         int             `json:"windowEnd"`
	IsRowtime         bool            `json:"isRowtime"`
}

// windowJoinJSON is StreamExecWindowJoin's JSON.
type windowJoinJSON struct {
	JoinSpec       joinSpecJSON       `json:"joinSpec"`
	LeftWindowing  windowAttachedJSON `json:"leftWindowing"`
	RightWindowing windowAttachedJSON `json:"rightWindowing"`
	OutputType     json.RawMessage    `json:"outputType"`
}

// WindowJoin is a compiled window join.
type WindowJoin struct {
	JoinSpec
	LeftWindowEnd  int
	RightWindowEnd int
	// Zone is the shift time zone of windows on a TIMESTAMP_LTZ attribute (UTC otherwise).
	Zone window.Zone
}

// CompileWindowJoin decodes a window join node. Reasons say why it cannot run natively; err
// reports malformed input.
func CompileWindowJoin(n *IslandNode, options map[string]string) (*WindowJoin, []string, error) {
	var j windowJoinJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("window join %s: %w", n.Name, err)
	}
	p := &WindowJoin{Zone: window.FixedZone(0)}
	reasons, err := p.JoinSpec.compile(n, j.JoinSpec, j.OutputType, options, "window join")
	if err != nil {
		return nil, nil, err
	}
	for i, w := range []*windowAttachedJSON{&j.LeftWindowing, &j.RightWindowing} {
		side := [...]string{"left", "right"}[i]
		types := [][]catalog.Type{p.LeftTypes, p.RightTypes}[i]
		switch {
		case w.Strategy != "WindowAttached":
			reasons = append(reasons, fmt.Sprintf("window join %s input with windowing strategy %s is not supported natively", side, w.Strategy))
			continue
		case !w.IsRowtime:
			reasons = append(reasons, "processing-time window joins are not supported natively")
			continue
		}
		if w.WindowEnd < 0 || w.WindowEnd >= len(types) {
			return nil, nil, fmt.Errorf("window join %s: %s window end field %d of %d", n.Name, side, w.WindowEnd, len(types))
		}
		if t := types[w.WindowEnd]; t.Kind != catalog.Timestamp || t.Precision != 3 {
			reasons = append(reasons, fmt.Sprintf("window join %s window end of type %s is not supported natively", side, t))
		}
		t, err := catalog.ParseType(w.TimeAttributeType)
		if err != nil {
			return nil, nil, fmt.Errorf("window join %s: %s time attribute type: %w", n.Name, side, err)
		}
		switch {
		case t.Kind == catalog.TimestampLTZ && t.Precision <= 3:
			zone, why := sessionZone(options)
			if why != "" {
				reasons = append(reasons, why)
			}
			p.Zone = zone
		case t.Kind != catalog.Timestamp || t.Precision > 3:
			reasons = append(reasons, fmt.Sprintf("window join on a time attribute of type %s is not supported natively", t))
		}
	}
	p.LeftWindowEnd, p.RightWindowEnd = j.LeftWindowing.WindowEnd, j.RightWindowing.WindowEnd
	return p, reasons, nil
}
