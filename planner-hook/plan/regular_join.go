package plan

import (
	"encoding/json"
	"fmt"
)

// RegularJoinType is the exec node of a join on equality keys without time bounds (state kept
// without end).
const RegularJoinType = "stream-exec-join_1"

// regularJoinJSON is StreamExecJoin's JSON.
type regularJoinJSON struct {
	JoinSpec        joinSpecJSON    `json:"joinSpec"`
	LeftUpsertKeys  [][]int         `json:"leftUpsertKeys"`
	RightUpsertKeys [][]int         `json:"rightUpsertKeys"`
	State           []stateJSON     `json:"state"`
	OutputType      json.RawMessage `json:"outputType"`
}

// RegularJoin is a compiled regular join.
type RegularJoin struct {
	JoinSpec
}

// CompileRegularJoin decodes a regular join node. Reasons say why it cannot run natively; err
// reports malformed input.
func CompileRegularJoin(n *IslandNode, options map[string]string) (*RegularJoin, []string, error) {
	var j regularJoinJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("join %s: %w", n.Name, err)
	}
	p := &RegularJoin{}
	reasons, err := p.JoinSpec.compile(n, j.JoinSpec, j.OutputType, options, "join")
	if err != nil {
		return nil, nil, err
	}
	if len(j.LeftUpsertKeys) > 0 || len(j.RightUpsertKeys) > 0 {
		// Flink then keeps one row per unique key (JoinKeyContainsUniqueKey, HasUniqueKey).
		reasons = append(reasons, "a regular join of an input with a unique key is not supported natively yet")
	}
	if options[OptMiniBatch] == "true" {
		// Flink then runs MiniBatchStreamingJoinOperator, which replays its buffers side by side.
		reasons = append(reasons, "a mini-batch regular join (table.exec.mini-batch.enabled) is not supported natively yet")
	}
	if why, err := stateTTLReason(j.State, options, "a regular join"); err != nil {
		return nil, nil, fmt.Errorf("join %s: %w", n.Name, err)
	} else if why != "" {
		reasons = append(reasons, why)
	}
	return p, reasons, nil
}

// stateTTLReason says why a node with state TTLs cannot run natively ("" without a TTL): the
// TTLs of its state metadata, or without any, table.exec.state.ttl (as Flink's
// StateMetadata#getStateTtlForOneInputOperator falls back to it).
func stateTTLReason(states []stateJSON, options map[string]string, what string) (string, error) {
	for _, s := range states {
		ttl, err := flinkDuration(s.TTL)
		if err != nil {
			return "", err
		}
		if ttl != 0 {
			return fmt.Sprintf("%s with a state TTL (%s) is not supported natively yet", what, s.TTL), nil
		}
	}
	if len(states) == 0 && options[OptStateTTL] != "" && options[OptStateTTL] != "0" {
		return fmt.Sprintf("%s with a state TTL (table.exec.state.ttl = %s ms) is not supported natively yet", what, options[OptStateTTL]), nil
	}
	return "", nil
}

// stateJSON is a node's state metadata.
type stateJSON struct {
	TTL string `json:"ttl"`
}

// flinkDuration reads the amount of a duration as Flink's plans write it ("0 ms", "1 h"); only
// whether it is 0 matters to the callers.
func flinkDuration(s string) (int64, error) {
	var amount int64
	var unit string
	if k, err := fmt.Sscanf(s, "%d %s", &amount, &unit); k != 2 || err != nil || amount < 0 {
		return 0, fmt.Errorf("state TTL %q is not a Flink duration", s)
	}
	return amount, nil
}
