package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
)

// GroupAggregateType is the exec node of a GROUP BY aggregation outside windows in one phase
// (with or without mini-batches).
const GroupAggregateType = "stream-exec-group-aggregate_1"

// groupAggJSON is StreamExecGroupAggregate's JSON.
type groupAggJSON struct {
	Configuration          map[string]string `json:"configuration"`
	Grouping               []int             `json:"grouping"`
	AggCalls               []aggCallJSON     `json:"aggCalls"`
	AggCallNeedRetractions []bool            `json:"aggCallNeedRetractions"`
	GenerateUpdateBefore   bool              `json:"generateUpdateBefore"`
	NeedRetraction         bool              `json:"needRetraction"`
	State                  []stateJSON       `json:"state"`
	OutputType             json.RawMessage   `json:"outputType"`
}

// GroupAggregate is a compiled group aggregation.
type GroupAggregate struct {
	InNames  []string
	InTypes  []catalog.Type
	OutTypes []catalog.Type
	KeyCols  []int
	KeyTypes []catalog.Type
	Calls    []agg.Call
	// ArgCols holds each call's argument column (-1 for COUNT(*)), FilterCols its FILTER
	// column (-1 for none).
	ArgCols, FilterCols  []int
	GenerateUpdateBefore bool
	// Retractions says the input has updates and deletes (Flink's needRetraction).
	Retractions bool
	// StateTTL is the state's time to live in milliseconds (0: none).
	StateTTL int64
	// MiniBatchSize is the number of rows of a bundle (0: no mini-batches): rows are then
	// buffered per key and aggregated key by key when the bundle is finished, as Flink's
	// MiniBatchGroupAggFunction.
	MiniBatchSize int64
}

// CompileGroupAggregate decodes a group aggregation node. Reasons say why it cannot run
// natively; err reports malformed input.
func CompileGroupAggregate(n *IslandNode, options map[string]string) (*GroupAggregate, []string, error) {
	var j groupAggJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s: %w", n.Name, err)
	}
	p := &GroupAggregate{GenerateUpdateBefore: j.GenerateUpdateBefore, Retractions: j.NeedRetraction}
	var err error
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s: %w", n.Name, err)
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s output type: %w", n.Name, err)
	}
	if _, p.OutTypes, err = RowFields(out); err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s output type: %w", n.Name, err)
	}
	var reasons []string
	if j.NeedRetraction && len(j.AggCallNeedRetractions) != len(j.AggCalls) {
		return nil, nil, fmt.Errorf("group aggregate %s: %d retraction flags for %d calls", n.Name, len(j.AggCallNeedRetractions), len(j.AggCalls))
	}
	if p.MiniBatchSize, err = miniBatchSize(j.Configuration, options); err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s: %w", n.Name, err)
	}
	if p.StateTTL, err = stateTTL(j.State, options); err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s: %w", n.Name, err)
	}
	for _, k := range j.Grouping {
		if k < 0 || k >= len(p.InTypes) {
			return nil, nil, fmt.Errorf("group aggregate %s: grouping field %d of %d", n.Name, k, len(p.InTypes))
		}
		t := p.InTypes[k]
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("grouping key %s: %s", p.InNames[k], why))
		} else if t.IsInterval() || t.IsNested() {
			reasons = append(reasons, fmt.Sprintf("grouping key %s: %s keys are not supported natively yet", p.InNames[k], t))
		}
		p.KeyCols = append(p.KeyCols, k)
		p.KeyTypes = append(p.KeyTypes, t)
	}
	for i, c := range j.AggCalls {
		call, argCol, why, err := decodeAggCall(c, p.InTypes)
		if err != nil {
			return nil, nil, fmt.Errorf("group aggregate %s: %w", n.Name, err)
		}
		switch {
		case why != "":
			reasons = append(reasons, why)
			continue
		case call.Func == agg.FirstValue || call.Func == agg.LastValue:
			reasons = append(reasons, fmt.Sprintf("group aggregate %s: %s outside windows is not supported natively yet", c.Name, call.Func))
			continue
		}
		filterCol := -1
		if c.FilterArg >= 0 {
			if c.FilterArg >= len(p.InTypes) || p.InTypes[c.FilterArg].Kind != catalog.Boolean {
				return nil, nil, fmt.Errorf("group aggregate %s: FILTER column %d is not a BOOLEAN input field", n.Name, c.FilterArg)
			}
			filterCol = c.FilterArg
		}
		call.DistinctGroup = -1
		call.Retract = j.NeedRetraction && j.AggCallNeedRetractions[i]
		switch {
		case call.Distinct && p.StateTTL > 0:
			// Flink's MapView of the distinct values expires value by value.
			err = fmt.Errorf("%s(DISTINCT) with a state TTL is not supported natively yet", call.Func)
		case call.Distinct && j.NeedRetraction && !call.Retract:
			err = fmt.Errorf("%s(DISTINCT) that Flink's planner found needs no retraction is not supported natively yet", call.Func)
		case call.Distinct:
			_, err = agg.NewGroupDistinct(call, call.Retract)
		case call.Retract:
			_, err = agg.NewRetractor(call)
		default:
			_, err = agg.NewAccumulator(call)
		}
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("group aggregate %s: %v", c.Name, err))
			continue
		}
		p.Calls = append(p.Calls, call)
		p.ArgCols = append(p.ArgCols, argCol)
		p.FilterCols = append(p.FilterCols, filterCol)
	}
	if len(reasons) == 0 {
		want := append([]catalog.Type(nil), p.KeyTypes...)
		for _, c := range p.Calls {
			want = append(want, c.Result)
		}
		if why := sameKinds("group aggregate output", p.OutTypes, want); why != "" {
			reasons = append(reasons, why)
		}
	}
	return p, reasons, nil
}
