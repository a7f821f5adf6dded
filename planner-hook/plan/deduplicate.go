package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
)

// DeduplicateType is the exec node of ROW_NUMBER() OVER (PARTITION BY ... ORDER BY a time
// attribute) = 1: the first or last row of each key.
const DeduplicateType = "stream-exec-deduplicate_1"

// deduplicateJSON is StreamExecDeduplicate's JSON.
type deduplicateJSON struct {
	Configuration        map[string]string `json:"configuration"`
	UniqueKeys           []int             `json:"uniqueKeys"`
	IsRowtime            bool              `json:"isRowtime"`
	KeepLastRow          bool              `json:"keepLastRow"`
	OutputInsertOnly     *bool             `json:"outputInsertOnly"`
	GenerateUpdateBefore bool              `json:"generateUpdateBefore"`
	State                []stateJSON       `json:"state"`
	OutputType           json.RawMessage   `json:"outputType"`
}

// OptDedupCompactChanges is table.exec.deduplicate.mini-batch.compact-changes-enabled: an
// event-time deduplication with mini-batches emits only each key's latest change per bundle
// (RowTimeMiniBatchLatestChangeDeduplicateFunction).
const OptDedupCompactChanges = "table.exec.deduplicate.mini-batch.compact-changes-enabled"

// Deduplicate is a compiled deduplication.
type Deduplicate struct {
	InNames  []string
	InTypes  []catalog.Type
	KeyCols  []int
	KeyTypes []catalog.Type
	// RowtimeCol is the event-time attribute's column (-1 on processing time).
	RowtimeCol int
	KeepLast   bool
	// InsertOnly marks event-time keep-first deduplication with insert-only output (rows wait
	// for the watermark).
	InsertOnly                           bool
	GenerateUpdateBefore, GenerateInsert bool
	// StateTTL is the state's time to live in milliseconds (0: none).
	StateTTL int64
	// Changelog is a ChangelogNormalize node's: the last row of each key of a changelog on
	// processing time (dedup.Config.Changelog).
	Changelog bool
	// MiniBatchSize is the number of rows of a bundle (0: no mini-batches): rows are then
	// buffered per key until the bundle is full or a mini-batch watermark or checkpoint barrier
	// comes, and each key's buffered row is deduplicated when the bundle finishes, keys in the
	// order of Flink's HashMap (KeyedMapBundleOperator over ProcTimeMiniBatchDeduplicate*); on
	// event time every row is buffered, and a key's rows are deduplicated in arrival order
	// (RowTimeMiniBatchDeduplicateFunction).
	MiniBatchSize int64
}

// CompileDeduplicate decodes a deduplication node. Reasons say why it cannot run natively; err
// reports malformed input.
func CompileDeduplicate(n *IslandNode, options map[string]string) (*Deduplicate, []string, error) {
	var j deduplicateJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("deduplicate %s: %w", n.Name, err)
	}
	p := &Deduplicate{KeepLast: j.KeepLastRow, RowtimeCol: -1, GenerateUpdateBefore: j.GenerateUpdateBefore,
		// Only the event-time keep-first function has an insert-only variant.
		InsertOnly: j.IsRowtime && !j.KeepLastRow && j.OutputInsertOnly != nil && *j.OutputInsertOnly,
		// table.exec.deduplicate.insert-update-after-sensitive-enabled, true by default.
		GenerateInsert: j.Configuration["table.exec.deduplicate.insert-update-after-sensitive-enabled"] != "false"}
	var err error
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return nil, nil, fmt.Errorf("deduplicate %s: %w", n.Name, err)
	}
	var reasons []string
	if p.MiniBatchSize, err = miniBatchSize(j.Configuration, options); err != nil {
		return nil, nil, fmt.Errorf("deduplicate %s: %w", n.Name, err)
	}
	if p.StateTTL, err = stateTTL(j.State, options); err != nil {
		return nil, nil, fmt.Errorf("deduplicate %s: %w", n.Name, err)
	}
	if p.MiniBatchSize > 0 && j.IsRowtime {
		// KeyedMapBundleOperator over RowTimeMiniBatchDeduplicateFunction, behind an event-time
		// mini-batch assigner: every row buffered per key, deduplicated at the bundle's end.
		compact := j.Configuration[OptDedupCompactChanges]
		if compact == "" {
			compact = options[OptDedupCompactChanges]
		}
		switch {
		case p.InsertOnly:
			// Flink's translation refuses it (StreamExecDeduplicate checks the mode).
			reasons = append(reasons, "an insert-only event-time deduplication with mini-batches is not supported natively")
		case optionTrue(compact):
			reasons = append(reasons, "mini-batch deduplication on event time compacting changes ("+OptDedupCompactChanges+") is not supported natively yet")
		case p.StateTTL > 0:
			// RowTimeMiniBatchDeduplicateFunction writes each key's state at every bundle's end.
			reasons = append(reasons, fmt.Sprintf("mini-batch deduplication on event time with a state TTL (%d ms) is not supported natively yet", p.StateTTL))
		}
	}
	if p.InsertOnly && p.StateTTL > 0 {
		// RowTimeDeduplicateKeepFirstRowFunction's rows wait for timers while their state expires.
		reasons = append(reasons, fmt.Sprintf("an insert-only event-time deduplication with a state TTL (%d ms) is not supported natively yet", p.StateTTL))
	}
	if j.IsRowtime {
		for i, t := range p.InTypes {
			if t.TimeAttr == catalog.Rowtime {
				p.RowtimeCol = i
				break
			}
		}
		switch {
		case p.RowtimeCol < 0:
			return nil, nil, fmt.Errorf("deduplicate %s: ordered by event time without an event-time attribute", n.Name)
		case p.InTypes[p.RowtimeCol].Precision > 3:
			reasons = append(reasons, fmt.Sprintf("deduplication on a %s event-time attribute is not supported natively", p.InTypes[p.RowtimeCol]))
		}
	}
	for _, k := range j.UniqueKeys {
		if k < 0 || k >= len(p.InTypes) {
			return nil, nil, fmt.Errorf("deduplicate %s: key field %d of %d", n.Name, k, len(p.InTypes))
		}
		t := p.InTypes[k]
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("deduplication key %s: %s", p.InNames[k], why))
		} else if t.IsInterval() || t.IsNested() {
			reasons = append(reasons, fmt.Sprintf("deduplication key %s: %s keys are not supported natively yet", p.InNames[k], t))
		}
		p.KeyCols = append(p.KeyCols, k)
		p.KeyTypes = append(p.KeyTypes, t)
	}
	for i, t := range p.InTypes {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("deduplication input field %s: %s", p.InNames[i], why))
		}
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("deduplicate %s output type: %w", n.Name, err)
	}
	_, outTypes, err := RowFields(out)
	if err != nil {
		return nil, nil, fmt.Errorf("deduplicate %s output type: %w", n.Name, err)
	}
	if why := sameKinds("deduplicate output", outTypes, p.InTypes); why != "" {
		reasons = append(reasons, why)
	}
	return p, reasons, nil
}

// ExecType implements Node.
func (p *Deduplicate) ExecType() string {
	if p.Changelog {
		return ChangelogNormalizeType
	}
	return DeduplicateType
}
