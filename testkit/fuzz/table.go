package fuzz

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sluice-project/sluice/exec/decimal"
)

// Column is one column of the fuzz table. Values travel as text in the case file; the Flink side
// parses them by Type (see ValueText).
type Column struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Class Class  `json:"cls"`
	gen   func(r *rand.Rand) string
}

// TableColumns is the schema of every fuzz table: at least one column per class, with the
// layouts that differ (compact and non-compact DECIMAL and TIMESTAMP, fixed and variable
// strings and binaries).
func TableColumns() []Column {
	return []Column{
		{Name: "b", Type: "BOOLEAN", Class: Bool, gen: genBool},
		{Name: "ti", Type: "TINYINT", Class: Int, gen: genInt(math.MinInt8, math.MaxInt8)},
		{Name: "si", Type: "SMALLINT", Class: Int, gen: genInt(math.MinInt16, math.MaxInt16)},
		{Name: "i", Type: "INT", Class: Int, gen: genInt(math.MinInt32, math.MaxInt32)},
		{Name: "l", Type: "BIGINT", Class: Int, gen: genInt(math.MinInt64, math.MaxInt64)},
		{Name: "f", Type: "FLOAT", Class: Approx, gen: genFloat},
		{Name: "d", Type: "DOUBLE", Class: Approx, gen: genDouble},
		{Name: "dc", Type: "DECIMAL(10, 2)", Class: Dec, gen: genDecimal(10, 2)},
		{Name: "dn", Type: "DECIMAL(19, 0)", Class: Dec, gen: genDecimal(19, 0)},
		{Name: "dw", Type: "DECIMAL(38, 18)", Class: Dec, gen: genDecimal(38, 18)},
		{Name: "s", Type: "STRING", Class: Str, gen: genString(-1, false)},
		{Name: "v", Type: "VARCHAR(6)", Class: Str, gen: genString(6, false)},
		{Name: "c", Type: "CHAR(3)", Class: Str, gen: genString(3, true)},
		{Name: "bs", Type: "BYTES", Class: Bin, gen: genBytes(-1)},
		{Name: "bn", Type: "BINARY(3)", Class: Bin, gen: genBytes(3)},
		{Name: "dt", Type: "DATE", Class: Date, gen: genDate},
		{Name: "tm", Type: "TIME(0)", Class: Time, gen: genTime},
		{Name: "ts", Type: "TIMESTAMP(3)", Class: Ts, gen: genTimestamp(3)},
		{Name: "tu", Type: "TIMESTAMP(6)", Class: Ts6, gen: genTimestamp(6)},
		{Name: "tn", Type: "TIMESTAMP(9)", Class: Ts9, gen: genTimestamp(9)},
		{Name: "lz", Type: "TIMESTAMP_LTZ(3)", Class: LTZ, gen: genInstant},
		{Name: "ai", Type: "ARRAY<INT>", Class: Arr, gen: genIntArray},
		{Name: "ms", Type: "MAP<STRING, INT>", Class: Map, gen: genStringIntMap},
	}
}

