package fuzz

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Node is a generated expression. SQL is a template in which "{k}" stands for the k-th argument,
// rendered in parentheses; literal holes are already filled in. The Flink side renders the same
// way (Render) and shrinks by replacing a node with a descendant or a column of its class.
type Node struct {
	Class    Class   `json:"cls"`
	Function string  `json:"fn,omitempty"`
	SQL      string  `json:"sql"`
	Args     []*Node `json:"args,omitempty"`
}

// Render returns the node as SQL text.
func (n *Node) Render() string {
	if len(n.Args) == 0 {
		return n.SQL
	}
	var sb strings.Builder
	s := n.SQL
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			sb.WriteString(s)
			return sb.String()
		}
		j := strings.IndexByte(s[i:], '}')
		k, err := strconv.Atoi(s[i+1 : i+j])
		if j < 0 || err != nil || k >= len(n.Args) {
			// Not a placeholder (generated text has no braces; keep it verbatim).
			sb.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		sb.WriteString(s[:i])
		sb.WriteString(n.Args[k].operand())
		s = s[i+j+1:]
	}
}

// operand renders the node as an operand of another: in parentheses unless it is a column name
// or a function call (Calcite reads "POSITION((a) IN b)" as an IN predicate).
func (n *Node) operand() string {
	if len(n.Args) == 0 && isIdentifier(n.SQL) || isCall(n.SQL) {
		return n.Render()
	}
	return "(" + n.Render() + ")"
}

