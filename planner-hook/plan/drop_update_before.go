package plan

// DropUpdateBeforeType is the exec node the planner puts in front of an operator or sink that
// takes a changelog without its update-befores (an upsert sink, a result collected by key).
const DropUpdateBeforeType = "stream-exec-drop-update-before_1"

// DropUpdateBefore drops the -U rows of a changelog and passes the others unchanged, as Flink's
// DropUpdateBeforeFunction.
type DropUpdateBefore struct{}

// ExecType is DropUpdateBeforeType.
func (*DropUpdateBefore) ExecType() string { return DropUpdateBeforeType }

// CompileDropUpdateBefore compiles a DropUpdateBefore node: stateless, always native.
func CompileDropUpdateBefore(*IslandNode, map[string]string) (*DropUpdateBefore, []string, error) {
	return &DropUpdateBefore{}, nil, nil
}
