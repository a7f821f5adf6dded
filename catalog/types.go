// Package catalog maps Flink logical types to Arrow types. It is the only place in Sluice that
// knows how a Flink type is represented as an Arrow column.
package catalog

import (
	"fmt"
	"strings"
)

// Kind is the root of a Flink logical type (LogicalTypeRoot).
type Kind int

// The Flink type roots Sluice knows by name. Kinds that Sluice cannot execute still parse, so
// that a verdict can name them.
const (
	Unknown Kind = iota
	Boolean
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Decimal
	Char
	VarChar
	Binary
	VarBinary
	Date
	Time
	Timestamp
	TimestampLTZ
	TimestampTZ
	IntervalYearMonth
	IntervalDayTime
	Array
	Map
	Multiset
	Row
	Raw
	Null
	Symbol
)

var kindNames = map[Kind]string{
	Unknown: "UNKNOWN", Boolean: "BOOLEAN", TinyInt: "TINYINT", SmallInt: "SMALLINT", Int: "INT",
	BigInt: "BIGINT", Float: "FLOAT", Double: "DOUBLE", Decimal: "DECIMAL", Char: "CHAR",
	VarChar: "VARCHAR", Binary: "BINARY", VarBinary: "VARBINARY", Date: "DATE", Time: "TIME",
	Timestamp: "TIMESTAMP", TimestampLTZ: "TIMESTAMP_LTZ", TimestampTZ: "TIMESTAMP_TZ",
	IntervalYearMonth: "INTERVAL YEAR TO MONTH", IntervalDayTime: "INTERVAL DAY TO SECOND",
	Array: "ARRAY", Map: "MAP", Multiset: "MULTISET", Row: "ROW", Raw: "RAW", Null: "NULL",
	Symbol: "SYMBOL",
}

// String returns the SQL name of the kind.
func (k Kind) String() string { return kindNames[k] }

// TimeAttr says whether a timestamp is a time attribute (Flink's TimestampKind).
type TimeAttr int

// Timestamp kinds, as Flink's TimestampKind.
const (
	Regular TimeAttr = iota
	Rowtime
	Proctime
)

// MaxVarLength is the length of STRING and BYTES (VARCHAR(2147483647)).
const MaxVarLength = 2147483647

// Type is a Flink logical type.
type Type struct {
	Kind     Kind
	Nullable bool
	// Length of CHAR, VARCHAR, BINARY, VARBINARY.
	Length int
	// Precision of DECIMAL, TIME, TIMESTAMP*, and the fractional precision of intervals.
	Precision int
	// Scale of DECIMAL.
	Scale int
	// TimeAttr marks rowtime/proctime attributes of timestamps.
	TimeAttr TimeAttr
	// Fields of a ROW.
	Fields []Field
	// Elem is the element type of ARRAY/MULTISET, the key type of MAP.
	Elem *Type
	// Value is the value type of MAP.
	Value *Type
	// Raw keeps the original text of a type Sluice does not model in detail (RAW, structured).
	Raw string
}

// Field is one named field of a ROW type.
type Field struct {
	Name string
	Type Type
}

// Convenience constructors used by tests and by code that builds types.

// IntType returns INT with the given nullability.
func IntType(nullable bool) Type { return Type{Kind: Int, Nullable: nullable} }

// BigIntType returns BIGINT with the given nullability.
func BigIntType(nullable bool) Type { return Type{Kind: BigInt, Nullable: nullable} }

// DoubleType returns DOUBLE with the given nullability.
func DoubleType(nullable bool) Type { return Type{Kind: Double, Nullable: nullable} }

// BooleanType returns BOOLEAN with the given nullability.
func BooleanType(nullable bool) Type { return Type{Kind: Boolean, Nullable: nullable} }

// StringType returns VARCHAR(2147483647) with the given nullability.
func StringType(nullable bool) Type {
	return Type{Kind: VarChar, Length: MaxVarLength, Nullable: nullable}
}

// DecimalType returns DECIMAL(p, s) with the given nullability.
func DecimalType(p, s int, nullable bool) Type {
	return Type{Kind: Decimal, Precision: p, Scale: s, Nullable: nullable}
}

// TimestampType returns TIMESTAMP(p) with the given nullability.
func TimestampType(p int, nullable bool) Type {
	return Type{Kind: Timestamp, Precision: p, Nullable: nullable}
}

// WithNullable returns a copy of t with the given nullability.
func (t Type) WithNullable(n bool) Type { t.Nullable = n; return t }

