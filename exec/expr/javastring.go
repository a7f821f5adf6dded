package expr

import "github.com/sluice-project/sluice/catalog"

// Flink's BinaryStringData compares two values by their Java Strings (UTF-16 code units) when
// both hold one (BinaryStringData#compareTo and #equals check javaObject first), and by UTF-8
// bytes otherwise. Literals and the results of functions that build a String (LPAD, UPPER, CAST
// to STRING, ...) always hold one; a value read from a row holds one once something decoded it
// (another expression of the same generated Calc calling toString on the shared field, or a
// source that builds its strings from Java Strings). The two orders differ only for
// supplementary characters against U+E000..U+FFFF, and for lone surrogates (which LPAD and RPAD
// can cut out of a pair, and which become '?' once the value is written). Sluice compares UTF-8
// bytes (code points): it runs a comparison natively where one side is a column (Flink's result
// depends on evaluation context there; docs/divergences.md) or a literal below U+D800 (both
// orders agree), and falls back for LPAD/RPAD results and for two computed strings.

// stringCompareHazard returns a reason if comparing the string operands a and b by UTF-8 bytes
// could differ from Flink; ordering is false for = and <> (only lone surrogates matter there).
func stringCompareHazard(op string, a, b *Node, ordering bool) error {
	if a == nil || b == nil {
		return nil
	}
	if cutsSurrogates(a) || cutsSurrogates(b) {
		return unsupported("%s of strings built by LPAD/RPAD or cut from bytes or nested values: Flink compares their Java Strings, lone surrogates included", op)
	}
	if !ordering || a.Kind == InputRef || b.Kind == InputRef {
		return nil
	}
	if belowSurrogates(a) || belowSurrogates(b) {
		// Against a literal of characters below U+D800, UTF-16 and UTF-8 orders agree.
		return nil
	}
	return unsupported("%s of two computed strings: Flink may compare them as Java Strings (UTF-16 order), not reproduced yet", op)
}

// cutsSurrogates reports whether the tree calls a function that can split a surrogate pair:
// LPAD, RPAD, or a CAST of bytes, an ARRAY, a MAP or a ROW to CHAR(n) or VARCHAR(n) (cut in
// UTF-16 units).
func cutsSurrogates(n *Node) bool {
	if n.Kind == Call && (n.Op == "LPAD" || n.Op == "RPAD") {
		return true
	}
	if n.Kind == Call && (n.Op == "CAST" || n.Op == "TRY_CAST") && len(n.Args) == 1 &&
		(n.Args[0].Type.IsBinary() || n.Args[0].Type.IsNested()) && n.Type.IsString() && n.Type.Length < catalog.MaxVarLength {
		return true
	}
	for _, a := range n.Args {
		if cutsSurrogates(a) {
			return true
		}
	}
	return false
}

// belowSurrogates reports whether n is a string literal whose characters are all below U+D800.
func belowSurrogates(n *Node) bool {
	s, ok := stringLiteral(n)
	if !ok {
		return false
	}
	for _, r := range s {
		if r >= 0xD800 {
			return false
		}
	}
	return true
}
