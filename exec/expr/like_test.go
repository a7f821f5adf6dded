package expr

import (
	"errors"
	"testing"
)

func TestLikeMatchesFlink21(t *testing.T) {
	esc := func(s string) *string { return &s }
	cases := []struct {
		name   string
		pat    string
		escape *string
		s      string
		want   bool
	}{
		{"prefix", "a%", nil, "abc", true},
		{"prefix miss", "a%", nil, "bac", false},
		{"suffix", "%c", nil, "abc", true},
		{"contains", "%b%", nil, "abc", true},
		{"equals", "abc", nil, "abc", true},
		{"equals miss", "abc", nil, "abcd", false},
		{"underscore", "a_c", nil, "abc", true},
		{"underscore skips no line break", "a_c", nil, "a\nc", false},
		{"underscore one code point", "_", nil, "🌍", true},
		{"percent spans lines", "%", nil, "line\nbreak", true},
		{"dot is literal", "a.c", nil, "abc", false},
		{"chain", "a%b%c", nil, "axxbyyc", true},
		{"chain order", "a%c%b", nil, "abc", false},
		{"chain no overlap", "ab%bc", nil, "abc", false},
		{"chain middles", "%a%b%", nil, "xaxbx", true},
		{"empty pattern matches everything in 2.1", "", nil, "abc", true},
		{"empty pattern empty string", "", nil, "", true},
		{"escape percent", "100!%", esc("!"), "100%", true},
		{"escape percent regex path", "100!%", esc("!"), "1000", false},
		{"escaped underscore quick", "a!_b", esc("!"), "a_b", true},
		{"escaped underscore is literal", "a!_b", esc("!"), "axb", false},
		{"escape with underscore", "a!__", esc("!"), "a_x", true},
		{"escaped percent with backslash", "a\\%b%", esc("\\"), "axxbyy", false},
		{"escaped percent with backslash literal", "a\\%b%", esc("\\"), "a%bzz", true},
		{"escaped underscore with backslash", "a\\_b", esc("\\"), "a_b", true},
		{"escaped underscore with backslash miss", "a\\_b", esc("\\"), "axb", false},
		{"default escape on the regex path", "a\\_", nil, "a_", true},
		{"default escape on the regex path miss", "a\\_", nil, "ab", false},
		{"backslash literal on the quick path", "x%y\\z", nil, "xxy\\z", true},
		{"quote on the quick path", "a\"%", nil, "a\"b", true},
		{"non-ASCII with ESCAPE becomes its Java escape", "é%", esc("!"), "u00E9x", true},
		{"non-ASCII with ESCAPE does not match itself", "é%", esc("!"), "éx", false},
		{"non-ASCII without ESCAPE", "é%", nil, "éx", true},
	}
	for _, c := range cases {
		m, err := likeMatcher(c.pat, c.escape)
		if err != nil {
			t.Fatalf("%s: %q: %v", c.name, c.pat, err)
		}
		if got := m([]byte(c.s)); got != c.want {
			t.Errorf("%s: %q LIKE %q = %v, want %v", c.name, c.s, c.pat, got, c.want)
		}
	}
}

func TestLikeFallsBackWhereFlinkFailsOrCompilesThePattern(t *testing.T) {
	esc := func(s string) *string { return &s }
	cases := []struct {
		pat    string
		escape *string
	}{
		{"a!b", esc("!")},      // invalid escape sequence
		{"ab!", esc("!")},      // ends with the escape
		{"a%", esc("")},        // empty escape
		{"a%", esc("ab")},      // two characters, not \x
		{"a%", esc("é")},       // escapes to \u00E9
		{"a!_%!%", esc("\\!")}, // escapes to three characters
		{"a\\", esc("!")},      // quick path keeps a '\' that Java then reads as an escape
		{"a\"%", esc("!")},     // quick path keeps a '"' pasted into Java source
		{"a_\\", nil},          // regex path: ends with the default escape
		{"a\\b_", nil},         // regex path: invalid escape sequence
	}
	for _, c := range cases {
		_, err := likeMatcher(c.pat, c.escape)
		var u *Unsupported
		if !errors.As(err, &u) || u.Reason == "" {
			t.Errorf("%q: want an unsupported reason, got %v", c.pat, err)
		}
	}
}

func BenchmarkLikeChain(b *testing.B) {
	m, err := likeMatcher("a%needle%z", nil)
	if err != nil {
		b.Fatal(err)
	}
	s := []byte("a-------------------------------needle-----------------z")
	for b.Loop() {
		m(s)
	}
}
