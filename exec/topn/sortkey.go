package topn

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// SortField is one field of a Top-N's ORDER BY, as Flink's SortSpec gives it.
type SortField struct {
	Type       catalog.Type
	Ascending  bool
	NullIsLast bool
}

// SortableType says whether a sort field's type has an encoding ordered as Flink's generated
// comparator orders it (GenerateUtils#generateCompare), with a reason when not.
func SortableType(t catalog.Type) (bool, string) {
	switch {
	case t.Kind == catalog.Float || t.Kind == catalog.Double:
		// The comparator's > and < treat NaN as equal to every value, which makes the order
		// of Flink's TreeMap depend on its shape.
		return false, "FLOAT/DOUBLE sort keys (NaN compares equal to every value in Flink's comparator)"
	case t.IsNanoTimestamp(), t.IsNested(), t.IsInterval():
		return false, fmt.Sprintf("%s sort keys", t)
	}
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Date, catalog.Time,
		catalog.Timestamp, catalog.TimestampLTZ, catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary, catalog.Decimal:
		return true, ""
	}
	return false, fmt.Sprintf("%s sort keys", t)
}

// EncodeSortKeys appends to keys[r] the sort key of row r of the sort columns, as bytes whose
// order (bytes.Compare) is the order of Flink's comparator over the fields: per field a NULL
// marker placed by its null ordering, then the value in an order-preserving encoding (inverted
// for a descending field). Equal keys are keys the comparator finds equal.
func EncodeSortKeys(keys [][]byte, cols []arrow.Array, fields []SortField, n int) ([][]byte, error) {
	for len(keys) < n {
		keys = append(keys, nil)
	}
	keys = keys[:n]
	for r := range keys {
		keys[r] = keys[r][:0]
	}
	for i, f := range fields {
		col := cols[i]
		bits, off := column.ValidBits(col)
		nullMark, valueMark := byte(0), byte(1)
		if f.NullIsLast {
			nullMark = 2
		}
		start := make([]int, n)
		for r := 0; r < n; r++ {
			if !column.Valid(bits, off, r) {
				keys[r] = append(keys[r], nullMark)
				start[r] = -1
				continue
			}
			keys[r] = append(keys[r], valueMark)
			start[r] = len(keys[r])
		}
		if err := appendValues(keys, start, col, f.Type); err != nil {
			return nil, err
		}
		if !f.Ascending {
			for r := 0; r < n; r++ {
				if start[r] >= 0 {
					for j := start[r]; j < len(keys[r]); j++ {
						keys[r][j] = ^keys[r][j]
					}
				}
			}
		}
	}
	return keys, nil
}

// appendValues appends the order-preserving encoding of each non-NULL value (start >= 0).
func appendValues(keys [][]byte, start []int, col arrow.Array, t catalog.Type) error {
	switch t.Kind {
	case catalog.Boolean:
		b := col.(*array.Boolean)
		for r := range keys {
			if start[r] >= 0 {
				v := byte(0)
				if b.Value(r) {
					v = 1
				}
				keys[r] = append(keys[r], v)
			}
		}
	case catalog.TinyInt:
		appendSigned(keys, start, column.Values[int8](col), 1)
	case catalog.SmallInt:
		appendSigned(keys, start, column.Values[int16](col), 2)
	case catalog.Int, catalog.Date, catalog.Time:
		appendSigned(keys, start, column.Values[int32](col), 4)
	case catalog.BigInt, catalog.Timestamp, catalog.TimestampLTZ:
		appendSigned(keys, start, column.Values[int64](col), 8)
	case catalog.Decimal:
		vals := col.(*array.Decimal128).Values()
		for r := range keys {
			if start[r] >= 0 {
				keys[r] = appendDecimal(keys[r], vals[r])
			}
		}
	case catalog.Char, catalog.VarChar, catalog.Binary, catalog.VarBinary:
		for r := range keys {
			if start[r] < 0 {
				continue
			}
			var v []byte
			switch a := col.(type) {
			case *array.String:
				v = []byte(a.Value(r))
			case *array.Binary:
				v = a.Value(r)
			default:
				return fmt.Errorf("top-n: a %s sort column read as %s", t, col.DataType())
			}
			keys[r] = appendEscaped(keys[r], v)
		}
	default:
		return fmt.Errorf("top-n: %s sort keys are not supported natively", t)
	}
	return nil
}

// appendSigned appends integers of size bytes big-endian with the sign bit flipped (so that
// unsigned byte order is numeric order).
func appendSigned[T ~int8 | ~int16 | ~int32 | ~int64](keys [][]byte, start []int, vals []T, size int) {
	sign := uint64(1) << (8*size - 1)
	mask := ^uint64(0) >> (64 - 8*size)
	for r := range keys {
		if start[r] < 0 {
			continue
		}
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], (uint64(int64(vals[r]))^sign)&mask)
		keys[r] = append(keys[r], b[8-size:]...)
	}
}

// appendDecimal appends an unscaled 128-bit value (the column's one scale) in numeric order.
func appendDecimal(dst []byte, v decimal128.Num) []byte {
	dst = binary.BigEndian.AppendUint64(dst, uint64(v.HighBits())^(1<<63))
	return binary.BigEndian.AppendUint64(dst, v.LowBits())
}

// appendEscaped appends bytes compared as BinaryStringData#compareTo and SortUtil#compareBinary
// compare them (unsigned bytes, then length), prefix-free: 0x00 becomes 0x00 0xFF, and 0x00
// 0x00 ends the value.
func appendEscaped(dst, v []byte) []byte {
	for _, c := range v {
		if c == 0 {
			dst = append(dst, 0, 0xff)
		} else {
			dst = append(dst, c)
		}
	}
	return append(dst, 0, 0)
}
