package plan

import (
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/expr"
)

// watermarkAssignerJSON is StreamExecWatermarkAssigner's JSON.
type watermarkAssignerJSON struct {
	WatermarkExpr     json.RawMessage `json:"watermarkExpr"`
	RowtimeFieldIndex int             `json:"rowtimeFieldIndex"`
}

// WatermarkAssigner is a decoded watermark assigner.
type WatermarkAssigner struct {
	InNames []string
	InTypes []catalog.Type
	Expr    expr.Expr
	Cols    []int
	Rowtime int
}

// CompileWatermarkAssigner compiles a watermark assigner: its expression, and the columns it reads.
func CompileWatermarkAssigner(n *IslandNode) (*WatermarkAssigner, []string, error) {
	var j watermarkAssignerJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("watermark assigner %s: %w", n.Name, err)
	}
	p := &WatermarkAssigner{Rowtime: j.RowtimeFieldIndex}
	var err error
	if p.InNames, p.InTypes, err = n.RowFields(); err != nil {
		return nil, nil, err
	}
	if p.Rowtime < 0 || p.Rowtime >= len(p.InTypes) {
		return nil, nil, fmt.Errorf("watermark assigner %s: rowtime field %d of %d", n.Name, p.Rowtime, len(p.InTypes))
	}
	node, err := DecodeRex(j.WatermarkExpr)
	if err != nil {
		return nil, nil, fmt.Errorf("watermark assigner %s: %w", n.Name, err)
	}
	var reasons []string
	if p.Expr, err = expr.Compile(node, p.InTypes); err != nil {
		reasons = append(reasons, fmt.Sprintf("watermark expression: %v", err))
	} else if t := p.Expr.Type(); (t.Kind != catalog.Timestamp && t.Kind != catalog.TimestampLTZ) || t.Precision > 3 {
		reasons = append(reasons, fmt.Sprintf("watermark expression of type %s is not supported natively", t))
	}
	set := map[int]bool{p.Rowtime: true}
	inputRefs(node, set)
	p.Cols = sortedKeys(set)
	return p, reasons, nil
}
