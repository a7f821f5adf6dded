package expr

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/decimal"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

func init() {
	register(&Function{Name: "TRY_CAST", Family: "conversion",
		Doc:       "as CAST, but a string that does not parse yields NULL",
		compileIn: compileCast, NanoTimestamps: true})
	register(&Function{Name: "CAST", Family: "conversion",
		Doc:       "between numeric types (Java casts; DECIMAL rounding HALF_UP, NULL on overflow), integer/DECIMAL/BOOLEAN/DATE/TIME/TIMESTAMP to STRING, INTERVAL to STRING (DateTimeUtils#formatIntervalYearMonth/DayTime: '+1-02', '+1 01:01:01.001', their int overflows included), STRING to integers, BOOLEAN, FLOAT and DOUBLE (Flink's and Java's parsers) and DATE (DateTimeUtils#parseDate: y[-m[-d]] with trimmed ASCII-digit parts, years 0 to 9999), BOOLEAN to and from numbers, widening of string and binary types, strings to CHAR(n) (cut to n characters, padded with spaces to n, as CharVarCharTrimPadCastRule), and to VARCHAR(n) (cut where the source type is longer); every type above whose text is native to CHAR(n) and VARCHAR(n) the same way (its STRING text cut, CHAR padded); strings to BINARY(n)/VARBINARY(n)/BYTES (UTF-8 bytes, cut to n, BINARY(n) padded with zero bytes), BINARY/VARBINARY to BINARY(n)/VARBINARY(n) (Arrays#copyOf: cut or zero-padded to n, also a VARBINARY(n) from a longer type), ARRAY to ARRAY and ROW to ROW of as many fields (every element or field by its own cast, NULLs kept; a failing part fails the row, under TRY_CAST the whole value is NULL; a nullable part cast to NOT NULL falls back), MAP to MAP (keys and values by their own casts, then put into a java.util.HashMap as MapToMapAndMultisetToMultisetCastRule does: the entries in that map's iteration order, by the keys' Java hash codes with its resizes and tree bins, keys that cast to equal ones merged into the first one's place with the last value; BINARY/VARBINARY keys fall back, as Java hashes byte arrays by identity); ARRAY, MAP and ROW to strings ('[e1, e2]', '{k=v}', '(f1, f2)' as ArrayToStringCastRule, MapAndMultisetToStringCastRule and RowToStringCastRule write them: each part by its own cast to STRING, NULL parts as 'NULL', cut to n UTF-16 units for CHAR(n)/VARCHAR(n), CHAR padded); BINARY/VARBINARY to strings (new String(bytes, UTF_8) as Java 17 decodes malformed parts, cut to n UTF-16 units for CHAR(n)/VARCHAR(n), a split surrogate pair written as '?', CHAR padded), TIMESTAMP and TIMESTAMP_LTZ between precisions 0 to 9 (DateTimeUtils#truncate when narrowing; from 7..9 down to 0..6 falls back, as Flink's truncate keeps the nanoseconds of a value whose nano-of-second has at most p digits); STRING to TIMESTAMP (DateTimeUtils#parseTimestampData: the DEFAULT_TIMESTAMP_FORMATTER's grammar and SMART resolution with all their quirks, checked against Flink on 4,000 strings; years beyond about 294,000 fail the row at p 4 to 6, see divergences); TIMESTAMP to TIMESTAMP_LTZ and back in the session time zone (LocalDateTime#atZone: a wall time in a gap moves later by the gap, one in an overlap takes the earlier offset; LocalDateTime#ofInstant back); STRING to TIMESTAMP_LTZ parsed as for TIMESTAMP and read in the session time zone; TIMESTAMP_LTZ to STRING, DATE and TIME through its wall clock in the session zone; TIMESTAMP to DATE and TIME as Flink's cast rules compute them ((int) (millis / 86400000) and (int) (millis % 86400000) in Java arithmetic: before 1970 the date rounds towards the epoch and the time of day is negative); DATE to TIMESTAMP(p ≤ 3 or 7 to 9) and TIME to TIMESTAMP (the date's midnight, the time on 1970-01-01 with its milliseconds whatever p), and to TIMESTAMP_LTZ of those precisions (that wall time read in the session zone, LocalDateTime#atZone; a DATE before about 4800 BC through DateTimeUtils#toLocalDate's int arithmetic, which moves it or fails as in Flink); DATE to TIMESTAMP(4..6) falls back (dates beyond year 294,247); STRING to DECIMAL as BinaryStringDataUtil#toDecimal (its byte parser for strings of up to 18 bytes into DECIMAL(p ≤ 18), quirks included: the byte that ends the number is skipped unchecked, leading zeros count as digits, no precision check after rounding; BigDecimal's grammar, Unicode digits included, and DecimalData#fromBigDecimal otherwise); STRING to TIME as DateTimeUtils#parseTime (hh[:mm[:ss[.fff]]] with a zone suffix at the first '-' or '+', nothing range-checked, int arithmetic); FLOAT/DOUBLE to STRING as Float.toString/Double.toString of Java 8 to 18 (FloatingDecimal's digits, which are not always the shortest: 2.82879384806159008E17; checked against Java 17 on 6 million values) and to DECIMAL as BigDecimal.valueOf(double) (that text, a FLOAT widened to double first) rounded HALF_UP, NULL when it does not fit, NaN and infinities failing the row, under TRY_CAST too as in Flink; on Java 19 and later (shortest digits) they fall back",
		compileIn: compileCast, NanoTimestamps: true})
}

