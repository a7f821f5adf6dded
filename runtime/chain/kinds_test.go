package chain

import (
	"sort"
	"testing"

	"github.com/sluice-project/sluice/planner-hook/plan"
)

// TestEveryNativeKindHasARuntime keeps the verdict and the runtime from disagreeing about what
// a node is: every kind that plan's registry lets run natively has its place in a chain (a
// stage, a scan that starts the chain, a sink or exchange that ends it, or a node it passes), and nothing else.
func TestEveryNativeKindHasARuntime(t *testing.T) {
	stages := []plan.Node{&plan.Calc{}, &plan.WatermarkAssigner{}, &plan.WindowTableFunction{}, &plan.WindowJoin{}, &plan.IntervalJoin{}, &plan.RegularJoin{}, &plan.GroupAggregate{}, &plan.GroupAggregate{Phase: plan.LocalPhase}, &plan.GroupAggregate{Phase: plan.GlobalPhase}, &plan.Deduplicate{}, &plan.Deduplicate{Changelog: true}, &plan.Rank{}, &plan.OverAggregate{}, &plan.DropUpdateBefore{},
		&plan.WindowAggregate{Phase: plan.OnePhase}, &plan.WindowAggregate{Phase: plan.LocalPhase}, &plan.WindowAggregate{Phase: plan.GlobalPhase}}
	scans := []plan.Scan{&plan.FileScan{}, &plan.IcebergScan{}, &plan.AdbcScan{}, &plan.FlussScan{}}
	ends := []plan.Node{&plan.FileSink{}, &plan.IcebergSink{}, &plan.AdbcSink{}, &plan.Exchange{}}
	// The chain passes rows through a mini-batch assigner (its clock is the Java operator's).
	passes := []plan.Node{&plan.MiniBatchAssigner{}}
	var got []string
	for _, n := range passes {
		got = append(got, n.ExecType())
	}
	for _, n := range stages {
		got = append(got, n.ExecType())
		if _, err := openStage(n, nil); err != nil && err.Error() == "a "+n.ExecType()+" node cannot run inside a chain" {
			t.Errorf("%s: no stage", n.ExecType())
		}
	}
	for _, n := range scans {
		got = append(got, n.ExecType())
	}
	for _, n := range ends {
		got = append(got, n.ExecType())
		if _, err := openStage(n, nil); err == nil {
			t.Errorf("%s opened as a stage", n.ExecType())
		}
	}
	var want []string
	for _, op := range plan.Operators() {
		want = append(want, op.Type)
	}
	sort.Strings(got)
	sort.Strings(want)
	if len(got) != len(want) {
		t.Fatalf("runtime kinds %v, registry %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("runtime kinds %v, registry %v", got, want)
		}
	}
}
