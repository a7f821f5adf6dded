package plan

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/window"
)

// Exec-node types of Flink's window aggregations and the nodes around them.
const (
	WindowAggregateType       = "stream-exec-window-aggregate_1"
	LocalWindowAggregateType  = "stream-exec-local-window-aggregate_1"
	GlobalWindowAggregateType = "stream-exec-global-window-aggregate_1"
	WatermarkAssignerType     = "stream-exec-watermark-assigner_1"
	ExchangeType              = "stream-exec-exchange_1"
	GroupWindowAggregateType  = "stream-exec-group-window-aggregate_1"
)

// windowAggJSON is StreamExecWindowAggregate's JSON.
type windowAggJSON struct {
	Configuration map[string]string `json:"configuration"`
	Grouping      []int             `json:"grouping"`
	AggCalls      []aggCallJSON     `json:"aggCalls"`
	Windowing     struct {
		Strategy           string          `json:"strategy"`
		Window             windowSpecJSON  `json:"window"`
		TimeAttributeType  json.RawMessage `json:"timeAttributeType"`
		TimeAttributeIndex int             `json:"timeAttributeIndex"`
		SliceEnd           int             `json:"sliceEnd"`
		IsRowtime          bool            `json:"isRowtime"`
	} `json:"windowing"`
	LocalAggInputRowType  json.RawMessage `json:"localAggInputRowType"`
	NamedWindowProperties []struct {
		Name     string `json:"name"`
		Property struct {
			Kind string `json:"kind"`
		} `json:"property"`
	} `json:"namedWindowProperties"`
	NeedRetraction bool            `json:"needRetraction"`
	OutputType     json.RawMessage `json:"outputType"`
}

// windowSpecJSON is a WindowSpec of Flink's plans: the window TVF and its sizes.
type windowSpecJSON struct {
	Type    string `json:"type"`
	Size    string `json:"size"`
	Slide   string `json:"slide"`
	MaxSize string `json:"maxSize"`
	Step    string `json:"step"`
	Offset  string `json:"offset"`
	Gap     string `json:"gap"`
}

// assigner returns the window assigner of the spec.
func (w windowSpecJSON) assigner() (*window.Assigner, error) {
	if w.Type == "SessionWindow" {
		gap, err := parseDuration(w.Gap)
		if err != nil {
			return nil, err
		}
		return window.NewSession(gap)
	}
	return assignerOf(w.Type, w.Size, w.Slide, w.MaxSize, w.Step, w.Offset)
}

// aggCallJSON is one AggregateCall of a plan.
type aggCallJSON struct {
	Name         string          `json:"name"`
	InternalName string          `json:"internalName"`
	SystemName   string          `json:"systemName"`
	ArgList      []int           `json:"argList"`
	FilterArg    int             `json:"filterArg"`
	Distinct     bool            `json:"distinct"`
	Approximate  bool            `json:"approximate"`
	IgnoreNulls  bool            `json:"ignoreNulls"`
	Type         json.RawMessage `json:"type"`
}

// WindowProperty is a window column an aggregation appends after its aggregates.
type WindowProperty int

// Window properties.
const (
	WindowStart WindowProperty = iota
	WindowEnd
	WindowTime
)

// WindowAggregate is a decoded window aggregation.
type WindowAggregate struct {
	Phase    AggregatePhase
	InNames  []string
	InTypes  []catalog.Type
	OutTypes []catalog.Type
	Spec     window.Spec // without the runtime's parallelism and key groups
	KeyCols  []int
	TimeCol  int   // the time attribute, or for the global phase the slice end
	ArgCols  []int // per call, -1 for COUNT(*); for the global phase, every accumulator field
	// FilterCols holds each call's FILTER column, -1 for none (always -1 in the global phase,
	// whose partial aggregates are filtered already).
	FilterCols []int
	Props      []WindowProperty
}

// AggregatePhase says which of Flink's aggregate nodes a plan is (of a window aggregation or
// a group aggregation).
type AggregatePhase int

