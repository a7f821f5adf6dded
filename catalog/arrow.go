package catalog

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// ArrowType returns the Arrow type that holds values of t in Sluice's batches.
//
// DECIMAL(p, s) is Decimal128(p, s) at every precision; TIME is Time32 in milliseconds of the
// day (Flink's internal int); TIMESTAMP(p ≤ 3) is a millisecond timestamp without zone and
// TIMESTAMP_LTZ(p ≤ 3) one in UTC; precisions 4 to 6 are microsecond timestamps (Flink's
// TimestampData of millis and nanos-of-milli, whose nanos are whole microseconds at those
// precisions). Precisions 7 to 9 are Flink's TimestampData itself, a struct of the epoch
// millisecond (int64) and the nanoseconds of that millisecond (int32, 0..999,999): epoch
// nanoseconds in an int64 reach only the years 1677 to 2262 (see NanoTimestampArrow).
//
// ROW is a struct of its fields, ARRAY a list of its elements. MAP is a list of key/value
// structs ("entries"), the layout of Arrow's map type but with a nullable key: Flink allows a
// NULL key, Arrow's map type does not. Nullability of fields, elements, keys and values follows
// the Flink types.
func ArrowType(t Type) (arrow.DataType, error) {
	switch t.Kind {
	case Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case TinyInt:
		return arrow.PrimitiveTypes.Int8, nil
	case SmallInt:
		return arrow.PrimitiveTypes.Int16, nil
	case Int:
		return arrow.PrimitiveTypes.Int32, nil
	case BigInt:
		return arrow.PrimitiveTypes.Int64, nil
	case Float:
		return arrow.PrimitiveTypes.Float32, nil
	case Double:
		return arrow.PrimitiveTypes.Float64, nil
	case Decimal:
		if t.Precision < 1 || t.Precision > 38 {
			return nil, fmt.Errorf("arrow type of %s: precision out of range", t)
		}
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}, nil
	case Char, VarChar:
		return arrow.BinaryTypes.String, nil
	case Binary, VarBinary, Raw:
		// RAW values are opaque serialized bytes.
		return arrow.BinaryTypes.Binary, nil
	case Date:
		return arrow.FixedWidthTypes.Date32, nil
	case Time:
		return arrow.FixedWidthTypes.Time32ms, nil
	case Timestamp, TimestampLTZ:
		zone := ""
		if t.Kind == TimestampLTZ {
			zone = "UTC"
		}
		switch {
		case t.Precision <= 3:
			return &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: zone}, nil
		case t.Precision <= 6:
			return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: zone}, nil
		case t.Precision <= 9:
			return NanoTimestampArrow, nil
		}
	case IntervalDayTime:
		// Flink's internal long of milliseconds.
		return arrow.FixedWidthTypes.Duration_ms, nil
	case IntervalYearMonth:
		// Flink's internal int of months.
		return arrow.PrimitiveTypes.Int32, nil
	case Row:
		fields := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := ArrowType(f.Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.Name, err)
			}
			fields[i] = arrow.Field{Name: f.Name, Type: ft, Nullable: f.Type.Nullable}
		}
		return arrow.StructOf(fields...), nil
	case Array:
		if t.Elem == nil {
			return nil, fmt.Errorf("arrow type of %s: no element type", t)
		}
		et, err := ArrowType(*t.Elem)
		if err != nil {
			return nil, fmt.Errorf("element: %w", err)
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: et, Nullable: t.Elem.Nullable}), nil
	case Map:
		if t.Elem == nil || t.Value == nil {
			return nil, fmt.Errorf("arrow type of %s: no key or value type", t)
		}
		kt, err := ArrowType(*t.Elem)
		if err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
		vt, err := ArrowType(*t.Value)
		if err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
		entries := arrow.StructOf(
			arrow.Field{Name: "key", Type: kt, Nullable: t.Elem.Nullable},
			arrow.Field{Name: "value", Type: vt, Nullable: t.Value.Nullable})
		return arrow.ListOfField(arrow.Field{Name: "entries", Type: entries}), nil
	}
	return nil, fmt.Errorf("no arrow type for %s", t)
}

// NanoTimestampArrow is the Arrow type of TIMESTAMP(7..9) and TIMESTAMP_LTZ(7..9) values:
// Flink's TimestampData as a struct of the epoch millisecond (field 0) and the nanoseconds of
// that millisecond (field 1). A NULL timestamp is a null struct; what its fields hold there is
// not read (the row edges leave zeros, the fields sharing the struct's validity as Arrow's
// struct builder leaves them). TIMESTAMP_LTZ's millisecond is the instant's, TIMESTAMP's the wall clock's as if in
// UTC, as for the other precisions.
var NanoTimestampArrow = arrow.StructOf(
	arrow.Field{Name: "millisecond", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	arrow.Field{Name: "nano_of_millisecond", Type: arrow.PrimitiveTypes.Int32, Nullable: true})

// ArrowSchema returns the schema of a batch whose columns have the given names and types.
func ArrowSchema(names []string, types []Type) (*arrow.Schema, error) {
	fields := make([]arrow.Field, len(types))
	for i, t := range types {
		at, err := ArrowType(t)
		if err != nil {
			return nil, fmt.Errorf("column %d (%s): %w", i, names[i], err)
		}
		fields[i] = arrow.Field{Name: names[i], Type: at, Nullable: t.Nullable}
	}
	return arrow.NewSchema(fields, nil), nil
}

// RowKindColumn is the name of the int8 column that carries Flink's RowKind in a changelog
// batch; it is always the last column when present.
const RowKindColumn = "$row_kind"
