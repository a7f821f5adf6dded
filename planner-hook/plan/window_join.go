package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/expr"
	"github.com/sluice-project/sluice/exec/join"
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
	JoinSpec struct {
		JoinType         string          `json:"joinType"`
		LeftKeys         []int           `json:"leftKeys"`
		RightKeys        []int           `json:"rightKeys"`
		FilterNulls      []bool          `json:"filterNulls"`
		NonEquiCondition json.RawMessage `json:"nonEquiCondition"`
	} `json:"joinSpec"`
	LeftWindowing  windowAttachedJSON `json:"leftWindowing"`
	RightWindowing windowAttachedJSON `json:"rightWindowing"`
	OutputType     json.RawMessage    `json:"outputType"`
}

// WindowJoin is a compiled window join.
type WindowJoin struct {
	Type                  join.Type
	LeftNames, RightNames []string
	LeftTypes, RightTypes []catalog.Type
	OutNames              []string
	OutTypes              []catalog.Type
	LeftKeys, RightKeys   []int
	KeyTypes              []catalog.Type
	FilterNulls           []bool
	LeftWindowEnd         int
	RightWindowEnd        int
	// Condition is the non-equi part of the join condition over the left row's fields
	// followed by the right row's, or nil.
	Condition expr.Expr
	// Zone is the shift time zone of windows on a TIMESTAMP_LTZ attribute (UTC otherwise).
	Zone window.Zone
}

var joinTypes = map[string]join.Type{"INNER": join.Inner, "LEFT": join.Left, "RIGHT": join.Right, "FULL": join.Full,
	"SEMI": join.Semi, "ANTI": join.Anti}

// CompileWindowJoin decodes a window join node. Reasons say why it cannot run natively; err
// reports malformed input.
func CompileWindowJoin(n *IslandNode, options map[string]string) (*WindowJoin, []string, error) {
	var j windowJoinJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("window join %s: %w", n.Name, err)
	}
	if len(n.InputTypes) != 2 {
		return nil, nil, fmt.Errorf("window join %s: %d input types, want 2", n.Name, len(n.InputTypes))
	}
	p := &WindowJoin{Zone: window.FixedZone(0)}
	var err error
	for i, dst := range []struct {
		names *[]string
		types *[]catalog.Type
	}{{&p.LeftNames, &p.LeftTypes}, {&p.RightNames, &p.RightTypes}} {
		t, err := catalog.ParseType(n.InputTypes[i])
		if err != nil {
			return nil, nil, fmt.Errorf("window join %s input %d type: %w", n.Name, i, err)
		}
		if *dst.names, *dst.types, err = RowFields(t); err != nil {
			return nil, nil, fmt.Errorf("window join %s input %d type: %w", n.Name, i, err)
		}
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("window join %s output type: %w", n.Name, err)
	}
	if p.OutNames, p.OutTypes, err = RowFields(out); err != nil {
		return nil, nil, fmt.Errorf("window join %s output type: %w", n.Name, err)
	}
	var reasons []string
	typ, ok := joinTypes[j.JoinSpec.JoinType]
	if !ok {
		return nil, nil, fmt.Errorf("window join %s: join type %q", n.Name, j.JoinSpec.JoinType)
	}
	p.Type = typ
	s := j.JoinSpec
	if len(s.LeftKeys) != len(s.RightKeys) || len(s.FilterNulls) != len(s.LeftKeys) {
		return nil, nil, fmt.Errorf("window join %s: %d left keys, %d right keys, %d null filters", n.Name, len(s.LeftKeys), len(s.RightKeys), len(s.FilterNulls))
	}
	if len(s.LeftKeys) == 0 {
		reasons = append(reasons, "a window join without equality keys (all rows of a window on one subtask) is not supported natively yet")
	}
	p.LeftKeys, p.RightKeys, p.FilterNulls = s.LeftKeys, s.RightKeys, s.FilterNulls
	for i := range s.LeftKeys {
		l, r := s.LeftKeys[i], s.RightKeys[i]
		if l < 0 || l >= len(p.LeftTypes) || r < 0 || r >= len(p.RightTypes) {
			return nil, nil, fmt.Errorf("window join %s: key %d refers to fields %d and %d", n.Name, i, l, r)
		}
		lt, rt := p.LeftTypes[l], p.RightTypes[r]
		if !lt.WithNullable(true).Equal(rt.WithNullable(true)) {
			reasons = append(reasons, fmt.Sprintf("join key %s of type %s against %s of type %s is not supported natively", p.LeftNames[l], lt, p.RightNames[r], rt))
		}
		if ok, why := binaryrow.Supported(lt); !ok {
			reasons = append(reasons, fmt.Sprintf("join key %s: %s", p.LeftNames[l], why))
		} else if lt.IsInterval() || lt.IsNested() {
			reasons = append(reasons, fmt.Sprintf("join key %s: %s keys are not supported natively yet", p.LeftNames[l], lt))
		}
		p.KeyTypes = append(p.KeyTypes, lt)
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
	want := append(append([]catalog.Type(nil), p.LeftTypes...), p.RightTypes...)
	if typ == join.Semi || typ == join.Anti {
		want = p.LeftTypes
	}
	if why := sameKinds("window join output", p.OutTypes, want); why != "" {
		reasons = append(reasons, why)
	}
	for i, t := range append(append([]catalog.Type(nil), p.LeftTypes...), p.RightTypes...) {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("field %d: %s", i, why))
		}
	}
	if len(s.NonEquiCondition) > 0 && string(s.NonEquiCondition) != "null" {
		node, err := DecodeRex(s.NonEquiCondition)
		if err != nil {
			return nil, nil, fmt.Errorf("window join %s condition: %w", n.Name, err)
		}
		both := append(append([]catalog.Type(nil), p.LeftTypes...), p.RightTypes...)
		if p.Condition, err = expr.CompileIn(node, both, exprEnv(options)); err != nil {
			reasons = append(reasons, fmt.Sprintf("window join condition: %v", err))
		}
	}
	return p, reasons, nil
}
