package javatext

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
)

// This file prints FLOAT and DOUBLE values as Java 8 to 18 print them (Double.toString,
// Float.toString, String.valueOf, "" + d): the digits of jdk.internal.math.FloatingDecimal,
// which are not always the shortest that read back to the value (Java 19 changed to shortest
// digits; Sluice's planner only takes these casts on a JVM that still prints the old way).
//
// The digits come from a free-format digit generation over exact integers: with the value
// v = B / S · 10^e and half its spacing M, decimal digits are produced until the remainder is
// within M of a digit boundary, then the last digit is rounded. FloatingDecimal's observable
// choices are reproduced, each one a fact about its output:
//   - a whole number below 2^63 (few enough fraction bits) prints all its digits, rounded
//     half-up only to the digits its spacing makes insignificant;
//   - M is half the spacing, a quarter for an exact power of two, the same on both sides;
//   - the exponent estimate log10 ≈ (m-1.5)·0.289529654 + 0.176091259 + binExp·log10(2) may
//     be one too high: a first digit 0 is dropped unless rounding up already stops there;
//   - in the exponent form (value < 10^-3 or >= 10^7) at least two digits are produced;
//   - values that fit 31 or 63 bits are computed in wrapping int or long arithmetic, the
//     others in big integers, and the upper stop test is strict in the first two and not in
//     the last;
//   - a tie in the last digit rounds to an even digit; a carry out of all nines leaves the
//     digit count unchanged ("9.99" becoming "10.0").

// PrintsAsJava reports whether AppendDouble and AppendFloat print as Double.toString and
// Float.toString of the given Java feature version (8 to 18; 0, unknown, is false).
func PrintsAsJava(version int) bool { return version >= 8 && version <= 18 }

// FloatPrinter prints FLOAT and DOUBLE values as Java 8 to 18 do, reusing its big integers
// from one value to the next. The zero value is ready; it is not safe for concurrent use.
type FloatPrinter struct {
	z bigScratch
}

// AppendDouble appends Double.toString(v) as Java 8 to 18 print it.
func AppendDouble(dst []byte, v float64) []byte { return new(FloatPrinter).AppendDouble(dst, v) }

// AppendFloat appends Float.toString(v) as Java 8 to 18 print it.
func AppendFloat(dst []byte, v float32) []byte { return new(FloatPrinter).AppendFloat(dst, v) }

// AppendDouble appends Double.toString(v) as Java 8 to 18 print it.
func (p *FloatPrinter) AppendDouble(dst []byte, v float64) []byte {
	b := math.Float64bits(v)
	neg := b>>63 != 0
	fract := b & (1<<52 - 1)
	exp := int(b>>52) & 0x7ff
	switch {
	case exp == 0x7ff && fract == 0 && neg:
		return append(dst, "-Infinity"...)
	case exp == 0x7ff && fract == 0:
		return append(dst, "Infinity"...)
	case exp == 0x7ff:
		return append(dst, "NaN"...)
	}
	if neg {
		dst = append(dst, '-')
	}
	if exp == 0 && fract == 0 {
		return append(dst, "0.0"...)
	}
	nSig := 53
	if exp == 0 { // subnormal: normalise so that bit 52 is set
		lz := bits.LeadingZeros64(fract)
		shift := lz - 11
		fract <<= uint(shift)
		exp = 1 - shift
		nSig = 64 - lz
	} else {
		fract |= 1 << 52
	}
	var d javaDigits
	d.generate(&p.z, exp-1023, fract, nSig)
	return d.appendTo(dst)
}

// AppendFloat appends Float.toString(v) as Java 8 to 18 print it.
func (p *FloatPrinter) AppendFloat(dst []byte, v float32) []byte {
	b := math.Float32bits(v)
	neg := b>>31 != 0
	fract := b & (1<<23 - 1)
	exp := int(b>>23) & 0xff
	switch {
	case exp == 0xff && fract == 0 && neg:
		return append(dst, "-Infinity"...)
	case exp == 0xff && fract == 0:
		return append(dst, "Infinity"...)
	case exp == 0xff:
		return append(dst, "NaN"...)
	}
	if neg {
		dst = append(dst, '-')
	}
	if exp == 0 && fract == 0 {
		return append(dst, "0.0"...)
	}
	nSig := 24
	if exp == 0 {
		lz := bits.LeadingZeros32(fract)
		shift := lz - 8
		fract <<= uint(shift)
		exp = 1 - shift
		nSig = 32 - lz
	} else {
		fract |= 1 << 23
	}
	var d javaDigits
	d.generate(&p.z, exp-127, uint64(fract)<<29, nSig)
	return d.appendTo(dst)
}

// javaDigits is a value's decimal digits as FloatingDecimal develops them: the value is
// 0.digits[:n] · 10^point.
type javaDigits struct {
	digits [20]byte
	n      int
	point  int
}

