package scan

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/exec/bufpool"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/exec/expr"
	"github.com/sluice-project/sluice/planner-hook/plan"
)

// NoWatermark is a fetch's watermark when none of its rows gives one (Long.MIN_VALUE, where
// Flink's watermark generator starts).
const NoWatermark = math.MinInt64

// KafkaFetch decodes the record values of a native Kafka scan's partition fetches into batches
// (see ValueFetch), and gives each batch's watermark: the maximum of the scan's pushed watermark
// expression over its rows, which Flink's per-partition watermark generator takes as the
// maximum of the rows' watermarks one by one.
type KafkaFetch struct {
	*ValueFetch
	plan *plan.KafkaScan
	mem  memory.Allocator
}

// OpenKafkaFetch compiles the island JSON of a Kafka scan node for decoding its fetches.
func OpenKafkaFetch(scanJSON []byte) (*KafkaFetch, error) {
	p, err := plan.CompileNodeIsland(scanJSON, "kafka scan", plan.CompileKafkaScan)
	if err != nil {
		return nil, err
	}
	mem := bufpool.New()
	f, err := NewValueFetch(FetchLayout{
		Value: p.Value, ValueFields: p.ValueFields, Key: p.Key, KeyNames: p.KeyNames, KeyFields: p.KeyFields, Metadata: p.Metadata,
		Upsert: p.Upsert,
	}, p.Names, p.Types, mem)
	if err != nil {
		return nil, fmt.Errorf("kafka table %s: %w", p.Table, err)
	}
	return &KafkaFetch{ValueFetch: f, plan: p, mem: mem}, nil
}

// Finish returns the fetch's rows as one batch and its watermark (NoWatermark without a pushed
// watermark, or when the expression is null on every row).
func (f *KafkaFetch) Finish() (arrow.RecordBatch, int64, error) {
	b, err := f.ValueFetch.Finish()
	if err != nil {
		return nil, 0, fmt.Errorf("kafka table %s: %w", f.plan.Table, err)
	}
	w := f.plan.Watermark
	if w == nil || b.NumRows() == 0 {
		return b, NoWatermark, nil
	}
	mark, err := maxWatermark(w.Expr, b, f.mem)
	if err != nil {
		b.Release()
		return nil, 0, fmt.Errorf("kafka table %s: watermark: %w", f.plan.Table, err)
	}
	return b, mark, nil
}

// maxWatermark evaluates a watermark expression (TIMESTAMP(p <= 3), epoch milliseconds) over a
// batch and returns the maximum of its non-null values.
func maxWatermark(e expr.Expr, b arrow.RecordBatch, mem memory.Allocator) (int64, error) {
	n := int(b.NumRows())
	ctx := expr.NewCtx(mem, n)
	res, err := e.Eval(ctx, b)
	if err != nil {
		return 0, err
	}
	defer res.Release()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	mark := int64(NoWatermark)
	vals := column.Values[int64](res)
	bits, off := column.ValidBits(res)
	for r := 0; r < n; r++ {
		if column.Valid(bits, off, r) && vals[r] > mark {
			mark = vals[r]
		}
	}
	return mark, nil
}
