package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/javatime"
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
	want, err := catalog.ArrowType(to)
	if err != nil {
		return nil, err
	}
	target := to.Precision
	if from.Kind == catalog.Timestamp && to.Kind == catalog.Timestamp && (from.TimeAttr != catalog.Regular || to.TimeAttr != catalog.Regular) {
		target = 3 // a cast from or to a time attribute truncates to milliseconds only
	}
	if from.IsNanoTimestamp() || to.IsNanoTimestamp() {
		return castTimestampParts(ctx, a, from, to, target, zone)
	}
	src := column.Values[int64](a)
	buf, dst := column.NewValues[int64](ctx.Mem, len(src))
	fromMicros, toMicros := microsTimestamp(from), microsTimestamp(to)
	var failed []int
	if zone == nil && fromMicros && !toMicros && target == 3 {
		// The common CAST(ts AS TIMESTAMP(3)) of a TIMESTAMP(4..9) column (e.g. an event-time
		// column): the milliseconds alone, which truncation to milliseconds leaves unchanged.
		for i, v := range src {
			dst[i] = javatime.FloorDiv(v, 1000)
		}
	} else {
		failed = convertTimestamps(dst, a, from, to, target, zone)
	}
	valid := column.CopyValidity(a, ctx.Mem)
	if len(failed) > 0 {
		valid = failRows(ctx, valid, failed, fmt.Errorf("java.time.DateTimeException: a value is beyond the years a %s holds in Sluice (about -290,000 to 294,000)", to))
	}
	return column.MakeArray(want, len(src), valid, buf), nil
}

// convertTimestamps is castTimestamp's general loop: to wall time or an instant in zone when
// one is given, truncated to the target precision when narrowing, in micros or millis as the
// target type keeps them (target: the precision to truncate to); it returns the rows whose result is beyond the micros range.
func convertTimestamps(dst []int64, a arrow.Array, from, to catalog.Type, target int, zone *javatime.Zone) []int {
	src := column.Values[int64](a)
	fromMicros, toMicros := microsTimestamp(from), microsTimestamp(to)
	narrow := target < from.Precision
	var offsets javatime.Offsets
	if zone != nil {
		offsets = zone.Offsets()
	}
	var failed []int
	for i, v := range src {
		ms, nanoOfMilli := v, int64(0)
		if fromMicros {
			ms, nanoOfMilli = javatime.SplitMicros(v)
		}
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
		if !toMicros {
			dst[i] = ms
			continue
		}
		us, ok := microsOf(ms, nanoOfMilli/1000)
		if !ok && a.IsValid(i) {
			failed = append(failed, i)
		}
		dst[i] = us
	}
	return failed
}

// truncateTimestamp is DateTimeUtils#truncate on (millisecond, nanoOfMillisecond): unchanged
// when the nano-of-second's decimal digits fit the precision; otherwise the digits beyond it
// are zeroed, of the milliseconds (towards zero, as Java's division) for precisions up to 3, of
// the nanos of the millisecond above.
func truncateTimestamp(ms, nanoOfMilli int64, precision int) (int64, int64) {
	nano := javatime.FloorMod(ms, 1000)*1_000_000 + nanoOfMilli
	// Fewer decimal digits than the precision: nano < 10^precision (a zero nano-of-second,
	// one digit, is unchanged by the truncation below at precision 0 too).
	if nano < powersOf10[precision] {
		return ms, nanoOfMilli
	}
	if precision <= 3 {
		if precision == 3 {
			return ms, 0
		}
		p := powersOf10[3-precision]
		return ms / p * p, 0
	}
	p := powersOf10[9-precision]
	return ms, nanoOfMilli / p * p
}

// powersOf10 holds 10^0 .. 10^9.
var powersOf10 = [10]int64{1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000}

// timestampUnit is how a timestamp column keeps its values (catalog.ArrowType).
type timestampUnit uint8

const (
	storedMillis timestampUnit = iota // precision 0..3: epoch milliseconds
	storedMicros                      // precision 4..6: epoch microseconds
	storedNanos                       // precision 7..9: epoch milliseconds and nanos of the millisecond
)

