package expr

import (
	"math"
	"testing"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// TestLocateFromWrapsAsJava checks LOCATE(seek, s, from) where SqlFunctionUtils#position
// computes from - 1 in int arithmetic: Integer.MIN_VALUE wraps to Integer.MAX_VALUE and finds
// nothing (found by the fuzzer), other negative starts search from the beginning.
func TestLocateFromWrapsAsJava(t *testing.T) {
	str, i32 := catalog.StringType(true), catalog.IntType(true)
	types := []catalog.Type{str, str, i32}
	in := batch(t, types, []any{"a", "a", "a", "a"}, []any{"a", "ba", "a", "xa"}, []any{int64(math.MinInt32), int64(2), int64(-5), int64(math.MaxInt32)})
	defer in.Release()
	out, err := eval(t, call("LOCATE", i32, ref(0, str), ref(1, str), ref(2, i32)), in, types)
	if err != nil {
		t.Fatal(err)
	}
	got := column.Values[int32](out)
	for i, want := range []int32{0, 2, 1, 0} {
		if got[i] != want {
			t.Errorf("row %d: LOCATE = %d, want %d", i, got[i], want)
		}
	}
}
