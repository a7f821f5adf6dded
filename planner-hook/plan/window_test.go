package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/testkit/islands"
)

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]int64{
		"PT10S": 10_000, "PT0.5S": 500, "PT1H30M": 5_400_000, "PT-1S": -1000, "PT-0.25S": -250, "PT2M0.001S": 120_001,
	} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "PT", "10S", "P1D", "PT0.0001S"} {
		if _, err := parseDuration(bad); err == nil {
			t.Errorf("parseDuration(%q) accepted", bad)
		}
	}
}

func TestWindowVerdicts(t *testing.T) {
	cases := []struct {
		file    string
		native  bool
		reasons []string
	}{
		{"window_hop_one_phase.json", true, nil},
		{"window_tumble_two_phase.json", true, nil},
	}
	for _, c := range cases {
		is, err := Decode(islands.Read(t, c.file))
		if err != nil {
			t.Fatal(err)
		}
		v := Judge(is)
		if v.Supported != c.native {
			t.Errorf("%s: supported %v, want %v: %+v", c.file, v.Supported, c.native, v.Nodes)
		}
		var all []string
		for _, n := range v.Nodes {
			all = append(all, n.Reasons...)
		}
		for _, want := range c.reasons {
			if !strings.Contains(strings.Join(all, "\n"), want) {
				t.Errorf("%s: reasons %q lack %q", c.file, all, want)
			}
		}
	}
}

// A FILTER referring to a field the input does not have is malformed input: an error, not a
// plan without reasons.
func TestWindowAggregateRejectsBadFilterField(t *testing.T) {
	raw := islands.Read(t, "window_hop_one_phase.json")
	var is Island
	if err := json.Unmarshal(raw, &is); err != nil {
		t.Fatal(err)
	}
	var node map[string]any
	n := len(is.Nodes) - 1
	for i := range is.Nodes {
		if h, _ := is.Nodes[i].Header(); h.Type == WindowAggregateType {
			n = i
		}
	}
	if err := json.Unmarshal(is.Nodes[n].Exec, &node); err != nil {
		t.Fatal(err)
	}
	calls := node["aggCalls"].([]any)
	calls[0].(map[string]any)["filterArg"] = 99
	exec, _ := json.Marshal(node)
	is.Nodes[n].Exec = exec
	p, reasons, err := CompileWindowAggregate(&is.Nodes[n], OnePhase, is.Options)
	if err == nil {
		t.Fatalf("accepted a FILTER on field 99: plan %v, reasons %v", p != nil, reasons)
	}
}