// narrowsNanos reports whether a cast takes a TIMESTAMP(7..9) value to a timestamp of
// precision up to 6. Flink's DateTimeUtils#truncate leaves a value whose nano-of-second has at
// most as many decimal digits as the target precision as it is (.000000005 stays .000000005 in
// a TIMESTAMP(3)), nanoseconds a column of milliseconds or microseconds cannot hold: such a
// cast falls back.
func narrowsNanos(from, to catalog.Type) bool {
	return from.IsNanoTimestamp() && (to.Kind == catalog.Timestamp || to.Kind == catalog.TimestampLTZ) && !to.IsNanoTimestamp()
}

func compileCast(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) != 1 {
		return nil, unsupported("CAST with %d operands", len(args))
	}
	from, to := args[0].Type(), n.Type
	if narrowsNanos(from, to) {
		// Flink's value keeps them also where the result is projected: chained operators get
		// the TimestampData itself (a Parquet sink writes its nanos as INT96).
		return nil, unsupported("CAST from %s to %s: Flink keeps the nanoseconds of a value whose nano-of-second has at most %d digits (DateTimeUtils#truncate), which Sluice's milliseconds or microseconds cannot hold", from, to, to.Precision)
	}
	c := &cast{unary: unary{args[0], to}}
	try := n.Op == "TRY_CAST"
	switch {
	case from.IsString() && (to.IsIntegral() || to.Kind == catalog.Boolean || to.Kind == catalog.Float || to.Kind == catalog.Double || to.Kind == catalog.Date ||
		to.Kind == catalog.Timestamp):
		return &fromString{arg: args[0], typ: to, try: try}, nil
	case from.IsString() && to.Kind == catalog.TimestampLTZ:
		// parseTimestampData(s, precision, session zone).
		if env.Zone == nil {
			return nil, noZone("CAST from %s to %s", from, to)
		}
		return &fromString{arg: args[0], typ: to, try: try, zone: env.Zone}, nil
	case from.IsString() && (to.Kind == catalog.Decimal || to.Kind == catalog.Time):
		return &fromString{arg: args[0], typ: to, try: try}, nil
	case from.IsString() && to.IsBinary():
		return stringToBinary(args[0], to), nil
	case from.IsBinary() && to.IsString():
		return binaryToString(args[0], to), nil
	case from.IsBinary() && to.IsBinary() && !(to.Kind == catalog.VarBinary && (to.Length == catalog.MaxVarLength || to.Length >= from.Length)):
		return binaryToBinary(args[0], to), nil
	case from.IsString() && to.Kind == catalog.Char:
		return charTrimPad(args[0], to), nil
	case from.IsString() && to.Kind == catalog.VarChar && to.Length < from.Length:
		return varCharTrim(args[0], to), nil
	case (from.Kind == catalog.Array || from.Kind == catalog.Map || from.Kind == catalog.Row) && to.IsString():
		return compileNestedToString(args[0], to, env)
	case from.IsNested() && to.IsNested() && (!from.WithNullable(true).Equal(to.WithNullable(true)) || hasMap(to)):
		// Also between equal types holding a MAP: Flink's MAP-to-MAP rule comes before its
		// identity rule, so such a cast rebuilds every MAP in a java.util.HashMap.
		return compileNestedCast(n, args[0], env)
	case !from.IsString() && !from.IsNested() && (to.Kind == catalog.Char || to.Kind == catalog.VarChar && to.Length < catalog.MaxVarLength):
		// CharVarCharTrimPadCastRule: the cast to STRING, then cut (and for CHAR padded) to n.
		str, err := compileCast(&Node{Kind: Call, Op: n.Op, Type: catalog.StringType(to.Nullable)}, args, env)
		if err != nil {
			return nil, err
		}
		if to.Kind == catalog.Char {
			return charTrimPad(str, to), nil
		}
		return varCharTrim(str, to), nil
	case from.Kind == catalog.Boolean && to.IsNumeric():
		return &boolToNumber{unary{args[0], to}}, nil
	case from.IsNumeric() && to.Kind == catalog.Boolean:
		return &numberToBool{unary{args[0], to}}, nil
	case from.WithNullable(true).Equal(to.WithNullable(true)):
		c.kind = castIdentity
	case (from.Kind == catalog.Float || from.Kind == catalog.Double) && to.Kind == catalog.Decimal:
		// DecimalDataUtils#castFrom(double): BigDecimal.valueOf, the text of Double.toString.
		if !env.javaBefore19() {
			return nil, noFloatText("CAST from %s to %s", from, to)
		}
		return &floatToDecimal{unary: unary{args[0], to}}, nil
	case from.IsNumeric() && to.IsNumeric():
		c.kind = castNumericKind
	case to.Kind == catalog.VarChar && to.Length == catalog.MaxVarLength && (from.IsIntegral() || from.Kind == catalog.Decimal ||
		from.Kind == catalog.Boolean || from.Kind == catalog.Date || from.Kind == catalog.Time ||
		from.Kind == catalog.Timestamp || from.IsInterval()):
		c.kind = castToString
	case to.Kind == catalog.VarChar && to.Length == catalog.MaxVarLength && (from.Kind == catalog.Float || from.Kind == catalog.Double):
		// "" + value: Float.toString or Double.toString.
		if !env.javaBefore19() {
			return nil, noFloatText("CAST from %s to %s", from, to)
		}
		c.kind = castToString
	case to.Kind == catalog.VarChar && from.IsString() && to.Length >= from.Length,
		to.Kind == catalog.VarBinary && from.IsBinary() && to.Length >= from.Length:
		// Widening a string or binary type keeps the stored bytes (Flink neither pads nor trims).
		c.kind = castIdentity
	case from.Kind == catalog.Timestamp && to.Kind == catalog.TimestampLTZ || from.Kind == catalog.TimestampLTZ && to.Kind == catalog.Timestamp:
		if env.Zone == nil {
			return nil, noZone("CAST from %s to %s", from, to)
		}
		c.kind, c.zone = castTimestampPrecision, env.Zone
	case from.Kind == catalog.TimestampLTZ && (to.Kind == catalog.Date || to.Kind == catalog.VarChar && to.Length == catalog.MaxVarLength):
		// The wall clock in the session zone (timestampWithLocalZoneToTimestamp), then as a
		// TIMESTAMP to STRING, or its LocalDate.
		if env.Zone == nil {
			return nil, noZone("CAST from %s to %s", from, to)
		}
		wall := &cast{unary: unary{args[0], catalog.Type{Kind: catalog.Timestamp, Precision: from.Precision, Nullable: from.Nullable}},
			kind: castTimestampPrecision, zone: env.Zone}
		c.arg, c.kind = wall, castToString
		if to.Kind == catalog.Date {
			c.kind = castWallDate
		}
	case from.Kind == catalog.Timestamp && to.Kind == catalog.Date:
		c.kind = castTimestampDate
	case from.Kind == catalog.Timestamp && to.Kind == catalog.Time:
		c.kind = castTimestampTime
	case from.Kind == catalog.TimestampLTZ && to.Kind == catalog.Time:
		// timestampWithLocalZoneToTime: the LocalTime of the wall clock in the session zone.
		if env.Zone == nil {
			return nil, noZone("CAST from %s to %s", from, to)
		}
		c.arg = &cast{unary: unary{args[0], catalog.Type{Kind: catalog.Timestamp, Precision: from.Precision, Nullable: from.Nullable}},
			kind: castTimestampPrecision, zone: env.Zone}
		c.kind = castWallTime
	case from.Kind == catalog.Date && (to.Kind == catalog.Timestamp || to.Kind == catalog.TimestampLTZ) && microsTimestamp(to):
		// A DATE reaches years a TIMESTAMP(4..6) of microseconds cannot hold (TO_DATE of an
		// unparsable string is in year 1,705,471), where Flink's TimestampData still can.
		return nil, unsupported("CAST from %s to %s: a DATE beyond year 294,247 has no TIMESTAMP(4..6) value in Sluice (microseconds), where Flink has one", from, to)
	case (from.Kind == catalog.Date || from.Kind == catalog.Time) && (to.Kind == catalog.Timestamp || to.Kind == catalog.TimestampLTZ):
		// TimestampData#fromEpochMillis of the date's midnight or the time on 1970-01-01 (the
		// time's milliseconds kept whatever the target precision: Flink does not truncate), as
		// a TIMESTAMP(3); to TIMESTAMP_LTZ that wall time read in the session zone
		// (LocalDateTime#atZone); to TIMESTAMP(4..6) as between timestamps.
		millis := &cast{unary: unary{args[0], catalog.TimestampType(3, from.Nullable)}, kind: castEpochMillis}
		if from.Kind == catalog.Date && to.Kind == catalog.TimestampLTZ {
			millis.kind = castLocalDateMillis // dateToTimestampWithLocalZone: LocalDateTime.of(toLocalDate(date), MIDNIGHT)
		}
		via := to
		if to.Precision < 3 {
			via.Precision = 3 // the same milliseconds, untruncated
		}
		switch {
		case via.Kind == catalog.Timestamp && via.Precision == 3:
			millis.typ = via
		case via.Kind == catalog.TimestampLTZ && env.Zone == nil:
			return nil, noZone("CAST from %s to %s", from, to)
		default:
			zone := env.Zone
			if via.Kind == catalog.Timestamp {
				zone = nil
			}
			millis = &cast{unary: unary{millis, via}, kind: castTimestampPrecision, zone: zone}
		}
		if via.Precision == to.Precision {
			return millis, nil
		}
		c.arg, c.kind = millis, castIdentity // TIMESTAMP(0..2): the milliseconds as they are
	case from.Kind == to.Kind && (from.Kind == catalog.Timestamp || from.Kind == catalog.TimestampLTZ):
		if to.Precision >= from.Precision && unitOf(from) == unitOf(to) {
			c.kind = castIdentity
			break
		}
		c.kind = castTimestampPrecision
	default:
		return nil, unsupported("CAST from %s to %s is not supported natively yet", from, to)
	}
	return c, nil
}

