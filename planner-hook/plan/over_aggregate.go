package plan

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
)

// OverAggregateType is the exec node of aggregates OVER (PARTITION BY ... ORDER BY a time
// attribute ROWS/RANGE BETWEEN ... PRECEDING AND CURRENT ROW).
const OverAggregateType = "stream-exec-over-aggregate_1"

// overAggJSON is StreamExecOverAggregate's JSON.
type overAggJSON struct {
	OverSpec struct {
		Partition struct {
			Fields []int `json:"fields"`
		} `json:"partition"`
		Groups []struct {
			OrderBy struct {
				Fields []struct {
					Index       int  `json:"index"`
					IsAscending bool `json:"isAscending"`
				} `json:"fields"`
			} `json:"orderBy"`
			IsRows     bool          `json:"isRows"`
			LowerBound windowBound   `json:"lowerBound"`
			UpperBound windowBound   `json:"upperBound"`
			AggCalls   []aggCallJSON `json:"aggCalls"`
		} `json:"groups"`
		Constants []struct {
			Value json.RawMessage `json:"value"`
			Type  json.RawMessage `json:"type"`
		} `json:"constants"`
		OriginalInputFields int `json:"originalInputFields"`
	} `json:"overSpec"`
	UnboundedOverVersion int             `json:"unboundedOverVersion"`
	OutputType           json.RawMessage `json:"outputType"`
}

// windowBound is a RexWindowBound as Flink's plans write it.
type windowBound struct {
	Kind        string `json:"kind"`
	IsPreceding bool   `json:"isPreceding"`
	Offset      *struct {
		Kind       string `json:"kind"`
		InputIndex int    `json:"inputIndex"`
	} `json:"offset"`
}

// OverAggregate is a compiled OVER aggregation on event time.
type OverAggregate struct {
	InNames  []string
	InTypes  []catalog.Type
	OutTypes []catalog.Type
	KeyCols  []int
	KeyTypes []catalog.Type
	// RowtimeCol is the event-time attribute the rows are ordered by (-1 on processing time).
	RowtimeCol int
	// ProcTime orders the rows by processing time: by their arrival.
	ProcTime bool
	Calls    []agg.Call
	// ArgCols holds each call's argument column (-1 for COUNT(*)).
	ArgCols []int
	// Rows is a ROWS frame, otherwise RANGE; Bounded a frame from a bounded PRECEDING, with
	// Flink's precedingOffset (N + 1 rows, or the interval in milliseconds).
	Rows, Bounded bool
	Preceding     int64
	// Version is Flink's unboundedOverVersion (table.exec.unbounded-over.version).
	Version int
}

// CompileOverAggregate decodes an OVER aggregation node. Reasons say why it cannot run
// natively; err reports malformed input.
func CompileOverAggregate(n *IslandNode, options map[string]string) (*OverAggregate, []string, error) {
	var j overAggJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("over aggregate %s: %w", n.Name, err)
	}
	fail := func(format string, a ...any) (*OverAggregate, []string, error) {
		return nil, nil, fmt.Errorf("over aggregate %s: %s", n.Name, fmt.Sprintf(format, a...))
	}
	p := &OverAggregate{RowtimeCol: -1, Version: j.UnboundedOverVersion}
	var err error
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return fail("%v", err)
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return fail("output type: %v", err)
	}
	if _, p.OutTypes, err = RowFields(out); err != nil {
		return fail("output type: %v", err)
	}
	spec := j.OverSpec
	if len(spec.Groups) != 1 {
		return nil, []string{fmt.Sprintf("an OVER aggregation of %d window groups is not supported natively", len(spec.Groups))}, nil
	}
	g := spec.Groups[0]
	var reasons []string
	if why, err := stateTTLReason(nil, options, "an OVER aggregation"); err != nil {
		return fail("%v", err)
	} else if why != "" {
		reasons = append(reasons, why)
	}
	if len(g.OrderBy.Fields) != 1 {
		return nil, []string{"an OVER aggregation ordered by several fields is not supported natively"}, nil
	}
	order := g.OrderBy.Fields[0].Index
	if order < 0 || order >= len(p.InTypes) {
		return fail("order field %d of %d", order, len(p.InTypes))
	}
	switch t := p.InTypes[order]; {
	case t.TimeAttr == catalog.Rowtime && t.Precision <= 3 && g.OrderBy.Fields[0].IsAscending:
		p.RowtimeCol = order
	case t.TimeAttr == catalog.Rowtime:
		reasons = append(reasons, fmt.Sprintf("an OVER aggregation ordered by a %s event-time attribute is not supported natively", t))
	case t.TimeAttr == catalog.Proctime && g.OrderBy.Fields[0].IsAscending:
		p.ProcTime = true
	case t.TimeAttr == catalog.Proctime:
		reasons = append(reasons, "an OVER aggregation ordered by processing time descending is not supported natively")
	default:
		reasons = append(reasons, "an OVER aggregation ordered by a column that is not a time attribute is not supported natively yet")
	}
	p.Rows = g.IsRows
	switch {
	case g.UpperBound.Kind != "CURRENT_ROW":
		reasons = append(reasons, "an OVER frame that does not end at the current row is not supported natively")
	case g.LowerBound.Kind == "UNBOUNDED_PRECEDING":
		if p.Version != 1 && p.Version != 2 {
			reasons = append(reasons, fmt.Sprintf("unbounded OVER version %d is not supported natively", p.Version))
		}
	case g.LowerBound.Kind == "BOUNDED_WINDOW" && g.LowerBound.IsPreceding && g.LowerBound.Offset != nil:
		p.Bounded = true
		why, err := p.precedingOffset(g.LowerBound.Offset.InputIndex-spec.OriginalInputFields, len(spec.Constants),
			func(i int) (json.RawMessage, json.RawMessage) { return spec.Constants[i].Value, spec.Constants[i].Type })
		if err != nil {
			return fail("%v", err)
		}
		if why != "" {
			reasons = append(reasons, why)
		}
	default:
		reasons = append(reasons, fmt.Sprintf("an OVER frame from %s is not supported natively", g.LowerBound.Kind))
	}
	switch {
	case p.ProcTime && p.Bounded && !p.Rows:
		// ProcTimeRangeBoundedPrecedingFunction emits a millisecond's rows on a timer.
		reasons = append(reasons, "a bounded RANGE OVER frame on processing time is not supported natively yet")
	case p.ProcTime && p.Bounded && p.Preceding == 1:
		// ProcTimeRowsBoundedPrecedingFunction loses its oldest time when its one row is
		// retracted (smallestTsState becomes Long.MAX_VALUE), and skips every other retraction.
		reasons = append(reasons, "a ROWS OVER frame of the current row alone on processing time is not supported natively")
	}
	for _, k := range spec.Partition.Fields {
		if k < 0 || k >= len(p.InTypes) {
			return fail("partition field %d of %d", k, len(p.InTypes))
		}
		t := p.InTypes[k]
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("OVER partition key %s: %s", p.InNames[k], why))
		} else if t.IsInterval() || t.IsNested() {
			reasons = append(reasons, fmt.Sprintf("OVER partition key %s: %s keys are not supported natively yet", p.InNames[k], t))
		}
		p.KeyCols = append(p.KeyCols, k)
		p.KeyTypes = append(p.KeyTypes, t)
	}
	for i, t := range p.InTypes {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("OVER aggregation input field %s: %s", p.InNames[i], why))
		}
	}
	reasons = append(reasons, p.compileCalls(g.AggCalls)...)
	if len(reasons) == 0 {
		want := append([]catalog.Type(nil), p.InTypes...)
		for _, c := range p.Calls {
			want = append(want, c.Result)
		}
		if why := sameKinds("over aggregate output", p.OutTypes, want); why != "" {
			reasons = append(reasons, why)
		}
	}
	return p, reasons, nil
}

