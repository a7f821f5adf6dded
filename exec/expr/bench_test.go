package expr

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// benchRows is the batch size of the function-family benchmarks (Sluice's default batch).
const benchRows = 8192

// benchColumns are the input columns of the benchmarks: i INT, l BIGINT, d DOUBLE,
// dc DECIMAL(18, 2), s STRING, ts TIMESTAMP(3), t6 TIMESTAMP(6), lt TIMESTAMP_LTZ(3), dt DATE;
// about one value in 16 is NULL.
var benchTypes = []catalog.Type{
	catalog.IntType(true), catalog.BigIntType(true), catalog.DoubleType(true), catalog.DecimalType(18, 2, true),
	catalog.StringType(true), catalog.TimestampType(3, true), catalog.TimestampType(6, true),
	{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}, {Kind: catalog.Date, Nullable: true},
}

func benchBatch(b *testing.B) arrow.RecordBatch {
	b.Helper()
	names := []string{"i", "l", "d", "dc", "s", "ts", "t6", "lt", "dt"}
	schema, err := catalog.ArrowSchema(names, benchTypes)
	if err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(1))
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	for r := 0; r < benchRows; r++ {
		if rnd.Intn(16) == 0 {
			for c := range names {
				bld.Field(c).AppendNull()
			}
			continue
		}
		// Event times as a stream's batch holds them: ascending, a few out of order.
		ms := 1_711_800_000_000 + int64(r)*37_000 - rnd.Int63n(2_000)
		bld.Field(0).(*array.Int32Builder).Append(rnd.Int31n(2_000_000) - 1_000_000)
		bld.Field(1).(*array.Int64Builder).Append(rnd.Int63() - 1<<62)
		bld.Field(2).(*array.Float64Builder).Append(rnd.NormFloat64() * 1e6)
		bld.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(rnd.Int63n(2_000_000_000) - 1_000_000_000))
		bld.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("s%d-needle-%x", rnd.Intn(1000), rnd.Int63()))
		bld.Field(5).(*array.TimestampBuilder).Append(arrow.Timestamp(ms))
		bld.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(ms*1000 + rnd.Int63n(1000)))
		bld.Field(7).(*array.TimestampBuilder).Append(arrow.Timestamp(ms))
		bld.Field(8).(*array.Date32Builder).Append(arrow.Date32(ms / 86_400_000))
	}
	return bld.NewRecordBatch()
}

// BenchmarkFunctionFamilies reports ns/row of one compiled expression per function family
// over a batch of benchRows rows (go test -bench FunctionFamilies ./exec/expr).
func BenchmarkFunctionFamilies(b *testing.B) {
	col := func(i int) *Node { return ref(i, benchTypes[i]) }
	i, l, d, dc, s, ts, t6, lt, dt := col(0), col(1), col(2), col(3), col(4), col(5), col(6), col(7), col(8)
	intT, longT, dblT, boolT := catalog.IntType(true), catalog.BigIntType(true), catalog.DoubleType(true), catalog.BooleanType(true)
	strT := catalog.StringType(true)
	sym := func(v string) *Node { return lit(Symbol{Value: v}, catalog.Type{Kind: catalog.Symbol}) }
	dayTime := catalog.Type{Kind: catalog.IntervalDayTime}
	months := catalog.Type{Kind: catalog.IntervalYearMonth}
	berlin, err := javatime.LoadZone("Europe/Berlin")
	if err != nil {
		b.Fatal(err)
	}
	env := Env{Zone: &berlin, JavaVersion: 17}
	for _, c := range []struct {
		family string
		n      *Node
	}{
		{"arithmetic/int+int", call("+", intT, i, lit(int64(7), catalog.IntType(false)))},
		{"arithmetic/long*long", call("*", longT, l, l)},
		{"arithmetic/double/double", call("/", dblT, d, lit(3.5, catalog.DoubleType(false)))},
		{"arithmetic/decimal*decimal", call("*", catalog.DecimalType(37, 4, true), dc, dc)},
		{"comparison/int>", call(">", boolT, i, lit(int64(0), catalog.IntType(false)))},
		{"comparison/string=", call("=", boolT, s, lit("s1-needle-0", catalog.StringType(false)))},
		{"conditional/case", call("CASE", intT, call(">", boolT, i, lit(int64(0), catalog.IntType(false))), i, lit(int64(-1), catalog.IntType(false)))},
		{"conditional/coalesce", call("COALESCE", intT, i, lit(int64(0), catalog.IntType(false)))},
		{"cast/int->string", call("CAST", strT, i)},
		{"cast/int->string->int", call("CAST", intT, call("CAST", strT, i))},
		{"cast/double->decimal", call("CAST", catalog.DecimalType(12, 3, true), d)},
		{"cast/timestamp->ltz", call("CAST", catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}, ts)},
		{"string/upper", call("UPPER", strT, s)},
		{"string/concat", call("||", strT, s, s)},
		{"string/like", call("LIKE", boolT, s, lit("%needle%a%", catalog.StringType(false)))},
		{"string/regexp_extract", call("REGEXP_EXTRACT", strT, s, lit("needle-([0-9a-f]+)", catalog.StringType(false)), lit(int64(1), catalog.IntType(false)))},
		{"temporal/extract-hour", call("EXTRACT", longT, sym("HOUR"), ts)},
		{"temporal/extract-year-ltz", call("EXTRACT", longT, sym("YEAR"), lt)},
		{"temporal/date_format", call("DATE_FORMAT", strT, ts, lit("yyyy-MM-dd HH:mm:ss", catalog.StringType(false)))},
		{"temporal/from_unixtime", call("FROM_UNIXTIME", strT, i)},
		{"temporal/ts+interval", call("+", catalog.TimestampType(6, true), t6, lit(int64(90_000), dayTime))},
		{"temporal/date+months", call("+", catalog.Type{Kind: catalog.Date, Nullable: true}, dt, lit(int64(13), months))},
	} {
		b.Run(c.family, func(b *testing.B) {
			in := benchBatch(b)
			defer in.Release()
			e, err := CompileIn(c.n, benchTypes, env)
			if err != nil {
				b.Fatalf("compile: %v", err)
			}
			b.ResetTimer()
			for range b.N {
				ctx := NewCtx(memory.DefaultAllocator, benchRows)
				out, err := e.Eval(ctx, in)
				if err != nil || ctx.Err() != nil {
					b.Fatalf("eval: %v %v", err, ctx.Err())
				}
				out.Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
		})
	}
}
