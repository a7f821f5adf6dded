// Package filesystem splits the rows a filesystem table sink writes by partition, naming each
// partition as Flink's filesystem sink does (RowDataPartitionComputer#generatePartValues and
// PartitionPathUtils#generatePartitionPath): "key=value/" per partition key, the value being
// the Java toString of Flink's internal value, NULL and the empty string written as the
// default partition name, and both escaped as Flink escapes path names.
package filesystem

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/decimal"
	"github.com/sluice-project/sluice/javacompat/javatext"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// Part is the rows of one partition of a batch, without the partition columns.
type Part struct {
	// Path is the partition's directory relative to the table's, as Flink's sink names its
	// bucket: "k1=v1/k2=v2/".
	Path  string
	Batch arrow.RecordBatch
}

// maxValues bounds the values the partitioner remembers between batches; beyond it, it
// forgets them (a stream partitioned by hour meets new values forever).
const maxValues = 1 << 14

// Partitioner splits batches of a sink's rows by their partition.
type Partitioner struct {
	keyCols  []int
	dataCols []int
	keys     []keyValues
	names    []string // escaped partition key names
	defName  string   // escaped default partition name
	schema   *arrow.Schema
	mem      memory.Allocator

	// byTuple maps the value ids of a row's keys (several keys) to its partition; byValue
	// does it for one key. paths are the partitions' paths, byPath their numbers.
	byTuple map[string]int32
	byValue []int32
	byPath  map[string]int32
	paths   []string

	// scratch
	ids   [][]int32
	parts []int32
	tuple []byte
	text  []byte
	count []int32
	sel   []int32
}

// CheckPartitionType returns an error when Sluice cannot name partitions of a column of type
// t as Flink does.
func CheckPartitionType(t catalog.Type) error {
	switch t.Kind {
	case catalog.Boolean, catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.Date, catalog.Time,
		catalog.Char, catalog.VarChar, catalog.Decimal:
		return nil
	case catalog.Timestamp, catalog.TimestampLTZ:
		if t.Precision <= 6 {
			return nil
		}
	case catalog.Float, catalog.Double:
		return nil // as Java 8 to 18 print them: the planner checks the JVM's version
	case catalog.Binary, catalog.VarBinary:
		return fmt.Errorf("partition values of type %s are not named natively (Flink names them by the byte array's identity, which differs between runs)", t)
	}
	return fmt.Errorf("partition values of type %s are not named natively", t)
}

// NewPartitioner splits rows with the given columns by the partition keys (column names, in
// the table's partition order); defaultName is 'partition.default-name'.
func NewPartitioner(names []string, types []catalog.Type, partitionKeys []string, defaultName string, mem memory.Allocator) (*Partitioner, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if defaultName == "" {
		return nil, fmt.Errorf("partitioner: the default partition name is empty (Flink cannot name such a directory)")
	}
	p := &Partitioner{mem: mem, defName: EscapePathName(defaultName), byTuple: map[string]int32{}, byPath: map[string]int32{}}
	isKey := make([]bool, len(names))
	for _, k := range partitionKeys {
		col := -1
		for i, n := range names {
			if n == k {
				col = i
			}
		}
		if col < 0 {
			return nil, fmt.Errorf("partitioner: partition key %s is not a column", k)
		}
		if err := CheckPartitionType(types[col]); err != nil {
			return nil, fmt.Errorf("partitioner: column %s: %w", k, err)
		}
		if k == "" {
			return nil, fmt.Errorf("partitioner: a partition key has an empty name")
		}
		isKey[col] = true
		p.keyCols = append(p.keyCols, col)
		p.names = append(p.names, EscapePathName(k))
		p.keys = append(p.keys, newKeyValues(types[col]))
	}
	if len(p.keyCols) == 0 {
		return nil, fmt.Errorf("partitioner: no partition keys")
	}
	var dataNames []string
	var dataTypes []catalog.Type
	for i := range names {
		if !isKey[i] {
			p.dataCols = append(p.dataCols, i)
			dataNames, dataTypes = append(dataNames, names[i]), append(dataTypes, types[i])
		}
	}
	schema, err := catalog.ArrowSchema(dataNames, dataTypes)
	if err != nil {
		return nil, fmt.Errorf("partitioner: %w", err)
	}
	p.schema = schema
	p.ids = make([][]int32, len(p.keyCols))
	return p, nil
}

