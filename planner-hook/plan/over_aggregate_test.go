package plan

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/agg"
)

// overNode reads the golden OVER node (Flink's JSON for SUM, MIN, COUNT over PARTITION BY k
// ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) and edits its exec
// JSON.
func overNode(t *testing.T, edit func(exec map[string]any)) *IslandNode {
	t.Helper()
	data, err := os.ReadFile("testdata/over_range_2s.json")
	if err != nil {
		t.Fatal(err)
	}
	var n IslandNode
	if err := json.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	var exec map[string]any
	if err := json.Unmarshal(n.Exec, &exec); err != nil {
		t.Fatal(err)
	}
	edit(exec)
	if n.Exec, err = json.Marshal(exec); err != nil {
		t.Fatal(err)
	}
	return &n
}

func overGroup(exec map[string]any) map[string]any {
	return exec["overSpec"].(map[string]any)["groups"].([]any)[0].(map[string]any)
}

func TestCompileOverAggregate(t *testing.T) {
	p, reasons, err := CompileOverAggregate(overNode(t, func(map[string]any) {}), nil)
	if err != nil || len(reasons) > 0 {
		t.Fatalf("err %v, reasons %v", err, reasons)
	}
	if p.Rows || !p.Bounded || p.Preceding != 2000 || p.RowtimeCol != 3 || len(p.KeyCols) != 1 || p.KeyCols[0] != 0 {
		t.Errorf("compiled %+v", p)
	}
	if len(p.Calls) != 4 || p.Calls[1].Func != agg.Sum0 || !p.Calls[1].Retract || p.ArgCols[3] != -1 {
		t.Errorf("calls %+v, argument columns %v", p.Calls, p.ArgCols)
	}

	rows, reasons, err := CompileOverAggregate(overNode(t, func(e map[string]any) {
		overGroup(e)["isRows"] = true
		e["overSpec"].(map[string]any)["constants"].([]any)[0] = map[string]any{"kind": "LITERAL", "value": 3, "type": "BIGINT NOT NULL"}
	}), nil)
	if err != nil || len(reasons) > 0 || rows.Preceding != 4 {
		t.Errorf("ROWS 3 PRECEDING: %+v, %v, %v", rows, reasons, err)
	}

	for _, c := range []struct {
		name string
		edit func(map[string]any)
		want string
	}{
		{"following", func(e map[string]any) { overGroup(e)["upperBound"] = map[string]any{"kind": "UNBOUNDED_FOLLOWING"} },
			"does not end at the current row"},
		{"decimal bound", func(e map[string]any) {
			e["overSpec"].(map[string]any)["constants"].([]any)[0] = map[string]any{"kind": "LITERAL", "value": "1.5", "type": "DECIMAL(2, 1) NOT NULL"}
		}, "frame bound of DECIMAL"},
		{"unknown version", func(e map[string]any) {
			overGroup(e)["lowerBound"] = map[string]any{"kind": "UNBOUNDED_PRECEDING"}
			e["unboundedOverVersion"] = 3
		}, "unbounded OVER version 3"},
		{"constant argument", func(e map[string]any) {
			overGroup(e)["aggCalls"].([]any)[0].(map[string]any)["argList"] = []any{4}
		}, "constant arguments"},
		{"double sum over range", func(e map[string]any) {
			call := overGroup(e)["aggCalls"].([]any)[1].(map[string]any)
			call["argList"], call["type"] = []any{2}, "DOUBLE NOT NULL"
		}, "map order"},
	} {
		_, reasons, err := CompileOverAggregate(overNode(t, c.edit), nil)
		if err != nil || !strings.Contains(strings.Join(reasons, "; "), c.want) {
			t.Errorf("%s: reasons %v, err %v; want %q", c.name, reasons, err, c.want)
		}
	}
	if _, _, err := CompileOverAggregate(overNode(t, func(e map[string]any) {
		overGroup(e)["lowerBound"].(map[string]any)["offset"].(map[string]any)["inputIndex"] = 9
	}), nil); err == nil || !strings.Contains(err.Error(), "constant 5 of 1") {
		t.Errorf("a bound past the constants gave %v", err)
	}
}
