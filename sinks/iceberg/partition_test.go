package iceberg

import (
	"encoding/binary"
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
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

// TestDecimalTransformsLikeIceberg holds BucketUtil#hash(BigDecimal) and truncate[100] of
// DECIMAL(38, 4) values (unscaled), printed by Iceberg's Java code.
func TestDecimalTransformsLikeIceberg(t *testing.T) {
	for _, c := range []struct {
		unscaled string
		hash     int32
		trunc100 string // "" where not checked
	}{
		{"0", 1364076727, "0"}, {"1", -463810133, "0"}, {"-1", -43192051, "-100"}, {"127", 1435096473, "100"},
		{"128", 1544076949, "100"}, {"-128", 267099677, "-200"}, {"-129", -435537839, "-200"}, {"255", -582037868, "200"},
		{"256", -1783153782, "200"}, {"123400", -1775171077, "123400"},
		{"99999999999999999999999999999999999999", -1079967834, ""}, {"-99999999999999999999999999999999999999", -1954217638, ""},
		{"170141183460469231731687303715884105727", -981939778, ""},
	} {
		u, _ := new(big.Int).SetString(c.unscaled, 10)
		v := decimal128.FromBigInt(u)
		var buf [16]byte
		if h := int32(murmur3.Sum32(minimalBytes(v, &buf))); h != c.hash {
			t.Errorf("hash(%s) = %d, Iceberg says %d", c.unscaled, h, c.hash)
		}
		if c.trunc100 == "" {
			continue
		}
		p := &partitioner{ints: make([][]int64, 1), strs: make([][][]byte, 1), decs: make([][]decimal128.Num, 1)}
		b := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: 38, Scale: 4})
		b.Append(v)
		col := b.NewArray()
		p.computeDecimal(0, transform{kind: "truncate", n: 100}, col, 1)
		if got := p.decs[0][0].BigInt().String(); got != c.trunc100 {
			t.Errorf("truncate[100](%s) = %s, Iceberg says %s", c.unscaled, got, c.trunc100)
		}
		col.Release()
		b.Release()
	}
}

// TestFloatIdentityBits checks that float partition values compare as Java's Float#equals and
// Double#equals: -0.0 apart from 0.0, every NaN one value (Java's canonical NaN bits).
func TestFloatIdentityBits(t *testing.T) {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]float64{0, math.Copysign(0, -1), math.NaN(), math.Float64frombits(0x7ff0000000000001), 1.5}, nil)
	c := b.NewArray()
	defer c.Release()
	got := floatBits(c, make([]int64, 5))
	want := []int64{0, math.MinInt64, 0x7ff8000000000000, 0x7ff8000000000000, int64(math.Float64bits(1.5))}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d: bits %#x, want %#x", i, got[i], want[i])
		}
	}
	fb := array.NewFloat32Builder(memory.DefaultAllocator)
	defer fb.Release()
	fb.AppendValues([]float32{float32(math.Copysign(0, -1)), float32(math.NaN()), math.Float32frombits(0x7f800001)}, nil)
	fc := fb.NewArray()
	defer fc.Release()
	got = floatBits(fc, make([]int64, 3))
	for i, w := range []int64{int64(int32(-0x80000000)), 0x7fc00000, 0x7fc00000} {
		if got[i] != w {
			t.Errorf("float %d: bits %#x, want %#x", i, got[i], w)
		}
	}
}