// IsString reports whether t is CHAR or VARCHAR.
func (t Type) IsString() bool { return t.Kind == Char || t.Kind == VarChar }

// IsInterval reports whether t is INTERVAL YEAR TO MONTH or INTERVAL DAY TO SECOND (of any
// resolution: Flink keeps an int of months or a long of milliseconds).
func (t Type) IsInterval() bool { return t.Kind == IntervalYearMonth || t.Kind == IntervalDayTime }

// Parts are the types inside a nested type, one level down: an ARRAY's or MULTISET's element,
// a MAP's key and value, a ROW's fields; none for other types.
func (t Type) Parts() []Type {
	switch t.Kind {
	case Array, Multiset:
		return []Type{*t.Elem}
	case Map:
		return []Type{*t.Elem, *t.Value}
	case Row:
		parts := make([]Type, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Type
		}
		return parts
	}
	return nil
}

// Holds reports whether t, or a type inside it (an ARRAY's element, a MAP's key or value, a
// ROW's field, at any depth), satisfies is.
func (t Type) Holds(is func(Type) bool) bool {
	if is(t) {
		return true
	}
	switch t.Kind {
	case Array:
		return t.Elem.Holds(is)
	case Map:
		return t.Elem.Holds(is) || t.Value.Holds(is)
	case Row:
		for _, f := range t.Fields {
			if f.Type.Holds(is) {
				return true
			}
		}
	}
	return false
}

// IsBinary reports whether t is BINARY or VARBINARY.
func (t Type) IsBinary() bool { return t.Kind == Binary || t.Kind == VarBinary }

// IsIntegral reports whether t is TINYINT, SMALLINT, INT or BIGINT.
func (t Type) IsIntegral() bool {
	return t.Kind == TinyInt || t.Kind == SmallInt || t.Kind == Int || t.Kind == BigInt
}

// IsNumeric reports whether t is an exact or approximate numeric type.
func (t Type) IsNumeric() bool {
	return t.IsIntegral() || t.Kind == Float || t.Kind == Double || t.Kind == Decimal
}

// IsNested reports whether t is a ROW, ARRAY, MULTISET or MAP.
func (t Type) IsNested() bool {
	return t.Kind == Row || t.Kind == Array || t.Kind == Multiset || t.Kind == Map
}

// IsNanoTimestamp reports whether t is a TIMESTAMP or TIMESTAMP_LTZ of precision 7 to 9,
// whose values are kept as epoch milliseconds and nanoseconds of the millisecond
// (NanoTimestampArrow).
func (t Type) IsNanoTimestamp() bool {
	return (t.Kind == Timestamp || t.Kind == TimestampLTZ) && t.Precision > 6
}

// IsCompactDecimal reports whether a DECIMAL fits an int64 unscaled value (precision ≤ 18),
// which is also how BinaryRowData stores it in the fixed-length part.
func (t Type) IsCompactDecimal() bool { return t.Kind == Decimal && t.Precision <= 18 }

// Equal reports whether two types are the same, nullability included.
func (t Type) Equal(o Type) bool { return t.String() == o.String() }

// String renders t as Flink's LogicalType#asSerializableString does.
func (t Type) String() string {
	s := t.base()
	if !t.Nullable {
		s += " NOT NULL"
	}
	if t.TimeAttr == Rowtime {
		s += " *ROWTIME*"
	} else if t.TimeAttr == Proctime {
		s += " *PROCTIME*"
	}
	return s
}

func (t Type) base() string {
	switch t.Kind {
	case Char, VarChar, Binary, VarBinary:
		return fmt.Sprintf("%s(%d)", t.Kind, t.Length)
	case Decimal:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case Time, Timestamp:
		return fmt.Sprintf("%s(%d)", t.Kind, t.Precision)
	case TimestampLTZ:
		return fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision)
	case TimestampTZ:
		return fmt.Sprintf("TIMESTAMP(%d) WITH TIME ZONE", t.Precision)
	case Array, Multiset:
		return fmt.Sprintf("%s<%s>", t.Kind, t.Elem)
	case Map:
		return fmt.Sprintf("MAP<%s, %s>", t.Elem, t.Value)
	case Row:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = "`" + strings.ReplaceAll(f.Name, "`", "``") + "` " + f.Type.String()
		}
		return "ROW<" + strings.Join(parts, ", ") + ">"
	case Raw, IntervalYearMonth, IntervalDayTime:
		if t.Raw != "" {
			return t.Raw
		}
	}
	return t.Kind.String()
}
