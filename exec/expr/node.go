// Package expr compiles Flink scalar expressions (RexNodes) into kernels over Arrow columns and
// evaluates them with Flink's exact semantics: Java's integer arithmetic, Flink's decimal
// rounding and overflow rules, SQL three-valued logic and Flink's string functions.
//
// Compile either returns an Expr or an *Unsupported error whose reason is shown to the user
// when a job falls back to stock Flink.
package expr

import (
	"github.com/sluice-project/sluice/exec/decimal"

	"fmt"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
)

// NodeKind says what a Node is.
type NodeKind int

// Node kinds, as Flink's RexNode kinds.
const (
	InputRef NodeKind = iota
	Literal
	Call
	// FieldAccess is Args[0].Name on a ROW value (Calcite's RexFieldAccess).
	FieldAccess
)

// Node is one scalar expression as decoded from Flink's plan JSON.
type Node struct {
	Kind NodeKind
	Type catalog.Type
	// Index is the input column of an InputRef.
	Index int
	// Value is a Literal's value: nil (NULL), bool, int64 (integral types, DATE days, TIME
	// millis, TIMESTAMP epoch millis up to precision 3, micros up to 6), NanoTimestamp
	// (TIMESTAMP(7..9)), float64, decimal128.Num (unscaled at Type's scale), string
	// (CHAR/VARCHAR), []byte (BINARY), *Sarg or Symbol.
	Value any
	// Op is the function of a Call: Flink's internal name without "$" and version, e.g. "+",
	// "CAST", "UPPER", "IS NOT NULL".
	Op   string
	Args []*Node
	// Name is the field a FieldAccess reads.
	Name string
	// bitsEqual marks an "=" that SEARCH expansion made from an IN-list point of a FLOAT or
	// DOUBLE value: Flink looks those up in a Double/FloatHashSet, i.e. compares
	// Double#doubleToLongBits (NaN equals NaN, -0.0 differs from 0.0).
	bitsEqual bool
}

// NanoTimestamp is the value of a TIMESTAMP(7..9) or TIMESTAMP_LTZ(7..9) literal, as Flink's
// TimestampData holds it.
type NanoTimestamp struct {
	Millis      int64 // epoch milliseconds
	NanoOfMilli int32 // 0..999,999
}

// Symbol is a literal flag such as the BOTH of TRIM(BOTH ' ' FROM s).
type Symbol struct {
	Kind  string // e.g. "TRIM"
	Value string // e.g. "BOTH"
}

// Bound is one end of a Sarg range.
type Bound struct {
	Value  any // as Node.Value, of the Sarg's type
	Closed bool
}

// Range is one range of a Sarg; a nil bound is unbounded.
type Range struct {
	Lower, Upper *Bound
}

// Sarg is the search argument of SEARCH(x, sarg): x is in one of Ranges. NullAs says what a
// NULL x yields: "UNKNOWN" (NULL), "TRUE" or "FALSE".
type Sarg struct {
	Ranges []Range
	NullAs string
}

// Unsupported is the error Compile returns for anything Sluice cannot evaluate exactly.
type Unsupported struct {
	Reason string
}

func (u *Unsupported) Error() string { return u.Reason }

func unsupported(format string, args ...any) error {
	return &Unsupported{Reason: fmt.Sprintf(format, args...)}
}

// Describe renders a node for error messages.
func (n *Node) Describe() string {
	switch n.Kind {
	case InputRef:
		return fmt.Sprintf("$%d", n.Index)
	case Literal:
		if d, ok := n.Value.(decimal128.Num); ok {
			return decimal.PlainString(d.BigInt(), n.Type.Scale)
		}
		return fmt.Sprintf("%v", n.Value)
	case FieldAccess:
		return n.Args[0].Describe() + "." + n.Name
	}
	return n.Op + "(...)"
}

// stringLiteral is the value of a string literal node; ok is false for anything else (a
// column, a call, a literal of another type).
func stringLiteral(n *Node) (string, bool) {
	s, ok := n.Value.(string)
	return s, ok && n.Kind == Literal
}
