package column

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/javacompat/javatime"
)

// TimestampUnit is how a timestamp column keeps its values (catalog.ArrowType): epoch
// milliseconds (precision 0 to 3), epoch microseconds (4 to 6), or epoch milliseconds and
// nanoseconds of the millisecond (7 to 9, a struct: catalog.NanoTimestampArrow).
type TimestampUnit uint8

// The timestamp units.
const (
	Millis TimestampUnit = iota
	Micros
	Nanos
)

// TimestampUnitOf is the unit of a timestamp column of Arrow type dt.
func TimestampUnitOf(dt arrow.DataType) TimestampUnit {
	switch t := dt.(type) {
	case *arrow.StructType:
		return Nanos
	case *arrow.TimestampType:
		if t.Unit == arrow.Microsecond {
			return Micros
		}
	}
	return Millis
}

// Timestamps is a timestamp column of any unit read as Flink's TimestampData: epoch
// milliseconds and nanoseconds of the millisecond.
type Timestamps struct {
	unit  TimestampUnit
	v     []int64 // milliseconds or microseconds
	nanos []int32 // Nanos only
}

// ReadTimestamps reads timestamp column a.
func ReadTimestamps(a arrow.Array) Timestamps {
	u := TimestampUnitOf(a.DataType())
	if u == Nanos {
		ms, nanos := NanoTimestamps(a)
		return Timestamps{unit: u, v: ms, nanos: nanos}
	}
	return Timestamps{unit: u, v: Values[int64](a)}
}

// Unit is the column's unit.
func (t Timestamps) Unit() TimestampUnit { return t.unit }

// At is value i's epoch millisecond and nanoseconds of the millisecond.
func (t Timestamps) At(i int) (ms, nanoOfMilli int64) {
	switch t.unit {
	case Micros:
		return javatime.SplitMicros(t.v[i])
	case Nanos:
		return t.v[i], int64(t.nanos[i])
	}
	return t.v[i], 0
}

// NanoParts are the two value slices of a TIMESTAMP(7..9) column (Unit Nanos).
func (t Timestamps) NanoParts() (ms []int64, nanos []int32) { return t.v, t.nanos }

// TimestampWriter fills a timestamp column of any unit from TimestampData's parts.
type TimestampWriter struct {
	dt          arrow.DataType
	unit        TimestampUnit
	vBuf, nsBuf *memory.Buffer
	v           []int64
	nanos       []int32
}

// NewTimestampWriter starts a column of n values of Arrow type dt.
func NewTimestampWriter(mem memory.Allocator, dt arrow.DataType, n int) *TimestampWriter {
	w := &TimestampWriter{dt: dt, unit: TimestampUnitOf(dt)}
	if w.unit == Nanos {
		w.vBuf, w.nsBuf, w.v, w.nanos = NewNanoTimestamps(mem, n)
	} else {
		w.vBuf, w.v = NewValues[int64](mem, n)
	}
	return w
}

// Set stores value i; it is false where microseconds cannot hold the value (years beyond
// about ±292,000), and then stores 0. nanoOfMilli must already be truncated to the column's
// precision (its digits below the unit are dropped).
func (w *TimestampWriter) Set(i int, ms, nanoOfMilli int64) bool {
	switch w.unit {
	case Micros:
		us := ms*1000 + nanoOfMilli/1000
		if javatime.FloorDiv(us, 1000) != ms {
			w.v[i] = 0
			return false
		}
		w.v[i] = us
	case Nanos:
		w.v[i], w.nanos[i] = ms, int32(nanoOfMilli)
	default:
		w.v[i] = ms
	}
	return true
}

// Release frees the buffers of a column that will not be finished.
func (w *TimestampWriter) Release() {
	w.vBuf.Release()
	if w.nsBuf != nil {
		w.nsBuf.Release()
	}
}

// Finish makes the column (valid may be nil: no nulls), taking over valid and the value
// buffers.
func (w *TimestampWriter) Finish(n int, valid *memory.Buffer) arrow.Array {
	if w.unit == Nanos {
		return MakeNanoTimestamps(w.dt, n, valid, w.vBuf, w.nsBuf)
	}
	return MakeArray(w.dt, n, valid, w.vBuf)
}
