package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// microsTimestamp reports whether t's values are microseconds (TIMESTAMP and TIMESTAMP_LTZ of
// precision 4 to 6) rather than milliseconds (precision up to 3) or TimestampData's parts
// (7 to 9); see catalog.ArrowType.
func microsTimestamp(t catalog.Type) bool {
	return (t.Kind == catalog.Timestamp || t.Kind == catalog.TimestampLTZ) && t.Precision > 3 && t.Precision <= 6
}

// castTimestamp converts timestamps between precisions (and so between milliseconds and
// microseconds) as Flink's TimestampToTimestampCastRule: widening keeps the value, narrowing is
// DateTimeUtils#truncate. Between TIMESTAMP and TIMESTAMP_LTZ the value first moves through the
// session time zone (timestampToTimestampWithLocalZone: the wall clock's instant;
// timestampWithLocalZoneToTimestamp: the instant's wall clock), the sub-millisecond digits
// kept.
func castTimestamp(ctx *Ctx, a arrow.Array, from, to catalog.Type, zone *javatime.Zone) (arrow.Array, error) {
	target := to.Precision
	if from.Kind == catalog.Timestamp && to.Kind == catalog.Timestamp && (from.TimeAttr != catalog.Regular || to.TimeAttr != catalog.Regular) {
		target = 3 // a cast from or to a time attribute truncates to milliseconds only
	}
	if zone == nil && microsTimestamp(from) && unitOf(to) == column.Millis && target == 3 {
		// The common CAST(ts AS TIMESTAMP(3)) of a TIMESTAMP(4..6) column (e.g. an event-time
		// column): the milliseconds alone, which truncation to milliseconds leaves unchanged.
		src := column.Values[int64](a)
		buf, dst := column.NewValues[int64](ctx.Mem, len(src))
		for i, v := range src {
			dst[i] = javatime.FloorDiv(v, 1000)
		}
		return column.MakeArray(arrowType(to), len(src), column.CopyValidity(a, ctx.Mem), buf), nil
	}
	return convertTimestamps(ctx, a, from, to, target, zone), nil
}

// convertTimestamps is castTimestamp's general loop, value by value through TimestampData's
// parts: to wall time or an instant in zone when one is given, truncated to the target
// precision when narrowing (target: the precision to truncate to), stored in the target
// type's unit; a value beyond what microseconds hold fails its row.
func convertTimestamps(ctx *Ctx, a arrow.Array, from, to catalog.Type, target int, zone *javatime.Zone) arrow.Array {
	src := column.ReadTimestamps(a)
	n := a.Len()
	w := column.NewTimestampWriter(ctx.Mem, arrowType(to), n)
	var offsets javatime.Offsets
	if zone != nil {
		offsets = zone.Offsets()
	}
	narrow := target < from.Precision
	var failed []int
	for i := 0; i < n; i++ {
		ms, nanoOfMilli := src.At(i)
		switch {
		case zone == nil:
		case to.Kind == catalog.TimestampLTZ:
			ms = offsets.Instant(ms)
		default:
			ms = offsets.Wall(ms)
		}
		if narrow {
			ms, nanoOfMilli = truncateTimestamp(ms, nanoOfMilli, target)
		}
		if !w.Set(i, ms, nanoOfMilli) && a.IsValid(i) {
			failed = append(failed, i)
		}
	}
	valid := column.CopyValidity(a, ctx.Mem)
	if len(failed) > 0 {
		valid = failRows(ctx, valid, failed, fmt.Errorf("java.time.DateTimeException: a value is beyond the years a %s holds in Sluice (about -290,000 to 294,000)", to))
	}
	return w.Finish(n, valid)
}

// truncateTimestamp is DateTimeUtils#truncate on (millisecond, nanoOfMillisecond): unchanged
// when the nano-of-second's decimal digits fit the precision; otherwise the digits beyond it
// are zeroed, of the milliseconds (towards zero, as Java's division) for precisions up to 3, of
// the nanos of the millisecond above.
func truncateTimestamp(ms, nanoOfMilli int64, precision int) (int64, int64) {
	nano := javatime.FloorMod(ms, 1000)*1_000_000 + nanoOfMilli
	// Fewer decimal digits than the precision: nano < 10^precision (a zero nano-of-second,
	// one digit, is unchanged by the truncation below at precision 0 too).
	if nano < javatime.PowersOf10[precision] {
		return ms, nanoOfMilli
	}
	if precision <= 3 {
		if precision == 3 {
			return ms, 0
		}
		p := javatime.PowersOf10[3-precision]
		return ms / p * p, 0
	}
	p := javatime.PowersOf10[9-precision]
	return ms, nanoOfMilli / p * p
}

// unitOf is how a column of timestamp type t keeps its values.
func unitOf(t catalog.Type) column.TimestampUnit { return column.TimestampUnitOf(arrowType(t)) }
