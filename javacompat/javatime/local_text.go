package javatime

import "strconv"

// AppendLocalDateTime appends LocalDateTime#toString of TimestampData#toLocalDateTime: the
// date-time of epoch milliseconds and a nanosecond of the millisecond (0..999,999), as
// "uuuu-MM-ddTHH:mm", then ":ss" when the seconds or the fraction are not zero, then the
// fraction in groups of three digits (3, 6 or 9, the fewest that hold it). Years below 1000
// have four digits (a '-' before negative ones), years above 9999 a '+'.
// The epoch day is a Java int, as in TimestampData#toLocalDateTime (see LocalDay).
func AppendLocalDateTime(dst []byte, ms, nanoOfMilli int64) []byte {
	day, tod := LocalDay(ms)
	nanoOfDay := tod*1_000_000 + nanoOfMilli
	y, m, d := gregorianDate(int64(day))
	switch {
	case y < 0 && y > -1000:
		dst = append(dst, '-')
		dst = AppendPadded(dst, -y, 4)
	case y >= 0 && y < 1000:
		dst = AppendPadded(dst, y, 4)
	default:
		if y > 9999 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, y, 10)
	}
	dst = append(dst, '-')
	dst = AppendPadded(dst, m, 2)
	dst = append(dst, '-')
	dst = AppendPadded(dst, d, 2)
	dst = append(dst, 'T')
	sec := nanoOfDay / 1_000_000_000
	nano := nanoOfDay % 1_000_000_000
	dst = AppendPadded(dst, sec/3600, 2)
	dst = append(dst, ':')
	dst = AppendPadded(dst, sec/60%60, 2)
	if sec%60 == 0 && nano == 0 {
		return dst
	}
	dst = append(dst, ':')
	dst = AppendPadded(dst, sec%60, 2)
	switch {
	case nano == 0:
	case nano%1_000_000 == 0:
		dst = append(dst, '.')
		dst = AppendPadded(dst, nano/1_000_000, 3)
	case nano%1000 == 0:
		dst = append(dst, '.')
		dst = AppendPadded(dst, nano/1000, 6)
	default:
		dst = append(dst, '.')
		dst = AppendPadded(dst, nano, 9)
	}
	return dst
}

// AppendPadded appends a non-negative number with leading zeros to at least width digits.
func AppendPadded(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// LocalDay is the epoch day and millisecond of the day of TimestampData#toLocalDateTime: the
// day in Java int arithmetic (it wraps beyond about ±5.8 million years), moved back one where
// the remainder is negative.
func LocalDay(ms int64) (day int32, millisOfDay int64) {
	day, millisOfDay = int32(ms/86_400_000), ms%86_400_000
	if millisOfDay < 0 {
		day--
		millisOfDay += 86_400_000
	}
	return day, millisOfDay
}
