package expr

import (
	"strings"
	"testing"
)

// TestStringToDecimal follows BinaryStringDataUtil#toDecimal: Flink's byte parser for short
// strings into DECIMAL(p ≤ 18), with its quirks (a stray byte after the number is skipped, a
// lone point is zero, no precision check after rounding, power10's table), and BigDecimal's
// grammar plus fromBigDecimal otherwise.
func TestStringToDecimal(t *testing.T) {
	for _, c := range []struct {
		s     string
		p, sc int
		want  string // the unscaled value, or "!" + part of the error
	}{
		{"1.25", 10, 2, "125"},
		{" -1.255\t", 10, 2, "-126"}, // HALF_UP away from zero
		{"1.005", 10, 2, "101"},
		{"12a", 10, 2, "1200"},      // the byte ending the number is skipped unchecked
		{"x", 10, 2, "0"},           // so is a lone stray byte
		{"abc", 10, 2, "!Overflow"}, // the bytes after it are checked
		{".", 10, 2, "0"},
		{"", 10, 2, "!Overflow"},
		{"  ", 10, 2, "!Overflow"},
		{"-", 10, 2, "!Overflow"},
		{"1.2.3", 10, 2, "!Overflow"},
		{"1e3", 10, 2, "100000"},
		{"1E-2", 10, 2, "1"},
		{"12e", 10, 2, "1200"},
		{"1e+", 10, 2, "!Overflow"},
		{"00000000001", 10, 0, "!Overflow"}, // leading zeros count as digits
		{"9.99", 2, 1, "100"},               // rounds past the precision, unchecked
		{"1e-25", 10, 2, "!ArrayIndexOutOfBounds"},
		{"12345678", 10, 2, "1234567800"},
		{"1234567890", 10, 2, "!Overflow"},
		// BigDecimal's path: DECIMAL(p > 18) or strings longer than 18 bytes.
		{"1.25", 38, 10, "12500000000"},
		{"  1.5e3  ", 20, 2, "150000"},
		{"12a", 20, 2, "!neither a decimal digit"},
		{".5", 20, 2, "50"},
		{"5.", 20, 2, "500"},
		{"+.5e-1", 20, 2, "5"},
		{"-0.005", 20, 2, "-1"},
		{"1e-1000000", 20, 2, "0"},
		{"1e1000000", 20, 2, "!Overflow"},
		{"1e2147483648", 20, 2, "!NumberFormatException"},
		{"1e00000000000000000002", 20, 2, "10000"},
		{"١٢٣", 20, 0, "123"},                    // Arabic-Indic digits, as Character#digit
		{"000000000000000000001.5", 10, 1, "15"}, // 23 bytes: BigDecimal
		{"99999999999999999999", 20, 0, "99999999999999999999"},
		{"999999999999999999999", 20, 0, "!Overflow"},
		{"\xff", 20, 0, "!Overflow"},
		{"   ", 20, 0, "!NumberFormatException"},
		{"0." + strings.Repeat("3", 200), 10, 2, "33"},
		{strings.Repeat("9", 300), 38, 0, "!Overflow"},
		{"0E+2147483647", 20, 2, "0"},
		{"0E-2147483647", 20, 2, "0"},
		{"1e-600000000", 20, 2, "!ArithmeticException"},
		{"1e-20", 10, 0, "!Index 19 out of bounds"},
		{"1e-30", 10, 0, "!Index 29 out of bounds"},
	} {
		got, err := stringToDecimal([]byte(c.s), c.p, c.sc)
		switch {
		case strings.HasPrefix(c.want, "!"):
			if err == nil || !strings.Contains(err.Error(), c.want[1:]) {
				t.Errorf("CAST('%s' AS DECIMAL(%d, %d)) = %s, %v; want an error with %q", c.s, c.p, c.sc, got.BigInt(), err, c.want[1:])
			}
		case err != nil:
			t.Errorf("CAST('%s' AS DECIMAL(%d, %d)): %v, want %s", c.s, c.p, c.sc, err, c.want)
		case got.BigInt().String() != c.want:
			t.Errorf("CAST('%s' AS DECIMAL(%d, %d)) = %s, want %s", c.s, c.p, c.sc, got.BigInt(), c.want)
		}
	}
}
