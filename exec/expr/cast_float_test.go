package expr

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/decimal"
	"github.com/sluice-project/sluice/javacompat/javatext"
)

func TestCastFloatToStringAndDecimal(t *testing.T) {
	fltT := catalog.Type{Kind: catalog.Float, Nullable: true}
	dec := func(p, s int) catalog.Type {
		return catalog.Type{Kind: catalog.Decimal, Precision: p, Scale: s, Nullable: true}
	}
	for _, c := range []struct {
		from, to catalog.Type
		in       []any
		want     []string // "" for NULL, "!" for a failed row
		try      bool
	}{
		{dblT, strT, []any{1e7, 0.001, 2.82879384806159e17, math.Inf(-1), nil, math.Copysign(0, -1)},
			[]string{"1.0E7", "0.001", "2.82879384806159008E17", "-Infinity", "", "-0.0"}, false},
		{fltT, strT, []any{0.1, 1e-44}, []string{"0.1", "9.8E-45"}, false},
		// FLOAT widens to double first: 0.1f prints as 0.10000000149011612.
		{fltT, dec(20, 18), []any{0.1}, []string{"0.100000001490116120"}, false},
		{dblT, dec(5, 2), []any{1.005, -2.675, 123.455, 1234.5, 1e-300, nil}, []string{"1.01", "-2.68", "123.46", "", "0.00", ""}, false},
		{dblT, dec(38, 0), []any{2.82879384806159e17}, []string{"282879384806159008"}, false},
		{dblT, dec(10, 2), []any{math.NaN(), 1.5}, []string{"!", "1.50"}, false},
		{dblT, dec(10, 2), []any{math.Inf(1), 1.5}, []string{"!", "1.50"}, true},
	} {
		op := "CAST"
		if c.try {
			op = "TRY_CAST"
		}
		in := batch(t, []catalog.Type{c.from}, c.in)
		e, err := CompileIn(call(op, c.to, ref(0, c.from)), []catalog.Type{c.from}, Env{JavaVersion: 17})
		if err != nil {
			t.Fatalf("%s %s AS %s: %v", op, c.from, c.to, err)
		}
		ctx := NewCtx(memory.DefaultAllocator, len(c.in))
		out, err := e.Eval(ctx, in)
		if err != nil {
			t.Fatalf("%s %s AS %s: %v", op, c.from, c.to, err)
		}
		for i, want := range c.want {
			var got string
			switch {
			case ctx.errRows != nil && bitutil.BitIsSet(ctx.errRows, i):
				got = "!"
			case out.IsNull(i):
			case c.to.Kind == catalog.Decimal:
				got = decimal.PlainString(bigOf(out.(*array.Decimal128).Value(i)), c.to.Scale)
			default:
				got = out.(*array.String).Value(i)
			}
			if got != want {
				t.Errorf("%s(%v AS %s) = %q, want %q", op, c.in[i], c.to, got, want)
			}
		}
		out.Release()
		in.Release()
	}
	// Java 19 and later print the shortest digits: not native, nor where the version is unknown.
	for _, env := range []Env{{}, {JavaVersion: 21}} {
		_, err := CompileIn(call("CAST", strT, ref(0, dblT)), []catalog.Type{dblT}, env)
		if err == nil || !strings.Contains(err.Error(), "Double.toString") {
			t.Errorf("CAST(DOUBLE AS STRING) on Java %d: %v", env.JavaVersion, err)
		}
	}
}