type castKind int

const (
	castIdentity castKind = iota
	castNumericKind
	castToString
	castTimestampPrecision
	// castWallDate is the date of a wall-clock TIMESTAMP (LocalDateTime#toLocalDate: floor).
	castWallDate
	// castWallTime is the time of day of a wall-clock TIMESTAMP (LocalDateTime#toLocalTime).
	castWallTime
	// castTimestampDate is TimestampToDateCastRule's (int) (millis / MILLIS_PER_DAY): Java's
	// division, so a time before 1970 rounds towards the epoch, not down.
	castTimestampDate
	// castTimestampTime is TimestampToTimeCastRule's (int) (millis % MILLIS_PER_DAY): Java's
	// remainder, negative before 1970, milliseconds kept whatever the TIME's precision.
	castTimestampTime
	// castEpochMillis is the epoch milliseconds of a DATE's midnight or of a TIME on
	// 1970-01-01, a TIMESTAMP(3).
	castEpochMillis
	// castLocalDateMillis is castEpochMillis of a DATE through DateTimeUtils#toLocalDate (CAST
	// to TIMESTAMP_LTZ), whose int arithmetic fails or moves dates before about 4800 BC.
	castLocalDateMillis
)

type cast struct {
	unary
	kind castKind
	// zone is the session time zone of a cast between TIMESTAMP and TIMESTAMP_LTZ.
	zone *javatime.Zone
}

