package fuzz

import (
	"math/rand/v2"
)

// Case is one fuzz case: a table and the expressions to evaluate over each of its rows, as the
// Flink side reads it (one JSON object per line).
type Case struct {
	// Seed regenerates the case.
	Seed uint64 `json:"seed"`
	// Config holds table options set on both engines.
	Config map[string]string `json:"config"`
	// Schema is the table's columns.
	Schema []Column `json:"schema"`
	// Rows are the table's rows: one text per column (see TableColumns for the formats), nil for NULL.
	Rows [][]*string `json:"rows"`
	// Exprs are the expressions, each a column of one SELECT.
	Exprs []*Node `json:"exprs"`
	// Leaves lists the columns of each class, what the shrinker may put in place of a subtree.
	Leaves map[Class][]string `json:"leaves"`
}

// Options size the generated cases.
type Options struct {
	// Rows per table.
	Rows int
	// Exprs per case.
	Exprs int
	// MaxDepth is the deepest nesting of calls.
	MaxDepth int
}

// zones are session time zones, with and without daylight saving (Lord Howe: 30 minutes of
// it; São Paulo: gaps at midnight until 2019).
var zones = []string{"UTC", "America/Los_Angeles", "Asia/Kolkata", "Europe/Berlin", "Australia/Lord_Howe", "America/Sao_Paulo"}

// Generate draws the case of a seed.
func Generate(g *Grammar, seed uint64, o Options) *Case {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	cols := TableColumns()
	c := &Case{
		Seed:   seed,
		Config: map[string]string{"table.local-time-zone": pick(r, zones)},
		Schema: cols,
		Rows:   Rows(r, cols, o.Rows),
		Leaves: map[Class][]string{},
	}
	for _, col := range cols {
		c.Leaves[col.Class] = append(c.Leaves[col.Class], col.Name)
	}
	gen := NewGenerator(g, r, cols, o.MaxDepth)
	seen := map[string]bool{}
	for tries := 0; len(c.Exprs) < o.Exprs && tries < 4*o.Exprs; tries++ {
		n := gen.Expr(pick(r, gen.ResultClasses()))
		sql := n.Render()
		if seen[sql] {
			continue
		}
		seen[sql] = true
		c.Exprs = append(c.Exprs, n)
	}
	return c
}
