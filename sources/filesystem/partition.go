// Package filesystem reproduces what Flink's filesystem connector adds around a file format:
// the values of partition columns, taken from the directory names of a file's path
// (PartitionPathUtils, FileInfoExtractorBulkFormat).
package filesystem

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
)

// DefaultPartitionName is the directory value of a NULL partition ('partition.default-name').
const DefaultPartitionName = "__DEFAULT_PARTITION__"

var partitionName = regexp.MustCompile(`^([^/]+)=([^/]+)$`)

// PartitionSpec returns the partition values of a file path: every directory name of the form
// key=value (unescaped), the one nearest the file winning, as
// PartitionPathUtils#extractPartitionSpecFromPath reads them.
func PartitionSpec(path string) map[string]string {
	spec := map[string]string{}
	parts := strings.Split(path, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		m := partitionName.FindStringSubmatch(parts[i])
		if m == nil {
			continue
		}
		k := unescapePathName(m[1])
		if _, ok := spec[k]; !ok {
			spec[k] = unescapePathName(m[2])
		}
	}
	return spec
}

// unescapePathName is PartitionPathUtils#unescapePathName: "%XX" (two characters that
// Integer.parseInt reads as a non-negative hexadecimal number) becomes the character XX.
func unescapePathName(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			if code, ok := hexByte(s[i+1 : i+3]); ok {
				sb.WriteRune(rune(code))
				i += 2
				continue
			}
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// hexByte is Integer.parseInt(s, 16) of a two-character string, when it is not negative.
func hexByte(s string) (int, bool) {
	v, digits := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 0 && c == '+':
			continue
		case c >= '0' && c <= '9':
			v = v*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v*16 + int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v*16 + int(c-'A'+10)
		default:
			return 0, false
		}
		digits++
	}
	return v, digits > 0
}

// SupportsPartitionType reports whether Flink can turn a partition directory value into a
// value of type t (PartitionPathUtils#convertStringToInternalValue); Sluice reads those natively.
func SupportsPartitionType(t catalog.Type) bool {
	switch t.Kind {
	case catalog.Char, catalog.VarChar, catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int,
		catalog.BigInt, catalog.Float, catalog.Double, catalog.Date:
		return true
	case catalog.Timestamp:
		return t.Precision <= 3
	}
	return false
}

// PartitionColumn returns a column of n copies of a partition's value for type t: NULL when the
// directory value is the default partition name, otherwise the value parsed as Flink parses it
// (Integer.parseInt, Double.parseDouble, LocalDate.parse, ...). A value Flink cannot parse is
// an error naming the key and value, as the job fails on Flink.
func PartitionColumn(key, value, defaultName string, t catalog.Type, n int, mem memory.Allocator) (arrow.Array, error) {
	dt, err := catalog.ArrowType(t)
	if err != nil {
		return nil, fmt.Errorf("partition %s: %w", key, err)
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	if value == defaultName {
		b.AppendNulls(n)
		return b.NewArray(), nil
	}
	fail := func(err error) (arrow.Array, error) {
		return nil, fmt.Errorf("partition %s=%s cannot be read as %s: %w", key, value, t, err)
	}
	b.Reserve(n)
	switch t.Kind {
	case catalog.Char, catalog.VarChar:
		for i := 0; i < n; i++ {
			b.(*array.StringBuilder).Append(value)
		}
	case catalog.Boolean:
		v := javatext.ParseBoolean(value)
		for i := 0; i < n; i++ {
			b.(*array.BooleanBuilder).Append(v)
		}
	case catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt:
		bits := map[catalog.Kind]int{catalog.TinyInt: 8, catalog.SmallInt: 16, catalog.Int: 32, catalog.BigInt: 64}[t.Kind]
		v, err := javatext.ParseInt(value, bits)
		if err != nil {
			return fail(err)
		}
		for i := 0; i < n; i++ {
			switch bb := b.(type) {
			case *array.Int8Builder:
				bb.Append(int8(v))
			case *array.Int16Builder:
				bb.Append(int16(v))
			case *array.Int32Builder:
				bb.Append(int32(v))
			case *array.Int64Builder:
				bb.Append(v)
			}
		}
	case catalog.Float, catalog.Double:
		bits := 64
		if t.Kind == catalog.Float {
			bits = 32
		}
		v, ok := javatext.ParseDouble([]byte(value), bits)
		if !ok {
			return fail(fmt.Errorf("not a number"))
		}
		for i := 0; i < n; i++ {
			if bb, ok := b.(*array.Float32Builder); ok {
				bb.Append(float32(v))
			} else {
				b.(*array.Float64Builder).Append(v)
			}
		}
	case catalog.Date:
		v, err := javatext.ParseLocalDate(value)
		if err != nil {
			return fail(err)
		}
		for i := 0; i < n; i++ {
			b.(*array.Date32Builder).Append(arrow.Date32(v))
		}
	case catalog.Timestamp:
		ms, _, err := javatext.ParseLocalDateTime(value)
		if err != nil {
			return fail(err)
		}
		for i := 0; i < n; i++ {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(ms))
		}
	default:
		return fail(fmt.Errorf("Flink cannot convert partition values to this type"))
	}
	return b.NewArray(), nil
}
