package expr

import (
	"time"
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

// appendTimestamp is DateTimeUtils#formatTimestamp(TimestampData, int) for epoch millis.
func appendTimestamp(b []byte, v int64, precision int) []byte {
	// v is epoch milliseconds up to precision 3, microseconds above (catalog.ArrowType).
	t := time.UnixMilli(v).UTC()
	if precision > 3 {
		t = time.UnixMicro(v).UTC()
	}
	b = appendInt4(b, t.Year())
	b = append(b, '-')
	b = appendInt2(b, int(t.Month()))
	b = append(b, '-')
	b = appendInt2(b, t.Day())
	b = append(b, ' ')
	b = appendInt2(b, t.Hour())
	b = append(b, ':')
	b = appendInt2(b, t.Minute())
	b = append(b, ':')
	b = appendInt2(b, t.Second())
	if precision > 0 {
		var nanos [9]byte
		n := t.Nanosecond()
		for i := 8; i >= 0; i-- {
			nanos[i] = byte('0' + n%10)
			n /= 10
		}
		b = append(b, '.')
		b = append(b, nanos[:min(precision, 9)]...)
	}
	return b
}
