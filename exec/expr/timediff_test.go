package expr

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sluice-project/sluice/catalog"
)

// TestSubtractMonths holds DateTimeUtils#subtractMonths values printed by Flink 2.1.1: month
// ends, leap years, negative days and milliseconds, 1582, year 1 and 9999, and a time of day
// that makes a whole month one fewer.
func TestSubtractMonths(t *testing.T) {
	dates := [][3]int32{
		{31, 0, 1},
		{30, 0, 0},
		{59, 31, 1},
		{58, 30, 1},
		{-1, 0, 0},
		{0, -1, 0},
		{-365, 365, -24},
		{11016, 10988, 0},
		{11017, 10988, 1},
		{11046, 11016, 1},
		{2932896, -719162, 119987},
		{-719162, 2932896, -119987},
		{-141427, -141428, 0},
		{-141417, -141438, 0},
		{18321, 18293, 0},
		{18322, 18294, 0},
		{19782, 19753, 1},
		{19753, 19782, -1},
		{1000000, 3, 32854},
		{0, 0, 0},
	}
	for _, c := range dates {
		if got := subtractMonthsDate(c[0], c[1]); got != c[2] {
			t.Errorf("subtractMonths(int %d, int %d) = %d, Flink %d", c[0], c[1], got, c[2])
		}
	}
	millis := [][3]int64{
		{0, 0, 0},
		{2678400000, 0, 1},
		{2678399999, 0, 0},
		{2678400000, 1, 0},
		{-1, 0, 0},
		{0, -1, 0},
		{5097600005, 2678400005, 1},
		{5097600004, 2678400005, 0},
		{-2678400001, -1, -1},
		{1700000000000, 1600000000123, 38},
		{1600000000123, 1700000000000, -38},
		{253402300799999, -62135596800000, 119987},
		{-62135596800000, 253402300799999, -119987},
		{951786000000, 949370400000, 0},
		{951868800000, 949363200001, 0},
		{-12219292800000, -12219292800001, 0},
	}
	for _, c := range millis {
		if got := subtractMonthsMillis(c[0], c[1]); int64(got) != c[2] {
			t.Errorf("subtractMonths(long %d, long %d) = %d, Flink %d", c[0], c[1], got, c[2])
		}
	}
}

// TestCoalesceOfNotNullDateIntervalFallsBack checks that COALESCE and IFNULL of a NOT NULL
// DATE plus an interval fall back: Flink types the sum nullable and its code generation fails.
// TestCoalesceOverCodegenNullableFallsBack: COALESCE and IFNULL over a NOT NULL argument that
// Flink's generated code types nullable (a DATE plus or minus an interval, in either order, an
// IN list) fall back, as Flink's planning fails there ("Mismatch of function's argument data
// type", checked on Flink 2.1; TIME plus an interval and LIKE with a column pattern fail there
// too, and are not native anyway).
func TestCoalesceOverCodegenNullableFallsBack(t *testing.T) {
	date, notNullInt := catalog.Type{Kind: catalog.Date}, catalog.IntType(false)
	dayTime := catalog.Type{Kind: catalog.IntervalDayTime}
	point := func(v int64) Range {
		return Range{Lower: &Bound{Value: v, Closed: true}, Upper: &Bound{Value: v, Closed: true}}
	}
	in := call("SEARCH", boolT.WithNullable(false), ref(1, notNullInt),
		lit(&Sarg{Ranges: []Range{point(1), point(2), point(3)}, NullAs: "UNKNOWN"}, notNullInt))
	for _, arg := range []*Node{
		call("+", date, ref(0, date), lit(int64(180_000_000), dayTime)),
		call("+", date, lit(int64(86_400_000), dayTime), ref(0, date)),
		in,
	} {
		for _, op := range []string{"COALESCE", "IFNULL"} {
			n := call(op, arg.Type.WithNullable(true), lit(nil, arg.Type.WithNullable(true)), arg)
			_, err := Compile(n, []catalog.Type{date, notNullInt})
			if err == nil || !strings.Contains(err.Error(), "Mismatch of function's argument") {
				t.Errorf("%s(NULL, %s): %v, want a fallback", op, arg.Describe(), err)
			}
		}
	}
	// A nullable sum compiles.
	nullable := call("+", date.WithNullable(true), ref(0, date.WithNullable(true)), lit(int64(180_000_000), dayTime))
	if _, err := Compile(call("COALESCE", date, nullable, lit(int64(1), date)), []catalog.Type{date.WithNullable(true)}); err != nil {
		t.Errorf("COALESCE of a nullable DATE + INTERVAL: %v", err)
	}
}

// A timestamp marked as the rowtime attribute (REINTERPRET in the Calc above a source that
// generates watermarks) keeps its values and NULLs; other timestamp reinterpretations fall back.
func TestReinterpretAsRowtime(t *testing.T) {
	for _, p := range []int{3, 6, 9} {
		ts := catalog.TimestampType(p, true)
		rowtime := ts
		rowtime.TimeAttr = catalog.Rowtime
		var v any = int64(1_700_000_000_123)
		if p > 6 {
			v = NanoTimestamp{Millis: 1_700_000_000_123, NanoOfMilli: 456_789}
		}
		in := batch(t, []catalog.Type{ts}, []any{v, nil})
		out, err := eval(t, call("REINTERPRET", rowtime, ref(0, ts)), in, []catalog.Type{ts})
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(out, in.Column(0)) {
			t.Errorf("TIMESTAMP(%d): got %v, want %v", p, out, in.Column(0))
		}
		out.Release()
		in.Release()
		other := catalog.TimestampType(p-1, true)
		if _, err := Compile(call("REINTERPRET", other, ref(0, ts)), []catalog.Type{ts}); err == nil {
			t.Errorf("REINTERPRET of TIMESTAMP(%d) as TIMESTAMP(%d) compiled", p, p-1)
		}
	}
}
