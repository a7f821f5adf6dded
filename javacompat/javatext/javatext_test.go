package javatext

import "testing"

func TestParseInt(t *testing.T) {
	for _, c := range []struct {
		in   string
		bits int
		want int64
		ok   bool
	}{
		{"5", 32, 5, true}, {"+5", 32, 5, true}, {"-0", 32, 0, true}, {"007", 32, 7, true},
		{"2147483647", 32, 2147483647, true}, {"-2147483648", 32, -2147483648, true},
		{"2147483648", 32, 0, false}, {"-2147483649", 32, 0, false},
		{"127", 8, 127, true}, {"128", 8, 0, false}, {"-128", 8, -128, true},
		{"9223372036854775807", 64, 9223372036854775807, true}, {"-9223372036854775808", 64, -9223372036854775808, true},
		{"", 32, 0, false}, {"+", 32, 0, false}, {" 1", 32, 0, false}, {"1 ", 32, 0, false}, {"1.0", 32, 0, false},
		{"١", 32, 0, false}, // Java accepts Unicode digits; Sluice refuses them (an error, never another value)
	} {
		got, err := ParseInt(c.in, c.bits)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseInt(%q, %d) = %d, %v; want %d, ok %v", c.in, c.bits, got, err, c.want, c.ok)
		}
	}
}

func TestParseLocalDateAndTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1970-01-01", 0, true}, {"2024-02-29", 19782, true}, {"1969-12-31", -1, true},
		{"0001-01-01", -719162, true}, {"+12345-01-01", 3789391, true}, {"-0001-12-31", -719529, true}, {"0000-12-31", -719163, true},
		{"2023-02-29", 0, false}, {"12345-01-01", 0, false}, {"+2024-01-01", 0, false}, {"2024-1-01", 0, false},
		{"2024-01-01T00:00", 0, false}, {"2024-13-01", 0, false}, {"", 0, false},
	} {
		got, err := ParseLocalDate(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseLocalDate(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in    string
		ms    int64
		nanos int32
		ok    bool
	}{
		{"1970-01-01T00:00", 0, 0, true}, {"1970-01-01T10:15:30", 36930000, 0, true},
		{"1970-01-01T00:00:00.123456789", 123, 456789, true}, {"1969-12-31T23:59:59.5", -500, 0, true},
		{"1970-01-01 00:00", 0, 0, false}, {"1970-01-01T24:00", 0, 0, false}, {"1970-01-01T00:60", 0, 0, false},
		{"1970-01-01T00:00:00.1234567890", 0, 0, false}, {"1970-01-01T00", 0, 0, false}, {"1970-01-01", 0, 0, false},
	} {
		ms, n, err := ParseLocalDateTime(c.in)
		if (err == nil) != c.ok || (c.ok && (ms != c.ms || n != c.nanos)) {
			t.Errorf("ParseLocalDateTime(%q) = %d, %d, %v; want %d, %d, ok %v", c.in, ms, n, err, c.ms, c.nanos, c.ok)
		}
	}
	if !ParseBoolean("TRUE") || ParseBoolean("yes") || ParseBoolean("") {
		t.Error("ParseBoolean is Boolean.parseBoolean")
	}
}
