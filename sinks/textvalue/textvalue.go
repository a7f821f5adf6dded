// Package textvalue writes values as the texts Flink's text formats (json, csv) write through
// Jackson and java.time: integers, BigDecimal's toString and toPlainString, ISO_LOCAL_DATE dates,
// times with their fraction's trailing zeros dropped, and timestamps in the SQL or ISO form. The
// callers add their format's quoting.
package textvalue

import (
	"math/big"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sluice-project/sluice/javacompat/javatext"
)

// AppendInt writes a Java long's decimal text.
func AppendInt(dst []byte, v int64) []byte {
	var buf [20]byte
	i := len(buf)
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	for {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if v < 0 {
		dst = append(dst, '-')
	}
	return append(dst, buf[i:]...)
}

var bigTen = big.NewInt(10)

// AppendDecimal writes the unscaled value v at scale as BigDecimal#toString of its
// stripTrailingZeros() (Flink's default), or as toPlainString (plain).
func AppendDecimal(dst []byte, v *big.Int, scale int, plain bool) []byte {
	neg := v.Sign() < 0
	v.Abs(v)
	if !plain {
		if v.Sign() == 0 {
			return append(dst, '0') // BigDecimal.ZERO
		}
		var q, m big.Int
		for {
			q.QuoRem(v, bigTen, &m)
			if m.Sign() != 0 {
				break
			}
			v.Set(&q)
			scale--
		}
	}
	digits := v.Text(10)
	if neg {
		dst = append(dst, '-')
	}
	adjusted := -scale + len(digits) - 1
	switch {
	case plain || scale >= 0 && adjusted >= -6:
		if scale <= 0 {
			dst = append(dst, digits...)
			for ; scale < 0; scale++ {
				dst = append(dst, '0')
			}
			return dst
		}
		if len(digits) > scale {
			dst = append(dst, digits[:len(digits)-scale]...)
			dst = append(dst, '.')
			return append(dst, digits[len(digits)-scale:]...)
		}
		dst = append(dst, '0', '.')
		for k := len(digits); k < scale; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0])
	if len(digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'E')
	if adjusted >= 0 {
		dst = append(dst, '+')
	}
	return AppendInt(dst, int64(adjusted))
}

// FloorDiv is Math.floorDiv.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// FloorMod is Math.floorMod.
func FloorMod(a, b int64) int64 { return a - FloorDiv(a, b)*b }

// civil is the proleptic Gregorian date of an epoch day (Howard Hinnant's civil_from_days).
func civil(day int64) (y, m, d int64) {
	z := day + 719468
	era := FloorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// AppendPadded writes v with zeros before it up to width digits.
func AppendPadded(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	b := AppendInt(buf[:0], v)
	for k := len(b); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}

// AppendDate writes ISO_LOCAL_DATE: a four-digit year (a sign beyond 9999 and below 0).
func AppendDate(dst []byte, day int64) []byte {
	y, m, d := civil(day)
	switch {
	case y > 9999:
		dst = append(dst, '+')
		dst = AppendInt(dst, y)
	case y < 0:
		dst = append(dst, '-')
		dst = AppendPadded(dst, -y, 4)
	default:
		dst = AppendPadded(dst, y, 4)
	}
	dst = append(dst, '-')
	dst = AppendPadded(dst, m, 2)
	dst = append(dst, '-')
	return AppendPadded(dst, d, 2)
}

// AppendClock writes HH:mm:ss of a second of the day, then the nanoseconds' fraction with its
// trailing zeros dropped (none at all for 0).
func AppendClock(dst []byte, sec, nanos int64) []byte {
	dst = AppendPadded(dst, sec/3600, 2)
	dst = append(dst, ':')
	dst = AppendPadded(dst, sec/60%60, 2)
	dst = append(dst, ':')
	dst = AppendPadded(dst, sec%60, 2)
	if nanos == 0 {
		return dst
	}
	var buf [9]byte
	for k := 8; k >= 0; k-- {
		buf[k] = byte('0' + nanos%10)
		nanos /= 10
	}
	n := 9
	for n > 0 && buf[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, buf[:n]...)
}

// AppendTimestamp writes the date and time of an epoch millisecond and the nanoseconds of that
// millisecond: the date, sep (' ' in the SQL form, 'T' in ISO-8601), the clock with its
// fraction's trailing zeros dropped, and a 'Z' after a TIMESTAMP_LTZ (zone).
func AppendTimestamp(dst []byte, ms, nanoOfMilli int64, sep byte, zone bool) []byte {
	day := FloorDiv(ms, 86_400_000)
	msOfDay := FloorMod(ms, 86_400_000)
	dst = AppendDate(dst, day)
	dst = append(dst, sep)
	dst = AppendClock(dst, msOfDay/1000, msOfDay%1000*1_000_000+nanoOfMilli)
	if zone {
		dst = append(dst, 'Z')
	}
	return dst
}

// AppendJavaString appends the UTF-8 of StringData#toString of a string's bytes, as Java writes
// it again: what Java's decoding makes of them (U+FFFD for each malformed sequence; UTF-8 comes
// back as it is). units is scratch space, returned for reuse.
func AppendJavaString(dst []byte, units []uint16, b []byte) ([]byte, []uint16) {
	units = javatext.AppendDecodedUTF8(units[:0], b)
	for _, r := range utf16.Decode(units) {
		dst = utf8.AppendRune(dst, r)
	}
	return dst, units
}