func (e *cast) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *cast) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	switch e.kind {
	case castNumericKind:
		return castNumeric(ctx, a, e.arg.Type(), e.typ)
	case castToString:
		return toStrings(ctx, a, e.arg.Type()), nil
	case castTimestampPrecision:
		return castTimestamp(ctx, a, e.arg.Type(), e.typ, e.zone)
	case castWallDate, castWallTime, castTimestampDate, castTimestampTime:
		return timestampParts(ctx, a, e.arg.Type(), e.typ, e.kind), nil
	case castEpochMillis:
		buf, dst := column.NewValues[int64](ctx.Mem, a.Len())
		if e.arg.Type().Kind == catalog.Date {
			for i, d := range column.Values[int32](a) {
				dst[i] = int64(d) * millisPerDay
			}
		} else {
			for i, t := range column.Values[int32](a) {
				dst[i] = int64(t)
			}
		}
		return column.MakeArray(arrowType(e.typ), a.Len(), column.CopyValidity(a, ctx.Mem), buf), nil
	case castLocalDateMillis:
		buf, dst := column.NewValues[int64](ctx.Mem, a.Len())
		valid := column.CopyValidity(a, ctx.Mem)
		for i, d := range column.Values[int32](a) {
			day, err := flinkLocalDate(d)
			if err != nil && a.IsValid(i) {
				valid = failRows(ctx, valid, []int{i}, err) // each row with its own message
				continue
			}
			dst[i] = day * millisPerDay
		}
		return column.MakeArray(arrowType(e.typ), a.Len(), valid, buf), nil
	}
	a.Retain()
	return a, nil
}

