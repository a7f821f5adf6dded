package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// The functions that read the clock. In a streaming job Flink's generated Calc reads
// System#currentTimeMillis once per record, before its condition and projections, and every
// clock function of that record derives from that one reading
// (CodeGeneratorContext#addReusableRecordLevelCurrentTimestamp); UNIX_TIMESTAMP() reads it per
// call. Sluice reads the clock once per batch (Ctx.Now) and gives every row of the batch that
// reading, taken when the batch runs: as if Flink had processed the batch's rows within one
// millisecond, and as late as the batch's wait for its rows (see docs/divergences.md). Batch
// jobs (a query-level reading) are not accelerated by Sluice.
func init() {
	for _, f := range []struct {
		name string
		kind clockKind
		doc  string
	}{
		{"CURRENT_TIMESTAMP", clockInstant, "the clock as a TIMESTAMP_LTZ(3)"},
		{"NOW", clockInstant, "NOW(): the clock as a TIMESTAMP_LTZ(3)"},
		{"CURRENT_ROW_TIMESTAMP", clockInstant, "CURRENT_ROW_TIMESTAMP(): the clock as a TIMESTAMP_LTZ(3)"},
		{"LOCALTIMESTAMP", clockWall, "the clock's wall time in the session time zone (java.util.TimeZone#getOffset) as a TIMESTAMP(3)"},
		{"CURRENT_DATE", clockDate, "the date of the clock's wall time in the session time zone"},
		{"CURRENT_TIME", clockTimeOfDay, "the time of day of the clock's wall time in the session time zone (a TIME(0) that keeps the milliseconds, as Flink's)"},
		{"LOCALTIME", clockTimeOfDay, "as CURRENT_TIME"},
	} {
		kind := f.kind
		register(&Function{Name: f.name, Family: "temporal",
			Doc: f.doc + "; read once per batch: every row of a batch gets the same reading, as rows Flink processes within one millisecond do",
			compileIn: func(n *Node, args []Expr, env Env) (Expr, error) {
				return compileClock(n, args, env, kind)
			}})
	}
}

// clockKind is what a clock function derives from the clock's reading.
type clockKind int

const (
	clockInstant   clockKind = iota // epoch milliseconds
	clockWall                       // epoch milliseconds of the wall time in the session zone
	clockDate                       // epoch day of the wall time
	clockTimeOfDay                  // milliseconds of the day of the wall time
	clockSeconds                    // epoch seconds (UNIX_TIMESTAMP())
)

// compileClock compiles a clock function of the given kind.
func compileClock(n *Node, args []Expr, env Env, kind clockKind) (Expr, error) {
	if len(args) != 0 {
		return nil, unsupported("%s with operands", n.Op)
	}
	if !env.Clock {
		return nil, unsupported("%s reads the clock, which only a Calc gives its expressions", n.Op)
	}
	want := map[clockKind]catalog.Kind{clockInstant: catalog.TimestampLTZ, clockWall: catalog.Timestamp,
		clockDate: catalog.Date, clockTimeOfDay: catalog.Time, clockSeconds: catalog.BigInt}[kind]
	if n.Type.Kind != want || ((want == catalog.Timestamp || want == catalog.TimestampLTZ) && n.Type.Precision != 3) {
		return nil, unsupported("%s of type %s", n.Op, n.Type)
	}
	e := &clockExpr{typ: n.Type, kind: kind}
	if kind == clockWall || kind == clockDate || kind == clockTimeOfDay {
		if env.Zone == nil {
			return nil, noZone("%s", n.Op)
		}
		e.zone = *env.Zone
	}
	return e, nil
}

// clockExpr is a clock function: one value per batch, derived from Ctx.Now.
type clockExpr struct {
	typ  catalog.Type
	kind clockKind
	zone javatime.Zone
}

func (e *clockExpr) Type() catalog.Type { return e.typ }

func (e *clockExpr) Eval(ctx *Ctx, _ Batch) (arrow.Array, error) {
	now := ctx.Now
	// The wall time as Flink computes it: the reading plus java.util.TimeZone#getOffset.
	wall := now + e.zone.UtilOffsetAt(now)
	switch e.kind {
	case clockInstant, clockWall:
		v := now
		if e.kind == clockWall {
			v = wall
		}
		return filled(ctx, e.typ, v), nil
	case clockDate:
		// DateTimeUtils#timestampMillisToDate: (int) (ts / MILLIS_PER_DAY), less one when
		// negative, so not the floor before 1970: a wall in the last day before the epoch is
		// day 0, a negative whole day one day early.
		days := int32(wall / millisPerDay)
		if days < 0 {
			days--
		}
		return filled(ctx, e.typ, days), nil
	case clockTimeOfDay:
		// DateTimeUtils#timestampMillisToTime: (int) (ts % MILLIS_PER_DAY), Java's remainder.
		return filled(ctx, e.typ, int32(wall%millisPerDay)), nil
	}
	// DateTimeUtils#unixTimestamp(): currentTimeMillis() / 1000, Java's division.
	return filled(ctx, e.typ, now/1000), nil
}

// filled returns a column of ctx.N copies of v, with no NULL (the clock functions are NOT NULL).
func filled[T int32 | int64](ctx *Ctx, t catalog.Type, v T) arrow.Array {
	buf, vals := column.NewValues[T](ctx.Mem, ctx.N)
	for i := range vals {
		vals[i] = v
	}
	return column.MakeArray(arrowType(t), ctx.N, nil, buf)
}