// The phases: one-phase aggregation, and the local and global phase of a two-phase one.
const (
	OnePhase AggregatePhase = iota
	LocalPhase
	GlobalPhase
)

var aggFuncs = map[string]agg.FuncKind{
	"COUNT": agg.Count, "SUM": agg.Sum, "MIN": agg.Min, "MAX": agg.Max, "AVG": agg.Avg,
	"FIRST_VALUE": agg.FirstValue, "LAST_VALUE": agg.LastValue, "$SUM0": agg.Sum0,
}

var internalName = regexp.MustCompile(`^\$(.+)\$\d+$`)

// CompileWindowAggregate decodes a window aggregation node of the given phase. Reasons say why
// it cannot run natively; err reports malformed input.
func CompileWindowAggregate(n *IslandNode, phase AggregatePhase, options map[string]string) (p *WindowAggregate, reasons []string, err error) {
	var j windowAggJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("window aggregate %s: %w", n.Name, err)
	}
	p = &WindowAggregate{Phase: phase}
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return nil, nil, err
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("window aggregate %s output type: %w", n.Name, err)
	}
	if _, p.OutTypes, err = RowFields(out); err != nil {
		return nil, nil, fmt.Errorf("window aggregate %s output type: %w", n.Name, err)
	}
	// col returns an input field's type; colErr says why a reference is out of range.
	var colErr error
	col := func(i int, what string) (catalog.Type, bool) {
		if i < 0 || i >= len(p.InTypes) {
			colErr = fmt.Errorf("window aggregate %s: %s refers to input field %d of %d", n.Name, what, i, len(p.InTypes))
			return catalog.Type{}, false
		}
		return p.InTypes[i], true
	}
	w := &j.Windowing
	ltz := false // the time attribute is a TIMESTAMP_LTZ
	wantStrategy := "TimeAttribute"
	if phase == GlobalPhase {
		wantStrategy = "SliceAttached"
	}
	switch {
	case w.Strategy != wantStrategy:
		reasons = append(reasons, fmt.Sprintf("windowing strategy %s (a window TVF that is not directly aggregated) is not supported natively yet", w.Strategy))
	case !w.IsRowtime && phase != OnePhase:
		reasons = append(reasons, "processing-time windows in a two-phase aggregation are not supported natively")
	default:
		// A processing-time window reads no time column: rows carry their arrival times.
		p.Spec.ProcTime = !w.IsRowtime
		t, err := catalog.ParseType(w.TimeAttributeType)
		if err != nil {
			return nil, nil, fmt.Errorf("window aggregate %s time attribute type: %w", n.Name, err)
		}
		ltz = t.Kind == catalog.TimestampLTZ
		switch {
		case t.Kind == catalog.TimestampLTZ && t.Precision <= 3:
			// Windows align to the session time zone's wall clock.
			zone, why := sessionZone(options)
			if why != "" {
				reasons = append(reasons, why)
			}
			p.Spec.Zone = zone
		case t.Kind != catalog.Timestamp || t.Precision > 3:
			reasons = append(reasons, fmt.Sprintf("time attribute of type %s is not supported natively", t))
		}
		p.TimeCol = w.TimeAttributeIndex
		if phase == GlobalPhase {
			p.TimeCol = w.SliceEnd
		}
		if _, ok := col(p.TimeCol, "the time attribute"); !ok {
			return nil, nil, colErr
		}
	}
	if p.Spec.Assigner, err = w.Window.assigner(); err != nil {
		reasons = append(reasons, err.Error())
		err = nil
	} else if p.Spec.Assigner.Kind == window.Session {
		switch {
		case phase != OnePhase:
			reasons = append(reasons, "a SESSION window aggregation in two phases is not supported natively")
		case p.Spec.ProcTime:
			reasons = append(reasons, "SESSION windows on processing time are not supported natively yet")
		case ltz:
			reasons = append(reasons, "SESSION windows on a TIMESTAMP_LTZ time attribute are not supported natively yet")
		}
	}
	if j.NeedRetraction {
		reasons = append(reasons, "window aggregation over an updating input (retractions) is not supported natively yet")
	}
	for _, k := range j.Grouping {
		t, ok := col(k, "a grouping key")
		if !ok {
			return nil, nil, colErr
		}
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("grouping key %s: %s", p.InNames[k], why))
		} else if t.IsInterval() || t.IsNested() {
			reasons = append(reasons, fmt.Sprintf("grouping key %s: %s keys are not supported natively yet", p.InNames[k], t))
		}
		p.KeyCols = append(p.KeyCols, k)
		p.Spec.KeyTypes = append(p.Spec.KeyTypes, t)
	}
	argTypes := p.InTypes
	if phase == GlobalPhase {
		// The calls' arguments refer to the local phase's input.
		t, err := catalog.ParseType(j.LocalAggInputRowType)
		if err != nil {
			return nil, nil, fmt.Errorf("window aggregate %s local input type: %w", n.Name, err)
		}
		if _, argTypes, err = RowFields(t); err != nil {
			return nil, nil, fmt.Errorf("window aggregate %s local input type: %w", n.Name, err)
		}
	}
	views := map[string]int{} // distinct views by argument list, numbered as Flink's distinct$N
	for _, c := range j.AggCalls {
		call, argCol, why, err := decodeAggCall(c, argTypes)
		if err != nil {
			return nil, nil, fmt.Errorf("window aggregate %s: %w", n.Name, err)
		}
		if why != "" {
			reasons = append(reasons, why)
			continue
		}
		filterCol := -1
		if c.FilterArg >= 0 && phase != GlobalPhase {
			t, ok := col(c.FilterArg, "a FILTER clause")
			if !ok {
				return nil, nil, colErr
			}
			if t.Kind != catalog.Boolean {
				return nil, nil, fmt.Errorf("window aggregate %s: FILTER column %d is %s, not BOOLEAN", n.Name, c.FilterArg, t)
			}
			filterCol = c.FilterArg
		}
		call.DistinctGroup = -1
		if call.Distinct {
			key := fmt.Sprint(c.ArgList)
			v, ok := views[key]
			if !ok {
				v = len(views)
				views[key] = v
			}
			call.DistinctGroup = v
		}
		p.Spec.Calls = append(p.Spec.Calls, call)
		p.ArgCols = append(p.ArgCols, argCol)
		p.FilterCols = append(p.FilterCols, filterCol)
	}
	for _, np := range j.NamedWindowProperties {
		switch np.Property.Kind {
		case "WindowStart":
			p.Props = append(p.Props, WindowStart)
		case "WindowEnd":
			p.Props = append(p.Props, WindowEnd)
		case "Rowtime":
			p.Props = append(p.Props, WindowTime)
		default:
			reasons = append(reasons, fmt.Sprintf("window property %s (%s) is not supported natively", np.Name, np.Property.Kind))
		}
	}
	if len(reasons) > 0 {
		return p, reasons, nil
	}
	p.Spec.Sliced = phase == GlobalPhase
	local, err := window.NewLocal(p.Spec)
	if err != nil {
		return p, []string{err.Error()}, nil
	}
	fields := local.FieldTypes()
	switch phase {
	case LocalPhase:
		// Output: keys, every call's accumulator fields, the slice end.
		want := append(append(append([]catalog.Type{}, p.Spec.KeyTypes...), fields...), catalog.BigIntType(true))
		if why := sameKinds("output", p.OutTypes, want); why != "" {
			return p, []string{why}, nil
		}
	case GlobalPhase:
		// Input: keys, every call's accumulator fields, the slice end.
		k := len(p.KeyCols)
		for i, kc := range p.KeyCols {
			if kc != i {
				return p, []string{fmt.Sprintf("global grouping %v is not the leading fields of the partial aggregates", p.KeyCols)}, nil
			}
		}
		if why := sameKinds("input", p.InTypes, append(append(append([]catalog.Type{}, p.Spec.KeyTypes...), fields...), catalog.BigIntType(true))); why != "" || p.TimeCol != k+len(fields) {
			return p, []string{fmt.Sprintf("partial aggregates of an unexpected layout %s", why)}, nil
		}
		p.ArgCols = p.ArgCols[:0]
		for i := range fields {
			p.ArgCols = append(p.ArgCols, k+i)
		}
	}
	if phase != LocalPhase {
		if want := len(p.KeyCols) + len(j.AggCalls) + len(j.NamedWindowProperties); want != len(p.OutTypes) {
			return nil, nil, fmt.Errorf("window aggregate %s: output has %d fields, keys, aggregates and window properties make %d", n.Name, len(p.OutTypes), want)
		}
		if _, err := window.Open(p.RuntimeSpec(128, 0, 127)); err != nil {
			return p, []string{err.Error()}, nil
		}
	}
	return p, nil, nil
}

