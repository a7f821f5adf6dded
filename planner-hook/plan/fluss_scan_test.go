package plan

import (
	"strings"
	"testing"
)

// A Fluss scan stays Fluss's reader for now, and the reason names the table.
func TestFlussScanVerdict(t *testing.T) {
	n := &IslandNode{Name: "TableSourceScan#1", Exec: []byte(`{"id": 0, "type": "` + FlussScanType + `", "table": "fluss.db.bids"}`)}
	node, reasons, err := CompileFlussScan(n, nil)
	if err != nil {
		t.Fatal(err)
	}
	if node != nil || len(reasons) != 1 || !strings.Contains(reasons[0], "table fluss.db.bids: Fluss's source is not native yet") {
		t.Fatalf("node %v, reasons %q", node, reasons)
	}
	if _, _, err := CompileFlussScan(&IslandNode{Name: "x", Exec: []byte(`[`)}, nil); err == nil {
		t.Fatal("a broken node compiled")
	}
}