// pow5 holds 5^0 .. 5^26, the powers of five a long holds.
var pow5 = func() (p [27]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 5
	}
	return p
}()

// pow5Bits is the bit length of 5^i, 3i beyond the table (FloatingDecimal's size estimate).
func pow5Bits(i int) int {
	if i < len(pow5) {
		return bits.Len64(pow5[i])
	}
	return 3 * i
}

// generate develops the digits of fract · 2^(binExp-52), fract having bit 52 set and nSig
// significant bits.
func (d *javaDigits) generate(z *bigScratch, binExp int, fract uint64, nSig int) {
	tailZeros := bits.TrailingZeros64(fract)
	nFractBits := 53 - tailZeros
	nTinyBits := max(0, nFractBits-binExp-1)
	if binExp <= 62 && binExp >= -21 && nTinyBits == 0 {
		// A whole number held in a long.
		insignificant := 0
		if binExp > nSig {
			insignificant = decimalDigitsOfPow2(binExp - nSig - 1)
		}
		if binExp >= 52 {
			fract <<= uint(binExp - 52)
		} else {
			fract >>= uint(52 - binExp)
		}
		d.setWhole(fract, insignificant)
		return
	}
	decExp := estimateDecExp(fract, binExp)
	b5 := max(0, -decExp)
	b2 := b5 + nTinyBits + binExp
	s5 := max(0, decExp)
	s2 := s5 + nTinyBits
	m5 := b5
	m2 := b2 - nSig
	fract >>= uint(tailZeros)
	b2 -= nFractBits - 1
	common := min(b2, s2)
	b2 -= common
	s2 -= common
	m2 -= common
	if nFractBits == 1 { // an exact power of two
		m2--
	}
	if m2 < 0 {
		b2 -= m2
		s2 -= m2
		m2 = 0
	}
	bBits := nFractBits + b2 + pow5Bits(b5)
	tenSBits := s2 + 1 + pow5Bits(s5+1)
	var high, low bool
	var lowDiff int
	switch {
	case bBits < 32 && tenSBits < 32:
		decExp, high, low, lowDiff = generateFixed[int32](d, decExp,
			int32(fract)*int32(pow5[b5])<<b2, int32(pow5[s5])<<s2, int32(pow5[m5])<<m2)
	case bBits < 64 && tenSBits < 64:
		decExp, high, low, lowDiff = generateFixed[int64](d, decExp,
			int64(fract)*int64(pow5[b5])<<b2, int64(pow5[s5])<<s2, int64(pow5[m5])<<m2)
	default:
		decExp, high, low, lowDiff = d.generateBig(z, decExp, fract, b5, b2, s5, s2, m5, m2)
	}
	d.point = decExp + 1
	if high && (!low || lowDiff > 0 || lowDiff == 0 && d.digits[d.n-1]&1 != 0) {
		d.roundUp()
	}
}

// generateFixed develops digits of b/s with margin m in wrapping int or long arithmetic; the
// upper stop test is strict. It returns the corrected exponent, the stop tests of the last
// digit and the sign of 2·remainder - 10·s.
func generateFixed[T int32 | int64](d *javaDigits, decExp int, b, s, m T) (int, bool, bool, int) {
	tens := s * 10
	q := b / s
	b = 10 * (b % s)
	m *= 10
	low, high := b < m, b+m > tens
	if q == 0 && !high {
		decExp--
	} else {
		d.push(int(q))
	}
	if decExp < -3 || decExp >= 8 {
		low, high = false, false
	}
	for !low && !high {
		q = b / s
		b = 10 * (b % s)
		m *= 10
		if m > 0 {
			low, high = b < m, b+m > tens
		} else { // m wrapped around: it is certainly beyond b and tens
			low, high = true, true
		}
		d.push(int(q))
	}
	diff := (b << 1) - tens
	return decExp, high, low, sign(diff)
}

func sign[T int32 | int64](x T) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// bigScratch holds the integers of the exact digit generation, kept between values so that
// printing a column allocates only while they grow.
type bigScratch struct {
	b, s, m, tens, q, sum big.Int
}

// bigPow5s is 5^0 .. 5^340, beyond the largest power a double needs (5^326), made on first use.
var bigPow5s = sync.OnceValue(func() []*big.Int {
	p := []*big.Int{big.NewInt(1)}
	for len(p) <= 340 {
		p = append(p, new(big.Int).Mul(p[len(p)-1], big.NewInt(5)))
	}
	return p
})

// bigPow5 returns 5^i (shared: not to be modified).
func bigPow5(i int) *big.Int { return bigPow5s()[i] }

var bigTen = big.NewInt(10)

