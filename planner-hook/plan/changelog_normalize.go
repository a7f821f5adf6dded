package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
)

// ChangelogNormalizeType is the exec node that turns an upsert stream (an upsert-kafka
// source's, a changelog source's with duplicate events) into a proper changelog, keyed by its
// unique key: the last row of each key kept in state.
const ChangelogNormalizeType = "stream-exec-changelog-normalize_1"

// changelogNormalizeJSON is StreamExecChangelogNormalize's JSON.
type changelogNormalizeJSON struct {
	Configuration        map[string]string `json:"configuration"`
	UniqueKeys           []int             `json:"uniqueKeys"`
	GenerateUpdateBefore bool              `json:"generateUpdateBefore"`
	State                []stateJSON       `json:"state"`
	FilterCondition      json.RawMessage   `json:"filterCondition"`
}

// CompileChangelogNormalize decodes a ChangelogNormalize node into the deduplication that
// reproduces it (Deduplicate.Changelog: ProcTimeDeduplicateKeepLastRowFunction over a
// changelog). Reasons say why it cannot run natively; err reports malformed input.
func CompileChangelogNormalize(n *IslandNode, options map[string]string) (*Deduplicate, []string, error) {
	var j changelogNormalizeJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("changelog normalize %s: %w", n.Name, err)
	}
	p := &Deduplicate{Changelog: true, KeepLast: true, RowtimeCol: -1, GenerateUpdateBefore: j.GenerateUpdateBefore,
		GenerateInsert: true}
	var err error
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return nil, nil, fmt.Errorf("changelog normalize %s: %w", n.Name, err)
	}
	if p.StateTTL, err = stateTTL(j.State, options); err != nil {
		return nil, nil, fmt.Errorf("changelog normalize %s: %w", n.Name, err)
	}
	var reasons []string
	size, err := miniBatchSize(j.Configuration, options)
	if err != nil {
		return nil, nil, fmt.Errorf("changelog normalize %s: %w", n.Name, err)
	}
	if size > 0 {
		reasons = append(reasons, "ChangelogNormalize with mini-batches (ProcTimeMiniBatchDeduplicateKeepLastRowFunction) is not supported natively yet")
	}
	if len(j.FilterCondition) > 0 && string(j.FilterCondition) != "null" {
		reasons = append(reasons, "ChangelogNormalize with a pushed filter condition is not supported natively yet")
	}
	if len(j.UniqueKeys) == 0 {
		return nil, nil, fmt.Errorf("changelog normalize %s: no unique key", n.Name)
	}
	for _, k := range j.UniqueKeys {
		if k < 0 || k >= len(p.InTypes) {
			return nil, nil, fmt.Errorf("changelog normalize %s: key field %d of %d", n.Name, k, len(p.InTypes))
		}
		t := p.InTypes[k]
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("changelog normalize key %s: %s", p.InNames[k], why))
		} else if t.IsInterval() || t.IsNested() {
			reasons = append(reasons, fmt.Sprintf("changelog normalize key %s: %s keys are not supported natively yet", p.InNames[k], t))
		}
		p.KeyCols = append(p.KeyCols, k)
		p.KeyTypes = append(p.KeyTypes, t)
	}
	for i, t := range p.InTypes {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("changelog normalize input field %s: %s", p.InNames[i], why))
		}
	}
	return p, reasons, nil
}