// Split returns the rows of b by partition, in the order the partitions first appear in b;
// each part's batch holds the columns that are not partition keys, its rows in b's order. The
// caller releases the parts' batches.
func (p *Partitioner) Split(b arrow.RecordBatch) ([]Part, error) {
	n := int(b.NumRows())
	if n == 0 {
		return nil, nil
	}
	if int(b.NumCols()) != len(p.keyCols)+len(p.dataCols) {
		return nil, fmt.Errorf("partitioner: a batch of %d columns for %d", b.NumCols(), len(p.keyCols)+len(p.dataCols))
	}
	if len(p.paths) > maxValues || len(p.byTuple) > maxValues || len(p.byValue) > maxValues {
		p.forget()
	}
	for k, kv := range p.keys {
		p.ids[k] = column.Grow(p.ids[k], n)
		if err := kv.assign(b.Column(p.keyCols[k]), p.ids[k]); err != nil {
			return nil, fmt.Errorf("partitioner: column %s: %w", b.ColumnName(p.keyCols[k]), err)
		}
	}
	p.parts = column.Grow(p.parts, n)
	if len(p.keys) == 1 {
		for r, id := range p.ids[0] {
			for int(id) >= len(p.byValue) {
				p.byValue = append(p.byValue, -1)
			}
			part := p.byValue[id]
			if part < 0 {
				part = p.partition(r)
				p.byValue[id] = part
			}
			p.parts[r] = part
		}
	} else {
		for r := 0; r < n; r++ {
			t := p.tuple[:0]
			for k := range p.keys {
				t = binary.LittleEndian.AppendUint32(t, uint32(p.ids[k][r]))
			}
			p.tuple = t
			part, ok := p.byTuple[string(t)]
			if !ok {
				part = p.partition(r)
				p.byTuple[string(t)] = part
			}
			p.parts[r] = part
		}
	}
	return p.cut(b, p.parts)
}

// partition returns the number of row r's partition, naming it when it is new.
func (p *Partitioner) partition(r int) int32 {
	t := p.text[:0]
	for k, kv := range p.keys {
		t = append(t, p.names[k]...)
		t = append(t, '=')
		if v := kv.text(p.ids[k][r]); v == "" {
			t = append(t, p.defName...)
		} else {
			t = appendEscaped(t, v)
		}
		t = append(t, '/')
	}
	p.text = t
	part, ok := p.byPath[string(t)]
	if !ok {
		part = int32(len(p.paths))
		p.paths = append(p.paths, string(t))
		p.byPath[p.paths[part]] = part
	}
	return part
}

