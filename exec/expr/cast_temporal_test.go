package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

// TestAppendTimestampAsFlink holds DateTimeUtils#formatTimestamp(TimestampData, UTC, p) of
// Flink 2.1.1 (CAST(TIMESTAMP AS STRING)), also where its int epoch day and four-digit years
// wrap: beyond year 9999, before year 0 and beyond about 5.8 million years.
func TestAppendTimestampAsFlink(t *testing.T) {
	for _, c := range []struct {
		ms, nanos int64
		p         int
		want      string
	}{
		{0, 0, 3, "1970-01-01 00:00:00.000"},
		{-1, 0, 3, "1969-12-31 23:59:59.999"},
		{253402300799999, 0, 3, "9999-12-31 23:59:59.999"},
		{253402300800000, 0, 3, "0000-01-01 00:00:00.000"},
		{-62167219200001, 0, 3, "000/-12-31 23:59:59.999"},
		{185542587187199999, 0, 3, "1580-07-11 23:59:59.999"},
		{185542587187200000, 0, 3, ")*,/-06-23 00:00:00.000"},
		{-185542587100800001, 0, 3, ")*,/-06-23 23:59:59.999"},
		{9223372036854775807, 0, 3, "/+-.-04-06 07:12:55.807"},
		{-9223372036854775808, 0, 3, "5471-09-26 16:47:04.192"},
		{-9223372036854775, 192000, 6, "0-0(-12-21 19:59:05.225192"},
		{9223372036854775, 807000, 6, "4247-01-10 04:00:54.775807"},
		{7424400000000000, 123000, 6, "7239-11-14 13:20:00.000123"},
		{-30000000000000000, 0, 0, "(*'--11-05 18:40:00"},
		{1704067200123, 456000, 5, "2024-01-01 00:00:00.12345"},
	} {
		if got := string(appendTimestamp(nil, c.ms, c.nanos, c.p)); got != c.want {
			t.Errorf("formatTimestamp(%d, %d, %d) = %q, Flink %q", c.ms, c.nanos, c.p, got, c.want)
		}
	}
}

