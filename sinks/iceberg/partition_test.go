package iceberg

import (
	"encoding/binary"
	"testing"

	"github.com/twmb/murmur3"
)

// The expected values were printed by Iceberg 1.11's DateTimeUtil and BucketUtil (Java).

func TestTimeTransformsLikeIcebergsDateTimeUtil(t *testing.T) {
	micros := [][5]int64{ // micros, years, months, days, hours
		{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {-1, -1, -1, -1, -1}, {-1000000, -1, -1, -1, -1},
		{-1000001, -1, -1, -1, -1}, {-999999, -1, -1, -1, -1}, {86400000000, 0, 0, 1, 24},
		{-86400000000, -1, -1, -1, -24}, {-86400000001, -1, -1, -2, -25}, {-3600000000, -1, -1, -1, -1},
		{-3600000001, -1, -1, -1, -2}, {1700000000123456, 53, 646, 19675, 472222},
		{-62135596800000000, -1969, -23628, -719162, -17259888}, {253402300799999999, 8029, 96359, 2932896, 70389527},
		{-2678400000000, -1, -1, -31, -744}, {-2678400000001, -1, -2, -32, -745},
		{-31536000000000, -1, -12, -365, -8760}, {-31536000000001, -2, -13, -366, -8761}, {-15000000, -1, -1, -1, -1},
	}
	for _, c := range micros {
		for i, unit := range []string{"year", "month", "day", "hour"} {
			if got := microsTo(unit, c[0]); int64(got) != c[i+1] {
				t.Errorf("%s of %d micros = %d, Iceberg says %d", unit, c[0], got, c[i+1])
			}
		}
	}
	days := [][3]int64{ // days, years, months
		{0, 0, 0}, {1, 0, 0}, {-1, -1, -1}, {-31, -1, -1}, {-32, -1, -2}, {30, 0, 0}, {31, 0, 1},
		{-365, -1, -12}, {-366, -2, -13}, {19000, 52, 624}, {-719162, -1969, -23628}, {2932896, 8029, 96359}, {-60, -1, -2},
	}
	for _, c := range days {
		if y, m := daysTo("year", c[0]), daysTo("month", c[0]); int64(y) != c[1] || int64(m) != c[2] {
			t.Errorf("days %d: year %d month %d, Iceberg says %d %d", c[0], y, m, c[1], c[2])
		}
	}
}

func TestBucketHashLikeIcebergsBucketUtil(t *testing.T) {
	longs := [][2]int64{{0, 1669671676}, {1, 1392991556}, {-1, 1651860712}, {34, 2017239379},
		{9223372036854775807, -2106506049}, {-9223372036854775808, 1366273829}, {1700000000123456, -119528677}}
	var buf [8]byte
	for _, c := range longs {
		binary.LittleEndian.PutUint64(buf[:], uint64(c[0]))
		if h := int32(murmur3.Sum32(buf[:])); int64(h) != c[1] {
			t.Errorf("hash(%d) = %d, Iceberg says %d", c[0], h, c[1])
		}
	}
	strs := map[string]int32{"": 0, "iceberg": 1210000089, "héllo 🌍": 801318382, "abc": -1277324294}
	for s, want := range strs {
		if h := int32(murmur3.Sum32([]byte(s))); h != want {
			t.Errorf("hash(%q) = %d, Iceberg says %d", s, h, want)
		}
	}
	if b := bucketOf(uint32(0x80000005), 4); b != 1 {
		t.Errorf("bucket of a negative hash: %d", b)
	}
}

func TestTruncateCodePoints(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{{"héllo", 2, "hé"}, {"🌍x", 1, "🌍"}, {"ab", 5, "ab"}, {"", 3, ""}} {
		if got := string(truncateCodePoints([]byte(c.in), c.w)); got != c.want {
			t.Errorf("truncate(%q, %d) = %q", c.in, c.w, got)
		}
	}
}
