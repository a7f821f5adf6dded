package plan

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/sluice-project/sluice/exec/join"
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
	// Layouts is how the join keeps each input's rows (left, right), and UniqueKeys the
	// columns of the unique key a UniqueKey side keeps its rows by.
	Layouts    [2]join.Layout
	UniqueKeys [2][]int
	// StateTTL is each input's state time to live in milliseconds (left, right; 0: none).
	StateTTL [2]int64
	// MiniBatchSize is the rows of a mini-batch join's bundles (table.exec.mini-batch.size), 0
	// without mini-batches (and for SEMI and ANTI joins, which Flink joins without them).
	MiniBatchSize int64
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
	for side, uks := range [][][]int{j.LeftUpsertKeys, j.RightUpsertKeys} {
		fields, keys := len(p.LeftTypes), p.LeftKeys
		if side == 1 {
			fields, keys = len(p.RightTypes), p.RightKeys
		}
		if p.Layouts[side], p.UniqueKeys[side], err = inputLayout(uks, keys, fields); err != nil {
			return nil, nil, fmt.Errorf("join %s: %w", n.Name, err)
		}
	}
	if optionTrue(options[OptMiniBatch]) && p.Type != join.Semi && p.Type != join.Anti {
		// Flink then runs MiniBatchStreamingJoinOperator (StreamExecJoin reads the flag and
		// the size from the table config at translation).
		size, err := strconv.ParseInt(options[OptMiniBatchSize], 10, 64)
		if err != nil || size <= 0 {
			// Flink's translation fails the same plan (MinibatchUtil#miniBatchSize).
			reasons = append(reasons, fmt.Sprintf("a mini-batch join needs %s > 0 (it is %q)", OptMiniBatchSize, options[OptMiniBatchSize]))
		}
		p.MiniBatchSize = size
	}
	ttls, err := inputStateTTLs(j.State, 2, options)
	if err != nil {
		return nil, nil, fmt.Errorf("join %s: %w", n.Name, err)
	}
	p.StateTTL = [2]int64{ttls[0], ttls[1]}
	return p, reasons, nil
}

// inputLayout is how a regular join keeps an input's rows, as Flink's JoinUtil#analyzeJoinInput
// decides from its upsert keys: without one, distinct rows with counts; with one the join key
// contains, one row per join key; otherwise one row per unique key, the first of the smallest
// (whose columns it returns).
func inputLayout(upsertKeys [][]int, joinKeys []int, fields int) (join.Layout, []int, error) {
	if len(upsertKeys) == 0 {
		return join.NoUniqueKey, nil, nil
	}
	inJoinKey := map[int]bool{}
	for _, k := range joinKeys {
		inJoinKey[k] = true
	}
	var contained [][]int
	for _, uk := range upsertKeys {
		if len(uk) == 0 {
			return 0, nil, fmt.Errorf("an empty upsert key")
		}
		all := true
		for _, c := range uk {
			if c < 0 || c >= fields {
				return 0, nil, fmt.Errorf("upsert key column %d of an input of %d fields", c, fields)
			}
			all = all && inJoinKey[c]
		}
		if all {
			contained = append(contained, uk)
		}
	}
	if len(contained) > 0 {
		return join.JoinKeyUnique, smallestKey(contained), nil
	}
	return join.UniqueKey, smallestKey(upsertKeys), nil
}

// smallestKey is the first of the keys with the fewest columns (JoinUtil#getSmallestKey).
func smallestKey(keys [][]int) []int {
	best := keys[0]
	for _, k := range keys[1:] {
		if len(k) < len(best) {
			best = k
		}
	}
	return best
}
