package scan

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// RecordMetaSize is the bytes per record of the metadata the Kafka source hands over with a
// fetch (little-endian): the offset int64, the timestamp int64 (epoch milliseconds), the leader
// epoch int32 (math.MinInt32: none) and the timestamp type int32 (Kafka's TimestampType id: -1
// NoTimestampType, 0 CreateTime, 1 LogAppendTime).
const RecordMetaSize = 24

// timestampTypeNames are Kafka's TimestampType#toString by id + 1, as Flink's 'timestamp-type'
// metadata column gives them.
var timestampTypeNames = [3]string{"NoTimestampType", "CreateTime", "LogAppendTime"}

// recordMeta is the record metadata of the fetch being decoded, for the metadata columns of a
// Kafka table (Flink's KafkaDynamicSource.ReadableMetadata) a native scan reads.
type recordMeta struct {
	keys      []string
	topic     string
	partition int32
	meta      []byte
}

// columns builds the metadata columns of the rows Go decoded, row i from record records[i].
func (m *recordMeta) columns(mem memory.Allocator, records []int32) ([]arrow.Array, error) {
	cols := make([]arrow.Array, 0, len(m.keys))
	release := func() {
		for _, c := range cols {
			c.Release()
		}
	}
	for _, r := range records {
		if int(r+1)*RecordMetaSize > len(m.meta) {
			release()
			return nil, fmt.Errorf("kafka record metadata: record %d of %d", r, len(m.meta)/RecordMetaSize)
		}
	}
	at := func(r int32, off int) []byte { return m.meta[int(r)*RecordMetaSize+off:] }
	for _, key := range m.keys {
		switch key {
		case "offset":
			b := array.NewInt64Builder(mem)
			b.Reserve(len(records))
			for _, r := range records {
				b.UnsafeAppend(int64(binary.LittleEndian.Uint64(at(r, 0))))
			}
			cols = append(cols, b.NewArray())
			b.Release()
		case "timestamp":
			b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"})
			b.Reserve(len(records))
			for _, r := range records {
				b.UnsafeAppend(arrow.Timestamp(int64(binary.LittleEndian.Uint64(at(r, 8)))))
			}
			cols = append(cols, b.NewArray())
			b.Release()
		case "leader-epoch":
			b := array.NewInt32Builder(mem)
			b.Reserve(len(records))
			for _, r := range records {
				if e := int32(binary.LittleEndian.Uint32(at(r, 16))); e != math.MinInt32 {
					b.UnsafeAppend(e)
				} else {
					b.AppendNull()
				}
			}
			cols = append(cols, b.NewArray())
			b.Release()
		case "timestamp-type":
			b := array.NewStringBuilder(mem)
			b.Reserve(len(records))
			for _, r := range records {
				id := int32(binary.LittleEndian.Uint32(at(r, 20)))
				if id < -1 || id > 1 {
					b.Release()
					release()
					return nil, fmt.Errorf("kafka record metadata: timestamp type %d", id)
				}
				b.Append(timestampTypeNames[id+1])
			}
			cols = append(cols, b.NewArray())
			b.Release()
		case "partition":
			b := array.NewInt32Builder(mem)
			b.Reserve(len(records))
			for range records {
				b.UnsafeAppend(m.partition)
			}
			cols = append(cols, b.NewArray())
			b.Release()
		case "topic":
			b := array.NewStringBuilder(mem)
			b.Reserve(len(records))
			for range records {
				b.Append(m.topic)
			}
			cols = append(cols, b.NewArray())
			b.Release()
		default:
			release()
			return nil, fmt.Errorf("kafka record metadata %q is not read natively", key)
		}
	}
	return cols, nil
}
