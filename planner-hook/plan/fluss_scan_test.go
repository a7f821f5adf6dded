package plan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// flussScanNode is the island node of a Fluss scan described as the Java side describes it,
// changed by change.
func flussScanNode(t *testing.T, change func(j *flussScanExec)) *IslandNode {
	t.Helper()
	j := flussScanExec{Table: "fluss.db.bids", Columns: "ROW<`id` INT, `name` STRING, `ts` TIMESTAMP_LTZ(3), `price` DECIMAL(10, 2)>",
		Streaming: true, StartupMode: "earliest", LogFormat: "ARROW"}
	if change != nil {
		change(&j)
	}
	exec, err := json.Marshal(struct {
		Type string `json:"type"`
		flussScanExec
	}{FlussScanType, j})
	if err != nil {
		t.Fatal(err)
	}
	return &IslandNode{Name: "TableSourceScan#1", Exec: exec}
}

// Which Fluss scans run natively, and what every other one says, naming the table.
func TestFlussScanVerdict(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(j *flussScanExec)
		reason string // "" when native
	}{
		{"log table", nil, ""},
		{"changelog from the earliest offset", func(j *flussScanExec) { j.PrimaryKey = true }, ""},
		{"changelog from the snapshot", func(j *flussScanExec) { j.PrimaryKey, j.StartupMode = true, "full" }, "'scan.startup.mode' = 'full'"},
		{"bounded", func(j *flussScanExec) { j.Streaming = false }, "bounded reads"},
		{"lake", func(j *flussScanExec) { j.Lake = true }, "data lake"},
		{"partitioned", func(j *flussScanExec) { j.Partitioned = true }, "partitioned Fluss tables"},
		{"indexed log", func(j *flussScanExec) { j.LogFormat = "INDEXED" }, "log format INDEXED"},
		{"TIMESTAMP(9)", func(j *flussScanExec) { j.Columns = "ROW<`id` INT, `ts` TIMESTAMP(9)>" }, "column ts: type TIMESTAMP(9)"},
		{"from Java", func(j *flussScanExec) { j.Unsupported = []string{"a LIMIT pushed into Fluss's source"} }, "a LIMIT pushed"},
		{"not inspected", func(j *flussScanExec) {
			j.Columns, j.Unsupported = "", []string{"cannot inspect the Fluss table source: x"}
		}, "cannot inspect"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, reasons, err := CompileFlussScan(flussScanNode(t, c.change), nil)
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(reasons, "\n")
			if c.reason == "" {
				if joined != "" {
					t.Fatalf("reasons %q, want native", joined)
				}
				return
			}
			if !strings.Contains(joined, c.reason) || !strings.Contains(joined, "table fluss.db.bids: ") {
				t.Fatalf("reasons %q lack %q or the table", joined, c.reason)
			}
		})
	}
}

// A projection fetches its columns in the table's order and gives them back in its own.
func TestFlussScanProjection(t *testing.T) {
	s, reasons, err := CompileFlussScan(flussScanNode(t, func(j *flussScanExec) { j.Projection = []int{3, 0} }), nil)
	if err != nil || len(reasons) > 0 {
		t.Fatalf("reasons %v, error %v", reasons, err)
	}
	names, _ := s.FetchedColumns()
	if got := fmt.Sprint(s.Names, s.Fetched, s.Order, names); got != "[price id] [0 3] [1 0] [id price]" {
		t.Fatalf("projection %s", got)
	}
	if _, _, err := CompileFlussScan(flussScanNode(t, func(j *flussScanExec) { j.Projection = []int{1, 1} }), nil); err == nil {
		t.Fatal("a repeated column projected")
	}
}
