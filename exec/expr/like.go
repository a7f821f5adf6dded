package expr

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"
)

// LIKE follows Flink 2.1's LikeCallGen, which decides at code-generation time between a quick
// path (equals / startsWith / endsWith / contains / SqlLikeChainChecker on the UTF-8 bytes) and
// a java.util.regex translation (SqlLikeUtils.sqlToRegexLike). The two paths do not agree on
// every pattern, so Sluice takes the same decision as Flink and reproduces each path. Flink 2.1
// hands LikeCallGen the pattern and ESCAPE literals already escaped for Java source
// (EncodingUtils.escapeJava), which shapes the result:
//
//   - without ESCAPE, a pattern without '_' takes the quick path with its characters as
//     written; a pattern with '_' takes the regex path, where '\' is the default escape;
//   - with ESCAPE, a pre-pass over the Java-escaped pattern skips each '\' (keeping the
//     character after it: "\u00E9" becomes "u00E9"), resolves escaped '_' and escape
//     characters, and takes the quick path unless it meets an unescaped '_' or an escaped '%';
//     the quick path's literal is pasted back into Java source, so one left with '\' or '"'
//     compiles as Java reads it: that LIKE falls back;
//   - SqlLikeChainChecker matches every string for the empty pattern.
func init() {
	register(&Function{Name: "LIKE", Family: "string", codegenNullable: likeCodegenNullable, Doc: "constant pattern, optional constant ESCAPE; Flink 2.1's quick-path/regex split reproduced (see divergences)", compile: compileLike})
}

// likeCodegenNullable: LikeCallGen#generateDynamicLike, for a pattern or escape that is not a
// literal, types its result nullable.
func likeCodegenNullable(b *Node) bool {
	for _, a := range b.Args[1:] {
		if a.Kind != Literal {
			return true
		}
	}
	return false
}

func compileLike(n *Node, args []Expr) (Expr, error) {
	if len(n.Args) != 2 && len(n.Args) != 3 {
		return nil, unsupported("LIKE with %d operands", len(n.Args))
	}
	if err := requireStrings(n, args[:1], 0); err != nil {
		return nil, err
	}
	pat, ok := stringLiteral(n.Args[1])
	if !ok {
		return nil, unsupported("LIKE with a pattern that is not a constant string")
	}
	var match func([]byte) bool
	var err error
	if len(n.Args) == 2 {
		match, err = likeMatcher(pat, nil)
	} else {
		esc, ok := stringLiteral(n.Args[2])
		if !ok {
			return nil, unsupported("LIKE with an ESCAPE that is not a constant string")
		}
		match, err = likeMatcher(pat, &esc)
	}
	if err != nil {
		return nil, err
	}
	return &stringFn{args: args[:1], typ: n.Type, bl: func(v [][]byte) (bool, bool) {
		return match(v[0]), true
	}}, nil
}

// likeMatcher returns the matcher Flink 2.1 generates for a constant pattern and optional
// constant escape, or an Unsupported error where Flink's generated code fails to compile or run.
func likeMatcher(pat string, escape *string) (func([]byte) bool, error) {
	if escape == nil {
		if !strings.Contains(pat, "_") {
			return likeQuick(pat)
		}
		return likeRegexp(pat, '\\')
	}
	javaEsc := javaEscape(*escape)
	if len(javaEsc) == 0 || len(javaEsc) > 2 || (len(javaEsc) == 2 && javaEsc[0] != '\\') {
		return nil, unsupported("LIKE with ESCAPE %q (Flink rejects it)", *escape)
	}
	escapeChar := javaEsc[len(javaEsc)-1]
	// The pre-pass works on the Java-escaped pattern, which is ASCII.
	p := javaEscape(pat)
	var quick []byte
	matched := true
	for i := 0; i < len(p) && matched; i++ {
		c := p[i]
		if c == '\\' {
			i++ // javaEscape never ends with a lone '\'
			c = p[i]
		}
		switch {
		case c == escapeChar:
			if i == len(p)-1 {
				return nil, unsupported("LIKE pattern %q ends with its escape character (Flink rejects it)", pat)
			}
			next := p[i+1]
			switch {
			case next == '%':
				matched = false
			case next == '_' || next == escapeChar:
				quick = append(quick, next)
				i++
			default:
				return nil, unsupported("LIKE pattern %q has an invalid escape sequence (Flink rejects it)", pat)
			}
		case c == '_':
			matched = false
		default:
			quick = append(quick, c)
		}
	}
	if matched {
		if bytes.ContainsAny(quick, `\"`) {
			return nil, unsupported("LIKE pattern %q with ESCAPE %q: Flink 2.1 writes %q into generated Java code unescaped", pat, *escape, quick)
		}
		return likeQuick(string(quick))
	}
	esc := []rune(*escape)
	if len(utf16.Encode(esc)) != 1 {
		return nil, unsupported("LIKE with ESCAPE %q on Flink's regex path (Flink rejects it)", *escape)
	}
	return likeRegexp(pat, esc[0])
}

