package iceberg

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/twmb/murmur3"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// PartitionField is one field of a table's partition spec.
type PartitionField struct {
	// Column is the index of the source column among the written fields.
	Column int
	// Transform is the field's transform as Iceberg prints it (identity, year, month, day,
	// hour, bucket[N], truncate[W], void).
	Transform string
}

// Value is one partition value: NULL, an integer (int, long, date, time, timestamp and boolean
// results, as Iceberg's Java values hold them; float and double results as the bits of the
// value, NaN canonical as Java's floatToIntBits/doubleToLongBits), a string (for decimal
// results the unscaled value's decimal digits, at the column's scale), or bytes (binary and
// fixed results).
type Value struct {
	Null    bool
	Int     int64
	Str     string
	IsStr   bool
	Bytes   []byte
	IsBytes bool
}

// transform is a parsed partition transform.
type transform struct {
	kind string
	n    int
}

func parseTransform(s string) (transform, error) {
	for _, k := range []string{"bucket", "truncate"} {
		if strings.HasPrefix(s, k+"[") && strings.HasSuffix(s, "]") {
			n, err := strconv.Atoi(s[len(k)+1 : len(s)-1])
			if err != nil || n <= 0 {
				return transform{}, fmt.Errorf("partition transform %s: bad width", s)
			}
			return transform{kind: k, n: n}, nil
		}
	}
	switch s {
	case "identity", "year", "month", "day", "hour", "void":
		return transform{kind: s}, nil
	}
	return transform{}, fmt.Errorf("partition transform %s is not computed natively", s)
}

// sourceKind is how a source column's values enter a transform: as integers (int, long,
// boolean, date days, time and timestamp micros), as UTF-8 bytes (strings) or as bytes.
type sourceKind int

const (
	intSource sourceKind = iota
	dateSource
	timeSource
	timestampSource
	boolSource
	stringSource
	binarySource
	decimalSource
	floatSource
)

func sourceKindOf(t catalog.Type) (sourceKind, bool) {
	switch t.Kind {
	case catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt:
		return intSource, true
	case catalog.Date:
		return dateSource, true
	case catalog.Timestamp, catalog.TimestampLTZ:
		return timestampSource, t.Precision <= 6
	case catalog.Boolean:
		return boolSource, true
	case catalog.Char, catalog.VarChar:
		return stringSource, true
	case catalog.Binary, catalog.VarBinary:
		return binarySource, true
	case catalog.Time:
		return timeSource, true
	case catalog.Decimal:
		return decimalSource, true
	case catalog.Float, catalog.Double:
		return floatSource, true
	}
	return 0, false
}

// CheckPartition reports why Go cannot compute a partition transform of a column of Flink type
// t (nil: it can).
func CheckPartition(t catalog.Type, tr string) error {
	x, err := parseTransform(tr)
	if err != nil {
		return err
	}
	if x.kind == "void" {
		return nil // NULL for every row, whatever the column
	}
	k, ok := sourceKindOf(t)
	if !ok {
		return fmt.Errorf("partitions by %s of %s columns are not computed natively yet", tr, t)
	}
	switch x.kind {
	case "identity":
		return nil
	case "year", "month", "day":
		ok = k == dateSource || k == timestampSource
	case "hour":
		ok = k == timestampSource
	case "bucket":
		ok = k != boolSource && k != floatSource
	case "truncate":
		ok = k == intSource || k == stringSource || k == binarySource || k == decimalSource
	}
	if !ok {
		return fmt.Errorf("partitions by %s of %s columns are not computed natively", tr, t)
	}
	return nil
}

// partitioner assigns the rows of batches to partitions, numbered in the order they appear.
type partitioner struct {
	fields []PartitionField
	trs    []transform
	kinds  []sourceKind
	types  []catalog.Type
	index  map[string]int32
	values [][]Value

	// scratch, per field: integer results, string results, decimal results, NULLs
	ints  [][]int64
	strs  [][][]byte
	decs  [][]decimal128.Num
	nulls [][]bool
	key   []byte
}