// precedingOffset reads a bounded frame's PRECEDING constant into Flink's precedingOffset.
func (p *OverAggregate) precedingOffset(i, constants int, constant func(int) (json.RawMessage, json.RawMessage)) (string, error) {
	if i < 0 || i >= constants {
		return "", fmt.Errorf("frame bound refers to constant %d of %d", i, constants)
	}
	raw, rawType := constant(i)
	t, err := catalog.ParseType(rawType)
	if err != nil {
		return "", fmt.Errorf("frame bound type: %w", err)
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		text = string(raw)
	}
	v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	switch {
	case t.Kind == catalog.Decimal || err != nil:
		return fmt.Sprintf("an OVER frame bound of %s %s is not supported natively", t, text), nil
	case v < 0:
		return "", fmt.Errorf("negative frame bound %d", v)
	case p.Rows:
		p.Preceding = v + 1
	case t.Kind == catalog.IntervalDayTime:
		p.Preceding = v
	default:
		return fmt.Sprintf("a RANGE frame bound of %s is not supported natively", t), nil
	}
	return "", nil
}

// compileCalls decodes the aggregate calls: a bounded frame retracts them all, as Flink's
// planner generates them; an unbounded one only accumulates.
func (p *OverAggregate) compileCalls(calls []aggCallJSON) []string {
	var reasons []string
	for _, c := range calls {
		refersToConstant := false
		for _, a := range c.ArgList {
			refersToConstant = refersToConstant || a >= len(p.InTypes)
		}
		if refersToConstant {
			reasons = append(reasons, fmt.Sprintf("over aggregate %s: constant arguments are not supported natively yet", c.Name))
			continue
		}
		call, argCol, why, err := decodeAggCall(c, p.InTypes)
		switch {
		case err != nil:
			reasons = append(reasons, fmt.Sprintf("over aggregate %s: %v", c.Name, err))
			continue
		case why != "":
			reasons = append(reasons, why)
			continue
		case call.Distinct:
			reasons = append(reasons, fmt.Sprintf("over aggregate %s: %s(DISTINCT) is not supported natively yet", c.Name, call.Func))
			continue
		case call.Filtered:
			reasons = append(reasons, fmt.Sprintf("over aggregate %s: FILTER clauses are not supported natively yet", c.Name))
			continue
		case call.Func == agg.FirstValue || call.Func == agg.LastValue:
			reasons = append(reasons, fmt.Sprintf("over aggregate %s: %s is not supported natively yet", c.Name, call.Func))
			continue
		case p.Bounded && !p.Rows && (call.Arg.Kind == catalog.Float || call.Arg.Kind == catalog.Double) && (call.Func == agg.Sum || call.Func == agg.Sum0 || call.Func == agg.Avg):
			// Flink retracts a RANGE frame's rows in its map state's order, which the state
			// backend decides: floating-point sums depend on it.
			reasons = append(reasons, fmt.Sprintf("over aggregate %s: %s(%s) over a bounded RANGE frame is not supported natively (Flink's result depends on its state backend's map order)", c.Name, call.Func, call.Arg))
			continue
		}
		call.DistinctGroup, call.Retract = -1, p.Bounded
		if p.Bounded {
			_, err = agg.NewRetractor(call)
		} else {
			_, err = agg.NewAccumulator(call)
		}
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("over aggregate %s: %v", c.Name, err))
			continue
		}
		p.Calls = append(p.Calls, call)
		p.ArgCols = append(p.ArgCols, argCol)
	}
	return reasons
}

// ExecType implements Node.
func (*OverAggregate) ExecType() string { return OverAggregateType }
