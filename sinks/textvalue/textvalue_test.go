package textvalue

import (
	"math/big"
	"testing"
)

// Decimals as BigDecimal#toString of the stripped value (the examples of Flink's
// testSerializationDecimalEncode among them), or toPlainString.
func TestAppendDecimal(t *testing.T) {
	for _, c := range []struct {
		unscaled string
		scale    int
		plain    bool
		want     string
	}{
		{"10000", 2, false, "1E+2"},
		{"12340", 2, false, "123.4"},
		{"0", 2, false, "0"},
		{"454621864049246170", 0, false, "4.5462186404924617E+17"},
		{"27", 9, false, "2.7E-8"},
		{"-1500", 3, false, "-1.5"},
		{"1", 6, false, "0.000001"},
		{"1", 7, false, "1E-7"},
		{"10000", 2, true, "100.00"},
		{"-5", 3, true, "-0.005"},
		{"0", 2, true, "0.00"},
	} {
		v, _ := new(big.Int).SetString(c.unscaled, 10)
		if got := string(AppendDecimal(nil, v, c.scale, c.plain)); got != c.want {
			t.Errorf("%s scale %d plain %v: got %s, want %s", c.unscaled, c.scale, c.plain, got, c.want)
		}
	}
}

// Dates with signed years, and timestamps in both forms.
func TestAppendTemporal(t *testing.T) {
	if got := string(AppendDate(nil, -719529)); got != "-0001-12-31" {
		t.Errorf("got %s", got)
	}
	if got := string(AppendDate(nil, 2932897)); got != "+10000-01-01" {
		t.Errorf("got %s", got)
	}
	if got := string(AppendTimestamp(nil, -1, 500, ' ', true)); got != "1969-12-31 23:59:59.9990005Z" {
		t.Errorf("got %s", got)
	}
	if got := string(AppendTimestamp(nil, 86_400_000, 0, 'T', false)); got != "1970-01-02T00:00:00" {
		t.Errorf("got %s", got)
	}
}
