package fuzz

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/expr"
)

func TestParseShape(t *testing.T) {
	for _, tc := range []struct {
		src     string
		results []Class
		holes   int
		wantErr string
	}{
		{src: "A <- {A} + {A} ; A in int dec", results: []Class{Int, Dec}, holes: 2},
		{src: "bool <- {str} LIKE {pat}", results: []Class{Bool}, holes: 2},
		{src: "str <- LPAD({str}, {small}, {str!})", results: []Class{Str}, holes: 3},
		{src: "ts <- {ts} + INTERVAL '{digits}' SECOND", results: []Class{Ts}, holes: 2},
		{src: "bool {int}", wantErr: "missing ' <- '"},
		{src: "num <- {int}", wantErr: `unknown class "num"`},
		{src: "int <- ABS({nope})", wantErr: `unknown class "nope"`},
		{src: "A <- {A} ; A int", wantErr: "variable binding"},
		{src: "int <- $F({ts}) ; F in YEAR HOUR", results: []Class{Int, Int}, holes: 1},
	} {
		shapes, err := ParseShape("F", tc.src)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want %q", tc.src, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if len(shapes) != len(tc.results) {
			t.Fatalf("%q: %d shapes, want %d", tc.src, len(shapes), len(tc.results))
		}
		for k, s := range shapes {
			holes := 0
			for _, p := range s.Parts {
				if p.Hole {
					holes++
				}
			}
			if s.Result != tc.results[k] || holes != tc.holes {
				t.Errorf("%q: shape %d result %s with %d holes, want %s with %d", tc.src, k, s.Result, holes, tc.results[k], tc.holes)
			}
		}
	}
}

// Every native function of the registry is in the grammar (PROCTIME only exists as a time
// attribute; functions that always run on Flink have nothing to compare).
func TestRegistryGrammarCoversRegistry(t *testing.T) {
	g, err := RegistryGrammar()
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, f := range g.Functions {
		in[f] = true
	}
	// Processing-time attributes are not columns of the fuzzer's tables (see shapes.go).
	noShapes := map[string]bool{"PROCTIME": true, "PROCTIME_MATERIALIZE": true}
	for _, f := range expr.Functions() {
		if !in[f.Name] && !noShapes[f.Name] && f.Fallback == "" {
			t.Errorf("function %s has no call shapes", f.Name)
		}
	}
}

// Fixed seeds draw fixed cases; every function of the grammar shows up within a few cases.
func TestGenerateDeterministicAndCovering(t *testing.T) {
	g, err := RegistryGrammar()
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Rows: 8, Exprs: 40, MaxDepth: 3}
	a, _ := json.Marshal(Generate(g, 7, o))
	b, _ := json.Marshal(Generate(g, 7, o))
	if string(a) != string(b) {
		t.Fatal("seed 7 drew two different cases")
	}
	used := map[string]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		c := Generate(g, seed, o)
		if len(c.Exprs) != o.Exprs || len(c.Rows) != o.Rows {
			t.Fatalf("seed %d: %d exprs, %d rows", seed, len(c.Exprs), len(c.Rows))
		}
		for _, e := range c.Exprs {
			e.Functions(used)
			if sql := e.Render(); strings.Count(sql, "(") != strings.Count(sql, ")") || strings.Contains(sql, "--") || strings.Contains(sql, "{") {
				t.Errorf("seed %d: malformed SQL %s", seed, sql)
			}
		}
	}
	for _, f := range g.Functions {
		if !used[f] {
			t.Errorf("function %s never drawn in 40 cases", f)
		}
	}
}

func TestRender(t *testing.T) {
	n := &Node{Class: Int, SQL: "ABS({0}) + {1} * {2}", Args: []*Node{
		{Class: Int, SQL: "i"},
		{Class: Int, SQL: "-{0}", Args: []*Node{{Class: Int, SQL: "-1"}}},
		{Class: Int, SQL: "SIGN({0})", Args: []*Node{{Class: Int, SQL: "l"}}},
	}}
	if got, want := n.Render(), "ABS(i) + (-(-1)) * SIGN(l)"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}

// Generated values stay inside their types: CHAR(n) is padded to n, VARCHAR(n) at most n
// characters, BINARY(n) exactly n bytes.
func TestRowsFitTheirTypes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 500; k++ {
		if s := genString(3, true)(r); len([]rune(s)) != 3 {
			t.Fatalf("CHAR(3) value %q", s)
		}
		if s := genString(6, false)(r); len([]rune(s)) > 6 {
			t.Fatalf("VARCHAR(6) value %q", s)
		}
		if s := genDecimal(10, 2)(r); len(strings.TrimLeft(strings.ReplaceAll(s, ".", ""), "-")) > 10 || !strings.Contains(s, ".") {
			t.Fatalf("DECIMAL(10, 2) value %q", s)
		}
	}
	if got := scaled("-5", 3); got != "-0.005" {
		t.Errorf("scaled(-5, 3) = %q", got)
	}
}

func TestIsCall(t *testing.T) {
	for tmpl, want := range map[string]bool{
		"ABS({0})":                 true,
		"CAST({0} AS INT)":         true,
		"ABS({0}) + ABS({1})":      false,
		"{0} + 1":                  false,
		"TRIM(BOTH ')' FROM {0})":  true,
		"CASE WHEN {0} THEN 1 END": false,
		"-{0}":                     false,
	} {
		if got := isCall(tmpl); got != want {
			t.Errorf("isCall(%q) = %v, want %v", tmpl, got, want)
		}
	}
}
