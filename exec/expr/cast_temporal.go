package expr

import (
	"strconv"
	"time"

	"github.com/sluice-project/sluice/javacompat/javatime"
)

// Temporal values rendered as Flink's DateTimeUtils renders them for CAST(... AS STRING):
// DATE as yyyy-MM-dd, TIME(p) as HH:mm:ss with Calcite's shortened fraction, TIMESTAMP(p) as
// yyyy-MM-dd HH:mm:ss with exactly p fraction digits. Years are written with four digits the way
// Flink's int4 does (digit by digit, so years beyond 9999 wrap).

// appendInt2 and appendInt4 are DateTimeUtils' int2/int4: the low digits of i, Java division.
func appendInt2(b []byte, i int) []byte {
	return append(b, byte('0'+(i/10)%10), byte('0'+i%10))
}

func appendInt4(b []byte, i int) []byte {
	return append(b, byte('0'+(i/1000)%10), byte('0'+(i/100)%10), byte('0'+(i/10)%10), byte('0'+i%10))
}

func appendDate(b []byte, days int64) []byte {
	y, m, d := time.Unix(days*86400, 0).UTC().Date()
	b = appendInt4(b, y)
	b = append(b, '-')
	b = appendInt2(b, int(m))
	b = append(b, '-')
	return appendInt2(b, d)
}

// appendTime is DateTimeUtils#formatTimestampMillis(int, int).
func appendTime(b []byte, t int32, precision int) []byte {
	ms := int(t)
	for ms < 0 {
		ms += 86400000
	}
	h, rest := ms/3600000, ms%3600000
	m, rest := rest/60000, rest%60000
	s, frac := rest/1000, rest%1000
	b = appendInt2(b, h)
	b = append(b, ':')
	b = appendInt2(b, m)
	b = append(b, ':')
	b = appendInt2(b, s)
	if precision > 0 {
		b = append(b, '.')
		for precision > 0 {
			b = append(b, byte('0'+frac/100))
			frac = (frac % 100) * 10
			if frac == 0 {
				break
			}
			precision--
		}
	}
	return b
}

// appendTimestamp is DateTimeUtils#formatTimestamp(TimestampData, int): the fields of
// TimestampData#toLocalDateTime, whose epoch day is Java int arithmetic (it wraps for
// timestamps beyond about ±5.8 million years, as Flink's does), and exactly precision digits of
// the nano-of-second.
func appendTimestamp(b []byte, ms, nanoOfMilli int64, precision int) []byte {
	date, tod := javatime.LocalDay(ms)
	y, m, d := javatime.GregorianDate(int64(date))
	b = appendInt4(b, int(y))
	b = append(b, '-')
	b = appendInt2(b, int(m))
	b = append(b, '-')
	b = appendInt2(b, int(d))
	b = append(b, ' ')
	sec := int(tod / 1000)
	b = appendInt2(b, sec/3600)
	b = append(b, ':')
	b = appendInt2(b, sec/60%60)
	b = append(b, ':')
	b = appendInt2(b, sec%60)
	if precision > 0 {
		var nanos [9]byte
		n := tod%1000*1_000_000 + nanoOfMilli
		for i := 8; i >= 0; i-- {
			nanos[i] = byte('0' + n%10)
			n /= 10
		}
		b = append(b, '.')
		b = append(b, nanos[:min(precision, 9)]...)
	}
	return b
}

// appendSign appends '+' or '-' and returns the magnitude, negated in the type's own
// arithmetic (the minimum value stays negative, as in Java).
func appendSign[T int32 | int64](b []byte, v T) ([]byte, T) {
	if v >= 0 {
		return append(b, '+'), v
	}
	return append(b, '-'), -v
}

// appendIntervalYearMonth is DateTimeUtils#formatIntervalYearMonth: a sign, the years, '-' and
// two digits of months, in Java int arithmetic (Integer.MIN_VALUE stays negative when negated).
func appendIntervalYearMonth(b []byte, v int32) []byte {
	b, v = appendSign(b, v)
	b = strconv.AppendInt(b, int64(v/12), 10)
	b = append(b, '-')
	return appendJavaNumber(b, v%12, 2)
}

// appendIntervalDayTime is DateTimeUtils#formatIntervalDayTime at scale 3: a sign, the days (as
// a Java int), " HH:mm:ss.SSS", in Java long arithmetic.
func appendIntervalDayTime(b []byte, v int64) []byte {
	b, v = appendSign(b, v)
	ms := v % 1000
	v /= 1000
	s := v % 60
	v /= 60
	m := v % 60
	v /= 60
	h := v % 24
	v /= 24
	b = strconv.AppendInt(b, int64(int32(v)), 10)
	b = append(b, ' ')
	b = appendJavaNumber(b, int32(h), 2)
	b = append(b, ':')
	b = appendJavaNumber(b, int32(m), 2)
	b = append(b, ':')
	b = appendJavaNumber(b, int32(s), 2)
	b = append(b, '.')
	return appendJavaNumber(b, int32(ms), 3)
}

// appendJavaNumber is DateTimeUtils#number: zeros up to n digits (counted as digitCount does,
// the sign not included), then the value as Java prints it.
func appendJavaNumber(b []byte, v int32, n int) []byte {
	k := 1
	for x := v / 10; x != 0; x /= 10 {
		k++
	}
	for ; k < n; k++ {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(v), 10)
}
