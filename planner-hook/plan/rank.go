package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/topn"
)

// RankType is the exec node of ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) filtered to a
// rank range (Top-N), where Flink does not plan it as a deduplication.
const RankType = "stream-exec-rank_1"

// rankJSON is StreamExecRank's JSON.
type rankJSON struct {
	RankType  string `json:"rankType"`
	Partition struct {
		Fields []int `json:"fields"`
	} `json:"partition"`
	OrderBy struct {
		Fields []struct {
			Index       int  `json:"index"`
			IsAscending bool `json:"isAscending"`
			NullIsLast  bool `json:"nullIsLast"`
		} `json:"fields"`
	} `json:"orderBy"`
	RankRange struct {
		Type  string `json:"type"`
		Start int64  `json:"start"`
		End   int64  `json:"end"`
	} `json:"rankRange"`
	RankStrategy struct {
		Type string `json:"type"`
	} `json:"rankStrategy"`
	OutputRowNumber      bool            `json:"outputRowNumber"`
	GenerateUpdateBefore bool            `json:"generateUpdateBefore"`
	State                []stateJSON     `json:"state"`
	OutputType           json.RawMessage `json:"outputType"`
}

// Rank is a compiled Top-N.
type Rank struct {
	InNames  []string
	InTypes  []catalog.Type
	KeyCols  []int
	KeyTypes []catalog.Type
	// SortCols are the ORDER BY fields' columns, Sort their directions and null orders.
	SortCols             []int
	Sort                 []topn.SortField
	RankStart, RankEnd   int64
	OutputRankNumber     bool
	GenerateUpdateBefore bool
	// Retract says the input has updates or deletes (Flink's Retract strategy).
	Retract bool
}

// CompileRank decodes a Top-N node. Reasons say why it cannot run natively; err reports
// malformed input.
func CompileRank(n *IslandNode, options map[string]string) (*Rank, []string, error) {
	var j rankJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("rank %s: %w", n.Name, err)
	}
	p := &Rank{RankStart: j.RankRange.Start, RankEnd: j.RankRange.End, OutputRankNumber: j.OutputRowNumber,
		GenerateUpdateBefore: j.GenerateUpdateBefore}
	var err error
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return nil, nil, fmt.Errorf("rank %s: %w", n.Name, err)
	}
	var reasons []string
	switch {
	case j.RankType != "ROW_NUMBER":
		reasons = append(reasons, fmt.Sprintf("a %s Top-N is not supported natively", j.RankType))
	case j.RankStrategy.Type == "Retract":
		// RetractableTopNFunction: the input has updates or deletes.
		p.Retract = true
	case j.RankStrategy.Type != "AppendFast":
		reasons = append(reasons, fmt.Sprintf("a Top-N over input with updates (Flink's %s strategy, for an input with a unique key whose sort fields only grow or only shrink) is not supported natively yet", j.RankStrategy.Type))
	case j.RankRange.Type != "Constant":
		reasons = append(reasons, "a Top-N whose rank end is a column (a variable rank range) is not supported natively yet")
	case p.RankStart < 1 || p.RankEnd < p.RankStart:
		return nil, nil, fmt.Errorf("rank %s: rank range [%d, %d]", n.Name, p.RankStart, p.RankEnd)
	}
	if why, err := stateTTLReason(j.State, options, "a Top-N"); err != nil {
		return nil, nil, fmt.Errorf("rank %s: %w", n.Name, err)
	} else if why != "" {
		reasons = append(reasons, why)
	}
	for _, k := range j.Partition.Fields {
		if k < 0 || k >= len(p.InTypes) {
			return nil, nil, fmt.Errorf("rank %s: partition field %d of %d", n.Name, k, len(p.InTypes))
		}
		t := p.InTypes[k]
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("Top-N key %s: %s", p.InNames[k], why))
		} else if t.IsInterval() || t.IsNested() {
			reasons = append(reasons, fmt.Sprintf("Top-N key %s: %s keys are not supported natively yet", p.InNames[k], t))
		}
		p.KeyCols = append(p.KeyCols, k)
		p.KeyTypes = append(p.KeyTypes, t)
	}
	for _, f := range j.OrderBy.Fields {
		if f.Index < 0 || f.Index >= len(p.InTypes) {
			return nil, nil, fmt.Errorf("rank %s: sort field %d of %d", n.Name, f.Index, len(p.InTypes))
		}
		t := p.InTypes[f.Index]
		if t.TimeAttr == catalog.Proctime {
			reasons = append(reasons, "a Top-N ordered by processing time is not supported natively yet")
		} else if ok, why := topn.SortableType(t); !ok {
			reasons = append(reasons, fmt.Sprintf("Top-N sort field %s: %s are not supported natively yet", p.InNames[f.Index], why))
		}
		p.SortCols = append(p.SortCols, f.Index)
		p.Sort = append(p.Sort, topn.SortField{Type: t, Ascending: f.IsAscending, NullIsLast: f.NullIsLast})
	}
	for i, t := range p.InTypes {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("Top-N input field %s: %s", p.InNames[i], why))
		}
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("rank %s output type: %w", n.Name, err)
	}
	_, outTypes, err := RowFields(out)
	if err != nil {
		return nil, nil, fmt.Errorf("rank %s output type: %w", n.Name, err)
	}
	want := append([]catalog.Type(nil), p.InTypes...)
	if p.OutputRankNumber {
		want = append(want, catalog.BigIntType(false))
	}
	if why := sameKinds("Top-N output", outTypes, want); why != "" {
		reasons = append(reasons, why)
	}
	return p, reasons, nil
}

// ExecType implements Node.
func (*Rank) ExecType() string { return RankType }
