package parquet

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// Converter turns a column as pqarrow reads it into the Arrow column Sluice holds for the
// column's Flink type (catalog.ArrowType), with the value the table format's reader would
// produce (Flink's Parquet format unless Options.Convert says otherwise).
type Converter func(in arrow.Array, mem memory.Allocator) (arrow.Array, error)

// converterFor chooses the conversion of a file column into a Flink type once per split, or
// says why the file column cannot be read as that type. Flink's reader
// (ParquetSplitReaderUtil#createWritableColumnVector) checks only the column's physical type,
// so the checks here are on the physical type too; the conversions are the reader's.
func converterFor(name string, f pqarrow.SchemaField, phys parquet.Type, t catalog.Type, opts Options) (Converter, error) {
	want, err := catalog.ArrowType(t)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", name, err)
	}
	have := f.Field.Type
	integral := arrow.IsInteger(have.ID())
	switch t.Kind {
	case catalog.Boolean:
		if phys == parquet.Types.Boolean {
			return Retype(want), nil
		}
	case catalog.TinyInt:
		if phys == parquet.Types.Int32 && integral {
			return IntegerTo[int8](have, want), nil
		}
	case catalog.SmallInt:
		if phys == parquet.Types.Int32 && integral {
			return IntegerTo[int16](have, want), nil
		}
	case catalog.Int, catalog.Date, catalog.Time:
		// DATE and TIME are the raw INT32 (epoch days, milliseconds of the day).
		if phys == parquet.Types.Int32 && (integral || have.ID() == arrow.DATE32 || have.ID() == arrow.TIME32) {
			return IntegerTo[int32](have, want), nil
		}
	case catalog.BigInt:
		if phys == parquet.Types.Int64 && integral {
			return IntegerTo[int64](have, want), nil
		}
	case catalog.Float:
		if phys == parquet.Types.Float {
			return Retype(want), nil
		}
	case catalog.Double:
		if phys == parquet.Types.Double {
			return Retype(want), nil
		}
	case catalog.Decimal:
		if _, ok := have.(*arrow.Decimal128Type); !ok {
			break
		}
		// The file's precision and scale are not compared with the table's: Flink reuses the
		// unscaled value with the table's (p, s).
		switch {
		case t.Precision <= 9 && (phys == parquet.Types.Int32 || phys == parquet.Types.FixedLenByteArray),
			t.Precision <= 18 && t.Precision > 9 && (phys == parquet.Types.Int64 || phys == parquet.Types.FixedLenByteArray),
			t.Precision > 18 && (phys == parquet.Types.FixedLenByteArray || phys == parquet.Types.ByteArray):
			return decimalAs(name, want.(*arrow.Decimal128Type)), nil
		}
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		if phys == parquet.Types.ByteArray && (have.ID() == arrow.STRING || have.ID() == arrow.BINARY) {
			return Retype(want), nil
		}
	case catalog.Timestamp, catalog.TimestampLTZ:
		// INT96 columns are read by int96Column, not through pqarrow.
		ts, ok := have.(*arrow.TimestampType)
		if !ok || phys != parquet.Types.Int64 {
			break
		}
		return timestampAs(name, want, ts.Unit, opts), nil
	}
	return nil, fmt.Errorf("column %s: the file's %s column (read as %s) cannot be read as %s (Flink: Unexpected type)",
		name, phys, have, t)
}

// Retype gives a column Sluice's Arrow type for it without copying (same layout).
func Retype(want arrow.DataType) Converter {
	return func(in arrow.Array, _ memory.Allocator) (arrow.Array, error) {
		return column.Retype(in, want), nil
	}
}

// IntegerTo converts any integer column to To as Java's casts do (two's-complement wrap), or
// passes it through when it already is To.
func IntegerTo[To int8 | int16 | int32 | int64](have, want arrow.DataType) Converter {
	switch have.ID() {
	case arrow.INT8:
		return convertInts[int8, To](want)
	case arrow.UINT8:
		return convertInts[uint8, To](want)
	case arrow.INT16:
		return convertInts[int16, To](want)
	case arrow.UINT16:
		return convertInts[uint16, To](want)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return convertInts[int32, To](want)
	case arrow.UINT32:
		return convertInts[uint32, To](want)
	case arrow.INT64:
		return convertInts[int64, To](want)
	default: // UINT64
		return convertInts[uint64, To](want)
	}
}