// sameKinds compares row field types by kind and precision, ignoring nullability and names.
func sameKinds(what string, got, want []catalog.Type) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%s has %d fields, expected %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i].Kind == catalog.Raw && want[i].Kind == catalog.Raw {
			continue // a distinct view: Sluice's own bytes between its two phases
		}
		if !got[i].WithNullable(true).Equal(want[i].WithNullable(true)) {
			return fmt.Sprintf("%s field %d is %s, expected %s", what, i, got[i], want[i])
		}
	}
	return ""
}

// Options that the planner hook sets from the table configuration.
const (
	// OptLocalTimeZone is the session time zone ('table.local-time-zone', resolved).
	OptLocalTimeZone = "sluice.local-time-zone"
	// OptLocalTimeZoneOffset is its offset from UTC in seconds, present when the zone has a
	// fixed offset.
	OptLocalTimeZoneOffset = "sluice.local-time-zone-offset"
)

// sessionZone returns the session time zone that TIMESTAMP_LTZ windows align to, or why
// windows in that zone cannot run natively.
func sessionZone(options map[string]string) (window.Zone, string) {
	name := options[OptLocalTimeZone]
	if off, ok := options[OptLocalTimeZoneOffset]; ok {
		secs, err := strconv.ParseInt(off, 10, 64)
		if err != nil {
			return window.Zone{}, fmt.Sprintf("option %s: %v", OptLocalTimeZoneOffset, err)
		}
		return window.FixedZone(secs * 1000), ""
	}
	zone, err := window.LoadZone(name)
	if err != nil {
		return window.Zone{}, fmt.Sprintf("windows on a TIMESTAMP_LTZ time attribute: %v", err)
	}
	return zone, ""
}