// genIntArray is a JSON array of up to five INT values, some NULL.
func genIntArray(r *rand.Rand) string {
	elem := genInt(math.MinInt32, math.MaxInt32)
	parts := make([]string, r.IntN(6))
	for i := range parts {
		if r.IntN(6) == 0 {
			parts[i] = "null"
		} else {
			parts[i] = elem(r)
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// mapKeys are the keys of generated maps: the string literals of the grammar hit them, and
// NULL (which Flink's lookup reads as the empty string).
var mapKeys = []string{`"a"`, `""`, `"ab"`, `"é世"`, `"42"`, "null"}

// genStringIntMap is a JSON list of up to four [key, value] pairs with distinct keys, in order.
func genStringIntMap(r *rand.Rand) string {
	elem := genInt(math.MinInt32, math.MaxInt32)
	keys := append([]string(nil), mapKeys...)
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	parts := make([]string, r.IntN(5))
	for i := range parts {
		v := "null"
		if r.IntN(6) != 0 {
			v = elem(r)
		}
		parts[i] = "[" + keys[i] + "," + v + "]"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Rows draws n rows for cols: about one value in eight is NULL, one in three an edge value.
func Rows(r *rand.Rand, cols []Column, n int) [][]*string {
	rows := make([][]*string, n)
	for i := range rows {
		row := make([]*string, len(cols))
		for j, c := range cols {
			if r.IntN(8) == 0 {
				continue
			}
			v := c.gen(r)
			row[j] = &v
		}
		rows[i] = row
	}
	return rows
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func genBool(r *rand.Rand) string { return fmt.Sprint(r.IntN(2) == 0) }

func genInt(lo, hi int64) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		switch r.IntN(4) {
		case 0:
			return fmt.Sprint(pick(r, []int64{0, 1, -1, lo, hi, lo + 1, hi - 1, 2, 10, -10}))
		case 1:
			return fmt.Sprint(r.Int64N(201) - 100)
		default:
			// Uniform over the type's range.
			if lo == math.MinInt64 {
				return fmt.Sprint(int64(r.Uint64()))
			}
			return fmt.Sprint(lo + r.Int64N(hi-lo+1))
		}
	}
}

// Floating-point values travel as hex bit patterns, so NaN payloads and -0.0 survive.
func genFloat(r *rand.Rand) string {
	var v float32
	switch r.IntN(4) {
	case 0:
		v = pick(r, []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)),
			float32(math.Inf(-1)), math.MaxFloat32, math.SmallestNonzeroFloat32, 1.5, -2.25, 0.1, 1e10, 16777217})
	case 1:
		v = float32(r.IntN(201) - 100)
	case 2:
		v = float32(r.NormFloat64() * 1000)
	default:
		v = math.Float32frombits(r.Uint32())
	}
	return fmt.Sprintf("0x%08x", math.Float32bits(v))
}

func genDouble(r *rand.Rand) string {
	var v float64
	switch r.IntN(4) {
	case 0:
		v = pick(r, []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64,
			math.SmallestNonzeroFloat64, 1.5, -2.25, 0.1, 1e300, -1e-300, 9007199254740993, 0.5, 2.5})
	case 1:
		v = float64(r.IntN(201) - 100)
	case 2:
		v = r.NormFloat64() * 1e6
	default:
		v = math.Float64frombits(r.Uint64())
	}
	return fmt.Sprintf("0x%016x", math.Float64bits(v))
}

func genDecimal(precision, scale int) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		var digits int
		switch r.IntN(4) {
		case 0:
			nines := strings.Repeat("9", precision)
			edge := pick(r, []string{"0", nines, "-" + nines, "1", "-1", "5", "-5"})
			return scaled(edge, scale)
		case 1:
			digits = 1 + r.IntN(3)
		default:
			digits = 1 + r.IntN(precision)
		}
		var sb strings.Builder
		if r.IntN(3) == 0 {
			sb.WriteByte('-')
		}
		for k := 0; k < digits; k++ {
			sb.WriteByte(byte('0' + r.IntN(10)))
		}
		return scaled(sb.String(), scale)
	}
}

// scaled renders an unscaled integer text at a scale, as BigDecimal#toPlainString does.
func scaled(unscaled string, scale int) string {
	v, _ := new(big.Int).SetString(unscaled, 10)
	return decimal.PlainString(v, scale)
}

// stringPieces are the building blocks of generated strings: numbers and booleans in the
// spellings CAST parses (and nearly parses), LIKE metacharacters, whitespace, multi-byte text
// and characters whose case mappings change length. No piece has a character in U+E000..U+FFFF:
// against a supplementary character such as 🌍, Flink orders those by UTF-16 code units or by
// UTF-8 bytes depending on whether an earlier expression decoded the value (docs/divergences.md).
var stringPieces = []string{
	"", " ", "a", "abc", "ABC", "Hello World", "hello-world_x", "x y", "12", "-7", " 42 ", "1.5e3",
	"+3", "0x1F", "007", "2147483648", "-9223372036854775808", "true", "FALSE", "yes", "NaN",
	"Infinity", "-0", "1.", ".5", "é", "Grüße", "世界", "🌍", "a%b", "_", "\\", "\t", "İ", "ß", "ǅ",
	"ŉ", "ı", "ΣΑΣ", "!", ",", "aa", "Ab1cD", "2024-02-29", "1999-9-9", " 2020-1-31 ", "0-1-1",
	"2023-02-29", "12:30:00", "2024-04-31",
}