// cut takes each partition's rows (a stable counting sort by partition) without the key columns.
func (p *Partitioner) cut(b arrow.RecordBatch, parts []int32) ([]Part, error) {
	n := len(parts)
	p.count = column.Grow(p.count, len(p.paths)+1)
	clear(p.count)
	// Partitions in order of first appearance in this batch.
	var order []int32
	for _, part := range parts {
		if p.count[part+1] == 0 {
			order = append(order, part)
		}
		p.count[part+1]++
	}
	if len(order) == 1 {
		cols := make([]arrow.Array, len(p.dataCols))
		for i, c := range p.dataCols {
			cols[i] = b.Column(c)
		}
		return []Part{{Path: p.paths[order[0]], Batch: array.NewRecordBatch(p.schema, cols, int64(n))}}, nil
	}
	// Start of each partition's rows in sel, in order of appearance.
	start := make([]int32, len(p.paths))
	next := int32(0)
	for _, part := range order {
		start[part] = next
		next += p.count[part+1]
	}
	p.sel = column.Grow(p.sel, n)
	fill := append([]int32(nil), start...)
	for r, part := range parts {
		p.sel[fill[part]] = int32(r)
		fill[part]++
	}
	out := make([]Part, 0, len(order))
	for _, part := range order {
		rows := p.sel[start[part] : start[part]+p.count[part+1]]
		sub, err := p.take(b, rows)
		if err != nil {
			for _, o := range out {
				o.Batch.Release()
			}
			return nil, fmt.Errorf("partitioner: partition %s: %w", p.paths[part], err)
		}
		out = append(out, Part{Path: p.paths[part], Batch: sub})
	}
	return out, nil
}

// take returns the rows sel of b's data columns as a new batch.
func (p *Partitioner) take(b arrow.RecordBatch, sel []int32) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(p.dataCols))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range p.dataCols {
		a, err := column.Take(b.Column(c), sel, p.mem)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", b.ColumnName(c), err)
		}
		cols[i] = a
	}
	return array.NewRecordBatch(p.schema, cols, int64(len(sel))), nil
}

// forget drops the remembered values and partitions.
func (p *Partitioner) forget() {
	for k, kv := range p.keys {
		p.keys[k] = kv.fresh()
	}
	clear(p.byTuple)
	clear(p.byPath)
	p.byValue, p.paths = p.byValue[:0], p.paths[:0]
}

// keyValues numbers the values of one partition key column; id 0 is NULL.
type keyValues interface {
	// assign writes the value id of each row of c into ids.
	assign(c arrow.Array, ids []int32) error
	// text is the Java toString of a value id's internal value ("" for NULL).
	text(id int32) string
	// fresh returns an empty numbering of the same kind.
	fresh() keyValues
}

// newKeyValues returns the numbering of a column type that CheckPartitionType accepts.
func newKeyValues(t catalog.Type) keyValues {
	switch t.Kind {
	case catalog.Boolean:
		return &boolValues{}
	case catalog.TinyInt:
		return newFixed(func(v int8) string { return strconv.FormatInt(int64(v), 10) })
	case catalog.SmallInt:
		return newFixed(func(v int16) string { return strconv.FormatInt(int64(v), 10) })
	case catalog.Int, catalog.Date, catalog.Time:
		// DATE and TIME are Flink's internal ints (epoch days, milliseconds of the day).
		return newFixed(func(v int32) string { return strconv.FormatInt(int64(v), 10) })
	case catalog.BigInt:
		return newFixed(func(v int64) string { return strconv.FormatInt(v, 10) })
	case catalog.Float:
		// By bits: -0.0 and 0.0 are two partitions, every NaN is one.
		return newFixed(func(v uint32) string { return string(javatext.AppendFloat(nil, math.Float32frombits(v))) })
	case catalog.Double:
		return newFixed(func(v uint64) string { return string(javatext.AppendDouble(nil, math.Float64frombits(v))) })
	case catalog.Decimal:
		scale := t.Scale
		return newFixed(func(v decimal128.Num) string { return decimal.PlainString(v.BigInt(), scale) })
	case catalog.Timestamp, catalog.TimestampLTZ:
		if t.Precision <= 3 {
			return newFixed(func(ms int64) string { return string(javatime.AppendLocalDateTime(nil, ms, 0)) })
		}
		return newFixed(func(us int64) string {
			ms, nanos := javatime.SplitMicros(us)
			return string(javatime.AppendLocalDateTime(nil, ms, nanos))
		})
	}
	return &stringValues{index: map[string]int32{}, texts: []string{""}}
}

// fixedValues numbers the values of a fixed-width column.
type fixedValues[T comparable] struct {
	index  map[T]int32
	texts  []string
	format func(T) string
}

