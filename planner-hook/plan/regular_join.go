package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/exec/join"
)

// RegularJoinType is the exec node of a join on equality keys without time bounds (state kept
// without end).
const RegularJoinType = "stream-exec-join_1"

// regularJoinJSON is StreamExecJoin's JSON.
type regularJoinJSON struct {
	JoinSpec        joinSpecJSON `json:"joinSpec"`
	LeftUpsertKeys  [][]int      `json:"leftUpsertKeys"`
	RightUpsertKeys [][]int      `json:"rightUpsertKeys"`
	State           []struct {
		TTL string `json:"ttl"`
	} `json:"state"`
	OutputType json.RawMessage `json:"outputType"`
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
	if p.Type != join.Inner && p.Type != join.Left && p.Type != join.Right && p.Type != join.Full {
		reasons = append(reasons, fmt.Sprintf("a regular %s join (StreamingSemiAntiJoinOperator) is not supported natively yet", p.Type))
	}
	if len(j.LeftUpsertKeys) > 0 || len(j.RightUpsertKeys) > 0 {
		// Flink then keeps one row per unique key (JoinKeyContainsUniqueKey, HasUniqueKey).
		reasons = append(reasons, "a regular join of an input with a unique key is not supported natively yet")
	}
	for _, s := range j.State {
		ttl, err := flinkDuration(s.TTL)
		if err != nil {
			return nil, nil, fmt.Errorf("join %s: %w", n.Name, err)
		}
		if ttl != 0 {
			reasons = append(reasons, fmt.Sprintf("a regular join with a state TTL (%s) is not supported natively yet", s.TTL))
		}
	}
	return p, reasons, nil
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
