package plan

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/join"
)

// IntervalJoinType is the exec node of a join whose condition bounds the difference of the two
// inputs' time attributes.
const IntervalJoinType = "stream-exec-interval-join_1"

// OptIntervalJoinMinCleanUp is table.exec.interval-join.min-cleanup-interval, in milliseconds
// (the planner reads it from the table config, not the node's configuration).
const OptIntervalJoinMinCleanUp = "table.exec.interval-join.min-cleanup-interval"

// intervalJoinJSON is StreamExecIntervalJoin's JSON.
type intervalJoinJSON struct {
	IntervalJoinSpec struct {
		JoinSpec     joinSpecJSON `json:"joinSpec"`
		WindowBounds struct {
			IsEventTime    bool  `json:"isEventTime"`
			LeftLowerBound int64 `json:"leftLowerBound"`
			LeftUpperBound int64 `json:"leftUpperBound"`
			LeftTimeIndex  int   `json:"leftTimeIndex"`
			RightTimeIndex int   `json:"rightTimeIndex"`
		} `json:"windowBounds"`
	} `json:"intervalJoinSpec"`
	OutputType json.RawMessage `json:"outputType"`
}

// IntervalJoin is a compiled interval join: left.time - right.time within
// [LeftLowerBound, LeftUpperBound] milliseconds, on event time or on processing time.
type IntervalJoin struct {
	JoinSpec
	LeftLowerBound, LeftUpperBound int64
	LeftTime, RightTime            int
	// ProcTime says the time attributes are processing times: each row's time is the clock
	// when it arrives (ProcTimeIntervalJoin).
	ProcTime bool
	// MinCleanUpInterval is table.exec.interval-join.min-cleanup-interval in milliseconds.
	MinCleanUpInterval int64
}

// CompileIntervalJoin decodes an interval join node. Reasons say why it cannot run natively;
// err reports malformed input.
func CompileIntervalJoin(n *IslandNode, options map[string]string) (*IntervalJoin, []string, error) {
	var j intervalJoinJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("interval join %s: %w", n.Name, err)
	}
	p := &IntervalJoin{}
	reasons, err := p.JoinSpec.compile(n, j.IntervalJoinSpec.JoinSpec, j.OutputType, options, "interval join")
	if err != nil {
		return nil, nil, err
	}
	if p.Type != join.Inner && p.Type != join.Left && p.Type != join.Right && p.Type != join.Full {
		// Flink's StreamExecIntervalJoin refuses these too.
		reasons = append(reasons, fmt.Sprintf("a %s interval join is not supported", p.Type))
	}
	b := j.IntervalJoinSpec.WindowBounds
	p.LeftLowerBound, p.LeftUpperBound = b.LeftLowerBound, b.LeftUpperBound
	p.LeftTime, p.RightTime = b.LeftTimeIndex, b.RightTimeIndex
	p.ProcTime = !b.IsEventTime
	if b.LeftUpperBound < b.LeftLowerBound {
		// Flink then plans a union of filters and paddings, not a join.
		reasons = append(reasons, fmt.Sprintf("an interval join with bounds [%d, %d] (of negative size) is not supported natively", b.LeftLowerBound, b.LeftUpperBound))
	}
	for i, c := range []struct {
		idx   int
		types []catalog.Type
	}{{b.LeftTimeIndex, p.LeftTypes}, {b.RightTimeIndex, p.RightTypes}} {
		side := [...]string{"left", "right"}[i]
		if c.idx < 0 || c.idx >= len(c.types) {
			return nil, nil, fmt.Errorf("interval join %s: %s time field %d of %d", n.Name, side, c.idx, len(c.types))
		}
		if t := c.types[c.idx]; b.IsEventTime && (t.Kind != catalog.Timestamp && t.Kind != catalog.TimestampLTZ || t.Precision > 3) {
			reasons = append(reasons, fmt.Sprintf("interval join on a %s time attribute of type %s is not supported natively", side, t))
		}
	}
	if v, ok := options[OptIntervalJoinMinCleanUp]; ok {
		if p.MinCleanUpInterval, err = strconv.ParseInt(v, 10, 64); err != nil {
			return nil, nil, fmt.Errorf("interval join %s: option %s = %q: %w", n.Name, OptIntervalJoinMinCleanUp, v, err)
		}
	}
	return p, reasons, nil
}
