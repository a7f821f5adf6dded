package javatext

// AppendDecodedUTF8 appends the UTF-16 units of new String(b, StandardCharsets.UTF_8) as Java
// 17 decodes it: each malformed part becomes one U+FFFD, where a part is
//   - a byte that starts no sequence (a continuation byte, C0, C1, F5..FF);
//   - a lead byte with what follows of its sequence while that is still valid (E0 A0 before a
//     non-continuation byte is one part, E0 80 is two: E0 alone, then 80);
//   - a complete 3-byte sequence that decodes to a surrogate (ED A0 80), or a truncated
//     sequence at the end.
//
// Well-formed input decodes as UTF-8 does everywhere.
func AppendDecodedUTF8(dst []uint16, b []byte) []uint16 {
	const repl = 0xFFFD
	notCont := func(c byte) bool { return c&0xC0 != 0x80 }
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80:
			dst = append(dst, uint16(c))
			i++
		case c >= 0xC2 && c <= 0xDF: // two bytes
			if i+1 < len(b) && !notCont(b[i+1]) {
				dst = append(dst, uint16(c&0x1F)<<6|uint16(b[i+1]&0x3F))
				i += 2
			} else {
				dst = append(dst, repl)
				i++
			}
		case c >= 0xE0 && c <= 0xEF: // three bytes
			badSecond := func(c2 byte) bool { return c == 0xE0 && c2&0xE0 == 0x80 || notCont(c2) }
			switch {
			case i+2 < len(b):
				c2, c3 := b[i+1], b[i+2]
				if badSecond(c2) || notCont(c3) {
					dst = append(dst, repl)
					if badSecond(c2) {
						i++
					} else {
						i += 2
					}
					continue
				}
				u := uint16(c&0x0F)<<12 | uint16(c2&0x3F)<<6 | uint16(c3&0x3F)
				if u >= 0xD800 && u <= 0xDFFF {
					u = repl
				}
				dst = append(dst, u)
				i += 3
			case i+1 < len(b) && badSecond(b[i+1]):
				dst = append(dst, repl)
				i++
			default: // truncated at the end: one replacement for what is left
				dst = append(dst, repl)
				i = len(b)
			}
		case c >= 0xF0 && c <= 0xF4: // four bytes
			badSecond := func(c2 byte) bool {
				return c == 0xF0 && (c2 < 0x90 || c2 > 0xBF) || c == 0xF4 && c2&0xF0 != 0x80 || notCont(c2)
			}
			if i+3 < len(b) {
				c2, c3, c4 := b[i+1], b[i+2], b[i+3]
				if badSecond(c2) || notCont(c3) || notCont(c4) {
					dst = append(dst, repl)
					switch {
					case badSecond(c2):
						i++
					case notCont(c3):
						i += 2
					default:
						i += 3
					}
					continue
				}
				r := rune(c&0x07)<<18 | rune(c2&0x3F)<<12 | rune(c3&0x3F)<<6 | rune(c4&0x3F) - 0x10000
				dst = append(dst, uint16(0xD800+r>>10), uint16(0xDC00+r&0x3FF))
				i += 4
				continue
			}
			// Fewer than four bytes left.
			if i+1 < len(b) && badSecond(b[i+1]) {
				dst = append(dst, repl)
				i++
				continue
			}
			dst = append(dst, repl)
			i += 2
			if i < len(b) && notCont(b[i]) {
				continue
			}
			i = len(b)
		default: // 80..C1, F5..FF
			dst = append(dst, repl)
			i++
		}
	}
	return dst
}
