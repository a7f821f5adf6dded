package expr

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"github.com/sluice-project/sluice/javacompat/javatime"
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

// parseJavaTime is DateTimeUtils#parseTime, CAST(STRING AS TIME): hh[:mm[:ss[.fff]]] with an
// optional zone suffix [+|-]hh[:mm] found at the first '-' (else the first '+') anywhere in the
// string, each part trimmed as String#trim and made of ASCII digits; the zone's hours and
// minutes are subtracted ('-') or added, nothing is range-checked and the milliseconds of the
// day are Java int arithmetic (they wrap). ok is false where Flink returns null or throws
// (Integer#parseInt beyond an int, String#substring with an end before its start). A fraction
// that is not valid UTF-8 is errInvalidFraction: Java decodes a malformed sequence into fewer
// replacement chars than Go, which moves the digits parseFraction counts.
func parseJavaTime(v []byte) (int32, bool, error) {
	end := len(v)
	operator := int32(-1)
	timezone := bytes.IndexByte(v, '-')
	if timezone < 0 {
		timezone = bytes.IndexByte(v, '+')
		operator = 1
	}
	var tzHour, tzMinute int32
	if timezone >= 0 {
		end = timezone
		var ok bool
		colon3 := indexFrom(v, ':', timezone)
		if colon3 < 0 {
			if tzHour, ok, _ = javaDigits(v[timezone+1:]); !ok {
				return 0, false, nil
			}
		} else {
			if tzHour, ok, _ = javaDigits(v[timezone+1 : colon3]); !ok {
				return 0, false, nil
			}
			if tzMinute, ok, _ = javaDigits(v[colon3+1:]); !ok {
				return 0, false, nil
			}
		}
	}
	part := func(from, to int) (int32, bool) {
		if to < from {
			return 0, false // StringIndexOutOfBoundsException
		}
		n, ok, _ := javaDigits(v[from:to])
		return n, ok
	}
	var hour, minute, second, milli int32
	var ok bool
	colon1 := bytes.IndexByte(v, ':')
	if colon1 < 0 {
		if hour, ok = part(0, end); !ok {
			return 0, false, nil
		}
	} else {
		if hour, ok = part(0, colon1); !ok {
			return 0, false, nil
		}
		colon2 := indexFrom(v, ':', colon1+1)
		if colon2 < 0 {
			if minute, ok = part(colon1+1, end); !ok {
				return 0, false, nil
			}
		} else {
			if minute, ok = part(colon1+1, colon2); !ok {
				return 0, false, nil
			}
			dot := indexFrom(v, '.', colon2)
			if dot < 0 {
				if second, ok = part(colon2+1, end); !ok {
					return 0, false, nil
				}
			} else {
				if second, ok = part(colon2+1, dot); !ok {
					return 0, false, nil
				}
				if end < dot+1 {
					return 0, false, nil // StringIndexOutOfBoundsException
				}
				fraction := javatime.Trim(v[dot+1 : end])
				if !utf8.Valid(fraction) {
					return 0, false, errInvalidFraction
				}
				milli = parseFraction(fraction)
			}
		}
	}
	hour += operator * tzHour
	minute += operator * tzMinute
	return hour*3_600_000 + minute*60_000 + second*1000 + milli, true, nil
}

// errInvalidFraction is the error of a TIME string whose fraction of a second is not valid
// UTF-8 (see parseJavaTime): the row fails, also under TRY_CAST, rather than differ silently.
var errInvalidFraction = errors.New("the fraction of a second is not valid UTF-8, which Sluice does not decode as Java does")

// indexFrom is String#indexOf(c, from) on bytes (every character searched for is ASCII).
func indexFrom(v []byte, c byte, from int) int {
	if from >= len(v) {
		return -1
	}
	if i := bytes.IndexByte(v[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// parseFraction is DateTimeUtils#parseFraction: the first three UTF-16 chars as milliseconds
// (a char that is not an ASCII digit counts 0), plus one when a fourth char is '5' or above
// (every non-ASCII char is).
func parseFraction(v []byte) int32 {
	multiplier, r := int32(100), int32(0)
	for i := 0; i < len(v); {
		c, size := utf8.DecodeRune(v[i:])
		x := int32(0)
		if c >= '0' && c <= '9' {
			x = c - '0'
		}
		r += multiplier * x
		units := 1
		if c > 0xFFFF {
			units = 2 // a surrogate pair: the low surrogate is the next char, above '5'
		}
		i += size
		if multiplier < 10 {
			if units == 2 || (i < len(v) && nextCharAtLeast5(v[i:])) {
				r++
			}
			break
		}
		multiplier /= 10
		if units == 2 {
			// The low surrogate is a char of its own: it counts 0 at the next position.
			if multiplier < 10 {
				if i < len(v) && nextCharAtLeast5(v[i:]) {
					r++
				}
				break
			}
			multiplier /= 10
		}
	}
	return r
}

// nextCharAtLeast5 reports whether the UTF-16 char starting v is '5' or above.
func nextCharAtLeast5(v []byte) bool {
	c, _ := utf8.DecodeRune(v)
	return c >= '5'
}