func convertInts[From int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64, To int8 | int16 | int32 | int64](want arrow.DataType) Converter {
	return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
		var zf From
		var zt To
		if unsafe.Sizeof(zf) == unsafe.Sizeof(zt) {
			return Retype(want)(in, mem) // same bits
		}
		src := column.Values[From](in)
		buf, dst := column.NewValues[To](mem, len(src))
		for i, v := range src {
			dst[i] = To(v)
		}
		return column.MakeArray(want, len(src), column.CopyValidity(in, mem), buf), nil
	}
}

// timestampAs converts INT64 timestamps (MILLIS, MICROS or NANOS) to Flink's TIMESTAMP value
// (in want's unit) as TimestampColumnReader#int64ToTimestamp does: Java's truncating
// division into milliseconds and a fraction; with 'utc-timezone' the instant (the fraction
// below the millisecond is dropped with TIMESTAMP(3)), otherwise its wall clock in the JVM's
// zone (java.sql.Timestamp). Values Flink's reader rejects (negative fractions that
// TimestampData or Timestamp#setNanos refuse) are errors here too.
func timestampAs(name string, want arrow.DataType, unit arrow.TimeUnit, opts Options) Converter {
	shift := opts.ZoneOffsetSeconds * 1000
	utc := opts.UTCTimestamps
	wantUnit := column.TimestampUnitOf(want)
	return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
		src := column.Values[int64](in)
		w := column.NewTimestampWriter(mem, want, len(src))
		for i, v := range src {
			if in.IsNull(i) {
				w.Set(i, 0, 0)
				continue
			}
			var ms, nos int64
			switch unit {
			case arrow.Second:
				ms = v * 1000
			case arrow.Millisecond:
				ms, nos = v, v%1000*1_000_000
			case arrow.Microsecond:
				ms, nos = v/1000, v%1_000_000*1000
			case arrow.Nanosecond:
				ms, nos = v/1_000_000, v%1_000_000_000
			}
			switch {
			case utc && nos%1_000_000 < 0, !utc && nos < 0:
				w.Release()
				return nil, fmt.Errorf("column %s: timestamp %d (%s since the epoch) has a negative fraction, which Flink's Parquet reader rejects", name, v, unit)
			case belowUnit(wantUnit, nos%1_000_000):
				w.Release()
				return nil, fmt.Errorf("column %s: timestamp %d (%s since the epoch) has digits below the %s that Flink's value keeps and Sluice's column cannot hold", name, v, unit, unitName(wantUnit))
			}
			if !utc {
				ms = javatime.LocalMillis(ms, nos, shift)
			}
			// TimestampData's nanos of the millisecond: the fraction's last six digits (none
			// in a TIMESTAMP(0..3), whose value is the milliseconds).
			if !w.Set(i, ms, nos%1_000_000) {
				w.Release()
				return nil, fmt.Errorf("column %s: timestamp %d (%s since the epoch) is beyond the years a TIMESTAMP(4..6) holds in Sluice (about -290,000 to 294,000)", name, v, unit)
			}
		}
		return w.Finish(len(src), column.CopyValidity(in, mem)), nil
	}
}

// decimalAs relabels unscaled decimal values with the table's precision and scale, as Flink's
// reader does; a value with more digits than the precision is NULL for DECIMAL(p > 18)
// (DecimalData#fromBigDecimal) and an error for compact decimals (whose long Flink would wrap).
func decimalAs(name string, want *arrow.Decimal128Type) Converter {
	limit := decimal128.GetMaxValue(want.Precision)
	return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
		src := column.Values[decimal128.Num](in)
		buf, dst := column.NewValues[decimal128.Num](mem, len(src))
		valid := column.CopyValidity(in, mem)
		var bits []byte
		for i, v := range src {
			if v.Abs().Greater(limit) && in.IsValid(i) {
				if want.Precision <= 18 {
					if valid != nil {
						valid.Release()
					}
					buf.Release()
					return nil, fmt.Errorf("column %s: decimal %s has more digits than DECIMAL(%d, %d)", name, v.BigInt(), want.Precision, want.Scale)
				}
				if valid == nil {
					valid = column.NewBitmap(mem, len(src))
					bitutil.SetBitsTo(valid.Bytes(), 0, int64(len(src)), true)
				}
				bits = valid.Bytes()
				bitutil.ClearBit(bits, i)
				v = decimal128.Num{}
			}
			dst[i] = v
		}
		return column.MakeArray(want, len(src), valid, buf), nil
	}
}
