// Package javaregex evaluates java.util.regex patterns with Go's regexp package where the two
// mean the same: Compile translates the part of Java's syntax whose matches RE2 reproduces
// exactly (both choose the leftmost match, and among those the one a backtracking engine
// prefers) and refuses the rest with a reason, so that a caller can run the expression on Flink
// instead. Find, Submatch and ReplaceAll follow Matcher#find, Matcher#group and
// String#replaceAll (with a literal replacement).
//
// What differs between the engines and how it is handled:
//   - '.' excludes Java's line terminators (\n, \r, U+0085, U+2028, U+2029), not only \n:
//     translated to a class;
//   - \s includes \x0B in Java: translated to a class;
//   - '$' is the end of input or the position before a final line terminator in Java: allowed
//     at the end of a pattern without top-level alternation, matched through a suffix group
//     chosen per string;
//   - '^' and \A are the start of the input in both; at the start of a pattern without
//     top-level alternation they anchor it, elsewhere '^' is kept and a search that starts
//     past the input's start (ReplaceAll after a match) uses the pattern with it never matching,
//     since Go's matcher sees the rest of the input as a new one;
//   - (?s:X) groups (DOTALL: '.' matches every character inside) and the US-ASCII POSIX
//     classes \p{Alpha}, \p{Upper}, \p{Lower}, \p{Digit}, \p{Alnum} are translated;
//   - backreferences, lookaround, possessive quantifiers, atomic groups, other inline flags,
//     \b and \B (Java 17 counts Unicode letters as word characters), other \p{..} classes,
//     nested classes,
//     class intersections, \u, \v, \h, \R, \X, \Z, \G, octal escapes and counts above 1000 are
//     refused.
package javaregex

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Pattern is a compiled java.util.regex pattern.
type Pattern struct {
	// Groups is the number of capturing groups (Matcher#groupCount).
	Groups int
	// Nullable reports whether the pattern can match the empty string.
	Nullable bool
	anchored bool // starts with ^ or \A: matches only at the start of the input
	dollar   bool // ends with $
	core     string
	// re matches a string without a final line terminator (for a dollar pattern, core then
	// \z); suffixed holds, per final line terminator, core then the terminator as an optional
	// last group then \z.
	re       *regexp.Regexp
	suffixed map[string]*regexp.Regexp
	// full matches a whole string (Matcher#matches).
	full *regexp.Regexp
	// later is re for a search from past the input's start when the pattern has a '^' inside
	// (which can only match at the input's start): that '^' never matches in it.
	later *regexp.Regexp
}

// caretMark stands for a '^' inside a pattern in the translation, until Compile writes the two
// forms of it.
const caretMark = "\x00CARET\x00"

// neverMatches is an empty-width-free class no character is in.
const neverMatches = `[^\x{0}-\x{10FFFF}]`

// lineTerminators are Java's line terminators (Pattern's default mode, not UNIX_LINES).
var lineTerminators = []string{"\r\n", "\n", "\r", "\u0085", "\u2028", "\u2029"}

// dotClass is Java's '.' without DOTALL.
const dotClass = `[^\n\r\x{85}\x{2028}\x{2029}]`

// spaceMembers are the members of Java's \s inside a class.
const spaceMembers = `\t\n\x0B\f\r `

// Unsupported is the error for a pattern that Go cannot evaluate as Java does (or that may be
// invalid in Java).
type Unsupported struct{ Reason string }

func (e *Unsupported) Error() string { return e.Reason }

func refuse(format string, args ...any) error {
	return &Unsupported{Reason: fmt.Sprintf(format, args...)}
}

