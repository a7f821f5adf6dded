package plan

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// MiniBatchAssignerType is the exec node that cuts a stream into mini-batches
// (StreamExecMiniBatchAssigner), which Flink's planner puts after a source (or its watermark
// assigner) when table.exec.mini-batch.enabled is set.
const MiniBatchAssignerType = "stream-exec-mini-batch-assigner_1"

// Mini-batch options of the table config, which nodes that do not persist them read.
const (
	// OptMiniBatchSize is table.exec.mini-batch.size: the rows a bundle holds before it is
	// finished.
	OptMiniBatchSize = "table.exec.mini-batch.size"
)

// MiniBatchAssigner is a compiled mini-batch assigner. On processing time rows pass unchanged,
// and a watermark at the start of the current interval (now - now % IntervalMillis) goes out
// before the first row of every new interval and on a timer each interval, as Flink's
// ProcTimeMiniBatchAssignerOperator; upstream watermarks stop here, except the final one. The
// Java operator running the chain owns the clock and the timer; the chain passes rows. On event
// time (RowTime) rows pass unchanged and an upstream watermark goes on only once it reaches the
// end of the current interval, as Flink's RowTimeMiniBatchAssginerOperator.
type MiniBatchAssigner struct {
	IntervalMillis int64
	RowTime        bool
}

// ExecType implements Node.
func (*MiniBatchAssigner) ExecType() string { return MiniBatchAssignerType }

// miniBatchAssignerJSON is StreamExecMiniBatchAssigner's JSON.
type miniBatchAssignerJSON struct {
	MiniBatchInterval *struct {
		Interval int64  `json:"interval"`
		Mode     string `json:"mode"`
	} `json:"miniBatchInterval"`
}

// CompileMiniBatchAssigner decodes a mini-batch assigner. Reasons say why it cannot run
// natively; err reports malformed input.
func CompileMiniBatchAssigner(n *IslandNode, _ map[string]string) (*MiniBatchAssigner, []string, error) {
	var j miniBatchAssignerJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("mini-batch assigner %s: %w", n.Name, err)
	}
	if j.MiniBatchInterval == nil {
		return nil, nil, fmt.Errorf("mini-batch assigner %s: no miniBatchInterval", n.Name)
	}
	iv := j.MiniBatchInterval
	switch iv.Mode {
	case "ProcTime", "RowTime":
	default:
		return nil, nil, fmt.Errorf("mini-batch assigner %s: mode %q", n.Name, iv.Mode)
	}
	if iv.Interval <= 0 {
		return nil, nil, fmt.Errorf("mini-batch assigner %s: interval %d ms", n.Name, iv.Interval)
	}
	return &MiniBatchAssigner{IntervalMillis: iv.Interval, RowTime: iv.Mode == "RowTime"}, nil, nil
}

// miniBatchSize is the bundle size of a node that runs with mini-batches (0 when it runs
// without): table.exec.mini-batch.enabled and table.exec.mini-batch.size as the node persisted
// them, else as the table config has them.
func miniBatchSize(configuration, options map[string]string) (int64, error) {
	setting := func(key string) string {
		if v, ok := configuration[key]; ok {
			return v
		}
		return options[key]
	}
	if !optionTrue(setting(OptMiniBatch)) {
		return 0, nil
	}
	s := setting(OptMiniBatchSize)
	size, err := strconv.ParseInt(s, 10, 64)
	if err != nil || size <= 0 {
		// Flink's MinibatchUtil#miniBatchSize refuses it too.
		return 0, fmt.Errorf("%s must be > 0, got %q", OptMiniBatchSize, s)
	}
	return size, nil
}
