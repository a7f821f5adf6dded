package expr

import (
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javatext"
)

// stringToBinary is StringToBinaryCastRule: the string's UTF-8 bytes, cut to n bytes where
// longer and, for BINARY(n), padded with zero bytes to n (Arrays#copyOf).
func stringToBinary(arg Expr, to catalog.Type) Expr {
	n := to.Length
	pad := to.Kind == catalog.Binary && n < catalog.MaxVarLength
	return &stringFn{args: []Expr{arg}, typ: to, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		if len(v[0]) <= n && !pad {
			return append(dst, v[0]...), true
		}
		return appendCopyOf(dst, v[0], n), true
	}}
}

// binaryToBinary is BinaryToBinaryCastRule where it is not the identity (a BINARY(n) target,
// or a VARBINARY(n) one shorter than the source type): a value of exactly n bytes as it is,
// any other cut or padded with zero bytes to n, also for VARBINARY(n) (Arrays#copyOf).
func binaryToBinary(arg Expr, to catalog.Type) Expr {
	n := to.Length
	return &stringFn{args: []Expr{arg}, typ: to, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		return appendCopyOf(dst, v[0], n), true
	}}
}

// appendCopyOf appends Arrays.copyOf(b, n): b cut to n bytes or padded with zeros to n.
func appendCopyOf(dst, b []byte, n int) []byte {
	if len(b) >= n {
		return append(dst, b[:n]...)
	}
	dst = append(dst, b...)
	for range n - len(b) {
		dst = append(dst, 0)
	}
	return dst
}

// binaryToString is BinaryToStringCastRule: new String(bytes, UTF_8) (malformed parts become
// U+FFFD as Java 17 decodes them), cut to n UTF-16 units for CHAR(n) and VARCHAR(n) (a
// surrogate pair cut in two leaves a lone one, written as '?') and padded with spaces to n for
// CHAR(n), then written as UTF-8.
func binaryToString(arg Expr, to catalog.Type) Expr {
	n := to.Length
	pad := to.Kind == catalog.Char
	return &stringFn{args: []Expr{arg}, typ: to, newStr: func() func(dst []byte, v [][]byte) ([]byte, bool) {
		var units []uint16 // scratch of one batch
		return func(dst []byte, v [][]byte) ([]byte, bool) {
			units = javatext.AppendDecodedUTF8(units[:0], v[0])
			if n < catalog.MaxVarLength && len(units) > n {
				units = units[:n]
			}
			dst = appendJavaUTF16(dst, units)
			for k := len(units); pad && k < n; k++ {
				dst = append(dst, ' ')
			}
			return dst, true
		}
	}}
}
