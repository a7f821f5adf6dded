package sink

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sinks/kafkavalue"
	"github.com/sluice-project/sluice/sinks/recordends"
)

// KafkaEncoder encodes the batches of a native chain into the records of a Kafka table (its
// value format and, with a key format, its key format, byte for byte as Flink's), which Flink's
// KafkaSink writes.
type KafkaEncoder struct {
	plan *plan.KafkaSink
	enc  kafkavalue.Encoder
	key  kafkavalue.Encoder
}

// OpenKafkaEncoder compiles the island JSON of a Kafka sink node.
func OpenKafkaEncoder(sinkJSON []byte) (*KafkaEncoder, error) {
	p, err := plan.CompileKafkaSinkIsland(sinkJSON)
	if err != nil {
		return nil, err
	}
	names, types := p.Names, p.Types
	if p.ValueFields != nil {
		names, types = project(p.Names, p.ValueFields), project(p.Types, p.ValueFields)
	}
	e := &KafkaEncoder{plan: p}
	if e.enc, err = kafkavalue.NewEncoder(p.Value, names, types); err != nil {
		return nil, fmt.Errorf("kafka table %s: %w", p.Table, err)
	}
	if p.Key != nil {
		if e.key, err = kafkavalue.NewEncoder(*p.Key, p.KeyNames, project(p.Types, p.KeyFields)); err != nil {
			return nil, fmt.Errorf("kafka table %s: key: %w", p.Table, err)
		}
	}
	return e, nil
}

func project[T any](all []T, positions []int) []T {
	out := make([]T, len(positions))
	for i, p := range positions {
		out[i] = all[p]
	}
	return out
}

// Encode returns the records of a batch's rows: little-endian, the number of records u32, the
// flags of the sections after the values u32 (1: keys, 2: timestamps), the values' ends
// (records + 1 offsets, from 0; recordends.NullValue set for a record without a value) u32 and
// their bytes; then, with a key format, the keys' ends and bytes the same way; then, with a
// written 'timestamp' metadata column, each record's timestamp int64 (math.MinInt64: none).
// Rows are checked against the table's NOT NULL columns first, as Flink's ConstraintEnforcer
// checks them. A batch of changes (into an upsert-kafka table) carries its RowKinds as a last
// column (exec/changelog): a retraction's record has no value, a tombstone.
func (e *KafkaEncoder) Encode(b arrow.RecordBatch) ([]byte, error) {
	if e.plan.NotNull != nil {
		checked, err := e.plan.NotNull.Enforce(b, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("kafka table %s: %w", e.plan.Table, err)
		}
		if checked == nil { // every row dropped
			empty := b.NewSlice(0, 0)
			defer empty.Release()
			return e.encode(empty)
		}
		defer checked.Release()
		b = checked
	}
	out, err := e.encode(b)
	if err != nil {
		return nil, fmt.Errorf("kafka table %s: %w", e.plan.Table, err)
	}
	return out, nil
}

func (e *KafkaEncoder) encode(b arrow.RecordBatch) ([]byte, error) {
	b, kinds, split, err := changelog.Split("kafka sink", b, len(e.plan.Names)+len(e.plan.Metadata))
	if err != nil {
		return nil, err
	}
	if split {
		defer b.Release()
	}
	values := projectBatch(b, e.plan.ValueFields, len(e.plan.Names))
	defer values.Release()
	var out []byte
	switch changes, isChangelog := e.enc.(kafkavalue.ChangeEncoder); {
	case e.plan.Upsert:
		out, err = encodeUpserts(e.enc, values, kinds)
	case isChangelog && kinds != nil:
		out, err = encodeChanges(changes, values, kinds)
	case kinds != nil:
		return nil, fmt.Errorf("a batch of changes for a table that takes inserts only")
	default:
		out, err = encodeRecords(e.enc, values)
	}
	if err != nil {
		return nil, err
	}
	if e.key == nil && e.plan.Timestamp < 0 {
		return out, nil
	}
	flags := uint32(0)
	if e.key != nil {
		keys := projectBatch(b, e.plan.KeyFields, 0)
		defer keys.Release()
		k, err := encodeRecords(e.key, keys)
		if err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
		out = append(out, k[8:]...) // the keys' ends and bytes
		flags |= encodedKeys
	}
	if e.plan.Timestamp >= 0 {
		ts, ok := b.Column(e.plan.Timestamp).(*array.Timestamp)
		if !ok {
			return nil, fmt.Errorf("timestamp metadata: a %s column", b.Column(e.plan.Timestamp).DataType())
		}
		for r := range ts.Len() {
			v := int64(noTimestamp)
			if ts.IsValid(r) {
				v = int64(ts.Value(r))
			}
			out = binary.LittleEndian.AppendUint64(out, uint64(v))
		}
		flags |= encodedTimestamps
	}
	binary.LittleEndian.PutUint32(out[4:], flags)
	return out, nil
}

// projectBatch is the batch of b's columns at positions (nil: its first all).
func projectBatch(b arrow.RecordBatch, positions []int, all int) arrow.RecordBatch {
	if positions == nil {
		positions = make([]int, all)
		for i := range positions {
			positions[i] = i
		}
	}
	fields := make([]arrow.Field, len(positions))
	cols := make([]arrow.Array, len(positions))
	for i, p := range positions {
		fields[i], cols[i] = b.Schema().Field(p), b.Column(p)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
}

// encodeChanges encodes the rows of a batch with their RowKinds in a changelog format, as
// encodeRecords encodes inserts.
func encodeChanges(enc kafkavalue.ChangeEncoder, b arrow.RecordBatch, kinds []int8) ([]byte, error) {
	n := int(b.NumRows())
	body, ends, err := enc.AppendChanges(nil, make([]uint32, 1, n+1), b, kinds)
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	return recordsOf(n, ends, body), nil
}

// encodeUpserts encodes the rows of a batch as encodeRecords does, but a row that retracts (its
// RowKind -U or -D; kinds nil: all inserts) as a record without a value, a tombstone, as Flink's
// upsert-kafka sink writes it; the other rows' values are encoded as inserts.
func encodeUpserts(enc kafkavalue.Encoder, b arrow.RecordBatch, kinds []int8) ([]byte, error) {
	keep := make([]int32, 0, len(kinds))
	for r, k := range kinds {
		if !changelog.Retracts(k) {
			keep = append(keep, int32(r))
		}
	}
	if len(keep) == len(kinds) {
		return encodeRecords(enc, b)
	}
	values, err := column.TakeBatch(b, keep, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("upserts: %w", err)
	}
	defer values.Release()
	n := len(kinds)
	body, kept, err := enc.AppendRecords(nil, make([]uint32, 1, len(keep)+1), values)
	if err != nil {
		return nil, fmt.Errorf("upserts: %w", err)
	}
	ends := make([]uint32, 1, n+1)
	last := uint32(0) // the end of the record before, without the NullValue mark
	for _, k := range kinds {
		if changelog.Retracts(k) {
			ends = append(ends, last|recordends.NullValue)
			continue
		}
		kept = kept[1:]
		ends = append(ends, kept[0])
		last = kept[0] &^ recordends.NullValue
	}
	return recordsOf(n, ends, body), nil
}
