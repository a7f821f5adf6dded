package decimal

import (
	"math/big"
	"testing"
)

func TestDivide38RoundsTwiceLikeBigDecimal(t *testing.T) {
	// 1 / 3 = 0.333… rounded HALF_UP to 38 digits.
	q, s, err := Divide38(big.NewInt(1), 0, big.NewInt(3), 0)
	if err != nil {
		t.Fatal(err)
	}
	if Digits(q) != 38 || PlainString(q, s) != "0.33333333333333333333333333333333333333" {
		t.Errorf("1/3 = %s (scale %d)", PlainString(q, s), s)
	}
	// 2 / 3 rounds the 38th digit up.
	q, s, _ = Divide38(big.NewInt(2), 0, big.NewInt(3), 0)
	if PlainString(q, s) != "0.66666666666666666666666666666666666667" {
		t.Errorf("2/3 = %s", PlainString(q, s))
	}
	// Exact quotients stay exact.
	q, s, _ = Divide38(big.NewInt(1), 0, big.NewInt(8), 0)
	if r, _ := Fit(q, s, 10, 3); r.BigInt().Int64() != 125 {
		t.Errorf("1/8 at scale 3 = %s", r.BigInt())
	}
	if _, _, err := Divide38(big.NewInt(1), 0, big.NewInt(0), 0); err == nil {
		t.Error("division by zero must fail")
	}
}

func TestNumDigitsAndPlainString(t *testing.T) {
	for _, c := range []struct {
		v      string
		digits int
		scale  int
		plain  string
	}{
		{"0", 1, 2, "0.00"}, {"-5", 1, 2, "-0.05"}, {"99999", 5, 0, "99999"}, {"100000", 6, 3, "100.000"},
		{"99999999999999999999999999999999999999", 38, 38, "0.99999999999999999999999999999999999999"},
	} {
		v, _ := new(big.Int).SetString(c.v, 10)
		if got := Digits(v); got != c.digits {
			t.Errorf("Digits(%s) = %d", c.v, got)
		}
		if got := PlainString(v, c.scale); got != c.plain {
			t.Errorf("PlainString(%s, %d) = %s", c.v, c.scale, got)
		}
	}
}

// TestRemainderAsBigDecimal holds BigDecimal#remainder(b, MathContext(38, HALF_UP)) (Flink's
// DecimalDataUtils#mod), printed by JDK 17: "Division impossible" where the integer quotient
// has more than 38 digits that truncation to 38 would change.
func TestRemainderAsBigDecimal(t *testing.T) {
	for _, c := range []struct {
		a      string
		sa     int
		b      string
		sb     int
		want   string // unscaled at the larger scale, or "ERR"
		wantSc int
	}{
		{"10000000000000000000000000000000000000000", 0, "3", 0, "ERR", 0},
		{"10000000000000000000000000000000000000000", 0, "1", 0, "0", 0},
		{"1000000000000000000000000000000000000007", 0, "10", 0, "7", 0},
		{"9999999999999999999999999999999999999998000000000000000000000000000000000000001", 2, "-5", 2, "ERR", 0},
		{"123456789012345678901234567890123456789", 0, "1", 0, "ERR", 0},
		{"123456789012345678901234567890123456789", 1, "1", 1, "ERR", 0},
		{"-75", 1, "2", 0, "-15", 1},
		{"5", 0, "-3", 0, "2", 0},
	} {
		a, _ := new(big.Int).SetString(c.a, 10)
		b, _ := new(big.Int).SetString(c.b, 10)
		v, s, err := Remainder(a, c.sa, b, c.sb)
		switch {
		case c.want == "ERR":
			if err != ErrDivisionImpossible {
				t.Errorf("%se-%d %% %se-%d: %v %v, want Division impossible", c.a, c.sa, c.b, c.sb, v, err)
			}
		case err != nil || v.String() != c.want || s != c.wantSc:
			t.Errorf("%se-%d %% %se-%d = %v (scale %d) %v, want %s (scale %d)", c.a, c.sa, c.b, c.sb, v, s, err, c.want, c.wantSc)
		}
	}
}