// flinkLocalDate is DateTimeUtils#toLocalDate(date) as an epoch day: julianToLocalDate's int
// arithmetic (truncating division, wrapping sums), exact from about 4800 BC on; before, it
// yields other dates or fields LocalDate#of rejects, an error here as there.
func flinkLocalDate(date int32) (int64, error) {
	j := date + 2440588 + 32044
	g, dg := j/146097, j%146097
	c := (dg/36524 + 1) * 3 / 4
	dc := dg - c*36524
	b, db := dc/1461, dc%1461
	a := (db/365 + 1) * 3 / 4
	da := db - a*365
	y := g*400 + c*100 + b*4 + a
	m := (da*5+308)/153 - 2
	d := da - (m+4)*153/5 + 122
	year, month, day := y-4800+(m+2)/12, (m+2)%12+1, d+1
	switch {
	case month < 1 || month > 12:
		return 0, fmt.Errorf("java.time.DateTimeException: Invalid value for MonthOfYear (valid values 1 - 12): %d", month)
	case day < 1 || day > 31:
		return 0, fmt.Errorf("java.time.DateTimeException: Invalid value for DayOfMonth (valid values 1 - 28/31): %d", day)
	case int64(day) > javatime.DaysInMonth(int64(year), int64(month)):
		if month == 2 && day == 29 {
			return 0, fmt.Errorf("java.time.DateTimeException: Invalid date 'February 29' as '%d' is not a leap year", year)
		}
		return 0, fmt.Errorf("java.time.DateTimeException: Invalid date '%s %d'", strings.ToUpper(time.Month(month).String()), day)
	}
	return javatime.GregorianEpochDay(int64(year), int64(month), int64(day)), nil
}