func TestRoundFloat(t *testing.T) {
	fltT := catalog.Type{Kind: catalog.Float, Nullable: true}
	for _, c := range []struct {
		op     string
		typ    catalog.Type
		digits int64
		in     []any
		want   []any // float64; "!" for a failed row
	}{
		// Double.toString's digits decide: 2.675 is 2.67499999... in binary, yet rounds up.
		{"ROUND", dblT, 2, []any{2.675, -2.675, 1.005, math.Copysign(0, -1), -0.001, nil}, []any{2.68, -2.68, 1.01, 0.0, 0.0, nil}},
		{"ROUND", dblT, 0, []any{0.5, -0.5, 2.5, 1e300, 1.7976931348623157e308}, []any{1.0, -1.0, 3.0, 1e300, 1.7976931348623157e308}},
		{"ROUND", dblT, -2, []any{1250.0, -1249.99, 1.7976931348623157e308}, []any{1300.0, -1200.0, 1.7976931348623157e308}},
		{"ROUND", dblT, -308, []any{1.7976931348623157e308}, []any{math.Inf(1)}},
		{"ROUND", dblT, 1, []any{math.NaN(), 1.25}, []any{"!", 1.3}},
		// FLOAT: BigDecimal.valueOf((double) 0.1f) is 0.10000000149011612.
		{"ROUND", fltT, 9, []any{0.1, 2.675}, []any{float64(float32(0.1)), float64(float32(2.675))}},
		// 2.675f widens to 2.674999952316284: down, where the DOUBLE 2.675 rounds up.
		{"ROUND", fltT, 2, []any{2.675, 0.125}, []any{float64(float32(2.67)), float64(float32(0.13))}},
		// TRUNCATE goes through DECIMAL(38, 18) first: HALF_UP at 10^-18, at most 20 integer digits.
		{"TRUNCATE", dblT, 2, []any{2.675, -2.679, 0.9999999999999999, 1e19, 1e20, math.Copysign(0, -1)}, []any{2.67, -2.67, 0.99, 1e19, "!", 0.0}},
		{"TRUNCATE", dblT, 0, []any{1.5e-19, 5e-19, -1.9}, []any{0.0, 0.0, -1.0}},
		{"TRUNCATE", dblT, 20, []any{1.5e-19, 5e-19, 0.1}, []any{0.0, 1e-18, 0.1}},
		{"TRUNCATE", dblT, -2, []any{1299.0, -1299.0}, []any{1200.0, -1200.0}},
		{"TRUNCATE", dblT, -150, []any{1.5, 9.9e19, -1e20}, []any{0.0, 0.0, "!"}},
		{"TRUNCATE", fltT, 1, []any{2.675, math.NaN()}, []any{float64(float32(2.6)), "!"}},
	} {
		in := batch(t, []catalog.Type{c.typ}, c.in)
		e, err := CompileIn(call(c.op, c.typ, ref(0, c.typ), lit(c.digits, intT)), []catalog.Type{c.typ}, Env{JavaVersion: 17})
		if err != nil {
			t.Fatalf("%s(%s, %d): %v", c.op, c.typ, c.digits, err)
		}
		ctx := NewCtx(memory.DefaultAllocator, len(c.in))
		out, err := e.Eval(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range c.want {
			var got any
			switch {
			case ctx.errRows != nil && bitutil.BitIsSet(ctx.errRows, i):
				got = "!"
			case out.IsNull(i):
			case c.typ.Kind == catalog.Float:
				got = float64(out.(*array.Float32).Value(i))
			default:
				got = out.(*array.Float64).Value(i)
			}
			g, isFloat := got.(float64)
			w, _ := want.(float64)
			if got != want || isFloat && math.Signbit(g) != math.Signbit(w) {
				t.Errorf("%s(%v, %d) = %v, want %v", c.op, c.in[i], c.digits, got, want)
			}
		}
		out.Release()
		in.Release()
	}
}

func TestCaseMappingOfMalformedUTF8(t *testing.T) {
	for _, c := range []struct{ in, upper, lower string }{
		// No byte starts a multi-byte sequence: BinaryStringData maps byte by byte.
		{"a\xffb\x80", "A\xffB\x80", "a\xffb\x80"},
		// Otherwise the Java String: one U+FFFD per malformed part.
		{"a\xe2\x82b", "A\uFFFDB", "a\uFFFDb"},
		{"\xc3\xa9\xff", "\u00c9\uFFFD", "\u00e9\uFFFD"},
	} {
		if got := string(newCaseMapper(true).appendMapped(nil, []byte(c.in))); got != c.upper {
			t.Errorf("UPPER(%q) = %q, want %q", c.in, got, c.upper)
		}
		if got := string(newCaseMapper(false).appendMapped(nil, []byte(c.in))); got != c.lower {
			t.Errorf("LOWER(%q) = %q, want %q", c.in, got, c.lower)
		}
	}
}

// TestFloatTextToDecimalMatchesBigPath checks the int64 path of CAST(DOUBLE AS DECIMAL) against
// the big-integer path (parseJavaBigDecimal and setScaleHalfUp) on the Java text of random and
// boundary doubles, for scales and precisions around its limits.
func TestFloatTextToDecimalMatchesBigPath(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	values := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, 2.5, 0.05, 0.005, 1e-7, 123.456, 9.999999999999999e17,
		1e18, 1e19, 1.7976931348623157e308, 4.9e-324, 0.1, 0.7, 1234567.891, -98765.4321, math.NaN(), math.Inf(1)}
	for range 20000 {
		switch r.IntN(3) {
		case 0:
			values = append(values, (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(40)-20)))
		case 1:
			values = append(values, float64(r.Int64N(2_000_000))/float64(int64(1)<<r.IntN(20)))
		default:
			values = append(values, math.Float64frombits(r.Uint64()))
		}
	}
	var p javatext.FloatPrinter
	handled := 0
	for _, v := range values {
		text := string(p.AppendDouble(nil, v))
		for _, st := range [][2]int{{0, 1}, {2, 10}, {8, 18}, {0, 18}, {18, 38}, {10, 38}, {4, 5}, {3, 19}, {17, 18}} {
			scale, precision := st[0], st[1]
			d, ok, h := floatTextToDecimal([]byte(text), scale, precision)
			if !h {
				continue
			}
			handled++
			unscaled, from, err := parseJavaBigDecimal([]byte(text))
			if err != nil {
				t.Fatalf("%s: handled, but the big path fails: %v", text, err)
			}
			want, wantOK, err := setScaleHalfUp(unscaled, from, int64(scale), precision)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if ok != wantOK || ok && d != decimal128.FromBigInt(want) {
				t.Fatalf("CAST(%s AS DECIMAL(%d, %d)) = %v %v, big path %v %v", text, precision, scale, d.BigInt(), ok, want, wantOK)
			}
		}
	}
	if handled < 50000 {
		t.Fatalf("only %d cases took the int64 path", handled)
	}
}
