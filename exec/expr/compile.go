package expr

import (
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// Function is one entry of the registry of natively evaluated functions. The registry is the
// single source for the verdict (what compiles), and for docs/support-matrix.md.
type Function struct {
	// Name is Flink's internal operator name, e.g. "+", "CAST", "UPPER".
	Name string
	// Family groups functions in the support matrix, e.g. "arithmetic".
	Family string
	// Doc says what is supported and any limits.
	Doc string
	// Shapes are the function's call shapes in the differential fuzzer's notation (see
	// shapes.go): the grammar testkit/fuzz draws expressions from.
	Shapes  []string
	compile func(n *Node, args []Expr) (Expr, error)
	// compileIn, when set instead of compile, also reads the environment (the session's time
	// zone).
	compileIn func(n *Node, args []Expr, env Env) (Expr, error)
	// Fallback, when set, is why a function Flink has always runs on Flink: the registry lists
	// it with this reason (docs/support-matrix.md) and every call of it falls back.
	Fallback string
	// NanoTimestamps says that the function takes and returns TIMESTAMP(7..9) and
	// TIMESTAMP_LTZ(7..9) values (Flink's TimestampData with nanoseconds); a call of any other
	// function on them falls back.
	NanoTimestamps bool
	// codegenNullable, when set, says whether Flink's code generator for a call types its value
	// nullable whatever the plan says (its generated code declares a nullable type of its own);
	// an IF typed NOT NULL over such a branch fails Flink's planning (see compileIf).
	codegenNullable func(n *Node) bool
	// operandFallback, when set, says why a call of the function may not be an operand of
	// another call ("" where it may): its value is exact as a projected or filtered expression
	// but not where an enclosing expression reads it.
	operandFallback func(n *Node) string
}

// Env is what an expression may depend on besides its input rows.
type Env struct {
	// Zone is the session time zone ('table.local-time-zone'); nil when unknown, and then
	// whatever depends on it falls back.
	Zone *javatime.Zone
	// JVMZoneFixed says that the JVM's default time zone has a fixed offset, so that what
	// java.util.Date computes through it (e.g. Timestamp#valueOf) does not depend on it.
	JVMZoneFixed bool
	// Clock says that the operator reads the clock once per batch into Ctx.Now, for the clock
	// functions (CURRENT_TIMESTAMP, ...); without it they fall back.
	Clock bool
	// JavaVersion is the planning JVM's feature version (17, 21, ...), 0 when unknown. Java 19
	// changed how doubles print (shortest digits instead of jdk.internal.math.FloatingDecimal's,
	// which javatext.AppendDouble reproduces) and what DateTimeFormatter's F means; what
	// depends on them runs natively only for Java 8 to 18.
	JavaVersion int
	// EnglishLocale says that the JVM's default format locale is English (en or en-US), whose
	// month and day names, AM/PM and eras DateTimeFormatter prints as Sluice does; in another
	// locale patterns with text fields fall back.
	EnglishLocale bool
}

// javaBefore19 reports whether the planning JVM is Java 8 to 18 (whose Double.toString
// javacompat/javatext prints, and whose DATE_FORMAT F is the day-of-week-in-month).
func (e Env) javaBefore19() bool { return javatext.PrintsAsJava(e.JavaVersion) }

// noZone is the fallback of an expression (described by format and args) that needs the
// session time zone where the plan does not carry it (Env.Zone nil).
func noZone(format string, args ...any) error {
	return unsupported(format+" needs the session time zone, which this plan does not carry", args...)
}

var registry = map[string]*Function{}

func register(f *Function) {
	if _, dup := registry[f.Name]; dup {
		panic("expr: function registered twice: " + f.Name)
	}
	if f.Fallback != "" {
		registry[f.Name] = f
		return
	}
	s, ok := shapes[f.Name]
	if !ok {
		panic("expr: no call shapes for function " + f.Name + " (add them to shapes.go)")
	}
	f.Shapes = s
	registry[f.Name] = f
}

// Functions lists the registry sorted by family, then name.
func Functions() []Function {
	out := make([]Function, 0, len(registry))
	for _, f := range registry {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Family != out[j].Family {
			return out[i].Family < out[j].Family
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// SupportedType reports whether values of t can be evaluated natively, with a reason if not.
// Intervals exist only inside expressions (timestamp arithmetic); columns of interval type
// are rejected by the row edges.
func SupportedType(t catalog.Type) (bool, string) {
	if t.IsInterval() {
		return true, ""
	}
	return binaryrow.Supported(t)
}

// Compile turns an expression tree over input columns of the given types into an Expr, without
// a session time zone.
func Compile(n *Node, input []catalog.Type) (Expr, error) { return CompileIn(n, input, Env{}) }

// CompileIn is Compile in an environment.
func CompileIn(n *Node, input []catalog.Type, env Env) (Expr, error) {
	if ok, why := SupportedType(n.Type); !ok {
		return nil, unsupported("%s: %s", n.Describe(), why)
	}
	switch n.Kind {
	case InputRef:
		if n.Index < 0 || n.Index >= len(input) {
			return nil, fmt.Errorf("input reference $%d out of range (%d columns)", n.Index, len(input))
		}
		return &inputRef{index: n.Index, typ: input[n.Index]}, nil
	case Literal:
		return newLiteral(n)
	case FieldAccess:
		if len(n.Args) != 1 {
			return nil, fmt.Errorf("field access %s without its row", n.Name)
		}
		row, err := CompileIn(n.Args[0], input, env)
		if err != nil {
			return nil, err
		}
		return compileFieldAccess(n, row)
	case Call:
		if err := checkNested(n); err != nil {
			return nil, err
		}
		if n.Op == "SEARCH" {
			e, err := expandSearch(n)
			if err != nil {
				return nil, err
			}
			return CompileIn(e, input, env)
		}
		f, ok := registry[n.Op]
		if ok && f.Fallback != "" {
			return nil, unsupported("%s runs on Flink: %s", n.Op, f.Fallback)
		}
		if !ok || (f.compile == nil && f.compileIn == nil) {
			return nil, unsupported("function %s is not supported natively yet", n.Op)
		}
		if !f.NanoTimestamps && involvesNanoTimestamps(n) {
			return nil, unsupported("%s of %s: TIMESTAMP(7..9) values are not evaluated natively by %s yet", n.Op, nodeTypeNames(n), n.Op)
		}
		args := make([]Expr, 0, len(n.Args))
		for _, a := range n.Args {
			if g, ok := registry[a.Op]; ok && a.Kind == Call && g.operandFallback != nil {
				if why := g.operandFallback(a); why != "" {
					return nil, unsupported("%s inside %s: %s", a.Op, n.Op, why)
				}
			}
			if a.Kind == Literal {
				if _, ok := a.Value.(*Sarg); ok {
					args = append(args, nil) // consumed by SEARCH from the node
					continue
				}
				if _, ok := a.Value.(Symbol); ok {
					args = append(args, nil) // consumed by the function from the node
					continue
				}
			}
			e, err := CompileIn(a, input, env)
			if err != nil {
				return nil, err
			}
			args = append(args, e)
		}
		if f.compileIn != nil {
			return f.compileIn(n, args, env)
		}
		return f.compile(n, args)
	}
	return nil, fmt.Errorf("unknown expression kind %d", n.Kind)
}

// involvesNanoTimestamps reports whether a call takes or returns TIMESTAMP(7..9) values,
// also inside ROW, ARRAY and MAP values.
func involvesNanoTimestamps(n *Node) bool {
	if containsNanoTimestamp(n.Type) {
		return true
	}
	for _, a := range n.Args {
		if containsNanoTimestamp(a.Type) {
			return true
		}
	}
	return false
}

func containsNanoTimestamp(t catalog.Type) bool {
	switch {
	case t.IsNanoTimestamp():
		return true
	case t.Elem != nil && containsNanoTimestamp(*t.Elem), t.Value != nil && containsNanoTimestamp(*t.Value):
		return true
	}
	for _, f := range t.Fields {
		if containsNanoTimestamp(f.Type) {
			return true
		}
	}
	return false
}

// nodeTypeNames lists the types of a call's operands.
func nodeTypeNames(n *Node) string {
	s := make([]string, len(n.Args))
	for i, a := range n.Args {
		s[i] = a.Type.String()
	}
	return strings.Join(s, ", ")
}

type inputRef struct {
	index int
	typ   catalog.Type
}

func (e *inputRef) Type() catalog.Type { return e.typ }

func (e *inputRef) Eval(_ *Ctx, in Batch) (arrow.Array, error) {
	c := in.Column(e.index)
	c.Retain()
	return c, nil
}

func typeNames(args []Expr) string {
	s := make([]string, len(args))
	for i, a := range args {
		if a == nil {
			s[i] = "SARG"
		} else {
			s[i] = a.Type().String()
		}
	}
	return strings.Join(s, ", ")
}
