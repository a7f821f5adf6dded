package plan

import (
	"testing"

	"github.com/sluice-project/sluice/testkit/islands"
)

func TestGoldenIslandsAreNative(t *testing.T) {
	for _, name := range []string{"demo_calc.json", "bench_calc.json"} {
		is, err := Decode(islands.Read(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if v := Judge(is); !v.Supported {
			t.Errorf("%s not supported: %+v", name, v)
		}
	}
}
