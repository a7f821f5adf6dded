package javaregex

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Characters with a meaning in java.util.regex, and in SQL's SIMILAR TO patterns.
const (
	javaRegexSpecials = `[]()|^-+*?{}$\.`
	similarSpecials   = `[]()|^-+*_%?{}`
)

// similarClasses are the POSIX class names SIMILAR TO accepts inside [...], with the Java
// classes they become.
var similarClasses = []struct{ sql, java string }{
	{"[:ALPHA:]", `\p{Alpha}`}, {"[:alpha:]", `\p{Alpha}`}, {"[:UPPER:]", `\p{Upper}`}, {"[:upper:]", `\p{Upper}`},
	{"[:LOWER:]", `\p{Lower}`}, {"[:lower:]", `\p{Lower}`}, {"[:DIGIT:]", `\d`}, {"[:digit:]", `\d`},
	{"[:SPACE:]", " "}, {"[:space:]", " "}, {"[:WHITESPACE:]", `\s`}, {"[:whitespace:]", `\s`},
	{"[:ALNUM:]", `\p{Alnum}`}, {"[:alnum:]", `\p{Alnum}`},
}

// FromSimilar translates a SQL SIMILAR TO pattern to the java.util.regex that Flink
// matches (SqlLikeUtils#sqlToRegexSimilar): '_' is '.', '%' is "(?s:.*)", an escaped special
// character is itself, [...] enumerations keep ranges, '^' and the POSIX names above, '\' and
// '$' are quoted, and every other character, regex metacharacters included, is copied. With
// no ESCAPE clause the escape character is U+0000, as in Flink.
func FromSimilar(pattern, escapeText string, hasEscape bool) (string, error) {
	var esc rune
	if hasEscape {
		if utf8.RuneCountInString(escapeText) != 1 || len(escapeText) > 3 {
			// Java counts UTF-16 units: a supplementary character is two.
			return "", fmt.Errorf("invalid escape character '%s'", escapeText)
		}
		esc, _ = utf8.DecodeRuneInString(escapeText)
	}
	p := []rune(pattern)
	if err := checkSimilarEscapes(pattern, p, esc); err != nil {
		return "", err
	}
	invalid := fmt.Errorf("invalid regular expression '%s'", pattern)
	var out strings.Builder
	inEnumeration := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == esc {
			if i == len(p)-1 {
				return "", fmt.Errorf("invalid escape sequence '%s', %d", pattern, i)
			}
			if !writeEscaped(&out, p[i+1], esc) {
				return "", fmt.Errorf("invalid escape sequence '%s', %d", pattern, i)
			}
			i++
			continue
		}
		switch c {
		case '_':
			out.WriteByte('.')
		case '%':
			out.WriteString("(?s:.*)")
		case '[':
			out.WriteByte('[')
			inEnumeration = true
			end, err := similarEnumeration(p, i, esc, &out)
			if err != nil {
				return "", invalid
			}
			i = end
		case ']':
			if !inEnumeration {
				return "", invalid
			}
			inEnumeration = false
			out.WriteByte(']')
		case '\\':
			out.WriteString(`\\`)
		case '$':
			out.WriteString(`\$`)
		default:
			out.WriteRune(c)
		}
	}
	if inEnumeration {
		return "", invalid
	}
	return out.String(), nil
}

// similarEnumeration writes the members of the [...] that opens at pos and returns the
// position before its ']' (or the last position when it is not closed).
func similarEnumeration(p []rune, pos int, esc rune, out *strings.Builder) (int, error) {
	i := pos + 1
	for ; i < len(p); i++ {
		c := p[i]
		switch {
		case c == ']':
			return i - 1, nil
		case c == esc:
			i++
			if i >= len(p) {
				return 0, errors.New("escape at the end")
			}
			if !writeEscaped(out, p[i], esc) {
				return 0, errors.New("bad escape")
			}
		case c == '-' || c == '^':
			out.WriteRune(c)
		case strings.HasPrefix(string(p[i:]), "[:"):
			found := false
			for _, cl := range similarClasses {
				if strings.HasPrefix(string(p[i:]), cl.sql) {
					out.WriteString(cl.java)
					i += utf8.RuneCountInString(cl.sql) - 1
					found = true
					break
				}
			}
			if !found {
				return 0, errors.New("unknown class")
			}
		case strings.ContainsRune(similarSpecials, c):
			return 0, errors.New("special character in an enumeration")
		default:
			out.WriteRune(c)
		}
	}
	return i - 1, nil
}

// writeEscaped writes the character after an escape: a SIMILAR TO special character as a
// literal of the regex, the escape character itself as it is; false for anything else.
func writeEscaped(out *strings.Builder, next, esc rune) bool {
	switch {
	case strings.ContainsRune(similarSpecials, next):
		if strings.ContainsRune(javaRegexSpecials, next) {
			out.WriteByte('\\')
		}
		out.WriteRune(next)
	case next == esc:
		out.WriteRune(next)
	default:
		return false
	}
	return true
}

// checkSimilarEscapes is SqlLikeUtils#similarEscapeRuleChecking: an escape character that is
// itself special must precede a special character or itself wherever it occurs, and ':' as the
// escape needs a "[:" ... ":]" in the pattern.
func checkSimilarEscapes(pattern string, p []rune, esc rune) error {
	if esc == 0 {
		return nil
	}
	if strings.ContainsRune(similarSpecials, esc) {
		for i, c := range p {
			if c != esc {
				continue
			}
			if i == len(p)-1 {
				return fmt.Errorf("invalid escape sequence '%s', %d", pattern, i)
			}
			if next := p[i+1]; !strings.ContainsRune(similarSpecials, next) && next != esc {
				return fmt.Errorf("invalid escape sequence '%s', %d", pattern, i)
			}
		}
	}
	if esc == ':' && (!strings.Contains(pattern, "[:") || !strings.Contains(pattern, ":]")) {
		return fmt.Errorf("invalid escape sequence '%s'", pattern)
	}
	return nil
}