// Compile translates a Java pattern.
func Compile(java string) (*Pattern, error) {
	t := translator{src: java}
	if err := t.run(); err != nil {
		return nil, err
	}
	core := t.out.String()
	if t.midCaret {
		if t.dollar {
			return nil, refuse("'^' inside a pattern that ends with '$' is not supported natively yet")
		}
		if strings.Contains(java, "\x00") {
			return nil, refuse("a NUL character in a pattern with '^' inside is not supported natively")
		}
		later, err := regexp.Compile(strings.ReplaceAll(core, caretMark, neverMatches))
		if err != nil {
			return nil, refuse("regular expression %q: %v", java, err)
		}
		core = strings.ReplaceAll(core, caretMark, "^")
		t.laterRe = later
	}
	p := &Pattern{Groups: t.groups, anchored: t.anchored, dollar: t.dollar, core: core, later: t.laterRe}
	expr := p.core
	if p.dollar {
		expr = `(?:` + p.core + `)\z`
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, refuse("regular expression %q: %v", java, err)
	}
	p.re = re
	// In Matcher#matches the whole input must be consumed, so a final '$' is the end.
	p.full = regexp.MustCompile(`^(?:` + p.core + `)\z`)
	if re.NumSubexp() != p.Groups {
		return nil, refuse("regular expression %q: %d groups in Go, %d in Java", java, re.NumSubexp(), p.Groups)
	}
	p.Nullable = re.MatchString("") || regexp.MustCompile(p.core).MatchString("")
	if p.dollar {
		p.suffixed = map[string]*regexp.Regexp{}
		for _, term := range lineTerminators {
			p.suffixed[term] = regexp.MustCompile(`(?:` + p.core + `)((?:` + regexp.QuoteMeta(term) + `)?)\z`)
		}
	}
	return p, nil
}

// finalTerminator is the line terminator a string ends with ("\r\n" counting as one), or "".
func finalTerminator(s []byte) string {
	if len(s) >= 2 && s[len(s)-2] == '\r' && s[len(s)-1] == '\n' {
		return "\r\n"
	}
	if len(s) == 0 {
		return ""
	}
	switch s[len(s)-1] {
	case '\n':
		return "\n"
	case '\r':
		return "\r"
	}
	r, _ := utf8.DecodeLastRune(s)
	switch r {
	case '\u0085', '\u2028', '\u2029':
		return string(r)
	}
	return ""
}

// find returns Java's first match at or after byte offset from (Matcher#find after a reset to
// from): the groups' byte offsets in s, nil when none. from > 0 only for unanchored patterns.
func (p *Pattern) find(s []byte, from int) []int {
	re, suffix := p.re, false
	if from > 0 && p.later != nil {
		re = p.later
	}
	if p.dollar {
		if term := finalTerminator(s); term != "" {
			re, suffix = p.suffixed[term], true
		}
	}
	loc := re.FindSubmatchIndex(s[from:])
	if loc == nil {
		return nil
	}
	if suffix {
		// The match ends where the final terminator group starts.
		loc[1] = loc[2*(p.Groups+1)]
		loc = loc[:2*(p.Groups+1)]
	}
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += from
		}
	}
	return loc
}

// Matches reports whether the pattern matches the whole of s (Pattern#matches).
func (p *Pattern) Matches(s []byte) bool { return p.full.Match(s) }

// Find reports whether the pattern matches somewhere in s (Matcher#find).
func (p *Pattern) Find(s []byte) bool { return p.find(s, 0) != nil }

// Submatch returns group g of the first match (Matcher#find then MatchResult#group(g)): ok is
// false when nothing matches, g is not a group, or the group did not take part in the match.
func (p *Pattern) Submatch(s []byte, g int) (sub []byte, ok bool) {
	if g < 0 || g > p.Groups {
		return nil, false
	}
	loc := p.find(s, 0)
	if loc == nil || loc[2*g] < 0 {
		return nil, false
	}
	return s[loc[2*g]:loc[2*g+1]], true
}

// ReplaceAll appends to dst s with every match replaced by repl, as String#replaceAll with
// Matcher#quoteReplacement(repl): matches are found one after the other from the end of the
// previous one (one character further after an empty match). Nullable patterns are the
// caller's to refuse (Java steps one UTF-16 unit after an empty match, into a surrogate pair).
func (p *Pattern) ReplaceAll(dst, s, repl []byte) []byte {
	from, last := 0, 0
	for from <= len(s) {
		loc := p.find(s, from)
		if loc == nil {
			break
		}
		dst = append(dst, s[last:loc[0]]...)
		dst = append(dst, repl...)
		last = loc[1]
		if p.anchored {
			break
		}
		from = loc[1]
		if loc[0] == loc[1] {
			if from >= len(s) {
				break
			}
			_, size := utf8.DecodeRune(s[from:])
			from += size
		}
	}
	return append(dst, s[last:]...)
}

