package javatext

import (
	"fmt"
	"strings"
	"time"

	"github.com/sluice-project/sluice/javacompat/javatime"
)

// ParseBoolean is Boolean.parseBoolean: true for "true" in any case, false for anything else.
func ParseBoolean(s string) bool {
	return strings.EqualFold(s, "true")
}

// ParseInt is Byte.parseByte (bits 8), Short.parseShort (16), Integer.parseInt (32) or
// Long.parseLong (64): an optional sign and decimal digits, nothing else, within range.
// Java also accepts non-ASCII decimal digits; those are refused here (an error, never a
// different value).
func ParseInt(s string, bits int) (int64, error) {
	fail := func() (int64, error) {
		return 0, fmt.Errorf("for input string: \"%s\" (not a %d-bit integer)", s, bits)
	}
	if s == "" {
		return fail()
	}
	neg := false
	i := 0
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		i = 1
	}
	if i == len(s) {
		return fail()
	}
	limit := uint64(1) << (bits - 1) // |min|; max is limit-1
	var v uint64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return fail()
		}
		v = v*10 + uint64(c-'0')
		if v > limit {
			return fail()
		}
	}
	if neg {
		return -int64(v-1) - 1, nil
	}
	if v == limit {
		return fail()
	}
	return int64(v), nil
}

// ParseLocalDate is LocalDate.parse (ISO_LOCAL_DATE: yyyy-MM-dd; a year beyond four digits
// needs a sign, as SignStyle.EXCEEDS_PAD) and returns the epoch day.
func ParseLocalDate(s string) (int64, error) {
	d, rest, err := localDate(s)
	if err != nil || rest != "" {
		return 0, fmt.Errorf("text '%s' could not be parsed as a date (yyyy-MM-dd)", s)
	}
	return d, nil
}

// ParseLocalDateTime is LocalDateTime.parse (ISO_LOCAL_DATE_TIME: date 'T' HH:mm[:ss[.n]]
// with up to nine fraction digits) and returns epoch milliseconds and the nanoseconds within
// the millisecond.
func ParseLocalDateTime(s string) (ms int64, nanoOfMilli int32, err error) {
	fail := func() (int64, int32, error) {
		return 0, 0, fmt.Errorf("text '%s' could not be parsed as a date-time (yyyy-MM-ddTHH:mm[:ss[.fffffffff]])", s)
	}
	day, rest, err := localDate(s)
	if err != nil || len(rest) < 6 || rest[0] != 'T' {
		return fail()
	}
	rest = rest[1:]
	h, ok1 := twoDigits(rest[0:2])
	if !ok1 || rest[2] != ':' {
		return fail()
	}
	m, ok2 := twoDigits(rest[3:5])
	if !ok2 || h > 23 || m > 59 {
		return fail()
	}
	rest = rest[5:]
	var sec, nanos int64
	if rest != "" {
		if rest[0] != ':' || len(rest) < 3 {
			return fail()
		}
		sv, ok := twoDigits(rest[1:3])
		if !ok || sv > 59 {
			return fail()
		}
		sec = sv
		rest = rest[3:]
		if rest != "" {
			if rest[0] != '.' || len(rest) > 10 {
				return fail()
			}
			frac := rest[1:]
			for i := 0; i < 9; i++ {
				nanos *= 10
				if i < len(frac) {
					c := frac[i]
					if c < '0' || c > '9' {
						return fail()
					}
					nanos += int64(c - '0')
				}
			}
		}
	}
	ms = day*86_400_000 + (h*3600+m*60+sec)*1000 + nanos/1_000_000
	return ms, int32(nanos % 1_000_000), nil
}

// localDate parses the ISO date at the start of s and returns its epoch day and the rest.
func localDate(s string) (int64, string, error) {
	bad := fmt.Errorf("bad date")
	i := 0
	sign := byte(0)
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		sign = s[i]
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	digits := i - start
	if digits < 4 || digits > 10 || (digits > 4 && sign == 0) || (digits == 4 && sign == '+') {
		return 0, "", bad
	}
	var year int64
	for _, c := range s[start:i] {
		year = year*10 + int64(c-'0')
	}
	if sign == '-' {
		if year == 0 && digits == 4 {
			return 0, "", bad // "-0000" is refused by the strict resolver
		}
		year = -year
	}
	if year > 999_999_999 || year < -999_999_999 || len(s) < i+6 || s[i] != '-' || s[i+3] != '-' {
		return 0, "", bad
	}
	mo, ok1 := twoDigits(s[i+1 : i+3])
	d, ok2 := twoDigits(s[i+4 : i+6])
	if !ok1 || !ok2 || mo < 1 || mo > 12 || d < 1 || d > javatime.DaysInMonth(year, mo) {
		return 0, "", bad
	}
	t := time.Date(int(year), time.Month(mo), int(d), 0, 0, 0, 0, time.UTC)
	return javatime.FloorDiv(t.Unix(), 86400), s[i+6:], nil
}

func twoDigits(s string) (int64, bool) {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int64(s[0]-'0')*10 + int64(s[1]-'0'), true
}