// generateBig develops the digits in exact integers; the upper stop test includes equality.
func (d *javaDigits) generateBig(z *bigScratch, decExp int, fract uint64, b5, b2, s5, s2, m5, m2 int) (int, bool, bool, int) {
	b, s, m, tens, q, sum := &z.b, &z.s, &z.m, &z.tens, &z.q, &z.sum
	s.Lsh(bigPow5(s5), uint(s2))
	b.SetUint64(fract)
	b.Lsh(b.Mul(b, bigPow5(b5)), uint(b2))
	m.Lsh(bigPow5(m5+1), uint(m2+1)) // 10·M, as the remainder below is 10·(b mod s)
	tens.Lsh(bigPow5(s5+1), uint(s2+1))
	next := func() int {
		q.QuoRem(b, s, b)
		b.Mul(b, bigTen)
		return int(q.Int64())
	}
	stops := func() (bool, bool) {
		return b.Cmp(m) < 0, sum.Add(b, m).Cmp(tens) >= 0
	}
	digit := next()
	low, high := stops()
	if digit == 0 && !high {
		decExp--
	} else {
		d.push(digit)
	}
	if decExp < -3 || decExp >= 8 {
		low, high = false, false
	}
	for !low && !high {
		digit = next()
		m.Mul(m, bigTen)
		low, high = stops()
		d.push(digit)
	}
	diff := 0
	if high && low {
		diff = sum.Lsh(b, 1).Cmp(tens)
	}
	return decExp, high, low, diff
}

func (d *javaDigits) push(digit int) {
	d.digits[d.n] = byte('0' + digit)
	d.n++
}

// roundUp adds one to the last digit; a carry out of all nines becomes 1 followed by the
// same number of zeros, one place higher.
func (d *javaDigits) roundUp() {
	i := d.n - 1
	for i > 0 && d.digits[i] == '9' {
		d.digits[i] = '0'
		i--
	}
	if d.digits[i] == '9' {
		d.digits[0] = '1'
		d.point++
		return
	}
	d.digits[i]++
}

// setWhole develops the digits of a whole number, first rounding away its last
// insignificant digits half-up, without trailing zeros.
func (d *javaDigits) setWhole(v uint64, insignificant int) {
	point := 0
	if insignificant > 0 {
		p := uint64(1)
		for range insignificant {
			p *= 10
		}
		rest := v % p
		v /= p
		point = insignificant
		if rest >= p/2 {
			v++
		}
	}
	var tmp [20]byte
	i := len(tmp)
	for ; v != 0; v /= 10 {
		i--
		tmp[i] = byte('0' + v%10)
	}
	point += len(tmp) - i
	end := len(tmp)
	for end > i+1 && tmp[end-1] == '0' {
		end--
	}
	d.n = copy(d.digits[:], tmp[i:end])
	d.point = point
}

// decimalDigitsOfPow2 is the number of digits of 2^p after the first (p < 64).
func decimalDigitsOfPow2(p int) int {
	if p <= 1 {
		return 0
	}
	n := 0
	for x := uint64(1) << uint(p); x >= 10; x /= 10 {
		n++
	}
	return n
}

// estimateDecExp is FloatingDecimal's floor(log10(v)) estimate, which may be one too high.
func estimateDecExp(fract uint64, binExp int) int {
	m := math.Float64frombits(1023<<52 | fract&(1<<52-1)) // 1 <= m < 2
	// The conversions keep each product rounded on its own, as Java's strict arithmetic does
	// (no fused multiply-add).
	d := float64((m-1.5)*0.289529654) + 0.176091259 + float64(float64(binExp)*0.301029995663981)
	return int(math.Floor(d))
}

// appendTo prints the digits as Double.toString does: plain between 10^-3 and 10^7 with at
// least one digit after the point, otherwise d.ddddE±n.
func (d *javaDigits) appendTo(dst []byte) []byte {
	digits := d.digits[:d.n]
	switch {
	case d.point > 0 && d.point < 8:
		whole := min(d.n, d.point)
		dst = append(dst, digits[:whole]...)
		if whole < d.point {
			for range d.point - whole {
				dst = append(dst, '0')
			}
			return append(dst, '.', '0')
		}
		dst = append(dst, '.')
		if whole < d.n {
			return append(dst, digits[whole:]...)
		}
		return append(dst, '0')
	case d.point <= 0 && d.point > -3:
		dst = append(dst, '0', '.')
		for range -d.point {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0], '.')
	if d.n > 1 {
		dst = append(dst, digits[1:]...)
	} else {
		dst = append(dst, '0')
	}
	dst = append(dst, 'E')
	e := d.point - 1
	if e < 0 {
		dst = append(dst, '-')
		e = -e
	}
	if e >= 100 {
		dst = append(dst, byte('0'+e/100))
		e %= 100
		return append(dst, byte('0'+e/10), byte('0'+e%10))
	}
	if e >= 10 {
		dst = append(dst, byte('0'+e/10))
	}
	return append(dst, byte('0'+e%10))
}
