package expr

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// nanoValues renders a TIMESTAMP(7..9) column as (millis, nanos) pairs, "null" for NULL.
func nanoValues(a arrow.Array) []any {
	ms, nanos := column.NanoTimestamps(a)
	out := make([]any, a.Len())
	for i := range out {
		if a.IsNull(i) {
			out[i] = nil
			continue
		}
		out[i] = NanoTimestamp{Millis: ms[i], NanoOfMilli: nanos[i]}
	}
	return out
}

// TestNanoTimestampExpressions evaluates the functions that take TIMESTAMP(7..9) values on
// values before and after the epoch, at year 9999 and NULL; expectations follow TimestampData
// (epoch millisecond + nanos of the millisecond) and Flink's cast rules.
func TestNanoTimestampExpressions(t *testing.T) {
	t9, t7 := catalog.TimestampType(9, true), catalog.TimestampType(7, true)
	t3 := catalog.TimestampType(3, true)
	types := []catalog.Type{t9, t9, strT, t3}
	in := batch(t, types,
		[]any{NanoTimestamp{-1, 999_999}, NanoTimestamp{1704067200123, 456_789}, NanoTimestamp{253402300799999, 999_999}, nil},
		[]any{NanoTimestamp{-1, 999_998}, NanoTimestamp{1704067200123, 456_789}, NanoTimestamp{0, 0}, NanoTimestamp{0, 0}},
		[]any{"1969-12-31 23:59:59.999999999", "2024-01-01 00:00:00.123456789", "9999-12-31 23:59:59.99", "x"},
		[]any{int64(-1), int64(1704067200123), int64(253402300799999), nil})
	defer in.Release()
	a, b, s, m := ref(0, t9), ref(1, t9), ref(2, strT), ref(3, t3)
	dateT := catalog.Type{Kind: catalog.Date, Nullable: true}
	for _, c := range []struct {
		name string
		n    *Node
		want []any
	}{
		{"to string", call("CAST", strT, a), []any{"1969-12-31 23:59:59.999999999", "2024-01-01 00:00:00.123456789", "9999-12-31 23:59:59.999999999", nil}},
		{"to TIMESTAMP(7) string", call("CAST", strT, call("CAST", t7, a)), []any{"1969-12-31 23:59:59.9999999", "2024-01-01 00:00:00.1234567", "9999-12-31 23:59:59.9999999", nil}},
		{"to TIMESTAMP(7)", call("CAST", t7, a), []any{NanoTimestamp{-1, 999_900}, NanoTimestamp{1704067200123, 456_700}, NanoTimestamp{253402300799999, 999_900}, nil}},
		{"from TIMESTAMP(3)", call("CAST", t9, m), []any{NanoTimestamp{-1, 0}, NanoTimestamp{1704067200123, 0}, NanoTimestamp{253402300799999, 0}, nil}},
		// TimestampToDateCastRule: (int) (millis / 86400000), towards zero before 1970.
		{"to DATE", call("CAST", dateT, a), []any{int64(0), int64(19723), int64(2932896), nil}},
		{"from DATE", call("CAST", t9, call("CAST", dateT, a)), []any{NanoTimestamp{0, 0}, NanoTimestamp{19723 * 86_400_000, 0}, NanoTimestamp{2932896 * 86_400_000, 0}, nil}},
		// parseTimestampData floors the nano-of-second to the precision; "x" fails (TRY_CAST: NULL).
		{"from string", call("TRY_CAST", t9, s), []any{NanoTimestamp{-1, 999_999}, NanoTimestamp{1704067200123, 456_789}, NanoTimestamp{253402300799990, 0}, nil}},
		{"NANOSECOND", call("EXTRACT", longT, lit(Symbol{Value: "NANOSECOND"}, catalog.Type{Kind: catalog.Symbol}), a), []any{int64(-1), int64(123456789), int64(999999999), nil}},
		{"MICROSECOND", call("EXTRACT", longT, lit(Symbol{Value: "MICROSECOND"}, catalog.Type{Kind: catalog.Symbol}), a), []any{int64(-1000 + 999), int64(123456), int64(999999), nil}},
		{"YEAR", call("EXTRACT", longT, lit(Symbol{Value: "YEAR"}, catalog.Type{Kind: catalog.Symbol}), a), []any{int64(1970), int64(2024), int64(9999), nil}},
		{"+ INTERVAL SECOND", call("+", t9, a, lit(int64(1000), catalog.Type{Kind: catalog.IntervalDayTime})), []any{NanoTimestamp{999, 999_999}, NanoTimestamp{1704067201123, 456_789}, NanoTimestamp{253402300800999, 999_999}, nil}},
		{"- INTERVAL MONTH", call("-", t9, a, lit(int64(1), catalog.Type{Kind: catalog.IntervalYearMonth})), []any{NanoTimestamp{-2678400001, 999_999}, NanoTimestamp{1701388800123, 456_789}, NanoTimestamp{253399622399999, 999_999}, nil}},
		{"GREATEST", call("GREATEST", t9, a, b), []any{NanoTimestamp{-1, 999_999}, NanoTimestamp{1704067200123, 456_789}, NanoTimestamp{253402300799999, 999_999}, nil}},
		{"LEAST", call("LEAST", t9, a, b, m), []any{NanoTimestamp{-1, 0}, NanoTimestamp{1704067200123, 0}, NanoTimestamp{0, 0}, nil}},
		{"difference", call("-", catalog.Type{Kind: catalog.IntervalDayTime, Nullable: true}, a, b), []any{int64(0), int64(0), int64(253402300799999), nil}},
		{"<", call("<", boolT, a, b), []any{false, false, false, nil}},
		{">", call(">", boolT, a, b), []any{true, false, true, nil}},
		{"=", call("=", boolT, a, b), []any{false, true, false, nil}},
		{"= TIMESTAMP(3)", call("=", boolT, m, b), []any{false, false, false, nil}},
		{"< TIMESTAMP(3)", call("<", boolT, m, a), []any{true, true, true, nil}},
		{"CASE", call("CASE", t9, call(">", boolT, a, b), a, b), []any{NanoTimestamp{-1, 999_999}, NanoTimestamp{1704067200123, 456_789}, NanoTimestamp{253402300799999, 999_999}, NanoTimestamp{0, 0}}},
		{"COALESCE", call("COALESCE", t9, a, b), []any{NanoTimestamp{-1, 999_999}, NanoTimestamp{1704067200123, 456_789}, NanoTimestamp{253402300799999, 999_999}, NanoTimestamp{0, 0}}},
		{"literal", call("CASE", t9, call("IS NULL", boolT.WithNullable(false), a), lit(NanoTimestamp{5, 6}, t9), a), []any{NanoTimestamp{-1, 999_999}, NanoTimestamp{1704067200123, 456_789}, NanoTimestamp{253402300799999, 999_999}, NanoTimestamp{5, 6}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := eval(t, c.n, in, types)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			var got []any
			switch o := out.(type) {
			case *array.Struct:
				got = nanoValues(o)
			case *array.String:
				for i := 0; i < o.Len(); i++ {
					got = append(got, nilOr(o.IsNull(i), o.Value(i)))
				}
			case *array.Boolean:
				for i := 0; i < o.Len(); i++ {
					got = append(got, nilOr(o.IsNull(i), o.Value(i)))
				}
			default:
				for i := 0; i < o.Len(); i++ {
					got = append(got, nilOr(o.IsNull(i), int64At(o, i)))
				}
			}
			for i := range c.want {
				if got[i] != c.want[i] {
					t.Errorf("row %d: got %v, want %v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func nilOr[T any](null bool, v T) any {
	if null {
		return nil
	}
	return v
}

// TestNanoTimestampsBetweenZones casts TIMESTAMP(9) to TIMESTAMP_LTZ(9) and back in a zone
// with a daylight-saving gap: the nanoseconds ride along with the millisecond's conversion.
func TestNanoTimestampsBetweenZones(t *testing.T) {
	zone, err := javatime.LoadZone("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	t9, l9 := catalog.TimestampType(9, true), catalog.Type{Kind: catalog.TimestampLTZ, Precision: 9, Nullable: true}
	// 2024-03-31 02:30 Berlin is in the gap: LocalDateTime#atZone moves it to 03:30 (01:30 UTC).
	wall := int64(1711852200000) // 2024-03-31 02:30:00 as if UTC
	in := batch(t, []catalog.Type{t9}, []any{NanoTimestamp{wall + 1, 234_567}})
	defer in.Release()
	e, err := CompileIn(call("CAST", t9, call("CAST", l9, ref(0, t9))), []catalog.Type{t9}, Env{Zone: &zone})
	if err != nil {
		t.Fatal(err)
	}
	ctx := NewCtx(memory.DefaultAllocator, 1)
	out, err := e.Eval(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	got := nanoValues(out)[0].(NanoTimestamp)
	if want := (NanoTimestamp{wall + 3_600_000 + 1, 234_567}); got != want {
		t.Errorf("round trip through Berlin: got %v, want %v", got, want)
	}
}

// TestNanoTimestampFallbacks: a function not marked NanoTimestamps refuses them, and so does a
// cast down to TIMESTAMP(0..6), where Flink's value may keep nanoseconds
// (DateTimeUtils#truncate).
func TestNanoTimestampFallbacks(t *testing.T) {
	t9, t3, t6 := catalog.TimestampType(9, true), catalog.TimestampType(3, true), catalog.TimestampType(6, true)
	l8 := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 8, Nullable: true}
	for _, c := range []struct {
		n    *Node
		want string
	}{
		{call("ARRAY", catalog.Type{Kind: catalog.Array, Elem: &t9}, ref(0, t9)), "TIMESTAMP(7..9)"},
		{call("GREATEST", t9, ref(0, t9), ref(2, l8)), "not supported natively"},
		{call("CAST", t6, ref(0, t9)), "cannot hold"},
		{call("CAST", t3, ref(0, t9)), "cannot hold"},
		{call("CAST", catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}, ref(2, l8)), "cannot hold"},
	} {
		_, err := Compile(c.n, []catalog.Type{t9, t3, l8})
		if u, ok := err.(*Unsupported); !ok || !strings.Contains(u.Reason, c.want) {
			t.Errorf("%s: %v, want a fallback saying %q", c.n.Op, err, c.want)
		}
	}
}
