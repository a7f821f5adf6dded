package sink

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sinks/kafkavalue"
)

// KafkaEncoder encodes the batches of a native chain into the record values of a Kafka table
// (its value format, byte for byte as Flink's), which Flink's KafkaSink writes.
type KafkaEncoder struct {
	plan *plan.KafkaSink
	enc  kafkavalue.Encoder
}

// OpenKafkaEncoder compiles the island JSON of a Kafka sink node.
func OpenKafkaEncoder(sinkJSON []byte) (*KafkaEncoder, error) {
	p, err := plan.CompileKafkaSinkIsland(sinkJSON)
	if err != nil {
		return nil, err
	}
	enc, err := kafkavalue.NewEncoder(p.Value, p.Names, p.Types)
	if err != nil {
		return nil, fmt.Errorf("kafka table %s: %w", p.Table, err)
	}
	return &KafkaEncoder{plan: p, enc: enc}, nil
}

// Encode returns the record values of a batch's rows: little-endian, the number of records
// u32, their ends (records + 1 offsets, from 0; kafkavalue.NullValue set for a record without a
// value) u32, and their bytes. Rows are checked against
// the table's NOT NULL columns first, as Flink's ConstraintEnforcer checks them.
func (e *KafkaEncoder) Encode(b arrow.RecordBatch) ([]byte, error) {
	if e.plan.NotNull != nil {
		checked, err := e.plan.NotNull.Enforce(b, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("kafka table %s: %w", e.plan.Table, err)
		}
		if checked == nil { // every row dropped
			empty := b.NewSlice(0, 0)
			defer empty.Release()
			return encodeRecords(e.enc, empty)
		}
		defer checked.Release()
		b = checked
	}
	out, err := encodeRecords(e.enc, b)
	if err != nil {
		return nil, fmt.Errorf("kafka table %s: %w", e.plan.Table, err)
	}
	return out, nil
}
