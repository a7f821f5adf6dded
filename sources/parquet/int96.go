package parquet

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// int96Column reads an INT96 timestamp column itself, row group by row group, in step with the
// batches of the other columns. arrow-go converts INT96 values to nanoseconds and rejects
// nanoseconds of the day outside [0, 86400e9); Flink's writer produces negative ones (an
// instant before its epoch day's start in a zone east of UTC) and its reader accepts them with
// its own arithmetic, which this reproduces (TimestampColumnReader#int96ToTimestamp).
type int96Column struct {
	name   string
	file   *file.Reader
	col    int
	groups []int
	next   int // index into groups of the next row group to open
	rdr    *file.Int96ColumnChunkReader
	maxDef int16
	want   arrow.DataType
	opts   Options

	vals []pq.Int96
	defs []int16
}

func newInt96Column(name string, f *file.Reader, col int, groups []int, want arrow.DataType, opts Options) *int96Column {
	return &int96Column{name: name, file: f, col: col, groups: groups, want: want, opts: opts,
		maxDef: f.MetaData().Schema.Column(col).MaxDefinitionLevel()}
}

// read returns the next n rows of the column as Flink's TIMESTAMP value in c.want's unit
// (milliseconds, microseconds, or milliseconds and nanoseconds of the millisecond).
func (c *int96Column) read(n int, mem memory.Allocator) (arrow.Array, error) {
	unit := column.TimestampUnitOf(c.want)
	w := column.NewTimestampWriter(mem, c.want, n)
	valid := column.NewBitmap(mem, n)
	bits := valid.Bytes()
	nulls := 0
	fail := func(err error) (arrow.Array, error) {
		w.Release()
		valid.Release()
		return nil, fmt.Errorf("column %s: %w", c.name, err)
	}
	for done := 0; done < n; {
		if c.rdr == nil || !c.rdr.HasNext() {
			if c.next >= len(c.groups) {
				return fail(fmt.Errorf("the file ended %d rows early", n-done))
			}
			rg := c.file.RowGroup(c.groups[c.next])
			c.next++
			cr, err := rg.Column(c.col)
			if err != nil {
				return fail(err)
			}
			r, ok := cr.(*file.Int96ColumnChunkReader)
			if !ok {
				return fail(fmt.Errorf("not an INT96 column chunk"))
			}
			c.rdr = r
			continue
		}
		want := n - done
		if cap(c.vals) < want {
			c.vals = make([]pq.Int96, want)
			c.defs = make([]int16, want)
		}
		vals, defs := c.vals[:want], c.defs[:want]
		levels, _, err := c.rdr.ReadBatch(int64(want), vals, defs, nil)
		if err != nil {
			return fail(err)
		}
		if levels == 0 {
			c.rdr = nil // row group exhausted
			continue
		}
		k := 0
		for i := 0; i < int(levels); i++ {
			row := done + i
			if c.maxDef > 0 && defs[i] < c.maxDef {
				w.Set(row, 0, 0)
				nulls++
				continue
			}
			ms, nanoOfMilli, err := int96Timestamp(vals[k], c.opts, unit)
			k++
			if err != nil {
				return fail(err)
			}
			if !w.Set(row, ms, nanoOfMilli) {
				return fail(fmt.Errorf("INT96 timestamp %d ms after the epoch is beyond the years a TIMESTAMP(4..6) holds in Sluice (about -290,000 to 294,000)", ms))
			}
			bitutil.SetBit(bits, row)
		}
		done += int(levels)
	}
	if nulls == 0 {
		valid.Release()
		valid = nil
	}
	return w.Finish(n, valid), nil
}

// int96Millis converts one INT96 value as Flink's reader does: milliseconds of the Julian day
// plus the nanoseconds of the day divided (truncating, as Java) by 10^6; with 'utc-timezone'
// that instant, otherwise its wall clock in the JVM's zone with the nanoseconds replaced by
// nanosOfDay % 10^9 (java.sql.Timestamp#setNanos). Negative fractions fail as they fail there.
//
// The result is TimestampData's millisecond and nanos of the millisecond, which the column's
// unit must hold (see belowUnit).
func int96Timestamp(v pq.Int96, opts Options, unit column.TimestampUnit) (ms, nanoOfMilli int64, err error) {
	nanosOfDay := int64(binary.LittleEndian.Uint64(v[:8]))
	julianDay := int64(int32(binary.LittleEndian.Uint32(v[8:])))
	ms = (julianDay-2_440_588)*86_400_000 + nanosOfDay/1_000_000
	if opts.UTCTimestamps {
		if nanosOfDay%1_000_000 < 0 {
			return 0, 0, fmt.Errorf("INT96 timestamp (day %d, %d ns) has a negative fraction of a millisecond, which Flink's reader rejects", julianDay, nanosOfDay)
		}
		return heldBy(unit, ms, nanosOfDay%1_000_000, julianDay, nanosOfDay)
	}
	nanos := nanosOfDay % 1_000_000_000
	if nanos < 0 {
		return 0, 0, fmt.Errorf("INT96 timestamp (day %d, %d ns) has a negative fraction of a second, which Flink's reader rejects (java.sql.Timestamp#setNanos)", julianDay, nanosOfDay)
	}
	return heldBy(unit, javatime.LocalMillis(ms, nanos, opts.ZoneOffsetSeconds*1000), nanos%1_000_000, julianDay, nanosOfDay)
}

// heldBy returns ms and nanoOfMilli, or an error where the column's unit cannot hold them.
func heldBy(unit column.TimestampUnit, ms, nanoOfMilli int64, julianDay, nanosOfDay int64) (int64, int64, error) {
	if belowUnit(unit, nanoOfMilli) {
		return 0, 0, fmt.Errorf("INT96 timestamp (day %d, %d ns) has digits below the %s that Flink's value keeps and Sluice's column cannot hold", julianDay, nanosOfDay, unitName(unit))
	}
	return ms, nanoOfMilli, nil
}

// belowUnit reports whether a value's nanoseconds of the millisecond have digits below what a
// column of unit keeps: any for milliseconds (TIMESTAMP(0..3)), below the microsecond for
// TIMESTAMP(4..6). Flink's reader keeps every digit in its TimestampData whatever the column's
// precision (a comparison or a cast to a wider precision sees them), so Sluice fails the read
// rather than drop them.
func belowUnit(unit column.TimestampUnit, nanoOfMilli int64) bool {
	switch unit {
	case column.Millis:
		return nanoOfMilli != 0
	case column.Micros:
		return nanoOfMilli%1000 != 0
	}
	return false
}

// unitName names what a column of unit holds, for errors.
func unitName(unit column.TimestampUnit) string {
	if unit == column.Millis {
		return "millisecond"
	}
	return "microsecond"
}
