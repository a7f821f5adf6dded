package expr

import "github.com/sluice-project/sluice/catalog"

func init() {
	register(&Function{Name: "PROCTIME", Family: "temporal",
		Doc:     "the processing-time attribute: NULL in rows, as Flink's generated code writes it (a processing-time window reads the clock when the row arrives); PROCTIME_MATERIALIZE (the clock per row) falls back",
		compile: compileProctime})
}

// compileProctime is PROCTIME(): Flink's code generator writes a NULL of the time indicator's
// type (ExprCodeGenerator); the value is taken from the clock only where it is needed.
func compileProctime(n *Node, args []Expr) (Expr, error) {
	if len(args) != 0 || n.Type.Kind != catalog.TimestampLTZ || n.Type.Precision != 3 {
		return nil, unsupported("PROCTIME with %d operands returning %s", len(args), n.Type)
	}
	return &literal{typ: n.Type.WithNullable(true)}, nil
}