// javaEscape is Flink's EncodingUtils.escapeJava: every UTF-16 unit above 0x7f and every
// control character become Java escapes, '"' and '\' are escaped; the result is ASCII.
func javaEscape(s string) string {
	var sb strings.Builder
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u > 0x7f:
			fmt.Fprintf(&sb, `\u%04X`, u)
		case u < 32:
			switch u {
			case '\b':
				sb.WriteString(`\b`)
			case '\n':
				sb.WriteString(`\n`)
			case '\t':
				sb.WriteString(`\t`)
			case '\f':
				sb.WriteString(`\f`)
			case '\r':
				sb.WriteString(`\r`)
			default:
				fmt.Fprintf(&sb, `\u%04X`, u)
			}
		case u == '"':
			sb.WriteString(`\"`)
		case u == '\\':
			sb.WriteString(`\\`)
		default:
			sb.WriteByte(byte(u))
		}
	}
	return sb.String()
}

// likeQuick reproduces the quick path: equals, startsWith, endsWith and contains for the
// simple shapes, SqlLikeChainChecker for the rest.
func likeQuick(p string) (func([]byte) bool, error) {
	inner := func(s string) bool { return s != "" && !strings.Contains(s, "%") }
	switch {
	case inner(p):
		lit := []byte(p)
		return func(s []byte) bool { return bytes.Equal(s, lit) }, nil
	case len(p) >= 2 && strings.HasSuffix(p, "%") && inner(p[:len(p)-1]):
		lit := []byte(p[:len(p)-1])
		return func(s []byte) bool { return bytes.HasPrefix(s, lit) }, nil
	case len(p) >= 2 && strings.HasPrefix(p, "%") && inner(p[1:]):
		lit := []byte(p[1:])
		return func(s []byte) bool { return bytes.HasSuffix(s, lit) }, nil
	case len(p) >= 3 && strings.HasPrefix(p, "%") && strings.HasSuffix(p, "%") && inner(p[1:len(p)-1]):
		lit := []byte(p[1 : len(p)-1])
		return func(s []byte) bool { return bytes.Contains(s, lit) }, nil
	}
	return newLikeChain(p).match, nil
}

// likeChain is SqlLikeChainChecker: the '%'-separated chunks of a pattern, the first anchored
// at the start unless the pattern starts with '%', the last at the end unless it ends with '%',
// the others found in order in between. The empty pattern has no chunk and matches everything.
type likeChain struct {
	begin, end []byte
	middle     [][]byte
	minLen     int
}

func newLikeChain(p string) *likeChain {
	var chunks []string
	for _, c := range strings.Split(p, "%") {
		if c != "" {
			chunks = append(chunks, c)
		}
	}
	leftAnchor := !strings.HasPrefix(p, "%")
	rightAnchor := !strings.HasSuffix(p, "%")
	ch := &likeChain{}
	for i, c := range chunks {
		ch.minLen += len(c)
		switch {
		case leftAnchor && i == 0:
			ch.begin = []byte(c)
		case rightAnchor && i == len(chunks)-1:
			ch.end = []byte(c)
		default:
			ch.middle = append(ch.middle, []byte(c))
		}
	}
	return ch
}

func (ch *likeChain) match(s []byte) bool {
	if len(s) < ch.minLen {
		return false
	}
	if ch.begin != nil && !bytes.HasPrefix(s, ch.begin) {
		return false
	}
	s = s[len(ch.begin):]
	if ch.end != nil && !bytes.HasSuffix(s, ch.end) {
		return false
	}
	s = s[:len(s)-len(ch.end)]
	for _, m := range ch.middle {
		k := bytes.Index(s, m)
		if k < 0 {
			return false
		}
		s = s[k+len(m):]
	}
	return true
}

// likeRegexp is SqlLikeUtils.sqlToRegexLike compiled for Go: '%' matches any sequence, '_' one
// character other than a line terminator (java.util.regex '.'), the escape character (0 for
// none) makes the next '%', '_' or escape literal.
func likeRegexp(pat string, escape rune) (func([]byte) bool, error) {
	var sb strings.Builder
	sb.WriteString(`^`)
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case escape != 0 && c == escape:
			if i+1 >= len(rs) {
				return nil, unsupported("LIKE pattern %q ends with its escape character (Flink rejects it)", pat)
			}
			next := rs[i+1]
			if next != '%' && next != '_' && next != escape {
				return nil, unsupported("LIKE pattern %q has an invalid escape sequence (Flink rejects it)", pat)
			}
			sb.WriteString(regexp.QuoteMeta(string(next)))
			i++
		case c == '%':
			sb.WriteString(`(?s:.*)`)
		case c == '_':
			sb.WriteString(`[^\n\r\x{85}\x{2028}\x{2029}]`)
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	sb.WriteString(`$`)
	re, err := regexp.Compile(sb.String())
	if err != nil {
		return nil, err
	}
	return re.Match, nil
}
