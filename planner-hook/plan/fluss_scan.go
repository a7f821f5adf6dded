package plan

import (
	"encoding/json"
	"fmt"
)

// FlussScanType is the node type under which the planner sends a scan of a Fluss table (Fluss's
// FlinkTableSource): the table's name and what the planner pushed into the source.
const FlussScanType = "sluice-fluss-scan_1"

// flussScanExec is the JSON of a Fluss scan node.
type flussScanExec struct {
	Table string `json:"table"`
}

// CompileFlussScan judges a scan of a Fluss table. Fluss's source is not native yet: its reader
// decodes the log's Arrow batches into rows, which enter the native chain at a row edge; the
// reason says so, and the rest of the plan can still run natively.
func CompileFlussScan(n *IslandNode, _ map[string]string) (Node, []string, error) {
	var j flussScanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("fluss scan %s: %w", n.Name, err)
	}
	return nil, []string{fmt.Sprintf("table %s: Fluss's source is not native yet (Fluss's reader turns the log's Arrow batches into rows, which enter the native chain at a row edge)", j.Table)}, nil
}