func newPartitioner(fields []PartitionField, columns []Field) (*partitioner, error) {
	p := &partitioner{fields: fields, index: map[string]int32{}}
	for _, f := range fields {
		if f.Column < 0 || f.Column >= len(columns) {
			return nil, fmt.Errorf("partition field on column %d of %d", f.Column, len(columns))
		}
		t := columns[f.Column].Type
		if err := CheckPartition(t, f.Transform); err != nil {
			return nil, fmt.Errorf("partition of column %s: %w", columns[f.Column].Name, err)
		}
		tr, _ := parseTransform(f.Transform)
		k, _ := sourceKindOf(t)
		p.trs, p.kinds, p.types = append(p.trs, tr), append(p.kinds, k), append(p.types, t)
	}
	p.ints, p.strs, p.nulls = make([][]int64, len(fields)), make([][][]byte, len(fields)), make([][]bool, len(fields))
	p.decs = make([][]decimal128.Num, len(fields))
	return p, nil
}

// assign returns each row's partition.
func (p *partitioner) assign(b arrow.RecordBatch) ([]int32, error) {
	n := int(b.NumRows())
	for f := range p.fields {
		p.compute(f, b.Column(p.fields[f].Column), n)
	}
	parts := make([]int32, n)
	for r := 0; r < n; r++ {
		key := p.key[:0]
		for f := range p.fields {
			switch {
			case p.nulls[f][r]:
				key = append(key, 0)
			case p.decs[f] != nil:
				d := p.decs[f][r]
				key = append(key, 3)
				key = binary.LittleEndian.AppendUint64(key, d.LowBits())
				key = binary.LittleEndian.AppendUint64(key, uint64(d.HighBits()))
			case p.strs[f] != nil:
				key = append(key, 2)
				key = binary.AppendUvarint(key, uint64(len(p.strs[f][r])))
				key = append(key, p.strs[f][r]...)
			default:
				key = append(key, 1)
				key = binary.LittleEndian.AppendUint64(key, uint64(p.ints[f][r]))
			}
		}
		p.key = key
		id, ok := p.index[string(key)]
		if !ok {
			id = int32(len(p.values))
			p.index[string(key)] = id
			vals := make([]Value, len(p.fields))
			for f := range p.fields {
				switch {
				case p.nulls[f][r]:
					vals[f].Null = true
				case p.decs[f] != nil:
					vals[f] = Value{Str: p.decs[f][r].BigInt().String(), IsStr: true}
				case p.strs[f] != nil && p.kinds[f] == binarySource:
					vals[f] = Value{Bytes: append([]byte{}, p.strs[f][r]...), IsBytes: true}
				case p.strs[f] != nil:
					vals[f] = Value{Str: string(p.strs[f][r]), IsStr: true}
				default:
					vals[f].Int = p.ints[f][r]
				}
			}
			p.values = append(p.values, vals)
		}
		parts[r] = id
	}
	return parts, nil
}

// compute fills field f's scratch with the transform of column c's n values.
func (p *partitioner) compute(f int, c arrow.Array, n int) {
	tr, k := p.trs[f], p.kinds[f]
	nulls := column.Grow(p.nulls[f], n)
	p.nulls[f] = nulls
	if tr.kind == "void" {
		for r := range nulls {
			nulls[r] = true
		}
		p.strs[f] = nil
		return
	}
	for r := range nulls {
		nulls[r] = c.IsNull(r)
	}
	p.decs[f] = nil
	switch k {
	case decimalSource:
		p.computeDecimal(f, tr, c, n)
		return
	case floatSource:
		p.strs[f] = nil
		p.ints[f] = floatBits(c, column.Grow(p.ints[f], n))
		return
	}
	if k == stringSource || k == binarySource {
		strs := column.Grow(p.strs[f], n)
		offs, data := stringData(c)
		for r := 0; r < n; r++ {
			strs[r] = data[offs[r]:offs[r+1]]
		}
		p.strs[f] = strs
		if tr.kind == "bucket" {
			ints := column.Grow(p.ints[f], n)
			for r, s := range strs {
				ints[r] = bucketOf(murmur3.Sum32(s), tr.n)
			}
			p.ints[f], p.strs[f] = ints, nil
		} else if tr.kind == "truncate" && k == binarySource {
			for r, s := range strs {
				strs[r] = s[:min(len(s), tr.n)] // Iceberg's BinaryUtil#truncateBinary: the first W bytes
			}
		} else if tr.kind == "truncate" {
			for r, s := range strs {
				strs[r] = truncateCodePoints(s, tr.n)
			}
		}
		return
	}
	p.strs[f] = nil
	ints := column.Grow(p.ints[f], n)
	sourceInts(c, p.types[f], ints)
	switch tr.kind {
	case "year", "month", "day", "hour":
		for r, v := range ints {
			if k == dateSource {
				ints[r] = int64(daysTo(tr.kind, v))
			} else {
				ints[r] = int64(microsTo(tr.kind, v))
			}
		}
	case "bucket":
		var buf [8]byte
		for r, v := range ints {
			binary.LittleEndian.PutUint64(buf[:], uint64(v))
			ints[r] = bucketOf(murmur3.Sum32(buf[:]), tr.n)
		}
	case "truncate":
		w := int64(tr.n)
		for r, v := range ints {
			ints[r] = v - javatime.FloorMod(v, w)
		}
	}
	p.ints[f] = ints
}

