package jsonformat

import (
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// errUnsure stops the decoding of a record that the decoder cannot be sure to decode exactly as
// Flink's json format does (malformed JSON, duplicate keys, a container where a scalar is
// declared, text outside the forms handled here, a value Flink would reject): Flink's own
// deserializer decodes that record instead, with its results and its errors.
var errUnsure = errors.New("json record left to Flink's deserializer")

// Limits of Jackson's StreamReadConstraints (its defaults), past which it fails a record.
const (
	maxDepth        = 1000
	maxNumberLength = 1000
	maxStringLength = 20_000_000
	maxNameLength   = 50_000
)

// scanner reads one JSON text. It accepts only what Jackson's parser (as Flink's json format
// configures it) reads the same way: strict JSON (RFC 8259) with valid UTF-8, where Jackson also
// takes raw control characters inside strings. Anything else is errUnsure.
type scanner struct {
	buf   []byte
	pos   int
	depth int
	// text holds the unescaped text of the last string read when it had escapes.
	text []byte
	// bigExponents: numbers whose exponent has more than maxExponentDigits digits are errUnsure
	// wherever they are (the tree deserializer reads every number of a record as a BigDecimal
	// when the row has a DECIMAL, which such exponents fail).
	bigExponents bool
}

// maxExponentDigits is the most exponent digits a number has in a record the tree deserializer
// is sure to read (BigDecimal's scale is an int).
const maxExponentDigits = 9

func (s *scanner) reset(b []byte) {
	s.buf, s.pos, s.depth = b, 0, 0
}

// skipSpace moves past JSON whitespace and returns the next byte (0 at the end).
func (s *scanner) skipSpace() byte {
	for s.pos < len(s.buf) {
		switch c := s.buf[s.pos]; c {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return c
		}
	}
	return 0
}

// expect consumes byte c after whitespace.
func (s *scanner) expect(c byte) error {
	if s.skipSpace() != c {
		return errUnsure
	}
	s.pos++
	return nil
}

// str reads a string whose opening quote is at pos and returns its text: a slice of the input
// when it has no escapes, else of s.text (valid until the next string). Its length is bounded
// by limit.
func (s *scanner) str(limit int) ([]byte, error) {
	s.pos++ // the opening quote
	start := s.pos
	for s.pos < len(s.buf) {
		c := s.buf[s.pos]
		switch {
		case c == '"':
			b := s.buf[start:s.pos]
			s.pos++
			if len(b) > limit {
				return nil, errUnsure
			}
			return b, nil
		case c == '\\':
			return s.escapedStr(start, limit)
		case c < utf8.RuneSelf:
			s.pos++
		default:
			r, n := utf8.DecodeRune(s.buf[s.pos:])
			if r == utf8.RuneError && n <= 1 {
				return nil, errUnsure // Jackson's UTF-8 checks differ from Go's: Flink decides
			}
			s.pos += n
		}
	}
	return nil, errUnsure
}

// escapedStr reads the rest of a string with escapes, from start, into s.text.
func (s *scanner) escapedStr(start, limit int) ([]byte, error) {
	s.text = append(s.text[:0], s.buf[start:s.pos]...)
	for s.pos < len(s.buf) {
		c := s.buf[s.pos]
		switch {
		case c == '"':
			s.pos++
			// Jackson bounds the UTF-16 length, never above the UTF-8 one.
			if len(s.text) > limit {
				return nil, errUnsure
			}
			return s.text, nil
		case c == '\\':
			if s.pos+1 >= len(s.buf) {
				return nil, errUnsure
			}
			e := s.buf[s.pos+1]
			s.pos += 2
			switch e {
			case '"', '\\', '/':
				s.text = append(s.text, e)
			case 'b':
				s.text = append(s.text, '\b')
			case 'f':
				s.text = append(s.text, '\f')
			case 'n':
				s.text = append(s.text, '\n')
			case 'r':
				s.text = append(s.text, '\r')
			case 't':
				s.text = append(s.text, '\t')
			case 'u':
				r, ok := s.hex4()
				if !ok {
					return nil, errUnsure
				}
				if utf16.IsSurrogate(r) {
					// Only a high surrogate followed by an escaped low one makes a character;
					// Flink turns a lone one into '?', left to it.
					if r >= 0xDC00 || s.pos+1 >= len(s.buf) || s.buf[s.pos] != '\\' || s.buf[s.pos+1] != 'u' {
						return nil, errUnsure
					}
					s.pos += 2
					lo, ok := s.hex4()
					if !ok || lo < 0xDC00 || lo > 0xDFFF {
						return nil, errUnsure
					}
					r = utf16.DecodeRune(r, lo)
				}
				s.text = utf8.AppendRune(s.text, r)
			default:
				return nil, errUnsure
			}
		case c < utf8.RuneSelf:
			s.text = append(s.text, c)
			s.pos++
		default:
			r, n := utf8.DecodeRune(s.buf[s.pos:])
			if r == utf8.RuneError && n <= 1 {
				return nil, errUnsure
			}
			s.text = append(s.text, s.buf[s.pos:s.pos+n]...)
			s.pos += n
		}
	}
	return nil, errUnsure
}

// hex4 reads the four hex digits of a \u escape.
func (s *scanner) hex4() (rune, bool) {
	if s.pos+4 > len(s.buf) {
		return 0, false
	}
	var r rune
	for _, c := range s.buf[s.pos : s.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.pos += 4
	return r, true
}

// number reads a JSON number at pos and returns its text and whether it is an integer (no
// fraction, no exponent), in JSON's grammar: no leading zeros, no '+', digits on both sides of
// the point.
func (s *scanner) number() (text []byte, integer bool, err error) {
	start := s.pos
	if s.pos < len(s.buf) && s.buf[s.pos] == '-' {
		s.pos++
	}
	switch d := s.digits(); {
	case d == 0:
		return nil, false, errUnsure
	case d > 1 && s.buf[s.pos-d] == '0':
		return nil, false, errUnsure
	}
	integer = true
	if s.pos < len(s.buf) && s.buf[s.pos] == '.' {
		s.pos++
		if s.digits() == 0 {
			return nil, false, errUnsure
		}
		integer = false
	}
	if s.pos < len(s.buf) && (s.buf[s.pos] == 'e' || s.buf[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.buf) && (s.buf[s.pos] == '+' || s.buf[s.pos] == '-') {
			s.pos++
		}
		if d := s.digits(); d == 0 || s.bigExponents && d > maxExponentDigits {
			return nil, false, errUnsure
		}
		integer = false
	}
	if s.pos-start > maxNumberLength {
		return nil, false, errUnsure
	}
	// A number runs into no letter ("1x" is no JSON, and Jackson reports it).
	if s.pos < len(s.buf) {
		if c := s.buf[s.pos]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' {
			return nil, false, errUnsure
		}
	}
	return s.buf[start:s.pos], integer, nil
}

func (s *scanner) digits() int {
	n := 0
	for s.pos < len(s.buf) && s.buf[s.pos] >= '0' && s.buf[s.pos] <= '9' {
		s.pos++
		n++
	}
	return n
}

// literal consumes the word w (true, false, null) at pos.
func (s *scanner) literal(w string) error {
	if len(s.buf)-s.pos < len(w) || string(s.buf[s.pos:s.pos+len(w)]) != w {
		return errUnsure
	}
	s.pos += len(w)
	if s.pos < len(s.buf) {
		if c := s.buf[s.pos]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			return errUnsure
		}
	}
	return nil
}

// skipValue reads past one value of any kind after whitespace (an unknown field's, whose
// value Flink does not convert).
func (s *scanner) skipValue() error {
	switch c := s.skipSpace(); {
	case c == '"':
		_, err := s.str(maxStringLength)
		return err
	case c == '-' || c >= '0' && c <= '9':
		_, _, err := s.number()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '{':
		return s.skipContainer('}', true)
	case c == '[':
		return s.skipContainer(']', false)
	}
	return errUnsure
}

// skipContainer reads past an object or an array whose opening bracket is at pos.
func (s *scanner) skipContainer(end byte, object bool) error {
	s.pos++
	if s.depth++; s.depth > maxDepth {
		return errUnsure
	}
	defer func() { s.depth-- }()
	if s.skipSpace() == end {
		s.pos++
		return nil
	}
	for {
		if object {
			if s.skipSpace() != '"' {
				return errUnsure
			}
			if _, err := s.str(maxNameLength); err != nil {
				return err
			}
			if err := s.expect(':'); err != nil {
				return err
			}
		}
		if err := s.skipValue(); err != nil {
			return err
		}
		switch s.skipSpace() {
		case ',':
			s.pos++
		case end:
			s.pos++
			return nil
		default:
			return errUnsure
		}
	}
}