// timestampParts is the DATE or TIME of each timestamp of a (of any precision: its
// TimestampData millisecond) as kind computes it.
func timestampParts(ctx *Ctx, a arrow.Array, from, to catalog.Type, kind castKind) arrow.Array {
	src := column.ReadTimestamps(a)
	n := a.Len()
	buf, dst := column.NewValues[int32](ctx.Mem, n)
	for i := 0; i < n; i++ {
		ms, _ := src.At(i) // TimestampData#getMillisecond
		switch kind {
		case castWallDate:
			dst[i] = int32(javatime.FloorDiv(ms, millisPerDay))
		case castWallTime:
			dst[i] = int32(javatime.FloorMod(ms, millisPerDay))
		case castTimestampDate:
			dst[i] = int32(ms / millisPerDay)
		default:
			dst[i] = int32(ms % millisPerDay)
		}
	}
	return column.MakeArray(arrowType(to), n, column.CopyValidity(a, ctx.Mem), buf)
}

// toStrings renders integers in decimal, DECIMAL as BigDecimal#toPlainString (all scale digits)
// and BOOLEAN as TRUE/FALSE, as Flink 2's cast rules do.
func toStrings(ctx *Ctx, a arrow.Array, t catalog.Type) arrow.Array {
	b := array.NewStringBuilder(ctx.Mem)
	defer b.Release()
	b.Reserve(a.Len())
	switch t.Kind {
	case catalog.Boolean:
		bs := a.(*array.Boolean)
		for i := 0; i < a.Len(); i++ {
			switch {
			case bs.IsNull(i):
				b.AppendNull()
			case bs.Value(i):
				b.Append("TRUE")
			default:
				b.Append("FALSE")
			}
		}
	case catalog.Float, catalog.Double:
		appendFloatTexts(b, a, t)
	case catalog.Decimal:
		ds := column.Values[decimal128.Num](a)
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			b.Append(decimal.PlainString(bigOf(ds[i]), t.Scale))
		}
	case catalog.IntervalYearMonth, catalog.IntervalDayTime:
		var buf []byte
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			if t.Kind == catalog.IntervalYearMonth {
				buf = appendIntervalYearMonth(buf[:0], column.Values[int32](a)[i])
			} else {
				buf = appendIntervalDayTime(buf[:0], column.Values[int64](a)[i])
			}
			b.BinaryBuilder.Append(buf)
		}
	case catalog.Date, catalog.Time, catalog.Timestamp:
		var buf []byte
		var stamps column.Timestamps
		if t.Kind == catalog.Timestamp {
			stamps = column.ReadTimestamps(a)
		}
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			switch t.Kind {
			case catalog.Date:
				buf = appendDate(buf[:0], int64(column.Values[int32](a)[i]))
			case catalog.Time:
				// Flink's planner gives every TIME(p) of an expression the runtime type
				// TIME(0) (FlinkTypeFactory#toLogicalType), so no fraction is printed.
				buf = appendTime(buf[:0], column.Values[int32](a)[i], 0)
			default:
				ms, nanoOfMilli := stamps.At(i)
				buf = appendTimestamp(buf[:0], ms, nanoOfMilli, t.Precision)
			}
			b.BinaryBuilder.Append(buf)
		}
	default:
		ints := integralAsInt64(a, t)
		var buf []byte
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			buf = strconv.AppendInt(buf[:0], ints[i], 10)
			b.BinaryBuilder.Append(buf)
		}
	}
	return b.NewArray()
}
