package expr

import (
	"bytes"

	"github.com/sluice-project/sluice/exec/javatime"
)

// parseJavaDate is DateTimeUtils#parseDate(String), for CAST(string AS DATE) (fromString): [y][-m[-d]] up to the first space (a space
// at the very start is kept), each part trimmed as String#trim does and made of ASCII digits
// only, then checked as a date of years 0 to 9999. ok is false where Flink returns null or
// Integer#parseInt throws (a part beyond int); throws is set in the latter case.
func parseJavaDate(s []byte) (date int32, ok, throws bool) {
	if ws := bytes.IndexByte(s, ' '); ws > 0 {
		s = s[:ws]
	}
	y, m, d := int32(0), int32(1), int32(1)
	h1 := bytes.IndexByte(s, '-')
	if h1 < 0 {
		if y, ok, throws = javaDigits(s); !ok {
			return 0, false, throws
		}
	} else {
		if y, ok, throws = javaDigits(s[:h1]); !ok {
			return 0, false, throws
		}
		rest := s[h1+1:]
		h2 := bytes.IndexByte(rest, '-')
		if h2 < 0 {
			if m, ok, throws = javaDigits(rest); !ok {
				return 0, false, throws
			}
		} else {
			if m, ok, throws = javaDigits(rest[:h2]); !ok {
				return 0, false, throws
			}
			if d, ok, throws = javaDigits(rest[h2+1:]); !ok {
				return 0, false, throws
			}
		}
	}
	if !legalDate(y, m, d) {
		return 0, false, false
	}
	return ymdToJulian(y, m, d) - julianEpoch, true, false
}

// javaDigits is isInteger(s.trim()) followed by Integer.parseInt: a non-empty run of ASCII
// digits after trimming the characters up to U+0020. ok is false also where parseInt would
// overflow; throws is set then.
func javaDigits(s []byte) (v32 int32, ok, throws bool) {
	s = javatime.Trim(s)
	if len(s) == 0 {
		return 0, false, false
	}
	var v int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false, false
		}
	}
	for _, c := range s {
		v = v*10 + int64(c-'0')
		if v > 1<<31-1 {
			return 0, false, true
		}
	}
	return int32(v), true, false
}

// legalDate is DateTimeUtils#isIllegalDate (which returns true for legal dates).
func legalDate(y, m, d int32) bool {
	if y < 0 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return false
	}
	leap := y%400 == 0 || y%4 == 0 && y%100 != 0
	if m == 2 && d > 28 && !(leap && d == 29) {
		return false
	}
	if d == 31 {
		switch m {
		case 1, 3, 5, 7, 8, 10, 12:
			return true
		}
		return false
	}
	return true
}
