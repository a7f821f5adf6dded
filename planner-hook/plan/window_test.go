package plan

import (
	"os"
	"strings"
	"testing"
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
		{"testdata/window_hop_one_phase.json", true, nil},
		{"testdata/window_tumble_two_phase.json", true, nil},
	}
	for _, c := range cases {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		is, err := Decode(data)
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
