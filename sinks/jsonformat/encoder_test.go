package jsonformat

import (
	"math"
	"testing"

	"github.com/sluice-project/sluice/catalog"
)

// Strings as Jackson escapes them.
func TestAppendString(t *testing.T) {
	got, err := appendString(nil, "a\"b\\c/\b\t\n\f\r\x01\x1f\x7fé漢😀")
	if err != nil {
		t.Fatal(err)
	}
	if want := `"a\"b\\c/\b\t\n\f\r\u0001\u001F` + "\x7fé漢" + `\uD83D\uDE00"`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := appendString(nil, "\xff"); err == nil {
		t.Error("invalid UTF-8 encoded")
	}
}

// Floats as Java's toString, non-finite ones quoted.
func TestAppendFloat(t *testing.T) {
	for _, c := range []struct {
		v     float64
		float bool
		want  string
	}{
		{100, false, "100.0"}, {1e7, false, "1.0E7"}, {0.001, false, "0.001"}, {1e-4, false, "1.0E-4"},
		{math.Copysign(0, -1), false, "-0.0"}, {math.NaN(), false, `"NaN"`}, {math.Inf(-1), true, `"-Infinity"`},
		{float64(float32(0.1)), true, "0.1"},
	} {
		if got := string(appendFloat(nil, c.v, c.float)); got != c.want {
			t.Errorf("%v: got %s, want %s", c.v, got, c.want)
		}
	}
}

// Dates, times and timestamps in both standards.
func TestAppendTemporal(t *testing.T) {
	sql := &Encoder{}
	iso := &Encoder{opts: Options{ISOTimestamps: true}}
	ts, ltz := catalog.TimestampType(9, true), catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}
	for _, c := range []struct {
		e         *Encoder
		t         catalog.Type
		ms, nanos int64
		want      string
	}{
		{sql, ts, 0, 0, `"1970-01-01 00:00:00"`},
		{sql, ts, -1, 999_999, `"1969-12-31 23:59:59.999999999"`},
		{iso, ts, 120, 0, `"1970-01-01T00:00:00.12"`},
		{sql, ltz, 1000, 0, `"1970-01-01 00:00:01Z"`},
		{iso, ltz, 1500, 0, `"1970-01-01T00:00:01.5Z"`},
	} {
		if got := string(c.e.appendTimestamp(nil, c.t, c.ms, c.nanos)); got != c.want {
			t.Errorf("%d+%d: got %s, want %s", c.ms, c.nanos, got, c.want)
		}
	}
}