func genString(length int, fixed bool) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		var sb strings.Builder
		for k := r.IntN(4); k >= 0; k-- {
			sb.WriteString(pick(r, stringPieces))
		}
		s := sb.String()
		if length >= 0 {
			if utf8.RuneCountInString(s) > length {
				s = string([]rune(s)[:length])
			}
			if fixed {
				s += strings.Repeat(" ", length-utf8.RuneCountInString(s))
			}
		}
		return s
	}
}

func genBytes(length int) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		n := length
		if n < 0 {
			n = r.IntN(9)
		}
		b := make([]byte, n)
		for k := range b {
			b[k] = byte(pick(r, []int{0, 1, 0x7f, 0x80, 0xff, 'a', r.IntN(256)}))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
}

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// edgeInstants are moments around the epoch, leap days, daylight-saving transitions
// (America/Los_Angeles on 2024-03-10 and 2024-11-03, Europe/Berlin on 2024-03-31, Lord Howe
// on 2024-04-07 and 2024-10-06, São Paulo on 2018-11-04), and wall times (read as TIMESTAMPs)
// inside those zones' gaps and overlaps.
var edgeInstants = []time.Time{
	epoch, epoch.Add(-time.Millisecond), epoch.Add(-time.Microsecond),
	time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), time.Date(2000, 2, 29, 23, 59, 59, 999_999_000, time.UTC),
	time.Date(2024, 3, 10, 10, 0, 0, 0, time.UTC), time.Date(2024, 3, 10, 9, 59, 59, 999_000_000, time.UTC),
	time.Date(2024, 11, 3, 8, 30, 0, 0, time.UTC), time.Date(2024, 11, 3, 9, 30, 0, 0, time.UTC),
	time.Date(2024, 3, 31, 1, 0, 0, 0, time.UTC), time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC),
	time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
	// Around the Gregorian reform, where Calcite's julianDateFloor switches calendars.
	time.Date(1582, 10, 4, 12, 0, 0, 0, time.UTC), time.Date(1582, 10, 15, 0, 0, 0, 0, time.UTC),
	time.Date(1000, 6, 15, 6, 0, 0, 0, time.UTC), time.Date(1583, 1, 1, 0, 0, 0, 0, time.UTC),
	time.Date(2024, 4, 6, 15, 0, 0, 0, time.UTC), time.Date(2024, 10, 5, 15, 30, 0, 0, time.UTC),
	time.Date(2018, 11, 4, 3, 0, 0, 0, time.UTC), time.Date(2018, 11, 4, 0, 30, 0, 0, time.UTC),
	time.Date(2024, 10, 6, 2, 15, 0, 0, time.UTC), time.Date(2024, 4, 7, 1, 45, 0, 0, time.UTC),
}

func randomInstant(r *rand.Rand, unit time.Duration) time.Time {
	if r.IntN(3) == 0 {
		return edgeInstants[r.IntN(len(edgeInstants))].Truncate(unit)
	}
	lo := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	hi := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	return time.UnixMicro(lo + r.Int64N(hi-lo)).UTC().Truncate(unit)
}

func genDate(r *rand.Rand) string { return randomInstant(r, time.Microsecond).Format("2006-01-02") }

func genTime(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		return pick(r, []string{"00:00:00", "23:59:59", "12:00:00"})
	}
	return randomInstant(r, time.Second).Format("15:04:05")
}

func genTimestamp(precision int) func(r *rand.Rand) string {
	unit := time.Millisecond
	layout := "2006-01-02T15:04:05.000"
	switch precision {
	case 6:
		unit, layout = time.Microsecond, "2006-01-02T15:04:05.000000"
	case 9:
		unit, layout = time.Nanosecond, "2006-01-02T15:04:05.000000000"
	}
	return func(r *rand.Rand) string {
		t := randomInstant(r, unit)
		if precision == 9 && r.IntN(2) == 0 {
			t = t.Add(time.Duration(r.IntN(1000))) // digits below the microsecond
		}
		return t.Format(layout)
	}
}

func genInstant(r *rand.Rand) string {
	return randomInstant(r, time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}
