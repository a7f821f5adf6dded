// Package fuzz generates the cases of Sluice's differential expression fuzzer: a random table
// (schema and rows with NULLs and extreme values) and random well-typed SQL expressions over it,
// drawn from the call shapes of exec/expr's function registry. The Flink side of the fuzzer
// (io.sluice.fuzz in planner-hook) runs every case on stock Flink and on Sluice, compares the
// results byte for byte and shrinks a mismatch.
package fuzz

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/sluice-project/sluice/exec/expr"
)

// Class is a coarse SQL type class: expressions of one class can fill the same holes.
type Class string

// The classes of the grammar (see exec/expr/shapes.go).
const (
	Bool   Class = "bool"
	Int    Class = "int"
	Approx Class = "approx"
	Dec    Class = "dec"
	Str    Class = "str"
	Bin    Class = "bin"
	Date   Class = "date"
	Time   Class = "time"
	Ts     Class = "ts"
	Ts6    Class = "ts6"
	Ts9    Class = "ts9"
	LTZ    Class = "ltz"
	// Arr is ARRAY of an integer type, Map a MAP from strings to integers, Row a ROW (only
	// ever a result: no column or literal has it).
	Arr Class = "arr"
	Map Class = "map"
	Row Class = "row"
)

// Classes lists every class of the grammar.
var Classes = []Class{Bool, Int, Approx, Dec, Str, Bin, Date, Time, Ts, Ts6, Ts9, LTZ, Arr, Map, Row}

func knownClass(c string) bool {
	for _, k := range Classes {
		if string(k) == c {
			return true
		}
	}
	return false
}

// HoleKind says what fills a hole of a shape.
type HoleKind int

// The kinds of holes.
const (
	// ExprHole is filled with any expression of the hole's class.
	ExprHole HoleKind = iota
	// LiteralHole is filled with a literal of the hole's class.
	LiteralHole
	// PatternHole is filled with a LIKE pattern literal.
	PatternHole
	// DigitsHole is filled with a small unsigned number (inside interval literals).
	DigitsHole
	// SmallHole is filled with a small integer literal (counts, lengths, positions).
	SmallHole
)

// Part is a piece of a shape's template: literal SQL text, or a hole.
type Part struct {
	Text  string
	Hole  bool
	Kind  HoleKind
	Class Class
}

// Shape is one call shape of a registered function, with its variables expanded.
type Shape struct {
	// Function is the registry name the shape belongs to.
	Function string
	// Result is the class of the expression the shape builds.
	Result Class
	// Parts is the template.
	Parts []Part
	// Source is the shape as written in the registry.
	Source string
}

var holeRE = regexp.MustCompile(`\{[^{}]*\}`)

// ParseShape parses one shape in the notation of exec/expr/shapes.go and expands its variable.
func ParseShape(function, src string) ([]Shape, error) {
	body, binding, hasVar := strings.Cut(src, " ; ")
	result, tmpl, ok := strings.Cut(body, " <- ")
	if !ok {
		return nil, fmt.Errorf("shape %q of %s: missing ' <- '", src, function)
	}
	result = strings.TrimSpace(result)
	if !hasVar {
		return parseExpanded(function, src, result, tmpl, nil)
	}
	v, values, ok := strings.Cut(binding, " in ")
	if !ok {
		return nil, fmt.Errorf("shape %q of %s: variable binding must read 'V in c1 c2 ...'", src, function)
	}
	v = strings.TrimSpace(v)
	var out []Shape
	for _, c := range strings.Fields(values) {
		s, err := parseExpanded(function, src, result, strings.ReplaceAll(tmpl, "$"+v, c), map[string]string{v: c})
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	return out, nil
}

func parseExpanded(function, src, result, tmpl string, bind map[string]string) ([]Shape, error) {
	resolve := func(name string) (Class, error) {
		if c, ok := bind[name]; ok {
			name = c
		}
		if !knownClass(name) {
			return "", fmt.Errorf("shape %q of %s: unknown class %q", src, function, name)
		}
		return Class(name), nil
	}
	res, err := resolve(result)
	if err != nil {
		return nil, err
	}
	s := Shape{Function: function, Result: res, Source: src}
	last := 0
	for _, loc := range holeRE.FindAllStringIndex(tmpl, -1) {
		if loc[0] > last {
			s.Parts = append(s.Parts, Part{Text: tmpl[last:loc[0]]})
		}
		last = loc[1]
		name := tmpl[loc[0]+1 : loc[1]-1]
		switch {
		case name == "pat":
			s.Parts = append(s.Parts, Part{Hole: true, Kind: PatternHole, Class: Str})
		case name == "small":
			s.Parts = append(s.Parts, Part{Hole: true, Kind: SmallHole, Class: Int})
		case name == "digits":
			s.Parts = append(s.Parts, Part{Hole: true, Kind: DigitsHole, Class: Int})
		case strings.HasSuffix(name, "!"):
			c, err := resolve(strings.TrimSuffix(name, "!"))
			if err != nil {
				return nil, err
			}
			s.Parts = append(s.Parts, Part{Hole: true, Kind: LiteralHole, Class: c})
		default:
			c, err := resolve(name)
			if err != nil {
				return nil, err
			}
			s.Parts = append(s.Parts, Part{Hole: true, Kind: ExprHole, Class: c})
		}
	}
	if last < len(tmpl) {
		s.Parts = append(s.Parts, Part{Text: tmpl[last:]})
	}
	return []Shape{s}, nil
}

// Grammar is every shape of the registry, by result class.
type Grammar struct {
	ByResult map[Class][]Shape
	// Functions lists the registry names that have at least one shape.
	Functions []string
}

// RegistryGrammar builds the grammar from exec/expr's registry.
func RegistryGrammar() (*Grammar, error) {
	g := &Grammar{ByResult: map[Class][]Shape{}}
	for _, f := range expr.Functions() {
		if len(f.Shapes) > 0 {
			g.Functions = append(g.Functions, f.Name)
		}
		for _, src := range f.Shapes {
			shapes, err := ParseShape(f.Name, src)
			if err != nil {
				return nil, err
			}
			for _, s := range shapes {
				g.ByResult[s.Result] = append(g.ByResult[s.Result], s)
			}
		}
	}
	sort.Strings(g.Functions)
	return g, nil
}