func newFixed[T comparable](format func(T) string) *fixedValues[T] {
	return &fixedValues[T]{index: map[T]int32{}, texts: []string{""}, format: format}
}

func (f *fixedValues[T]) assign(c arrow.Array, ids []int32) error {
	vals := column.Values[T](c)
	bits, off := column.ValidBits(c)
	var last T
	lastID := int32(0)
	for r := range ids {
		if !column.Valid(bits, off, r) {
			ids[r] = 0
			continue
		}
		v := vals[r]
		if lastID != 0 && v == last {
			ids[r] = lastID
			continue
		}
		id, ok := f.index[v]
		if !ok {
			id = int32(len(f.texts))
			f.index[v] = id
			f.texts = append(f.texts, f.format(v))
		}
		ids[r], last, lastID = id, v, id
	}
	return nil
}

func (f *fixedValues[T]) text(id int32) string { return f.texts[id] }

func (f *fixedValues[T]) fresh() keyValues { return newFixed(f.format) }

// stringValues numbers the values of a string column.
type stringValues struct {
	index map[string]int32
	texts []string
}

func (s *stringValues) assign(c arrow.Array, ids []int32) error {
	str, ok := c.(*array.String)
	if !ok {
		return fmt.Errorf("a %s column where strings were expected", c.DataType())
	}
	offs, data := str.ValueOffsets(), str.ValueBytes()
	var last []byte
	lastID := int32(0)
	for r := range ids {
		if str.IsNull(r) {
			ids[r] = 0
			continue
		}
		v := data[offs[r]-offs[0] : offs[r+1]-offs[0]]
		if lastID != 0 && bytes.Equal(v, last) {
			ids[r] = lastID
			continue
		}
		id, ok := s.index[string(v)]
		if !ok {
			if !utf8.Valid(v) {
				// Flink would decode it with replacement characters; Sluice does not guess.
				return fmt.Errorf("row %d: the partition value %q is not valid UTF-8", r, v)
			}
			id = int32(len(s.texts))
			s.texts = append(s.texts, string(v))
			s.index[s.texts[id]] = id
		}
		ids[r], last, lastID = id, v, id
	}
	return nil
}

func (s *stringValues) text(id int32) string { return s.texts[id] }

func (s *stringValues) fresh() keyValues {
	return &stringValues{index: map[string]int32{}, texts: []string{""}}
}

// boolValues numbers a boolean column: 0 NULL, 1 false, 2 true.
type boolValues struct{}

func (boolValues) assign(c arrow.Array, ids []int32) error {
	d := c.Data()
	vals := d.Buffers()[1].Bytes()
	bits, off := column.ValidBits(c)
	for r := range ids {
		switch {
		case !column.Valid(bits, off, r):
			ids[r] = 0
		case bitutil.BitIsSet(vals, d.Offset()+r):
			ids[r] = 2
		default:
			ids[r] = 1
		}
	}
	return nil
}

func (boolValues) text(id int32) string { return [...]string{"", "false", "true"}[id] }

func (b *boolValues) fresh() keyValues { return b }

// EscapePathName is PartitionPathUtils#escapePathName of a non-empty name: control characters,
// '"', '#', '%', '\”, '*', '/', ':', '=', '?', '\\', DEL, '{', '}', '[', ']' and '^' become
// "%XX" (upper-case hexadecimal); other characters, all non-ASCII ones included, stay.
func EscapePathName(s string) string {
	return string(appendEscaped(nil, s))
}

func appendEscaped(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && escaped[c] {
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// escaped is Flink's CHAR_TO_ESCAPE over ASCII.
var escaped = func() (e [128]bool) {
	for c := 0; c < ' '; c++ {
		e[c] = true
	}
	for _, c := range "\"#%'*/:=?\\\x7f{}[]^" {
		e[c] = true
	}
	return e
}()