// isCall reports whether a template is one call, NAME( ... ), whose first parenthesis closes at
// its end.
func isCall(tmpl string) bool {
	open := strings.IndexByte(tmpl, '(')
	if open <= 0 || !strings.HasSuffix(tmpl, ")") {
		return false
	}
	for _, c := range tmpl[:open] {
		if !(c == '_' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	depth, quoted := 0, false
	for i := open; i < len(tmpl); i++ {
		switch c := tmpl[i]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 && i != len(tmpl)-1 {
				return false
			}
		}
	}
	return depth == 0
}

func isIdentifier(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// Functions lists the registry functions used in the node's tree.
func (n *Node) Functions(into map[string]bool) {
	if n.Function != "" {
		into[n.Function] = true
	}
	for _, a := range n.Args {
		a.Functions(into)
	}
}

// Generator draws expressions of a class from a grammar over a table's columns.
type Generator struct {
	g        *Grammar
	r        *rand.Rand
	columns  map[Class][]string
	maxDepth int
	// byFunction[class] lists, per function, the shapes that build the class, so that every
	// function is drawn equally often whatever its number of shapes.
	byFunction map[Class][][]Shape
}

// NewGenerator returns a generator of expressions up to maxDepth calls deep.
func NewGenerator(g *Grammar, r *rand.Rand, cols []Column, maxDepth int) *Generator {
	gen := &Generator{g: g, r: r, columns: map[Class][]string{}, maxDepth: maxDepth, byFunction: map[Class][][]Shape{}}
	for _, c := range cols {
		gen.columns[c.Class] = append(gen.columns[c.Class], c.Name)
	}
	for class, shapes := range g.ByResult {
		idx := map[string]int{}
		var groups [][]Shape
		for _, s := range shapes {
			k, ok := idx[s.Function]
			if !ok {
				k = len(groups)
				idx[s.Function] = k
				groups = append(groups, nil)
			}
			groups[k] = append(groups[k], s)
		}
		sort.Slice(groups, func(a, b int) bool { return groups[a][0].Function < groups[b][0].Function })
		gen.byFunction[class] = groups
	}
	return gen
}

// ResultClasses lists the classes some shape builds, in the order of Classes.
func (gen *Generator) ResultClasses() []Class {
	var out []Class
	for _, c := range Classes {
		if len(gen.byFunction[c]) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// Expr draws an expression of class c that contains at least one call.
func (gen *Generator) Expr(c Class) *Node {
	return gen.call(c, gen.maxDepth)
}

func (gen *Generator) node(c Class, depth int) *Node {
	if depth <= 0 || gen.r.IntN(5) < 2 {
		return gen.leaf(c)
	}
	return gen.call(c, depth)
}

func (gen *Generator) call(c Class, depth int) *Node {
	groups := gen.byFunction[c]
	if len(groups) == 0 {
		return gen.leaf(c)
	}
	shape := pick(gen.r, pick(gen.r, groups))
	n := &Node{Class: c, Function: shape.Function}
	var sb strings.Builder
	for _, p := range shape.Parts {
		if !p.Hole {
			sb.WriteString(p.Text)
			continue
		}
		switch p.Kind {
		case ExprHole:
			fmt.Fprintf(&sb, "{%d}", len(n.Args))
			n.Args = append(n.Args, gen.node(p.Class, depth-1))
		case LiteralHole:
			sb.WriteString(gen.literal(p.Class))
		case PatternHole:
			sb.WriteString(gen.pattern())
		case DigitsHole:
			sb.WriteString(strconv.Itoa(gen.r.IntN(100)))
		case SmallHole:
			sb.WriteString(strconv.Itoa(gen.r.IntN(16) - 3))
		}
	}
	n.SQL = sb.String()
	return n
}

// leaf is a column of class c, or now and then a literal.
func (gen *Generator) leaf(c Class) *Node {
	cols := gen.columns[c]
	if len(cols) == 0 || gen.r.IntN(6) == 0 {
		if lit := gen.literal(c); lit != "" {
			return &Node{Class: c, SQL: lit}
		}
	}
	return &Node{Class: c, SQL: pick(gen.r, cols)}
}

// literals are SQL literals per class: typed NULLs, extremes and values that hit rounding,
// overflow and parsing paths. No literal contains a brace (Render's placeholders).
var literals = map[Class][]string{
	Bool: {"TRUE", "FALSE", "CAST(NULL AS BOOLEAN)"},
	Int: {"0", "1", "-1", "2", "3", "7", "-3", "10", "100", "2147483647", "-2147483647", "CAST(-128 AS TINYINT)",
		"CAST(127 AS TINYINT)", "CAST(-32768 AS SMALLINT)", "CAST(300 AS SMALLINT)", "9223372036854775807",
		"CAST(-9223372036854775807 AS BIGINT)", "CAST(NULL AS INT)", "CAST(5 AS BIGINT)"},
	Approx: {"1.5E0", "-0.0E0", "0.0E0", "1E308", "-2.5E0", "CAST(0.1 AS FLOAT)", "CAST(-3.5 AS FLOAT)",
		"CAST(NULL AS DOUBLE)", "1E-320"},
	Dec: {"1.25", "-0.005", "0.5", "2.5", "-2.5", "99999999.99", "0.0", "12345678901234.5678",
		"CAST(NULL AS DECIMAL(10, 2))", "CAST(7 AS DECIMAL(1, 0))", "0.000000000000000001"},
	Str: {"''", "' '", "'abc'", "'a'", "'AbC dE'", "'é世'", "'%_'", "'42'", "'-7'", "' 12 '", "'1.5e3'", "'true'",
		"'NaN'", "'a,b,,c'", "','", "'ab'", "CAST(NULL AS STRING)", "'🌍x'", "'İ'"},
	Bin:  {"X''", "X'00ff'", "X'616263'", "CAST(NULL AS BYTES)"},
	Date: {"DATE '2020-02-29'", "DATE '1969-12-31'", "DATE '1970-01-01'", "DATE '0001-01-01'", "DATE '9999-12-31'"},
	Time: {"TIME '12:34:56'", "TIME '00:00:00'", "TIME '23:59:59'"},
	Ts: {"TIMESTAMP '2020-02-29 12:34:56.789'", "TIMESTAMP '1969-12-31 23:59:59.999'", "TIMESTAMP '1970-01-01 00:00:00'",
		"TIMESTAMP '2024-03-10 02:30:00.000'"},
	Ts6: {"TIMESTAMP '2020-01-01 00:00:00.123456'", "TIMESTAMP '1969-12-31 23:59:59.999999'"},
	Ts9: {"TIMESTAMP '2020-01-01 00:00:00.123456789'", "TIMESTAMP '1969-12-31 23:59:59.999999999'",
		"TIMESTAMP '0001-01-01 00:00:00.000000001'", "CAST(NULL AS TIMESTAMP(9))"},
	Arr: {"CAST(NULL AS ARRAY<INT>)"},
	Map: {"CAST(NULL AS MAP<STRING, INT>)"},
}

// literal returns a literal of class c, or "" if the class has none.
func (gen *Generator) literal(c Class) string {
	ls := literals[c]
	if len(ls) == 0 {
		return ""
	}
	return pick(gen.r, ls)
}

var patternPieces = []string{"%", "_", "a", "b", "abc", "é", "世", "!%", "!_", "!!", "x%y", "12", " ", "A", "%a%", "__"}

// pattern is a LIKE pattern literal; '!' is the escape character of the ESCAPE shapes (and an
// ordinary character elsewhere).
func (gen *Generator) pattern() string {
	var sb strings.Builder
	for k := gen.r.IntN(4); k > 0; k-- {
		sb.WriteString(pick(gen.r, patternPieces))
	}
	return "'" + sb.String() + "'"
}
