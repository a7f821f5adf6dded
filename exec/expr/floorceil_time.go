package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// calendarUnits are the units Flink floors through DateTimeUtils#julianDateFloor.
var calendarUnits = map[string]bool{
	"MILLENNIUM": true, "CENTURY": true, "DECADE": true, "YEAR": true, "QUARTER": true, "MONTH": true, "WEEK": true,
}

// unitMillis are the fixed-length units with their milliseconds (Calcite's TimeUnit multipliers).
var unitMillis = map[string]int64{
	"DAY": millisPerDay, "HOUR": millisPerHour, "MINUTE": millisPerMinute, "SECOND": millisPerSecond, "MILLISECOND": 1,
}

// compileTemporalFloorCeil is FLOOR(x TO unit) and CEIL(x TO unit) on DATE, TIME and
// TIMESTAMP, as Flink's FloorCeilCallGen generates them.
func compileTemporalFloorCeil(n *Node, args []Expr) (Expr, error) {
	sym, ok := n.Args[1].Value.(Symbol)
	if !ok || len(args) != 2 {
		return nil, unsupported("%s with a second operand that is not a time unit", n.Op)
	}
	unit, t := sym.Value, args[0].Type()
	if !t.WithNullable(true).Equal(n.Type.WithNullable(true)) {
		return nil, unsupported("%s of %s returning %s", n.Op, t, n.Type)
	}
	e := &temporalFloorCeil{unary: unary{args[0], n.Type}, unit: unit, floor: n.Op == "FLOOR"}
	_, fixed := unitMillis[unit]
	switch {
	case t.Kind == catalog.Timestamp && (calendarUnits[unit] || fixed):
	case t.Kind == catalog.Date && (calendarUnits[unit] || unit == "DAY"):
	case t.Kind == catalog.Time && fixed && unit != "DAY":
	default:
		return nil, unsupported("%s(%s TO %s) is not supported natively yet", n.Op, t, unit)
	}
	return e, nil
}

type temporalFloorCeil struct {
	unary
	unit  string
	floor bool
}

func (e *temporalFloorCeil) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	return e.eval(ctx, in, e.apply)
}

func (e *temporalFloorCeil) apply(ctx *Ctx, a arrow.Array) (arrow.Array, error) {
	n := ctx.N
	valid := andValidity(ctx.Mem, n, a)
	switch e.arg.Type().Kind {
	case catalog.Date:
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		for i, d := range column.Values[int32](a)[:n] {
			// (int) unixDateFloor/unixDateCeil(range, date); DAY included.
			dst[i] = int32(julianDateFloor(e.unit, d+julianEpoch, e.floor))
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	case catalog.Time:
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		m := int32(unitMillis[e.unit])
		for i, v := range column.Values[int32](a)[:n] {
			if e.floor {
				dst[i] = floorInt32(v, m)
			} else {
				dst[i] = ceilInt32(v, m)
			}
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	}
	src := column.ReadTimestamps(a)
	w := column.NewTimestampWriter(ctx.Mem, arrowType(e.typ), n)
	m, fixed := unitMillis[e.unit]
	var failed []int
	for i := 0; i < n; i++ {
		ms, nanoOfMilli := src.At(i)
		var r int64
		switch {
		case !fixed:
			// unixTimestampFloor/Ceil: the epoch day by Java's truncating division.
			r = julianDateFloor(e.unit, int32(ms/millisPerDay)+julianEpoch, e.floor) * millisPerDay
		case m == 1:
			// ms + floor/ceil(nanoOfMillisecond, 1000000) / 1000000
			r = ms
			if !e.floor && nanoOfMilli > 0 {
				r++
			}
		case e.floor:
			r = ms - javatime.FloorMod(ms, m) // SqlFunctionUtils#floor(long, long)
		default:
			c := ms + m - 1 // SqlFunctionUtils#ceil(long, long): floor(b0 + b1 - 1, b1)
			r = c - javatime.FloorMod(c, m)
		}
		// TimestampData.fromEpochMillis: no sub-millisecond part.
		if !w.Set(i, r, 0) && a.IsValid(i) {
			failed = append(failed, i)
		}
	}
	if len(failed) > 0 {
		op := "CEIL"
		if e.floor {
			op = "FLOOR"
		}
		valid = failRows(ctx, valid, failed, fmt.Errorf("java.time.DateTimeException: %s(... TO %s) is beyond the years a %s holds in Sluice (about -290,000 to 294,000)", op, e.unit, e.typ))
	}
	return w.Finish(n, valid), nil
}

// floorInt32 is SqlFunctionUtils#floor(int, int).
func floorInt32(b0, b1 int32) int32 { return b0 - int32(javatime.FloorMod(int64(b0), int64(b1))) }

// ceilInt32 is SqlFunctionUtils#ceil(int, int).
func ceilInt32(b0, b1 int32) int32 {
	r := b0 % b1
	if r > 0 {
		r -= b1
	}
	return b0 - r
}

// julianDateFloor is DateTimeUtils#julianDateFloor: Meeus' algorithm, with the Julian calendar
// before 1582-10-15 (julian day 2299160), and the result converted back with the Gregorian
// ymdToJulian, as Flink does.
func julianDateFloor(unit string, julian int32, floor bool) int64 {
	var b, c int32
	if julian > 2299160 {
		a := julian + 32044
		b = (4*a + 3) / 146097
		c = a - b*146097/4
	} else {
		c = julian + 32082
	}
	d := (4*c + 3) / 1461
	e := c - (1461*d)/4
	m := (5*e + 2) / 153
	day := e - (153*m+2)/5 + 1
	month := m + 3 - 12*(m/10)
	quarter := (month + 2) / 3
	year := b*100 + d - 4800 + (m / 10)
	unixDate := func(y, mo, d int32) int64 { return int64(ymdToJulian(y, mo, d) - julianEpoch) }
	switch unit {
	case "MILLENNIUM":
		if floor {
			return unixDate(1000*((year+999)/1000)-999, 1, 1)
		}
		return unixDate(1000*((year+999)/1000)+1, 1, 1)
	case "CENTURY":
		if floor {
			return unixDate(100*((year+99)/100)-99, 1, 1)
		}
		return unixDate(100*((year+99)/100)+1, 1, 1)
	case "DECADE":
		if floor {
			return unixDate(10*(year/10), 1, 1)
		}
		return unixDate(10*(1+year/10), 1, 1)
	case "YEAR":
		if !floor && (month > 1 || day > 1) {
			year++
		}
		return unixDate(year, 1, 1)
	case "MONTH":
		if !floor && day > 1 {
			month++
		}
		return unixDate(year, month, 1)
	case "QUARTER":
		if !floor && (month > 1 || day > 1) {
			quarter++
		}
		return unixDate(year, quarter*3-2, 1)
	case "WEEK":
		offset := int32(javatime.FloorMod(int64(julian)+1, 7)) // sun=0, sat=6
		if !floor && offset > 0 {
			offset -= 7
		}
		return unixDate(year, month, day) - int64(offset)
	default: // DAY
		res := unixDate(year, month, day)
		if !floor {
			res++
		}
		return res
	}
}
