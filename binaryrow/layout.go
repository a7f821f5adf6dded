package binaryrow

import "github.com/sluice-project/sluice/catalog"

// HeaderBits is the number of bits before the first null bit: the RowKind byte.
const HeaderBits = 8

// InlineMark is the highest bit of a slot: set when a string or binary of at most MaxInline
// bytes is stored inside the slot itself.
const InlineMark = uint64(0x80) << 56

// MaxInline is the longest string or binary stored inside its slot.
const MaxInline = 7

// NullBitsSize is the size in bytes of the header plus null bits of a row with arity fields.
func NullBitsSize(arity int) int { return ((arity + 63 + HeaderBits) / 64) * 8 }

// FixedSize is the size of the header, null bits and slots of a row with arity fields.
func FixedSize(arity int) int { return NullBitsSize(arity) + 8*arity }

// SlotOffset is the offset of field i's slot from the start of the row.
func SlotOffset(arity, i int) int { return NullBitsSize(arity) + 8*i }

// NullByte and NullMask locate field i's null bit in the row.
func NullByte(i int) int { return (i + HeaderBits) / 8 }

// NullMask is the bit of field i's null flag within NullByte(i).
func NullMask(i int) byte { return 1 << ((i + HeaderBits) % 8) }

// RoundUp8 rounds n up to a multiple of 8, as the variable part pads every value.
func RoundUp8(n int) int { return (n + 7) &^ 7 }

// IsCompactTimestamp reports whether a TIMESTAMP/TIMESTAMP_LTZ of precision p is stored as
// epoch millis in its slot (p ≤ 3).
func IsCompactTimestamp(p int) bool { return p <= 3 }

// Supported reports whether the row edges can read and write t, with a reason when not.
func Supported(t catalog.Type) (bool, string) {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt,
		catalog.Float, catalog.Double, catalog.Date, catalog.Time,
		catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		return true, ""
	case catalog.IntervalYearMonth, catalog.IntervalDayTime:
		// Flink's internal int of months and long of milliseconds, in the fixed part.
		return true, ""
	case catalog.Raw:
		// Opaque bytes in the variable part (never inline), carried as they are.
		return true, ""
	case catalog.Decimal:
		if t.Precision > 38 {
			return false, "DECIMAL precision above 38"
		}
		return true, ""
	case catalog.Timestamp, catalog.TimestampLTZ:
		if t.Precision > 9 {
			return false, t.Kind.String() + " with precision above 9"
		}
		return true, ""
	case catalog.Row:
		// A nested BinaryRowData in the variable part.
		for _, f := range t.Fields {
			if ok, why := Supported(f.Type); !ok {
				return false, "field " + f.Name + " of " + t.String() + ": " + why
			}
		}
		return true, ""
	case catalog.Array:
		// A BinaryArrayData in the variable part.
		if t.Elem == nil {
			return false, "ARRAY without element type"
		}
		if ok, why := Supported(*t.Elem); !ok {
			return false, "element of " + t.String() + ": " + why
		}
		return true, ""
	case catalog.Map:
		// A BinaryMapData (key array, value array) in the variable part.
		if t.Elem == nil || t.Value == nil {
			return false, "MAP without key or value type"
		}
		if ok, why := Supported(*t.Elem); !ok {
			return false, "key of " + t.String() + ": " + why
		}
		if ok, why := Supported(*t.Value); !ok {
			return false, "value of " + t.String() + ": " + why
		}
		return true, ""
	}
	return false, "type " + t.String() + " is not supported by the row edges yet"
}

// ArrayHeaderSize is the size of a BinaryArrayData's header: the int element count and the
// null bits, in whole 4-byte words (BinaryArrayData#calculateHeaderInBytes).
func ArrayHeaderSize(n int) int { return 4 + ((n+31)/32)*4 }

// ElementSize is the width of one element of an array of t in BinaryArrayData's element region
// (BinaryArrayData#calculateFixLengthPartSize): 1, 2, 4 or 8 bytes; variable-length values
// keep offset and length (or an inline value) in 8 bytes like a row's slot.
func ElementSize(t catalog.Type) int {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt:
		return 1
	case catalog.SmallInt:
		return 2
	case catalog.Int, catalog.Float, catalog.Date, catalog.Time, catalog.IntervalYearMonth:
		return 4
	}
	return 8
}
