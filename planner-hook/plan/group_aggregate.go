package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
)

// The exec nodes of GROUP BY aggregations outside windows: in one phase (with or without
// mini-batches), and the local and global phase Flink plans with mini-batches.
const (
	GroupAggregateType       = "stream-exec-group-aggregate_1"
	LocalGroupAggregateType  = "stream-exec-local-group-aggregate_1"
	GlobalGroupAggregateType = "stream-exec-global-group-aggregate_1"
)

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
	// The global phase's: the local phase's input row type, which the calls' arguments refer
	// to, and the place of the COUNT(*) Flink adds for retractions.
	LocalAggInputRowType json.RawMessage `json:"localAggInputRowType"`
	IndexOfCountStar     *int            `json:"indexOfCountStar"`
}

// GroupAggregate is a compiled group aggregation of one phase.
type GroupAggregate struct {
	// Phase is OnePhase, or the local or global phase of a two-phase aggregation: the local
	// phase aggregates each bundle's rows per key into partial accumulators (its output: the
	// keys, then every call's accumulator fields), the global one merges them into its state.
	Phase    AggregatePhase
	InNames  []string
	InTypes  []catalog.Type
	OutTypes []catalog.Type
	KeyCols  []int
	KeyTypes []catalog.Type
	Calls    []agg.Call
	// ArgCols holds each call's argument column (-1 for COUNT(*)), FilterCols its FILTER
	// column (-1 for none); in the global phase FieldCols holds each call's first accumulator
	// field column instead (and no call has a filter: the local phase applied it).
	ArgCols, FilterCols, FieldCols []int
	GenerateUpdateBefore           bool
	// Retractions says the input has updates and deletes (Flink's needRetraction).
	Retractions bool
	// RecordCount is, in the global phase over input with retractions, the flattened
	// accumulator field Flink's RecordCounter reads as a key's number of records (the COUNT(*)
	// call's field); -1 elsewhere. In the local phase over retractions the last call may
	// be the COUNT(*) Flink's planner appends (its field in the output, no result).
	RecordCount int
	// HiddenCalls is the number of trailing calls Flink's planner appended (the COUNT(*) of an
	// aggregation over retractions), whose results are not output.
	HiddenCalls int
	// FieldEnd is, in the global phase, the input column after the last call's accumulator
	// fields.
	FieldEnd int
	// StateTTL is the state's time to live in milliseconds (0: none).
	StateTTL int64
	// MiniBatchSize is the number of rows of a bundle (0: no mini-batches): rows are then
	// buffered per key and aggregated key by key when the bundle is finished, as Flink's
	// MiniBatchGroupAggFunction.
	MiniBatchSize int64
}

// CompileGroupAggregate decodes a group aggregation node of the given phase. Reasons say why it
// cannot run natively; err reports malformed input.
func CompileGroupAggregate(n *IslandNode, phase AggregatePhase, options map[string]string) (*GroupAggregate, []string, error) {
	var j groupAggJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s: %w", n.Name, err)
	}
	p := &GroupAggregate{Phase: phase, GenerateUpdateBefore: j.GenerateUpdateBefore, Retractions: j.NeedRetraction, RecordCount: -1}
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
	argTypes := p.InTypes
	if phase != OnePhase {
		if p.MiniBatchSize == 0 {
			// Flink plans two phases only with mini-batches, and refuses them without.
			return nil, nil, fmt.Errorf("group aggregate %s: a two-phase aggregation without mini-batches", n.Name)
		}
	}
	if phase == GlobalPhase {
		// The calls' arguments refer to the local phase's input.
		t, err := catalog.ParseType(j.LocalAggInputRowType)
		if err != nil {
			return nil, nil, fmt.Errorf("group aggregate %s local input type: %w", n.Name, err)
		}
		if _, argTypes, err = RowFields(t); err != nil {
			return nil, nil, fmt.Errorf("group aggregate %s local input type: %w", n.Name, err)
		}
		if j.IndexOfCountStar != nil && *j.IndexOfCountStar >= 0 && !j.NeedRetraction {
			return nil, nil, fmt.Errorf("group aggregate %s: a COUNT(*) for retractions at %d over input without retractions", n.Name, *j.IndexOfCountStar)
		}
	}
	if p.StateTTL, err = stateTTL(j.State, options); err != nil {
		return nil, nil, fmt.Errorf("group aggregate %s: %w", n.Name, err)
	}
	if phase == LocalPhase {
		p.StateTTL = 0 // the local phase keeps no state
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
		call, argCol, why, err := decodeAggCall(c, argTypes)
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
		if c.FilterArg >= 0 && phase != GlobalPhase {
			if c.FilterArg >= len(p.InTypes) || p.InTypes[c.FilterArg].Kind != catalog.Boolean {
				return nil, nil, fmt.Errorf("group aggregate %s: FILTER column %d is not a BOOLEAN input field", n.Name, c.FilterArg)
			}
			filterCol = c.FilterArg
		}
		call.DistinctGroup = -1
		call.Retract = j.NeedRetraction && j.AggCallNeedRetractions[i]
		switch {
		case call.Distinct && phase != OnePhase:
			// The partial accumulators would carry each key's distinct values (a MapView).
			err = fmt.Errorf("%s(DISTINCT) in a two-phase aggregation is not supported natively yet", call.Func)
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
			what := "group aggregate"
			if c.Name != "" { // the planner's own calls (split distinct aggregation) are unnamed
				what += " " + c.Name
			}
			reasons = append(reasons, fmt.Sprintf("%s: %v", what, err))
			continue
		}
		p.Calls = append(p.Calls, call)
		p.ArgCols = append(p.ArgCols, argCol)
		p.FilterCols = append(p.FilterCols, filterCol)
	}
	if len(reasons) > 0 {
		return p, reasons, nil
	}
	if phase != OnePhase && j.NeedRetraction {
		if why := p.countRecords(j); why != "" {
			return p, []string{fmt.Sprintf("group aggregate %s: %s", n.Name, why)}, nil
		}
	}
	// The partial accumulators: keys, then every call's accumulator fields.
	partials := append([]catalog.Type(nil), p.KeyTypes...)
	if phase != OnePhase {
		for _, c := range p.Calls {
			a, err := partialAccumulator(c)
			if err != nil {
				return p, []string{fmt.Sprintf("group aggregate %s: %v", n.Name, err)}, nil
			}
			if phase == GlobalPhase {
				p.FieldCols = append(p.FieldCols, len(partials))
			}
			partials = append(partials, a.FieldTypes()...)
		}
		p.FieldEnd = len(partials)
	}
	switch phase {
	case LocalPhase:
		if why := sameKinds("local group aggregate output", p.OutTypes, partials); why != "" {
			return p, []string{why}, nil
		}
		return p, nil, nil
	case GlobalPhase:
		for i, k := range p.KeyCols {
			if k != i {
				return p, []string{fmt.Sprintf("global grouping %v is not the leading fields of the partial aggregates", p.KeyCols)}, nil
			}
		}
		in := p.InTypes
		if p.Retractions && len(in) == len(partials)+1 && in[len(in)-1].Kind == catalog.BigInt {
			// The local phase's appended COUNT(*), which the global one does not merge.
			in = in[:len(in)-1]
		}
		if why := sameKinds("partial aggregates", in, partials); why != "" {
			return p, []string{why}, nil
		}
	}
	want := append([]catalog.Type(nil), p.KeyTypes...)
	for _, c := range p.Calls[:len(p.Calls)-p.HiddenCalls] {
		want = append(want, c.Result)
	}
	if why := sameKinds("group aggregate output", p.OutTypes, want); why != "" {
		reasons = append(reasons, why)
	}
	return p, reasons, nil
}

