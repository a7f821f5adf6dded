package iceberg

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// compatibleName is the name Iceberg gives a field in a Parquet file (TypeToMessageType through
// AvroSchemaUtil#makeCompatibleName): a valid Avro name is kept; otherwise each UTF-16 unit
// that is not a letter (first) or a letter, digit or '_' (after) is replaced, a digit by "_"
// and itself, anything else by "_x" and its code in upper-case hex (a character beyond the
// BMP as its two surrogates).
func compatibleName(name string) string {
	units := utf16.Encode([]rune(name))
	valid := func(i int, u uint16) bool {
		if u == '_' {
			return true
		}
		if utf16.IsSurrogate(rune(u)) {
			return false
		}
		if unicode.IsLetter(rune(u)) {
			return true
		}
		return i > 0 && unicode.IsDigit(rune(u))
	}
	ok := true
	for i, u := range units {
		ok = ok && valid(i, u)
	}
	if ok {
		return name
	}
	var sb strings.Builder
	for i, u := range units {
		switch {
		case valid(i, u):
			sb.WriteRune(rune(u))
		case !utf16.IsSurrogate(rune(u)) && unicode.IsDigit(rune(u)):
			sb.WriteString("_" + string(rune(u)))
		default:
			fmt.Fprintf(&sb, "_x%X", u)
		}
	}
	return sb.String()
}