// TestIntervalToStringAsFlink holds DateTimeUtils#formatIntervalYearMonth and
// #formatIntervalDayTime of Flink 2.1.1 (CAST(INTERVAL AS STRING)), with their int and long
// overflows at the extremes.
func TestIntervalToStringAsFlink(t *testing.T) {
	for _, c := range []struct {
		v    int32
		want string
	}{
		{0, "+0-00"}, {1, "+0-01"}, {11, "+0-11"}, {12, "+1-00"}, {14, "+1-02"}, {-1, "-0-01"}, {-13, "-1-01"},
		{120, "+10-00"}, {2147483647, "+178956970-07"}, {-2147483648, "--178956970-0-8"}, {-2147483629, "-178956969-01"},
	} {
		if got := string(appendIntervalYearMonth(nil, c.v)); got != c.want {
			t.Errorf("formatIntervalYearMonth(%d) = %q, Flink %q", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    int64
		want string
	}{
		{0, "+0 00:00:00.000"}, {1, "+0 00:00:00.001"}, {999, "+0 00:00:00.999"}, {1000, "+0 00:00:01.000"},
		{86400000, "+1 00:00:00.000"}, {90061001, "+1 01:01:01.001"}, {-1, "-0 00:00:00.001"},
		{-90061001, "-1 01:01:01.001"}, {8640000000000, "+100000 00:00:00.000"},
		{9223372036854775807, "+-622191233 07:12:55.807"}, {-9223372036854775808, "-622191233 0-7:-12:-55.-808"},
		{185542587187200000, "+-2147483648 00:00:00.000"}, {-86400001, "-1 00:00:00.001"},
	} {
		if got := string(appendIntervalDayTime(nil, c.v)); got != c.want {
			t.Errorf("formatIntervalDayTime(%d) = %q, Flink %q", c.v, got, c.want)
		}
	}
}

// TestTemporalCastsAsFlink checks the casts between DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ
// against the arithmetic of Flink's cast rules: TimestampToDate's and TimestampToTime's Java
// division and remainder (a time before 1970 rounds towards the epoch, its time of day is
// negative), the wall clock of a TIMESTAMP_LTZ in the session zone, and a DATE's midnight read
// in the zone (in a gap, the instant after it: America/Sao_Paulo skipped 2018-11-04 00:00).
func TestTemporalCastsAsFlink(t *testing.T) {
	saoPaulo, err := javatime.LoadZone("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	date := catalog.Type{Kind: catalog.Date, Nullable: true}
	timeT := catalog.Type{Kind: catalog.Time, Nullable: true}
	ts3, ts6 := catalog.TimestampType(3, true), catalog.TimestampType(6, true)
	ltz3 := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 3, Nullable: true}
	ltz6 := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 6, Nullable: true}
	ts0 := catalog.TimestampType(0, true)
	ltz1 := catalog.Type{Kind: catalog.TimestampLTZ, Precision: 1, Nullable: true}
	day := int64(86_400_000)
	nov4 := int64(17839) // 2018-11-04
	for _, c := range []struct {
		from, to catalog.Type
		in       []any // Node.Value form, nil for NULL
		want     []any
	}{
		{ts3, date, []any{int64(-1), -day / 2, -day, 2*day + 5, nil}, []any{int64(0), int64(0), int64(-1), int64(2), nil}},
		{ts3, timeT, []any{int64(-1), -day / 2, 2*day + 5}, []any{int64(-1), -day / 2, int64(5)}},
		{ts6, date, []any{int64(-1), int64(-86_400_000_001)}, []any{int64(0), int64(-1)}},
		{ts6, timeT, []any{int64(-1), int64(1_500)}, []any{int64(-1), int64(1)}},
		{ltz3, timeT, []any{int64(0), int64(-1)}, []any{int64(21 * 3_600_000), int64(21*3_600_000 - 1)}},
		{ltz3, date, []any{int64(0)}, []any{int64(-1)}},
		{date, ts3, []any{int64(1), int64(-1), nil}, []any{day, -day, nil}},
		{timeT, ts3, []any{int64(5)}, []any{int64(5)}},
		{timeT, ts0, []any{int64(1_250)}, []any{int64(1_250)}}, // not truncated
		{timeT, ltz1, []any{int64(1_250)}, []any{int64(3*3_600_000 + 1_250)}},
		{date, ltz3, []any{int64(0), nov4}, []any{int64(3 * 3_600_000), nov4*day + 3*3_600_000}},
		{timeT, ltz6, []any{int64(1)}, []any{int64(3*3_600_000_000 + 1000)}},
	} {
		in := batch(t, []catalog.Type{c.from}, c.in)
		e, err := CompileIn(call("CAST", c.to, ref(0, c.from)), []catalog.Type{c.from}, Env{Zone: &saoPaulo})
		if err != nil {
			t.Fatalf("CAST %s AS %s: %v", c.from, c.to, err)
		}
		ctx := NewCtx(memory.DefaultAllocator, len(c.in))
		out, err := e.Eval(ctx, in)
		if err != nil || ctx.Err() != nil {
			t.Fatalf("CAST %s AS %s: %v %v", c.from, c.to, err, ctx.Err())
		}
		for i, want := range c.want {
			var got any
			if !out.IsNull(i) {
				got = int64At(out, i)
			}
			if got != want {
				t.Errorf("CAST(%v AS %s) from %s = %v, want %v", c.in[i], c.to, c.from, got, want)
			}
		}
		out.Release()
	}
	// A DATE can be beyond the years of a TIMESTAMP(4..6) in microseconds: not native.
	if _, err := CompileIn(call("CAST", ts6, ref(0, date)), []catalog.Type{date}, Env{Zone: &saoPaulo}); err == nil {
		t.Error("CAST(DATE AS TIMESTAMP(6)) compiled natively")
	}
}
