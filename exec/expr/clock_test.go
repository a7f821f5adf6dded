package expr

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// TestClockFunctions checks the values the clock functions derive from one reading, in zones
// with and without daylight saving time (expected values from Go's time package), and that
// they fall back without a clock or a zone.
func TestClockFunctions(t *testing.T) {
	ltz := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3}
	ts := catalog.TimestampType(3, false)
	date := catalog.Type{Kind: catalog.Date}
	timeT := catalog.Type{Kind: catalog.Time}
	long := catalog.BigIntType(false)
	for _, zoneID := range []string{"UTC", "Asia/Kolkata", "America/New_York", "Australia/Lord_Howe"} {
		zone, err := javatime.LoadZone(zoneID)
		if err != nil {
			t.Fatal(err)
		}
		loc, err := time.LoadLocation(zoneID)
		if err != nil {
			t.Fatal(err)
		}
		env := Env{Zone: &zone, Clock: true}
		// Readings in summer and winter time, just before midnight, and a leap day.
		for _, now := range []time.Time{
			time.Date(2026, 12, 1, 19, 30, 12, 345e6, time.UTC),
			time.Date(2026, 7, 1, 3, 59, 59, 999e6, time.UTC),
			time.Date(2028, 2, 29, 12, 0, 0, 1e6, time.UTC),
		} {
			wall := now.In(loc)
			_, offset := wall.Zone()
			wallMillis := now.UnixMilli() + int64(offset)*1000
			dayStart := time.Date(wall.Year(), wall.Month(), wall.Day(), 0, 0, 0, 0, time.UTC)
			for _, c := range []struct {
				op   string
				typ  catalog.Type
				want int64
			}{
				{"CURRENT_TIMESTAMP", ltz, now.UnixMilli()},
				{"NOW", ltz, now.UnixMilli()},
				{"CURRENT_ROW_TIMESTAMP", ltz, now.UnixMilli()},
				{"LOCALTIMESTAMP", ts, wallMillis},
				{"CURRENT_DATE", date, dayStart.Unix() / 86400},
				{"CURRENT_TIME", timeT, wallMillis - dayStart.UnixMilli()},
				{"LOCALTIME", timeT, wallMillis - dayStart.UnixMilli()},
				{"UNIX_TIMESTAMP", long, now.Unix()},
			} {
				e, err := CompileIn(call(c.op, c.typ), nil, env)
				if err != nil {
					t.Fatalf("%s: %v", c.op, err)
				}
				ctx := NewCtx(memory.DefaultAllocator, 3)
				ctx.Now = now.UnixMilli()
				out, err := e.Eval(ctx, array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 3))
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < 3; i++ {
					if got := int64At(out, i); got != c.want || out.IsNull(i) {
						t.Errorf("%s at %s in %s, row %d: %d, want %d", c.op, now, zoneID, i, int64At(out, i), c.want)
					}
				}
				out.Release()
			}
		}
	}
	for _, env := range []Env{{}, {Clock: true}} {
		if _, err := CompileIn(call("LOCALTIMESTAMP", ts), nil, env); err == nil {
			t.Errorf("LOCALTIMESTAMP compiled with %+v (needs a clock and a zone)", env)
		}
	}
}

// TestProctimeMaterialize checks that a processing-time attribute written into a row is the
// batch's clock reading, and that it needs a clock.
func TestProctimeMaterialize(t *testing.T) {
	ltz := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3}
	proctime := call("PROCTIME", catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3, TimeAttr: catalog.Proctime})
	n := call("PROCTIME_MATERIALIZE", ltz, proctime)
	if _, err := CompileIn(n, nil, Env{}); err == nil {
		t.Fatal("PROCTIME_MATERIALIZE compiled without a clock")
	}
	// The attribute as a column of the input (a Calc after the one that declared it).
	column := call("PROCTIME_MATERIALIZE", ltz, ref(0, proctime.Type))
	if _, err := CompileIn(column, []catalog.Type{proctime.Type}, Env{Clock: true}); err != nil {
		t.Fatalf("PROCTIME_MATERIALIZE of a column: %v", err)
	}
	if _, err := CompileIn(call("PROCTIME_MATERIALIZE", ltz, ref(0, ltz)), []catalog.Type{ltz}, Env{Clock: true}); err == nil {
		t.Fatal("PROCTIME_MATERIALIZE of a plain TIMESTAMP_LTZ compiled")
	}
	e, err := CompileIn(n, nil, Env{Clock: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := NewCtx(memory.DefaultAllocator, 2)
	ctx.Now = 1_764_620_000_123
	out, err := e.Eval(ctx, array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 2))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	for i := 0; i < 2; i++ {
		if got := int64(out.(*array.Timestamp).Value(i)); got != ctx.Now || out.IsNull(i) {
			t.Errorf("row %d: %d, want the reading %d", i, got, ctx.Now)
		}
	}
}