// computeDecimal fills field f's scratch with the transform of a DECIMAL column: the
// unscaled values for identity, truncate[W] as Iceberg's TruncateDecimal (the unscaled value
// minus its non-negative remainder by W, same scale), bucket[N] as BucketUtil#hash(BigDecimal)
// (Murmur3 of the unscaled value's minimal two's-complement big-endian bytes).
func (p *partitioner) computeDecimal(f int, tr transform, c arrow.Array, n int) {
	vals := column.Values[decimal128.Num](c)[:n]
	p.strs[f] = nil
	if tr.kind == "bucket" {
		ints := column.Grow(p.ints[f], n)
		var buf [16]byte
		for r, v := range vals {
			ints[r] = bucketOf(murmur3.Sum32(minimalBytes(v, &buf)), tr.n)
		}
		p.ints[f] = ints
		return
	}
	decs := column.Grow(p.decs[f], n)
	copy(decs, vals)
	if tr.kind == "truncate" {
		w := decimal128.FromI64(int64(tr.n))
		for r, v := range decs {
			_, rem := v.Div(w) // the remainder has the dividend's sign
			if rem.Sign() < 0 {
				rem = rem.Add(w)
			}
			decs[r] = v.Sub(rem)
		}
	}
	p.decs[f] = decs
}

// minimalBytes is BigInteger#toByteArray of a 128-bit value: big-endian two's complement in
// the fewest bytes that keep the sign (one byte for 0 and -1).
func minimalBytes(v decimal128.Num, buf *[16]byte) []byte {
	binary.BigEndian.PutUint64(buf[:8], uint64(v.HighBits()))
	binary.BigEndian.PutUint64(buf[8:], v.LowBits())
	i := 0
	for i < 15 && (buf[i] == 0 && buf[i+1]&0x80 == 0 || buf[i] == 0xff && buf[i+1]&0x80 != 0) {
		i++
	}
	return buf[i:]
}

// floatBits writes the bits of a FLOAT or DOUBLE column's values into dst, NaN canonical (as
// Java's Float#equals and Double#equals compare partition values).
func floatBits(c arrow.Array, dst []int64) []int64 {
	switch c.DataType().ID() {
	case arrow.FLOAT32:
		for r, v := range column.Values[float32](c)[:len(dst)] {
			dst[r] = int64(int32(math.Float32bits(v)))
			if v != v {
				dst[r] = 0x7fc00000
			}
		}
	default:
		for r, v := range column.Values[float64](c)[:len(dst)] {
			dst[r] = int64(math.Float64bits(v))
			if v != v {
				dst[r] = 0x7ff8000000000000
			}
		}
	}
	return dst
}

// stringData returns the offsets and bytes of a string or binary column.
func stringData(c arrow.Array) ([]int32, []byte) {
	d := c.Data()
	offs := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset():]
	var data []byte
	if d.Buffers()[2] != nil {
		data = d.Buffers()[2].Bytes()
	}
	return offs, data
}

