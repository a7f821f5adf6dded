// Package javatext reads and writes text exactly as the Java library methods Flink calls do
// (Double.parseDouble, Integer.parseInt, LocalDate.parse, Double.toString, ...): the same
// accepted forms, the same values, the same failures, the same digits.
package javatext

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/javacompat/javatime"
)

// ParseDouble is Double.parseDouble (bits = 64) or Float.parseFloat (bits = 32), rounding
// directly to the target width as Java does. Java's grammar: surrounding characters ≤ U+0020
// are ignored; an optional sign; "NaN", "Infinity", a decimal number with an optional exponent,
// or a hexadecimal number with a binary exponent; an optional type suffix f, F, d or D.
func ParseDouble(b []byte, bits int) (float64, bool) {
	t := string(javatime.Trim(b))
	if t == "" {
		return 0, false
	}
	body, sign := t, ""
	if body[0] == '+' || body[0] == '-' {
		sign, body = body[:1], body[1:]
	}
	switch body {
	case "NaN":
		return NaN, true
	case "Infinity":
		if sign == "-" {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if n := len(body); n > 0 && strings.ContainsRune("fFdD", rune(body[n-1])) {
		body = body[:n-1]
	}
	if !javaFloatSyntax(body) {
		return 0, false
	}
	v, err := strconv.ParseFloat(sign+body, bits)
	if err != nil {
		// Out of range is not an error in Java: the value rounds to ±Infinity or ±0.
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}

// NaN is Double.NaN (0x7ff8000000000000); Go's math.NaN() has other bits.
var NaN = math.Float64frombits(0x7ff8000000000000)

// javaFloatSyntax checks an unsigned number without suffix against Java's FloatingDecimal
// grammar, which is stricter than strconv's (no underscores, no "inf").
func javaFloatSyntax(s string) bool {
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		// hex: digits [. digits] p [sign] digits, at least one hex digit
		i, digits := 2, 0
		for i < len(s) && isHex(s[i]) {
			i, digits = i+1, digits+1
		}
		if i < len(s) && s[i] == '.' {
			i++
			for i < len(s) && isHex(s[i]) {
				i, digits = i+1, digits+1
			}
		}
		if digits == 0 || i >= len(s) || (s[i] != 'p' && s[i] != 'P') {
			return false
		}
		return expDigits(s[i+1:])
	}
	i, digits := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return false
	}
	return expDigits(s[i+1:])
}

func expDigits(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