// RuntimeSpec completes the spec with the subtask's key groups.
func (p *WindowAggregate) RuntimeSpec(maxParallelism, start, end int) window.Spec {
	s := p.Spec
	s.MaxParallelism = maxParallelism
	s.KeyGroups.Start, s.KeyGroups.End = start, end
	return s
}

// decodeAggCall maps an aggregate call to a native one, or says why it cannot run natively.
func decodeAggCall(c aggCallJSON, inTypes []catalog.Type) (call agg.Call, argCol int, why string, err error) {
	name := c.InternalName
	if m := internalName.FindStringSubmatch(name); m != nil {
		name = m[1]
	} else if c.SystemName != "" {
		name = c.SystemName
	}
	label := fmt.Sprintf("aggregate %s (%s)", c.Name, name)
	if call.Result, err = catalog.ParseType(c.Type); err != nil {
		return call, 0, "", fmt.Errorf("%s result type: %w", label, err)
	}
	kind, ok := aggFuncs[name]
	switch {
	case !ok:
		return call, 0, fmt.Sprintf("%s: aggregate function %s is not supported natively yet", label, name), nil
	case c.Approximate || c.IgnoreNulls:
		return call, 0, fmt.Sprintf("%s: approximate or IGNORE NULLS aggregates are not supported natively", label), nil
	}
	for _, a := range c.ArgList {
		if a < 0 || a >= len(inTypes) {
			return call, 0, "", fmt.Errorf("%s refers to input field %d of %d", label, a, len(inTypes))
		}
	}
	call.Distinct = c.Distinct
	call.Filtered = c.FilterArg >= 0
	call.FilterArg = c.FilterArg
	switch {
	case kind == agg.Count && len(c.ArgList) == 0:
		call.Func, argCol = agg.CountStar, -1
	case len(c.ArgList) == 1:
		call.Func, argCol, call.Arg = kind, c.ArgList[0], inTypes[c.ArgList[0]]
		if call.Arg.IsNested() {
			return call, 0, fmt.Sprintf("%s of a %s argument is not supported natively yet", label, call.Arg), nil
		}
	default:
		return call, 0, fmt.Sprintf("%s with %d arguments is not supported natively", label, len(c.ArgList)), nil
	}
	return call, argCol, "", nil
}