// sourceInts writes the integer value Iceberg transforms of every row: integers widened to
// long, dates as days, times and timestamps as microseconds, booleans as 0 and 1.
func sourceInts(c arrow.Array, t catalog.Type, dst []int64) {
	switch c.DataType().ID() {
	case arrow.INT8:
		widen(column.Values[int8](c), dst, 1)
	case arrow.INT16:
		widen(column.Values[int16](c), dst, 1)
	case arrow.INT32, arrow.DATE32:
		widen(column.Values[int32](c), dst, 1)
	case arrow.TIME32:
		// Flink's TIME is milliseconds of the day; Iceberg's time is microseconds.
		widen(column.Values[int32](c), dst, 1000)
	case arrow.INT64:
		widen(column.Values[int64](c), dst, 1)
	case arrow.TIMESTAMP:
		k := int64(1)
		if t.Precision <= 3 {
			k = 1000
		}
		widen(column.Values[int64](c), dst, k)
	case arrow.BOOL:
		bs := c.(*array.Boolean)
		for r := range dst {
			dst[r] = 0
			if bs.Value(r) {
				dst[r] = 1
			}
		}
	}
}

func widen[T int8 | int16 | int32 | int64](src []T, dst []int64, k int64) {
	for r := range dst {
		dst[r] = int64(src[r]) * k
	}
}

// bucketOf is Iceberg's bucket of a 32-bit Murmur3 hash (Guava's murmur3_32, seed 0).
func bucketOf(h uint32, n int) int64 {
	return int64(int32(h)&math.MaxInt32) % int64(n)
}

// truncateCodePoints is Iceberg's UnicodeUtil#truncateString: the first w code points.
func truncateCodePoints(s []byte, w int) []byte {
	i := 0
	for k := 0; k < w && i < len(s); k++ {
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return s[:i]
}

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// microsTo is Iceberg's DateTimeUtil#microsToYears/Months/Days/Hours, including its rule for
// instants before 1970: whole units between the epoch and (micros + 1) (with the second taken
// from micros), truncated toward zero, minus one.
func microsTo(unit string, micros int64) int32 {
	sec := javatime.FloorDiv(micros, 1_000_000)
	if micros >= 0 {
		return unitsSinceEpoch(unit, sec, javatime.FloorMod(micros, 1_000_000)*1000)
	}
	return unitsSinceEpoch(unit, sec, javatime.FloorMod(micros+1, 1_000_000)*1000) - 1
}

// daysTo is Iceberg's DateTimeUtil#daysToYears/Months (and the identity of days).
func daysTo(unit string, days int64) int32 {
	if unit == "day" {
		return int32(days)
	}
	if days >= 0 {
		return unitsSinceEpoch(unit, days*86_400, 0)
	}
	return unitsSinceEpoch(unit, (days+1)*86_400, 0) - 1
}

// unitsSinceEpoch is ChronoUnit#between(1970-01-01T00:00Z, t) for t = sec seconds and nano
// nanoseconds after the epoch: whole units, truncated toward zero.
func unitsSinceEpoch(unit string, sec, nano int64) int32 {
	var per int64
	switch unit {
	case "hour":
		per = 3_600
	case "day":
		per = 86_400
	default:
		t := time.Unix(sec, nano).UTC()
		months := int64(t.Year()-1970)*12 + int64(t.Month()-1)
		if sec < 0 {
			// LocalDateTime#until: a later time of day than the epoch's counts the day as begun.
			d := t
			if t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0 || t.Nanosecond() != 0 {
				d = t.AddDate(0, 0, 1)
			}
			months = int64(d.Year()-1970)*12 + int64(d.Month()-1)
			if d.Day() > 1 {
				months++ // an incomplete month toward the epoch does not count
			}
		}
		if unit == "year" {
			return int32(months / 12)
		}
		return int32(months)
	}
	if sec >= 0 {
		return int32(sec / per)
	}
	if nano > 0 {
		return int32(-((-sec - 1) / per))
	}
	return int32(-((-sec) / per))
}
