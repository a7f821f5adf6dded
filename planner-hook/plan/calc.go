package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/calc"
	"github.com/sluice-project/sluice/exec/expr"
)

// CalcType is the exec-node type of Flink's stream Calc.
const CalcType = "stream-exec-calc_1"

// OptJavaVersion is the planner's Java feature version (17, 21, ...), which decides how Flink's
// code prints FLOAT and DOUBLE values (Double.toString changed in Java 19).
const OptJavaVersion = "sluice.java-version"

// javaVersion reads OptJavaVersion, 0 when absent or not a number.
func javaVersion(options map[string]string) int {
	v, _ := strconv.Atoi(options[OptJavaVersion])
	return v
}

// OptJVMFormatLocale is the planner JVM's default format locale as a language tag (en-US, ...),
// in which DateTimeFormatter prints month and day names.
const OptJVMFormatLocale = "sluice.jvm-format-locale"

// calcJSON is StreamExecCalc's JSON.
type calcJSON struct {
	Projection []json.RawMessage `json:"projection"`
	Condition  json.RawMessage   `json:"condition"`
	OutputType json.RawMessage   `json:"outputType"`
}

// Calc is a decoded and compiled Calc node.
type Calc struct {
	InNames     []string
	InTypes     []catalog.Type
	OutNames    []string
	OutTypes    []catalog.Type
	projections []expr.Expr
	condition   expr.Expr
	// CondCols and projCols are the input columns the condition and the projections read.
	CondCols, ProjCols []int
}

// inputRefs adds the input columns that n reads to set.
func inputRefs(n *expr.Node, set map[int]bool) {
	if n.Kind == expr.InputRef {
		set[n.Index] = true
	}
	for _, a := range n.Args {
		inputRefs(a, set)
	}
}

func sortedKeys(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// CompileCalc decodes a Calc node and compiles its expressions. Every reason it cannot run
// natively is returned (reasons), separate from malformed input (err).
func CompileCalc(n *IslandNode, options map[string]string) (p *Calc, reasons []string, err error) {
	var j calcJSON
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("calc %s: %w", n.Name, err)
	}
	p = &Calc{}
	p.InNames, p.InTypes, err = n.RowFields()
	if err != nil {
		return nil, nil, err
	}
	out, err := catalog.ParseType(j.OutputType)
	if err != nil {
		return nil, nil, fmt.Errorf("calc %s output type: %w", n.Name, err)
	}
	p.OutNames, p.OutTypes, err = RowFields(out)
	if err != nil {
		return nil, nil, fmt.Errorf("calc %s output type: %w", n.Name, err)
	}
	for i, t := range p.InTypes {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("input column %s: %s", p.InNames[i], why))
		}
	}
	for i, t := range p.OutTypes {
		if ok, why := binaryrow.Supported(t); !ok {
			reasons = append(reasons, fmt.Sprintf("output column %s: %s", p.OutNames[i], why))
		}
	}
	env := exprEnv(options)
	env.Clock = true // calc.Calc reads the clock per batch
	condRefs, projRefs := map[int]bool{}, map[int]bool{}
	compile := func(what string, raw json.RawMessage, refs map[int]bool) (expr.Expr, error) {
		node, err := DecodeRex(raw)
		if err == nil {
			inputRefs(node, refs)
			var e expr.Expr
			e, err = expr.CompileIn(node, p.InTypes, env)
			if err == nil {
				return e, nil
			}
		}
		var u *expr.Unsupported
		if errors.As(err, &u) {
			reasons = append(reasons, fmt.Sprintf("%s: %s", what, u.Reason))
			return nil, nil
		}
		return nil, fmt.Errorf("calc %s %s: %w", n.Name, what, err)
	}
	for i, raw := range j.Projection {
		e, err := compile(fmt.Sprintf("projection %d (%s)", i, nameAt(p.OutNames, i)), raw, projRefs)
		if err != nil {
			return nil, nil, err
		}
		p.projections = append(p.projections, e)
	}
	if len(j.Condition) > 0 && string(j.Condition) != "null" {
		e, err := compile("condition", j.Condition, condRefs)
		if err != nil {
			return nil, nil, err
		}
		p.condition = e
	}
	p.CondCols, p.ProjCols = sortedKeys(condRefs), sortedKeys(projRefs)
	if len(reasons) == 0 {
		for i, e := range p.projections {
			got, want := e.Type(), p.OutTypes[i]
			if got.IsInterval() && got.Kind == want.Kind {
				// Flink's row type says INTERVAL SECOND(3) (or MONTH) for every interval of a
				// kind, Calcite's expression types keep their fields; the values are the same.
				continue
			}
			if !got.WithNullable(true).Equal(want.WithNullable(true)) {
				reasons = append(reasons, fmt.Sprintf("projection %d computes %s where the plan expects %s", i, e.Type(), p.OutTypes[i]))
			}
		}
	}
	return p, reasons, nil
}

func nameAt(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "?"
}

// Operator builds the Calc operator of the compiled condition and projections.
func (p *Calc) Operator(mem memory.Allocator) *calc.Calc {
	return calc.New(p.projections, p.condition, mem)
}

// exprEnv is what expressions may depend on, from the planner's options: the session time
// zone (expressions that need it fall back when it cannot be loaded), the JVM's zone, Java
// version and format locale.
func exprEnv(options map[string]string) expr.Env {
	var env expr.Env
	if zone, why := sessionZone(options); why == "" {
		env.Zone = &zone.Zone
	}
	_, env.JVMZoneFixed = options[OptJVMTimeZoneOffset]
	env.JavaVersion = javaVersion(options)
	switch options[OptJVMFormatLocale] {
	case "en", "en-US":
		env.EnglishLocale = true
	}
	return env
}
