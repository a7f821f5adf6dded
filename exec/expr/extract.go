package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

func init() {
	register(&Function{Name: "EXTRACT", Family: "temporal",
		Doc:       "EXTRACT(unit FROM x) and YEAR(x), MONTH(x), HOUR(x), ... (which Flink plans as EXTRACT) on DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (every precision: TimestampData's millisecond and nanos of the millisecond), as Flink's ExtractCallGen: date units from the epoch day that Java's truncating division gives (so a pre-epoch time of day counts in the next day, as in Flink), HOUR/MINUTE/SECOND/MILLISECOND by Java remainder (negative before the epoch), Calcite's julian day arithmetic for WEEK, ISOYEAR, DOW, DOY, CENTURY, ...; on TIMESTAMP_LTZ as DateTimeUtils#extractFromTimestamp: the same arithmetic on the epoch milliseconds plus java.util.TimeZone#getOffset of the session time zone (its raw offset before 1900, as the JDK's ZoneInfo)",
		compileIn: compileExtract, NanoTimestamps: true})
}

const (
	millisPerSecond = 1000
	millisPerMinute = 60 * millisPerSecond
	millisPerHour   = 60 * millisPerMinute
	millisPerDay    = 24 * millisPerHour
	// julianEpoch is the julian day number of 1970-01-01.
	julianEpoch = 2440588
)

// dateUnits are the units Flink extracts from a day number (DateTimeUtils#extractFromDate).
var dateUnits = map[string]bool{
	"YEAR": true, "MONTH": true, "DAY": true, "QUARTER": true, "DOY": true, "ISOYEAR": true, "DOW": true,
	"ISODOW": true, "WEEK": true, "DECADE": true, "CENTURY": true, "MILLENNIUM": true,
}

// timeOfDay maps HOUR, MINUTE, SECOND and MILLISECOND to ExtractCallGen's (factor, multiplier):
// the value is (millis % factor) / multiplier with Java's remainder and division.
var timeOfDay = map[string][2]int64{
	"HOUR":        {millisPerDay, millisPerHour},
	"MINUTE":      {millisPerHour, millisPerMinute},
	"SECOND":      {millisPerMinute, millisPerSecond},
	"MILLISECOND": {millisPerSecond, 1},
}

func compileExtract(n *Node, args []Expr, env Env) (Expr, error) {
	if len(args) != 2 || len(n.Args) != 2 {
		return nil, unsupported("EXTRACT with %d operands", len(args))
	}
	sym, ok := n.Args[0].Value.(Symbol)
	if !ok {
		return nil, unsupported("EXTRACT without a time unit")
	}
	unit, t := sym.Value, args[1].Type()
	if n.Type.Kind != catalog.BigInt {
		return nil, unsupported("EXTRACT returning %s", n.Type)
	}
	e := &extract{unary: unary{args[1], n.Type}, unit: unit}
	switch t.Kind {
	case catalog.Date:
		switch {
		case dateUnits[unit]:
			e.fn = func(days int64) int64 { return extractFromDate(unit, int32(days)) }
		case unit == "EPOCH":
			e.fn = func(days int64) int64 { return days * 86400 }
		}
	case catalog.Time:
		if f, ok := timeOfDay[unit]; ok {
			e.fn = func(ms int64) int64 { return ms % f[0] / f[1] }
		}
	case catalog.Timestamp, catalog.TimestampLTZ:
		if t.Kind == catalog.TimestampLTZ {
			// extractFromTimestamp: the instant's milliseconds plus TimeZone#getOffset, then
			// the TIMESTAMP arithmetic (convertExtract); nothing without the session zone.
			if env.Zone == nil {
				return nil, unsupported("EXTRACT(%s FROM %s) needs the session time zone", unit, t)
			}
			e.zone = env.Zone
		}
		switch f, ok := timeOfDay[unit]; {
		case dateUnits[unit]:
			// ExtractCallGen: extractFromDate(range, ts.getMillisecond() / MILLIS_PER_DAY).
			e.fn = func(ms int64) int64 { return extractFromDate(unit, int32(ms/millisPerDay)) }
		case unit == "EPOCH":
			e.fn = func(ms int64) int64 { return ms / millisPerSecond }
		case ok:
			e.fn = func(ms int64) int64 { return ms % f[0] / f[1] }
		case unit == "MICROSECOND" || unit == "NANOSECOND":
			e.subMilli = true
		}
	}
	if e.fn == nil && !e.subMilli {
		return nil, unsupported("EXTRACT(%s FROM %s) is not supported natively yet", unit, t)
	}
	return e, nil
}