// countRecords sets up what a two-phase aggregation over input with retractions counts, as
// AggregateUtil#transformToStreamAggregateInfoList does: the phase counts its rows in a COUNT(*)
// call, the last plain one of its calls or one it appends ("_$count1$_"), unless the global
// phase is given the index of one (indexOfCountStar), when it appends none and ignores the
// local phase's appended field. The global phase reads the record count from that call's field
// (Flink's RecordCounter at AggregateInfoList#getIndexOfCountStar). It returns why the
// aggregation cannot run natively, or "".
func (p *GroupAggregate) countRecords(j groupAggJSON) string {
	star := -1
	if p.Phase == GlobalPhase && j.IndexOfCountStar != nil && *j.IndexOfCountStar >= 0 {
		star = *j.IndexOfCountStar
	} else {
		for i, c := range j.AggCalls {
			if c.countStar() {
				star = i
			}
		}
		if star < 0 {
			star = len(p.Calls)
			bigint := catalog.Type{Kind: catalog.BigInt}
			p.Calls = append(p.Calls, agg.Call{Func: agg.CountStar, Result: bigint, FilterArg: -1, DistinctGroup: -1, Retract: true})
			p.ArgCols, p.FilterCols = append(p.ArgCols, -1), append(p.FilterCols, -1)
			p.HiddenCalls = 1
		}
	}
	if p.Phase == GlobalPhase {
		// AggregateInfoList#getIndexOfCountStar: the COUNT(*)'s first field among the
		// flattened accumulator fields of the calls.
		if star >= len(p.Calls) {
			return fmt.Sprintf("a record count of call %d of %d calls is not supported natively", star, len(p.Calls))
		}
		p.RecordCount = 0
		for _, c := range p.Calls[:star] {
			a, err := partialAccumulator(c)
			if err != nil {
				return err.Error()
			}
			p.RecordCount += len(a.FieldTypes())
		}
		if err := agg.RecordCountSupported(p.Calls, p.RecordCount); err != nil {
			return err.Error() + ", not supported natively"
		}
	}
	return ""
}

// partialAccumulator is the accumulator whose fields a call's local phase outputs: a call that
// consumes retractions keeps its retracting accumulator's fields (SUM's count of values too).
func partialAccumulator(c agg.Call) (agg.Accumulator, error) {
	if !c.Retract {
		return agg.NewAccumulator(c)
	}
	r, err := agg.NewRetractor(c)
	if err != nil {
		return nil, err
	}
	a, ok := r.(agg.Accumulator)
	if !ok {
		return nil, fmt.Errorf("%s(%s) over input with retractions in a two-phase aggregation is not supported natively yet", c.Func, c.Arg)
	}
	return a, nil
}
