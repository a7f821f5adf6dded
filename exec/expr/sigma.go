package expr

import "unicode"

// Java lower-cases a capital sigma (U+03A3) to the final form ς when it ends a word, and decides
// that with java.text.BreakIterator's word boundaries (ConditionalSpecialCasing#isFinalCased):
// some cased letter precedes it within its word and none follows it within its word. Unicode's
// own rule (golang.org/x/text) looks only at case-ignorable neighbours, so "ΣΑΣ0x" differs: Java
// keeps the σ, because digits and letters form one word and the x after the digit is cased.

// javaLowerSigma is σ or ς for the capital sigma at runes[i], as String#toLowerCase decides.
func javaLowerSigma(runes []rune, i int) rune {
	for k := i; k > 0 && !wordBoundary(runes, k); k-- {
		if javaCased(runes[k-1]) {
			for j := i + 1; j < len(runes) && !wordBoundary(runes, j); j++ {
				if javaCased(runes[j]) {
					return 'σ'
				}
			}
			return 'ς'
		}
	}
	return 'σ'
}

// javaCased is ConditionalSpecialCasing#isCased: a letter of category Lu, Ll or Lt, or one with
// the Other_Lowercase or Other_Uppercase property.
func javaCased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// wordBoundary reports whether the JDK's word BreakIterator puts a boundary between runes[k-1]
// and runes[k], after its rules (BreakIteratorRules: a word is letters, with single dashes,
// apostrophes, quotes or periods between letters, alternating with numbers, which may hold a
// single comma, period or quote between digits, and connectors such as '_' join both; marks and
// format characters join what precedes).
func wordBoundary(runes []rune, k int) bool {
	if k <= 0 || k >= len(runes) {
		return true
	}
	a, b := runes[k-1], runes[k]
	switch {
	case ignorable(b):
		return false
	case wordChar(a) && wordChar(b):
		return false
	case isLetter(a) && midWord(b) && k+1 < len(runes) && isLetter(runes[k+1]):
		return false
	case midWord(a) && isLetter(b) && k >= 2 && isLetter(runes[k-2]):
		return false
	case isDigit(a) && midNum(b) && k+1 < len(runes) && isDigit(runes[k+1]):
		return false
	case midNum(a) && isDigit(b) && k >= 2 && isDigit(runes[k-2]):
		return false
	}
	return true
}

func ignorable(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) }
func isLetter(r rune) bool  { return unicode.In(r, unicode.L, unicode.Mc) || ignorable(r) }
func isDigit(r rune) bool   { return unicode.IsNumber(r) }
func wordChar(r rune) bool  { return isLetter(r) || isDigit(r) || unicode.Is(unicode.Pc, r) }
func midWord(r rune) bool {
	return unicode.Is(unicode.Pd, r) || r == 0xAD || r == 0x2027 || r == '"' || r == '\'' || r == '.'
}
func midNum(r rune) bool { return r == '"' || r == '\'' || r == ',' || r == 0x66B || r == '.' }