// assignerOf builds the slice assigner of a window spec.
func assignerOf(typ, size, slide, maxSize, step, offset string) (*window.Assigner, error) {
	var off int64
	var err error
	if offset != "" {
		if off, err = parseDuration(offset); err != nil {
			return nil, err
		}
	}
	d := func(s string) (int64, error) { return parseDuration(s) }
	switch typ {
	case "TumblingWindow":
		sz, err := d(size)
		if err != nil {
			return nil, err
		}
		return window.NewTumble(sz, off)
	case "HoppingWindow":
		sz, err := d(size)
		if err != nil {
			return nil, err
		}
		sl, err := d(slide)
		if err != nil {
			return nil, err
		}
		return window.NewHop(sz, sl, off)
	case "CumulativeWindow":
		mx, err := d(maxSize)
		if err != nil {
			return nil, err
		}
		st, err := d(step)
		if err != nil {
			return nil, err
		}
		return window.NewCumulate(mx, st, off)
	case "SessionWindow":
		return nil, fmt.Errorf("SESSION windows are not supported natively yet")
	}
	return nil, fmt.Errorf("window %q is not supported natively", typ)
}

var isoDuration = regexp.MustCompile(`^PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+)(?:\.(\d{1,9}))?S)?$`)

// parseDuration reads java.time.Duration#toString output (PT10S, PT1H30M, PT0.5S, PT-1S) as
// milliseconds; sub-millisecond parts are rejected (Flink windows are in milliseconds).
func parseDuration(s string) (int64, error) {
	m := isoDuration.FindStringSubmatch(s)
	if m == nil || s == "PT" {
		return 0, fmt.Errorf("duration %q is not an ISO-8601 PT duration", s)
	}
	var ms int64
	for i, unit := range []int64{3_600_000, 60_000, 1000} {
		if m[i+1] != "" {
			v, err := strconv.ParseInt(m[i+1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("duration %q: %w", s, err)
			}
			ms += v * unit
		}
	}
	if frac := m[4]; frac != "" {
		for len(frac) < 9 {
			frac += "0"
		}
		nanos, _ := strconv.ParseInt(frac, 10, 64)
		if nanos%1_000_000 != 0 {
			return 0, fmt.Errorf("duration %q is finer than milliseconds", s)
		}
		if m[3] != "" && m[3][0] == '-' {
			ms -= nanos / 1_000_000
		} else {
			ms += nanos / 1_000_000
		}
	}
	return ms, nil
}

// InputColumns are the input columns a window plan reads.
func (p *WindowAggregate) InputColumns() []int {
	set := map[int]bool{}
	if !p.Spec.ProcTime {
		set[p.TimeCol] = true
	}
	for _, c := range append(append(append([]int{}, p.KeyCols...), p.ArgCols...), p.FilterCols...) {
		if c >= 0 {
			set[c] = true
		}
	}
	return sortedKeys(set)
}

// countStar reports whether the call is a plain COUNT(*), which Flink's planner takes as the
// record count of an aggregation over retractions (AggregateUtil#insertCountStarAggCall).
func (c aggCallJSON) countStar() bool {
	name := c.InternalName
	if m := internalName.FindStringSubmatch(name); m != nil {
		name = m[1]
	} else if c.SystemName != "" {
		name = c.SystemName
	}
	return name == "COUNT" && len(c.ArgList) == 0 && c.FilterArg < 0 && !c.Approximate && !c.Distinct
}
