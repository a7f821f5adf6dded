package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/expr"
	"github.com/sluice-project/sluice/exec/join"
)

// joinSpecJSON is Flink's JoinSpec.
type joinSpecJSON struct {
	JoinType         string          `json:"joinType"`
	LeftKeys         []int           `json:"leftKeys"`
	RightKeys        []int           `json:"rightKeys"`
	FilterNulls      []bool          `json:"filterNulls"`
	NonEquiCondition json.RawMessage `json:"nonEquiCondition"`
}

// JoinSpec is what every compiled join has: its inputs' and output's fields, its type, its
// equality keys and the rest of its condition.
type JoinSpec struct {
	Type                  join.Type
	LeftNames, RightNames []string
	LeftTypes, RightTypes []catalog.Type
	OutNames              []string
	OutTypes              []catalog.Type
	LeftKeys, RightKeys   []int
	KeyTypes              []catalog.Type
	// FilterNulls says per key whether a NULL in it matches nothing (true for =, false for
	// IS NOT DISTINCT FROM).
	FilterNulls []bool
	// Condition is the non-equi part of the join condition over the left row's fields
	// followed by the right row's, or nil.
	Condition expr.Expr
}

var joinTypes = map[string]join.Type{"INNER": join.Inner, "LEFT": join.Left, "RIGHT": join.Right, "FULL": join.Full,
	"SEMI": join.Semi, "ANTI": join.Anti}

// compile decodes a join node's input and output types and its join spec. Reasons say why the
// join cannot run natively; err reports malformed input. what names the join in messages.
func (p *JoinSpec) compile(n *IslandNode, s joinSpecJSON, outputType json.RawMessage, options map[string]string, what string) ([]string, error) {
	if len(n.InputTypes) != 2 {
		return nil, fmt.Errorf("%s %s: %d input types, want 2", what, n.Name, len(n.InputTypes))
	}
	for i, dst := range []struct {
		names *[]string
		types *[]catalog.Type
	}{{&p.LeftNames, &p.LeftTypes}, {&p.RightNames, &p.RightTypes}} {
		t, err := catalog.ParseType(n.InputTypes[i])
		if err != nil {
			return nil, fmt.Errorf("%s %s input %d type: %w", what, n.Name, i, err)
		}
		if *dst.names, *dst.types, err = RowFields(t); err != nil {
			return nil, fmt.Errorf("%s %s input %d type: %w", what, n.Name, i, err)
		}
	}
	out, err := catalog.ParseType(outputType)
	if err != nil {
		return nil, fmt.Errorf("%s %s output type: %w", what, n.Name, err)
	}
	if p.OutNames, p.OutTypes, err = RowFields(out); err != nil {
		return nil, fmt.Errorf("%s %s output type: %w", what, n.Name, err)
	}
	var reasons []string
	typ, ok := joinTypes[s.JoinType]
	if !ok {
		return nil, fmt.Errorf("%s %s: join type %q", what, n.Name, s.JoinType)
	}
	p.Type = typ
	if len(s.LeftKeys) != len(s.RightKeys) || len(s.FilterNulls) != len(s.LeftKeys) {
		return nil, fmt.Errorf("%s %s: %d left keys, %d right keys, %d null filters", what, n.Name, len(s.LeftKeys), len(s.RightKeys), len(s.FilterNulls))
	}
	if len(s.LeftKeys) == 0 {
		reasons = append(reasons, fmt.Sprintf("a %s without equality keys (all rows on one subtask) is not supported natively yet", what))
	}
	p.LeftKeys, p.RightKeys, p.FilterNulls = s.LeftKeys, s.RightKeys, s.FilterNulls
	for i := range s.LeftKeys {
		l, r := s.LeftKeys[i], s.RightKeys[i]
		if l < 0 || l >= len(p.LeftTypes) || r < 0 || r >= len(p.RightTypes) {
			return nil, fmt.Errorf("%s %s: key %d refers to fields %d and %d", what, n.Name, i, l, r)
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
	both := append(append([]catalog.Type(nil), p.LeftTypes...), p.RightTypes...)
	want := both
	if typ == join.Semi || typ == join.Anti {
		want = p.LeftTypes
	}
	if why := sameKinds(what+" output", p.OutTypes, want); why != "" {
		reasons = append(reasons, why)
	}
	for i, t := range both {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("field %d: %s", i, why))
		}
	}
	if len(s.NonEquiCondition) > 0 && string(s.NonEquiCondition) != "null" {
		node, err := DecodeRex(s.NonEquiCondition)
		if err != nil {
			return nil, fmt.Errorf("%s %s condition: %w", what, n.Name, err)
		}
		if p.Condition, err = expr.CompileIn(node, both, exprEnv(options)); err != nil {
			reasons = append(reasons, fmt.Sprintf("%s condition: %v", what, err))
		}
	}
	return reasons, nil
}
