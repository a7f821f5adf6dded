package plan

import (
	"encoding/json"
	"slices"
)

// NodeVerdict says whether one node runs natively, and why not.
type NodeVerdict struct {
	Name      string   `json:"name"`
	Type      string   `json:"type"`
	Supported bool     `json:"supported"`
	Reasons   []string `json:"reasons"`
}

// Verdict is the answer for a whole island: native only if every node is.
type Verdict struct {
	Supported bool          `json:"supported"`
	Nodes     []NodeVerdict `json:"nodes"`
}

// Judge decides, node by node, whether the island can run natively.
func Judge(is *Island) Verdict {
	v := Verdict{Supported: len(is.Nodes) > 0}
	for i := range is.Nodes {
		n := &is.Nodes[i]
		nv := NodeVerdict{Name: n.Name, Reasons: []string{}}
		if h, err := n.Header(); err == nil {
			nv.Type = h.Type
		}
		_, reasons, err := Compile(n, is.Options)
		if err != nil {
			nv.Reasons = append(nv.Reasons, err.Error())
		}
		for _, r := range reasons {
			// Calls or columns of one node often share a reason: say it once.
			if !slices.Contains(nv.Reasons, r) {
				nv.Reasons = append(nv.Reasons, r)
			}
		}
		nv.Supported = len(nv.Reasons) == 0
		v.Supported = v.Supported && nv.Supported
		v.Nodes = append(v.Nodes, nv)
	}
	return v
}

// JudgeJSON decodes an island and returns its verdict as JSON.
func JudgeJSON(data []byte) ([]byte, error) {
	is, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(Judge(is))
}
