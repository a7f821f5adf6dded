package textvalue

import (
	"math/big"
	"testing"
)

// TestTemporalTexts checks the forms taken and the texts left to Flink.
func TestTemporalTexts(t *testing.T) {
	for _, c := range []struct {
		text      string
		iso, zone bool
		ok        bool
		day       int64
		nanos     int64
	}{
		{"1970-01-01 00:00:00", false, false, true, 0, 0},
		{"2024-02-29 23:59:59.123456789", false, false, true, 19782, 86399123456789},
		{"2023-02-29 00:00:00", false, false, false, 0, 0}, // java.time's SMART resolution: Flink's
		{"2024-01-01T10:15", true, false, true, 19723, 36900e9},
		{"2024-01-01 10:15", false, false, false, 0, 0}, // the SQL form needs seconds
		{"2024-01-01 10:15:00Z", false, true, true, 19723, 36900e9},
		{"2024-01-01 10:15:00", false, true, false, 0, 0},
		{"2024-01-01 24:00:00", false, false, false, 0, 0},
		{"2024-01-01 10:15:00.1234567891", false, false, false, 0, 0},
	} {
		ts, ok := ParseTimestamp([]byte(c.text), c.iso, c.zone)
		if ok != c.ok || ok && (ts.Day != c.day || ts.Nanos != c.nanos) {
			t.Errorf("%q (iso %v, zone %v): %+v %v, want day %d nanos %d %v", c.text, c.iso, c.zone, ts, ok, c.day, c.nanos, c.ok)
		}
	}
}

// TestDecimalTexts checks new BigDecimal(text) and DecimalData.fromBigDecimal for the texts
// taken, and that other texts are left to Flink.
func TestDecimalTexts(t *testing.T) {
	for _, c := range []struct {
		text       string
		p, s       int
		ok, fits   bool
		unscaledOf string
	}{
		{"1.25", 10, 1, true, true, "13"}, // HALF_UP
		{"-1.25", 10, 1, true, true, "-13"},
		{"1e2", 5, 2, true, true, "10000"},
		{"123456", 5, 0, true, false, ""}, // past the precision: null
		{" 1", 5, 0, false, false, ""},
		{"0x10", 5, 0, false, false, ""},
		{"1.", 5, 0, false, false, ""},
	} {
		var v big.Int
		scale, ok := ParseDecimalText(&v, []byte(c.text))
		if ok != c.ok {
			t.Errorf("%q taken %v, want %v", c.text, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		n, fits := FitDecimal(&v, scale, c.p, c.s)
		if fits != c.fits || fits && n.BigInt().String() != c.unscaledOf {
			t.Errorf("%q as DECIMAL(%d, %d): %s %v, want %s %v", c.text, c.p, c.s, n.BigInt(), fits, c.unscaledOf, c.fits)
		}
	}
}
