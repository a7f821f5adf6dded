package expr

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatime"
)

func TestTruncateTimestampAsFlink(t *testing.T) {
	cases := []struct {
		ms, nano  int64
		precision int
		wantMs    int64
		wantNano  int64
	}{
		{1_500, 0, 0, 1_000, 0},             // 00:00:01.5 -> 00:00:01
		{-1_500, 0, 0, -1_000, 0},           // towards zero, as Java's division: 23:59:59.000
		{1_234, 567_000, 3, 1_234, 0},       // microseconds dropped at precision 3
		{1_234, 567_000, 5, 1_234, 560_000}, // one digit of the micros dropped
		{1_000, 1_000, 4, 1_000, 1_000},     // nano-of-second "1000" has 4 digits: kept at precision 4
		{1_000, 10_000, 4, 1_000, 0},        // "10000" has 5 digits: the 10 µs are below precision 4
		{1_001, 0, 2, 1_000, 0},             // nano-of-second 1000000 has 7 digits
		{0, 0, 0, 0, 0},
	}
	for _, c := range cases {
		ms, nano := truncateTimestamp(c.ms, c.nano, c.precision)
		if ms != c.wantMs || nano != c.wantNano {
			t.Errorf("truncate(%d ms, %d ns, %d) = (%d, %d), want (%d, %d)", c.ms, c.nano, c.precision, ms, nano, c.wantMs, c.wantNano)
		}
	}
}

// TestTruncateTimestampCountsDigits checks the threshold form of truncateTimestamp against
// DateTimeUtils#truncate's own rule, spelled out: count the nano-of-second's decimal digits.
func TestTruncateTimestampCountsDigits(t *testing.T) {
	byDigits := func(ms, nanoOfMilli int64, precision int) (int64, int64) {
		nano := javatime.FloorMod(ms, 1000)*1_000_000 + nanoOfMilli
		digits := 1
		for x := nano; x >= 10; x /= 10 {
			digits++
		}
		if digits <= precision {
			return ms, nanoOfMilli
		}
		p := int64(1)
		if precision <= 3 {
			for i := precision; i < 3; i++ {
				p *= 10
			}
			return ms / p * p, 0
		}
		for i := precision; i < 9; i++ {
			p *= 10
		}
		return ms, nanoOfMilli / p * p
	}
	rnd := rand.New(rand.NewSource(1))
	for i := 0; i < 200_000; i++ {
		ms := rnd.Int63n(2_000_000_000_000) - 1_000_000_000_000
		if i%3 == 0 {
			ms = ms / 1000 * 1000 // whole seconds: short nano-of-second values
		}
		nano := rnd.Int63n(1_000_000)
		if i%4 == 0 {
			nano = nano / 1000 * 1000
		}
		p := rnd.Intn(10)
		gm, gn := truncateTimestamp(ms, nano, p)
		wm, wn := byDigits(ms, nano, p)
		if gm != wm || gn != wn {
			t.Fatalf("truncate(%d ms, %d ns, %d) = (%d, %d), counting digits gives (%d, %d)", ms, nano, p, gm, gn, wm, wn)
		}
	}
}

// TestCastMicrosToMillisFastPath checks CAST(TIMESTAMP(6) AS TIMESTAMP(3)), which skips the
// general conversion loop, against that loop on values either side of the epoch (floor
// division: -1 µs is 1969-12-31 23:59:59.999) and NULLs.
func TestCastMicrosToMillisFastPath(t *testing.T) {
	ts6, ts3 := catalog.TimestampType(6, true), catalog.TimestampType(3, true)
	rnd := rand.New(rand.NewSource(7))
	vals := []any{int64(-1), int64(-1000), int64(-1001), int64(0), int64(999), nil, int64(1_700_000_000_123_456)}
	for i := 0; i < 1000; i++ {
		vals = append(vals, rnd.Int63n(1<<60)-1<<59)
	}
	types := []catalog.Type{ts6}
	in := batch(t, types, vals)
	defer in.Release()
	out, err := eval(t, call("CAST", ts3, ref(0, ts6)), in, types)
	if err != nil {
		t.Fatal(err)
	}
	got := column.Values[int64](out)
	ctx := NewCtx(memory.DefaultAllocator, len(vals))
	general := convertTimestamps(ctx, in.Column(0), ts6, ts3, 3, nil)
	defer general.Release()
	if err := ctx.Err(); err != nil {
		t.Fatalf("general loop: %v", err)
	}
	want := column.Values[int64](general)
	for i, v := range vals {
		if v == nil {
			if out.IsValid(i) {
				t.Errorf("row %d: NULL cast to %d", i, got[i])
			}
			continue
		}
		if got[i] != want[i] {
			t.Errorf("CAST(%d µs AS TIMESTAMP(3)) = %d ms, general loop gives %d", v, got[i], want[i])
		}
	}
	if got[0] != -1 || got[2] != -2 {
		t.Errorf("floor division: -1 µs -> %d ms, -1001 µs -> %d ms, want -1 and -2", got[0], got[2])
	}
}