// translator turns Java syntax into Go syntax, refusing what is not equivalent.
type translator struct {
	src      string
	pos      int
	out      strings.Builder
	groups   int
	depth    int
	anchored bool
	dollar   bool
	topAlt   bool
	// midCaret is set for a '^' after the pattern's start; laterRe is then the pattern with it
	// never matching.
	midCaret bool
	laterRe  *regexp.Regexp
	// canRepeat is set after an element a quantifier may follow.
	canRepeat bool
	// dotall holds, per open group, whether '.' matches every character inside it.
	dotall []bool
}

// inDotall reports whether the innermost open group is a (?s:...) group or inside one.
func (t *translator) inDotall() bool { return len(t.dotall) > 0 && t.dotall[len(t.dotall)-1] }

func (t *translator) run() error {
	for t.pos < len(t.src) {
		c := t.src[t.pos]
		switch c {
		case '\\':
			if err := t.escape(); err != nil {
				return err
			}
		case '.':
			t.pos++
			if t.inDotall() {
				t.atom(`(?s:.)`)
			} else {
				t.atom(dotClass)
			}
		case '^':
			if t.pos != 0 {
				t.pos++
				t.midCaret = true
				t.out.WriteString(caretMark)
				t.canRepeat = false
				continue
			}
			t.pos++
			t.anchored = true
			t.out.WriteString("^")
			t.canRepeat = false
		case '$':
			if t.depth != 0 || t.pos != len(t.src)-1 {
				return refuse("'$' other than at the end of the pattern is not supported natively yet (Java's '$' also matches before a final line terminator)")
			}
			t.pos++
			t.dollar = true
			t.canRepeat = false
		case '|':
			t.pos++
			if t.depth == 0 {
				t.topAlt = true
			}
			t.out.WriteByte('|')
			t.canRepeat = false
		case '(':
			dotall := t.inDotall()
			switch {
			case strings.HasPrefix(t.src[t.pos:], "(?:"):
				t.pos += 3
				t.out.WriteString("(?:")
			case strings.HasPrefix(t.src[t.pos:], "(?s:"):
				t.pos += 4
				t.out.WriteString("(?:")
				dotall = true
			case strings.HasPrefix(t.src[t.pos:], "(?"):
				return refuse("the group construct at %d of %q (lookaround, flags, named or atomic groups) is not supported natively yet", t.pos, t.src)
			default:
				t.pos++
				t.groups++
				t.out.WriteByte('(')
			}
			t.dotall = append(t.dotall, dotall)
			t.depth++
			t.canRepeat = false
		case ')':
			if t.depth == 0 {
				return refuse("unbalanced ')' in %q", t.src)
			}
			t.pos++
			t.depth--
			t.dotall = t.dotall[:len(t.dotall)-1]
			t.atom(")")
		case '[':
			if err := t.class(); err != nil {
				return err
			}
		case '*', '+', '?', '{':
			if err := t.quantifier(); err != nil {
				return err
			}
		case ']', '}':
			// Literal in Java outside a class.
			t.pos++
			t.atom(`\` + string(c))
		default:
			r, size := utf8.DecodeRuneInString(t.src[t.pos:])
			if r == utf8.RuneError && size == 1 {
				return refuse("invalid UTF-8 in regular expression %q", t.src)
			}
			t.pos += size
			t.atom(regexp.QuoteMeta(string(r)))
		}
	}
	if t.depth != 0 {
		return refuse("unclosed group in %q", t.src)
	}
	if (t.anchored || t.dollar) && t.topAlt {
		return refuse("'^' or '$' with a top-level '|' is not supported natively yet")
	}
	return nil
}

// atom writes an element that a quantifier may follow.
func (t *translator) atom(s string) {
	t.out.WriteString(s)
	t.canRepeat = true
}

// escape translates a backslash sequence outside a class.
func (t *translator) escape() error {
	if t.pos+1 >= len(t.src) {
		return refuse("trailing backslash in %q", t.src)
	}
	c := t.src[t.pos+1]
	switch {
	case c == 'Q':
		// \Q...\E (or to the end): literal characters, a quantifier after it repeating the last.
		rest := t.src[t.pos+2:]
		lit := rest
		if end := strings.Index(rest, `\E`); end >= 0 {
			lit = rest[:end]
			t.pos += 2 + end + 2
		} else {
			t.pos = len(t.src)
		}
		for _, r := range lit {
			if r == utf8.RuneError {
				return refuse("invalid UTF-8 in regular expression %q", t.src)
			}
			t.atom(regexp.QuoteMeta(string(r)))
		}
		return nil
	case c == 'A':
		if t.pos != 0 {
			return refuse(`'\A' not at the start of the pattern is not supported natively yet`)
		}
		t.pos += 2
		t.anchored = true
		t.out.WriteString("^")
		t.canRepeat = false
		return nil
	case c == 'z':
		t.pos += 2
		t.out.WriteString(`\z`)
		t.canRepeat = false
		return nil
	case c == 's':
		t.pos += 2
		t.atom(`[` + spaceMembers + `]`)
		return nil
	case c == 'p':
		members, err := t.posixClass()
		if err != nil {
			return err
		}
		t.atom(`[` + members + `]`)
		return nil
	case c == 'S':
		t.pos += 2
		t.atom(`[^` + spaceMembers + `]`)
		return nil
	}
	s, err := t.simpleEscape()
	if err != nil {
		return err
	}
	t.atom(s)
	return nil
}

// simpleEscape translates an escape that means the same inside and outside a class: \d \D \w
// \W, control characters, \xhh and \x{h..h}, and escaped ASCII punctuation.
func (t *translator) simpleEscape() (string, error) {
	c := t.src[t.pos+1]
	switch c {
	case 'd', 'D', 'w', 'W', 't', 'n', 'r', 'f', 'a':
		t.pos += 2
		return `\` + string(c), nil
	case 'e':
		t.pos += 2
		return `\x1B`, nil
	case 'x':
		rest := t.src[t.pos+2:]
		var hex string
		var n int
		if strings.HasPrefix(rest, "{") {
			end := strings.IndexByte(rest, '}')
			if end < 2 {
				return "", refuse(`malformed \x{...} in %q`, t.src)
			}
			hex, n = rest[1:end], end+1
		} else if len(rest) >= 2 {
			hex, n = rest[:2], 2
		} else {
			return "", refuse(`malformed \x in %q`, t.src)
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
			return "", refuse(`\x%s in %q is not supported natively`, hex, t.src)
		}
		t.pos += 2 + n
		return fmt.Sprintf(`\x{%x}`, v), nil
	}
	// A backslash before any other character that is not a letter or digit quotes it in Java.
	r, size := utf8.DecodeRuneInString(t.src[t.pos+1:])
	alnum := c < 0x80 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
	if !alnum && !(r == utf8.RuneError && size == 1) {
		t.pos += 1 + size
		if r < 0x80 && strings.ContainsRune(asciiPunctuation, r) {
			// Escaped as in Java: QuoteMeta leaves '-' bare, a range inside a class.
			return `\` + string(r), nil
		}
		return regexp.QuoteMeta(string(r)), nil
	}
	return "", refuse(`the escape \%c in %q is not supported natively yet`, r, t.src)
}

// posixClasses are the US-ASCII POSIX classes of java.util.regex (without
// UNICODE_CHARACTER_CLASS), as members of a class.
var posixClasses = map[string]string{
	"Alpha": "a-zA-Z", "Upper": "A-Z", "Lower": "a-z", "Digit": "0-9", "Alnum": "a-zA-Z0-9",
}

// posixClass translates \p{Name} at the current position into class members.
func (t *translator) posixClass() (string, error) {
	rest := t.src[t.pos+2:]
	if end := strings.IndexByte(rest, '}'); strings.HasPrefix(rest, "{") && end > 0 {
		if members, ok := posixClasses[rest[1:end]]; ok {
			t.pos += 2 + end + 1
			return members, nil
		}
	}
	return "", refuse(`the property class at %d of %q is not supported natively yet`, t.pos, t.src)
}

// asciiPunctuation are the characters RE2 accepts after a backslash as themselves.
const asciiPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// quantifier translates *, +, ? and {n}, {n,}, {n,m}, each optionally lazy (a following '?').
func (t *translator) quantifier() error {
	if !t.canRepeat {
		return refuse("a quantifier at %d of %q has nothing to repeat", t.pos, t.src)
	}
	c := t.src[t.pos]
	q := string(c)
	t.pos++
	if c == '{' {
		end := strings.IndexByte(t.src[t.pos:], '}')
		if end < 0 {
			return refuse("'{' at %d of %q is not a repetition", t.pos-1, t.src)
		}
		body := t.src[t.pos : t.pos+end]
		lo, hi, comma := body, "", false
		if i := strings.IndexByte(body, ','); i >= 0 {
			lo, hi, comma = body[:i], body[i+1:], true
		}
		min, err1 := strconv.Atoi(lo)
		max := min
		var err2 error
		if comma && hi != "" {
			max, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || !digitsOnly(lo) || !digitsOnly(hi) || min > max || max > 1000 || min > 1000 {
			return refuse("the repetition {%s} in %q is not supported natively", body, t.src)
		}
		// Counts as numbers: Java reads "02" as 2, RE2 would take the braces literally.
		q = "{" + strconv.Itoa(min)
		if comma {
			q += ","
			if hi != "" {
				q += strconv.Itoa(max)
			}
		}
		q += "}"
		t.pos += end + 1
	}
	if t.pos < len(t.src) {
		switch t.src[t.pos] {
		case '?':
			q += "?"
			t.pos++
		case '+':
			return refuse("possessive quantifiers (%q) are not supported natively", t.src)
		}
	}
	if t.pos < len(t.src) && strings.ContainsRune("*+?{", rune(t.src[t.pos])) {
		return refuse("a repeated quantifier in %q is not supported natively", t.src)
	}
	t.out.WriteString(q)
	t.canRepeat = false
	return nil
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// class translates a character class: literal characters, ranges, \d \D \w \W \s and the
// simple escapes; nested classes, intersections, POSIX names and \S refused.
func (t *translator) class() error {
	t.pos++ // '['
	var b strings.Builder
	b.WriteByte('[')
	if t.pos < len(t.src) && t.src[t.pos] == '^' {
		b.WriteByte('^')
		t.pos++
	}
	if t.pos < len(t.src) && t.src[t.pos] == ']' {
		return refuse("a ']' first in a class (%q) is not supported natively", t.src)
	}
	// prev is the last plain character (a range may start at it), or one of these states.
	const (
		afterNothing = -1 // start, or after a range: a '-' is literal
		afterSet     = -2 // after \d, \w, \s...: a '-' before another member is refused
		afterEscaped = -3 // after an escaped character: a range from it is refused
	)
	var prev rune = afterNothing
	for {
		if t.pos >= len(t.src) {
			return refuse("unclosed class in %q", t.src)
		}
		c := t.src[t.pos]
		switch {
		case c == ']':
			t.pos++
			b.WriteByte(']')
			t.atom(b.String())
			return nil
		case c == '[' || strings.HasPrefix(t.src[t.pos:], "&&"):
			return refuse("nested classes and intersections in %q are not supported natively", t.src)
		case c == '\\':
			if t.pos+1 >= len(t.src) {
				return refuse("trailing backslash in %q", t.src)
			}
			switch t.src[t.pos+1] {
			case 's':
				t.pos += 2
				b.WriteString(spaceMembers)
				prev = afterSet
				continue
			case 'd', 'D', 'w', 'W':
				t.pos += 2
				b.WriteString(`\` + string(t.src[t.pos-1]))
				prev = afterSet
				continue
			case 'p':
				members, err := t.posixClass()
				if err != nil {
					return err
				}
				b.WriteString(members)
				prev = afterSet
				continue
			}
			s, err := t.simpleEscape()
			if err != nil {
				return err
			}
			b.WriteString(s)
			prev = afterEscaped
		case c == '-' && prev != afterNothing && t.pos+1 < len(t.src) && t.src[t.pos+1] != ']':
			// A range: both ends must be plain characters.
			t.pos++
			r, size := utf8.DecodeRuneInString(t.src[t.pos:])
			if prev < 0 || r == '\\' || r == '[' || r < prev || r == utf8.RuneError && size == 1 {
				return refuse("the class range at %d of %q is not supported natively", t.pos, t.src)
			}
			t.pos += size
			b.WriteString("-" + regexp.QuoteMeta(string(r)))
			prev = afterNothing
		default:
			r, size := utf8.DecodeRuneInString(t.src[t.pos:])
			if r == utf8.RuneError && size == 1 {
				return refuse("invalid UTF-8 in regular expression %q", t.src)
			}
			t.pos += size
			if r == '-' {
				b.WriteString(`\-`)
				prev = afterNothing
				continue
			}
			b.WriteString(regexp.QuoteMeta(string(r)))
			prev = r
		}
	}
}
