package expr

import "github.com/sluice-project/sluice/catalog"

func init() {
	register(&Function{Name: "PROCTIME", Family: "temporal",
		Doc:     "the processing-time attribute: NULL in rows, as Flink's generated code writes it (a processing-time window reads the clock when the row arrives)",
		compile: compileProctime})
	register(&Function{Name: "PROCTIME_MATERIALIZE", Family: "temporal",
		Doc:       "a processing-time attribute written into a row (e.g. a PROCTIME() column selected into a sink): the processing time as a TIMESTAMP_LTZ(3), which Flink's generated code reads per row from the operator's timer service (the system clock); Sluice reads the clock once per batch, as for CURRENT_TIMESTAMP",
		compileIn: compileProctimeMaterialize})
}

// compileProctimeMaterialize is PROCTIME_MATERIALIZE(attribute): GenerateUtils#
// generateProctimeTimestamp, the timer service's processing time, i.e. the clock; the operand
// (PROCTIME() or a column holding the attribute, whose value is NULL) is not read.
func compileProctimeMaterialize(n *Node, _ []Expr, env Env) (Expr, error) {
	if len(n.Args) != 1 || n.Args[0].Type.TimeAttr != catalog.Proctime {
		return nil, unsupported("PROCTIME_MATERIALIZE of %d operands that are not a processing-time attribute", len(n.Args))
	}
	return compileClock(&Node{Kind: Call, Op: n.Op, Type: n.Type}, nil, env, clockInstant)
}

// compileProctime is PROCTIME(): Flink's code generator writes a NULL of the time indicator's
// type (ExprCodeGenerator); the value is taken from the clock only where it is needed.
func compileProctime(n *Node, args []Expr) (Expr, error) {
	if len(args) != 0 || n.Type.Kind != catalog.TimestampLTZ || n.Type.Precision != 3 {
		return nil, unsupported("PROCTIME with %d operands returning %s", len(args), n.Type)
	}
	return &literal{typ: n.Type.WithNullable(true)}, nil
}