// unitOf is the unit of t's values.
func unitOf(t catalog.Type) timestampUnit {
	switch {
	case t.IsNanoTimestamp():
		return storedNanos
	case microsTimestamp(t):
		return storedMicros
	}
	return storedMillis
}

// timestampValues is a timestamp column of any precision read as Flink's TimestampData: epoch
// milliseconds and nanoseconds of the millisecond.
type timestampValues struct {
	unit  timestampUnit
	v     []int64 // milliseconds or microseconds
	nanos []int32 // storedNanos only
}

// readTimestamps reads column a of timestamp type t.
func readTimestamps(a arrow.Array, t catalog.Type) timestampValues {
	u := unitOf(t)
	if u == storedNanos {
		ms, nanos := column.NanoTimestamps(a)
		return timestampValues{unit: u, v: ms, nanos: nanos}
	}
	return timestampValues{unit: u, v: column.Values[int64](a)}
}

// at is value i's epoch millisecond and nanoseconds of the millisecond (TimestampData's).
func (t timestampValues) at(i int) (ms, nanoOfMilli int64) {
	switch t.unit {
	case storedMicros:
		return javatime.SplitMicros(t.v[i])
	case storedNanos:
		return t.v[i], int64(t.nanos[i])
	}
	return t.v[i], 0
}

// timestampWriter fills a timestamp column of any precision from TimestampData's parts.
type timestampWriter struct {
	typ         catalog.Type
	unit        timestampUnit
	vBuf, nsBuf *memory.Buffer
	v           []int64
	nanos       []int32
}

func newTimestampWriter(mem memory.Allocator, t catalog.Type, n int) *timestampWriter {
	w := &timestampWriter{typ: t, unit: unitOf(t)}
	if w.unit == storedNanos {
		w.vBuf, w.nsBuf, w.v, w.nanos = column.NewNanoTimestamps(mem, n)
	} else {
		w.vBuf, w.v = column.NewValues[int64](mem, n)
	}
	return w
}

// set stores value i; it is false where a TIMESTAMP(4..6) cannot hold the value in
// microseconds (years beyond about ±294,000), and then stores 0. nanoOfMilli must already be
// truncated to the column's precision.
func (w *timestampWriter) set(i int, ms, nanoOfMilli int64) bool {
	switch w.unit {
	case storedMicros:
		us, ok := microsOf(ms, nanoOfMilli/1000)
		if !ok {
			w.v[i] = 0
			return false
		}
		w.v[i] = us
	case storedNanos:
		w.v[i], w.nanos[i] = ms, int32(nanoOfMilli)
	default:
		w.v[i] = ms
	}
	return true
}

// finish makes the column (valid may be nil: no nulls) and hands the buffers over.
func (w *timestampWriter) finish(n int, valid *memory.Buffer) arrow.Array {
	if w.unit == storedNanos {
		return column.MakeNanoTimestamps(arrowType(w.typ), n, valid, w.vBuf, w.nsBuf)
	}
	return column.MakeArray(arrowType(w.typ), n, valid, w.vBuf)
}

// castTimestampParts is castTimestamp where either side is a TIMESTAMP(7..9): value by value
// through TimestampData's parts.
func castTimestampParts(ctx *Ctx, a arrow.Array, from, to catalog.Type, target int, zone *javatime.Zone) (arrow.Array, error) {
	src := readTimestamps(a, from)
	n := a.Len()
	w := newTimestampWriter(ctx.Mem, to, n)
	var offsets javatime.Offsets
	if zone != nil {
		offsets = zone.Offsets()
	}
	narrow := target < from.Precision
	var failed []int
	for i := 0; i < n; i++ {
		ms, nanoOfMilli := src.at(i)
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
		if !w.set(i, ms, nanoOfMilli) && a.IsValid(i) {
			failed = append(failed, i)
		}
	}
	valid := column.CopyValidity(a, ctx.Mem)
	if len(failed) > 0 {
		valid = failRows(ctx, valid, failed, fmt.Errorf("java.time.DateTimeException: a value is beyond the years a %s holds in Sluice (about -290,000 to 294,000)", to))
	}
	return w.finish(n, valid), nil
}