// extract is EXTRACT(unit FROM x) over DATE (days), TIME (milliseconds of the day) or
// TIMESTAMP (milliseconds, or microseconds above precision 3).
type extract struct {
	unary
	unit string
	// fn maps a day number, a time of day or a timestamp's epoch millisecond to the result.
	fn func(int64) int64
	// subMilli is MICROSECOND or NANOSECOND of a TIMESTAMP: (ms % 1000) scaled, plus the
	// sub-millisecond part (TimestampData#getNanoOfMillisecond).
	subMilli bool
	// zone is the session zone of a TIMESTAMP_LTZ argument (nil for the other types).
	zone *javatime.Zone
}

func (e *extract) Eval(ctx *Ctx, in Batch) (arrow.Array, error) { return e.eval(ctx, in, e.apply) }

func (e *extract) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	valid := andValidity(ctx.Mem, n, a)
	buf, dst := column.NewValues[int64](ctx.Mem, n)
	switch e.arg.Type().Kind {
	case catalog.Date, catalog.Time:
		for i, v := range column.Values[int32](a)[:n] {
			dst[i] = e.fn(int64(v))
		}
	default:
		src := column.ReadTimestamps(a)
		var offsets javatime.Offsets
		if e.zone != nil {
			offsets = e.zone.Offsets()
		}
		for i := 0; i < n; i++ {
			ms, nanoOfMilli := src.At(i)
			if e.zone != nil {
				ms += offsets.UtilOffsetAt(ms)
			}
			switch {
			case !e.subMilli:
				dst[i] = e.fn(ms)
			case e.unit == "MICROSECOND":
				dst[i] = ms%1000*1000 + nanoOfMilli/1000
			default:
				dst[i] = ms%1000*1_000_000 + nanoOfMilli
			}
		}
	}
	return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
}

// extractFromDate is DateTimeUtils#extractFromDate(range, int date) for the date units: the
// julian-day arithmetic of julianExtract, in Java's int arithmetic.
func extractFromDate(unit string, date int32) int64 {
	julian := date + julianEpoch
	j := julian + 32044
	g := j / 146097
	dg := j % 146097
	c := (dg/36524 + 1) * 3 / 4
	dc := dg - c*36524
	b := dc / 1461
	db := dc % 1461
	a := (db/365 + 1) * 3 / 4
	da := db - a*365
	y := g*400 + c*100 + b*4 + a
	m := (da*5+308)/153 - 2
	d := da - (m+4)*153/5 + 122
	year := y - 4800 + (m+2)/12
	month := (m+2)%12 + 1
	day := d + 1
	switch unit {
	case "YEAR":
		return int64(year)
	case "MONTH":
		return int64(month)
	case "DAY":
		return int64(day)
	case "ISOYEAR":
		week := iso8601Week(julian, year, month, day)
		switch {
		case week == 1 && month == 12:
			return int64(year + 1)
		case month == 1 && week > 50:
			return int64(year - 1)
		}
		return int64(year)
	case "QUARTER":
		return int64((month + 2) / 3)
	case "DOW":
		return javatime.FloorMod(int64(julian)+1, 7) + 1
	case "ISODOW":
		return javatime.FloorMod(int64(julian), 7) + 1
	case "WEEK":
		return int64(iso8601Week(julian, year, month, day))
	case "DOY":
		return int64(julian) - int64(ymdToJulian(year, 1, 1)) + 1
	case "DECADE":
		return int64(year / 10)
	case "CENTURY":
		if year > 0 {
			return int64((year + 99) / 100)
		}
		return int64((year - 99) / 100)
	default: // MILLENNIUM
		if year > 0 {
			return int64((year + 999) / 1000)
		}
		return int64((year - 999) / 1000)
	}
}

func ymdToJulian(year, month, day int32) int32 {
	a := (14 - month) / 12
	y := year + 4800 - a
	m := month + 12*a - 3
	return day + (153*m+2)/5 + 365*y + y/4 - y/100 + y/400 - 32045
}

func firstMondayOfFirstWeek(year int32) int64 {
	janFirst := int64(ymdToJulian(year, 1, 1))
	janFirstDow := javatime.FloorMod(janFirst+1, 7)
	return janFirst + (11-janFirstDow)%7 - 3
}

// iso8601Week is DateTimeUtils#getIso8601WeekNumber.
func iso8601Week(julian, year, month, day int32) int32 {
	isoDow := int32(javatime.FloorMod(int64(julian), 7)) + 1
	switch {
	case month == 12 && day > 28:
		if 31-day+4 > 7-isoDow && 31-day+isoDow >= 4 {
			return int32((int64(julian)-firstMondayOfFirstWeek(year))/7) + 1
		}
		return 1
	case month == 1 && day < 5:
		if 4-day <= 7-isoDow && day-isoDow >= -3 {
			return 1
		}
		return int32((int64(julian)-firstMondayOfFirstWeek(year-1))/7) + 1
	}
	return int32((int64(julian)-firstMondayOfFirstWeek(year))/7) + 1
}
