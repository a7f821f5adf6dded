package expr

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"hash"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/javacompat/javatext"
)

func init() {
	register(&Function{Name: "CONCAT", Family: "string", Doc: "CONCAT(s1, s2, ...); NULL if any operand is NULL", compile: compileConcat})
	register(&Function{Name: "CONCAT_WS", Family: "string", Doc: "CONCAT_WS(sep, s1, ...): NULL operands are skipped; NULL if sep is NULL", compile: compileConcatWs})
	register(&Function{Name: "REVERSE", Family: "string", Doc: "characters in reverse order", compile: compileStringUnary})
	register(&Function{Name: "LTRIM", Family: "string", Doc: "LTRIM(s): leading spaces removed", compile: compileStringUnary})
	register(&Function{Name: "RTRIM", Family: "string", Doc: "RTRIM(s): trailing spaces removed", compile: compileStringUnary})
	register(&Function{Name: "MD5", Family: "string", Doc: "lower-case hex digest of the UTF-8 bytes", compile: compileStringUnary})
	register(&Function{Name: "SHA1", Family: "string", Doc: "lower-case hex digest of the UTF-8 bytes", compile: compileStringUnary})
	register(&Function{Name: "SHA256", Family: "string", Doc: "lower-case hex digest of the UTF-8 bytes", compile: compileStringUnary})
	register(&Function{Name: "TO_BASE64", Family: "string", Doc: "standard Base64 with padding of the UTF-8 bytes", compile: compileStringUnary})
	register(&Function{Name: "REPEAT", Family: "string", Doc: "REPEAT(s, n): empty for n <= 0", compile: compileRepeat})
	register(&Function{Name: "POSITION", Family: "string", Doc: "POSITION(x IN s): 1-based character position, 0 if absent, 1 for an empty x", compile: compilePosition})
	register(&Function{Name: "INSTR", Family: "string", Doc: "INSTR(s, sub [, start [, nth]]) as SqlFunctionUtils#instr: character positions, a negative start searches backwards, nth <= 0 fails as in Flink", compile: compileInstr})
	register(&Function{Name: "FROM_BASE64", Family: "string", Doc: "java.util.Base64's basic decoder: padding optional, any other character than the alphabet (line breaks too) fails as in Flink", compile: compileFromBase64})
	register(&Function{Name: "LOCATE", Family: "string", Doc: "LOCATE(x, s [, from]), as POSITION from character `from`", compile: compilePosition})
	register(&Function{Name: "IF", Family: "conditional", Doc: "IF(c, a, b) as CASE WHEN c THEN a ELSE b END; an IF typed NOT NULL over a branch whose generated code Flink types as nullable (DATE or TIME plus or minus an interval, IN lists, LIKE with a pattern that is not a literal) falls back, as Flink's IfCallGen rejects it", compile: compileIf, NanoTimestamps: true})
	register(&Function{Name: "IFNULL", Family: "conditional", Doc: "IFNULL(a, b): both operands evaluated, as Flink's IfNullFunction", compile: compileCoalesce, NanoTimestamps: true})
	register(&Function{Name: "LEFT", Family: "string", Doc: "LEFT(s, n): the first n characters; empty for n <= 0", compile: compileLeftRight})
	register(&Function{Name: "RIGHT", Family: "string", Doc: "RIGHT(s, n): the last n characters; empty for n <= 0", compile: compileLeftRight})
	register(&Function{Name: "ASCII", Family: "string", Doc: "the first byte as a signed Java byte (0 for empty)", compile: compileASCII})
	register(&Function{Name: "CHR", Family: "string", Doc: "CHR(n): the character n mod 256; empty for n < 0", compile: compileChr})
	register(&Function{Name: "REPLACE", Family: "string", Doc: "REPLACE(s, x, y) with a constant, non-empty x (an empty x splits UTF-16 surrogates in Java)", compile: compileReplace})
	register(&Function{Name: "LPAD", Family: "string", Doc: "LPAD(s, n, pad) in UTF-16 units as Java (a split surrogate pair becomes '?'); NULL for n < 0 or an empty pad", compile: compilePad})
	register(&Function{Name: "RPAD", Family: "string", Doc: "RPAD(s, n, pad), as LPAD", compile: compilePad})
	register(&Function{Name: "HEX", Family: "string", Doc: "HEX(s): upper-case hex of the UTF-8 bytes (HEX of numbers falls back)", compile: compileStringUnary})
	register(&Function{Name: "SPLIT_INDEX", Family: "string", Doc: "SPLIT_INDEX(s, sep, i) with a constant, non-empty sep: the i-th token (0-based), empty tokens kept; NULL when out of range", compile: compileSplitIndex})
	register(&Function{Name: "INITCAP", Family: "string", Doc: "words of [A-Za-z0-9] get an upper-case first letter and lower-case rest; every other character separates words and is kept", compile: compileStringUnary})
}

func compileConcatWs(n *Node, args []Expr) (Expr, error) {
	if len(args) < 2 {
		return nil, unsupported("CONCAT_WS with %d operands", len(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	return &concatWs{args: args, typ: n.Type}, nil
}

// concatWs skips NULL operands, so it reads validity itself instead of using stringFn.
type concatWs struct {
	args []Expr
	typ  catalog.Type
}

func (e *concatWs) Type() catalog.Type { return e.typ }

func (e *concatWs) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	cols, err := evalAll(ctx, in, e.args)
	if err != nil {
		return nil, err
	}
	defer releaseAll(cols)
	readers := make([]bytesReader, len(cols))
	for k, c := range cols {
		readers[k] = newBytesReader(c)
	}
	n := ctx.N
	valid := column.NewBitmap(ctx.Mem, n)
	offBuf, offs := column.NewValues[int32](ctx.Mem, n+1)
	data := make([]byte, 0, 16*n)
	for i := 0; i < n; i++ {
		offs[i] = int32(len(data))
		if !readers[0].isValid(i) {
			continue
		}
		sep := readers[0].at(i)
		first := true
		for k := 1; k < len(readers); k++ {
			if !readers[k].isValid(i) {
				continue
			}
			if !first {
				data = append(data, sep...)
			}
			data = append(data, readers[k].at(i)...)
			first = false
		}
		bitutil.SetBit(valid.Bytes(), i)
	}
	offs[n] = int32(len(data))
	return column.MakeArray(arrowType(e.typ), n, valid, offBuf, memory.NewBufferBytes(data)), nil
}

func compileStringUnary(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, unsupported("%s with %d operands is not supported natively yet", n.Op, len(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	var f func(dst, s []byte) []byte
	switch n.Op {
	case "REVERSE":
		f = reverseChars
	case "LTRIM":
		f = func(dst, s []byte) []byte { return append(dst, bytes.TrimLeft(s, " ")...) }
	case "RTRIM":
		f = func(dst, s []byte) []byte { return append(dst, bytes.TrimRight(s, " ")...) }
	case "MD5":
		f = digest(md5.New())
	case "SHA1":
		f = digest(sha1.New())
	case "SHA256":
		f = digest(sha256.New())
	case "TO_BASE64":
		f = func(dst, s []byte) []byte { return base64.StdEncoding.AppendEncode(dst, s) }
	case "HEX":
		f = upperHex
	case "INITCAP":
		f = initcap
	}
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		return f(dst, v[0]), true
	}}, nil
}

// digest appends the lower-case hex digest of s. The hash is reused: one per compiled
// expression, used by one task thread.
func digest(h hash.Hash) func(dst, s []byte) []byte {
	var sum []byte
	return func(dst, s []byte) []byte {
		h.Reset()
		h.Write(s)
		sum = h.Sum(sum[:0])
		return hex.AppendEncode(dst, sum)
	}
}

// reverseChars reverses characters as BinaryStringDataUtil#reverse: by UTF-8 lead byte.
func reverseChars(dst, s []byte) []byte {
	start := len(dst)
	dst = append(dst, s...)
	out := dst[start:]
	for i := 0; i < len(s); {
		w := min(utf8LeadLen(s[i]), len(s)-i)
		copy(out[len(s)-i-w:], s[i:i+w])
		i += w
	}
	return dst
}

func compileRepeat(n *Node, args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, unsupported("REPEAT of %s is not supported natively yet", typeNames(args))
	}
	if err := intArgs(n, args, 1); err != nil {
		return nil, err
	}
	if err := requireStrings(n, args[:1], 0); err != nil {
		return nil, err
	}
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		for k := int(intOf(v[1])); k > 0; k-- {
			dst = append(dst, v[0]...)
		}
		return dst, true
	}}, nil
}

func compilePosition(n *Node, args []Expr) (Expr, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	if err := requireStrings(n, args[:2], 0); err != nil {
		return nil, err
	}
	if err := intArgs(n, args, 2); err != nil {
		return nil, err
	}
	return &stringFn{args: args, typ: n.Type, i32: func(v [][]byte) (int32, bool) {
		from := int32(1)
		if len(v) == 3 {
			from = int32(intOf(v[2]))
		}
		// SqlFunctionUtils#position: from - 1 in int arithmetic (Integer.MIN_VALUE wraps to
		// Integer.MAX_VALUE: nothing is found).
		return int32(indexOfChars(v[1], v[0], int(from-1)) + 1), true
	}}, nil
}

// indexOfChars is BinaryStringData#indexOf: the character index of the first occurrence of
// seek in s at or after character from, -1 if none, 0 for an empty seek.
func indexOfChars(s, seek []byte, from int) int {
	if len(seek) == 0 {
		return 0
	}
	b, c := 0, 0
	for b < len(s) && c < from {
		b += utf8LeadLen(s[b])
		c++
	}
	for {
		if b+len(seek) > len(s) {
			return -1
		}
		if bytes.Equal(s[b:b+len(seek)], seek) {
			return c
		}
		b += utf8LeadLen(s[b])
		c++
		if b >= len(s) {
			return -1
		}
	}
}

func compileLeftRight(n *Node, args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, unsupported("%s of %s is not supported natively yet", n.Op, typeNames(args))
	}
	if err := intArgs(n, args, 1); err != nil {
		return nil, err
	}
	if err := requireStrings(n, args[:1], 0); err != nil {
		return nil, err
	}
	left := n.Op == "LEFT"
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		k := int(intOf(v[1]))
		switch {
		case k <= 0:
			return dst, true
		case left:
			sub, _ := substringSQL(v[0], 1, k)
			return append(dst, sub...), true
		case k >= numChars(v[0]):
			return append(dst, v[0]...), true
		}
		sub, _ := substringSQL(v[0], -k, int(^uint32(0)>>1))
		return append(dst, sub...), true
	}}, nil
}

func compileASCII(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 || n.Type.Kind != catalog.Int {
		return nil, unsupported("ASCII of %s is not supported natively yet", typeNames(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	return &stringFn{args: args, typ: n.Type, i32: func(v [][]byte) (int32, bool) {
		if len(v[0]) == 0 {
			return 0, true
		}
		return int32(int8(v[0][0])), true
	}}, nil
}

func compileChr(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 || !args[0].Type().IsIntegral() {
		return nil, unsupported("CHR of %s is not supported natively yet", typeNames(args))
	}
	// SqlFunctionUtils#chr(long): every integer type widens to a long.
	if t := args[0].Type(); t.Kind != catalog.BigInt {
		args = []Expr{&cast{unary: unary{args[0], catalog.BigIntType(t.Nullable)}, kind: castNumericKind}}
	}
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		c := longOf(v[0])
		if c < 0 {
			return dst, true
		}
		return utf8.AppendRune(dst, rune(c&0xFF)), true
	}}, nil
}

func compileReplace(n *Node, args []Expr) (Expr, error) {
	if len(args) != 3 {
		return nil, unsupported("REPLACE with %d operands", len(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	old, ok := constantValue(args[1])
	if s, isStr := old.(string); !ok || !isStr || s == "" {
		return nil, unsupported("REPLACE with a search string that is not a constant, non-empty string")
	}
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		s, x, y := v[0], v[1], v[2]
		for {
			i := bytes.Index(s, x)
			if i < 0 {
				return append(dst, s...), true
			}
			dst = append(append(dst, s[:i]...), y...)
			s = s[i+len(x):]
		}
	}}, nil
}

func compilePad(n *Node, args []Expr) (Expr, error) {
	if len(args) != 3 {
		return nil, unsupported("%s of %s is not supported natively yet", n.Op, typeNames(args))
	}
	if err := intArgs(n, args, 1); err != nil {
		return nil, err
	}
	if err := requireStrings(n, []Expr{args[0], args[2]}, 0); err != nil {
		return nil, err
	}
	left := n.Op == "LPAD"
	// The UTF-16 units of the string, the pad and the result, reused across a batch's rows.
	return &stringFn{args: args, typ: n.Type, newStr: func() func([]byte, [][]byte) ([]byte, bool) {
		var base, pad, data []uint16
		return func(dst []byte, v [][]byte) ([]byte, bool) {
			size := int(intOf(v[1]))
			if size < 0 || len(v[2]) == 0 {
				return dst, false
			}
			base, pad = javatext.AppendDecodedUTF8(base[:0], v[0]), javatext.AppendDecodedUTF8(pad[:0], v[2])
			data = column.Grow(data[:0], size)
			if left { // SqlFunctionUtils#lpad
				pos := max(size-len(base), 0)
				for i := 0; i < pos; i += len(pad) {
					for j := 0; j < len(pad) && j < pos-i; j++ {
						data[i+j] = pad[j]
					}
				}
				for i := 0; pos+i < size && i < len(base); i++ {
					data[pos+i] = base[i]
				}
			} else { // SqlFunctionUtils#rpad
				pos := 0
				for ; pos < len(base) && pos < size; pos++ {
					data[pos] = base[pos]
				}
				for pos < size {
					for i := 0; i < len(pad) && i < size-pos; i++ {
						data[pos+i] = pad[i]
					}
					pos += len(pad)
				}
			}
			return appendJavaUTF16(dst, data), true
		}
	}}, nil
}

// javaDecoded is b as Flink's BinaryStringData#toString makes it a Java String, in UTF-8: b
// itself where valid, otherwise with each malformed part replaced by U+FFFD as Java 17's
// decoder replaces it (javatext.AppendDecodedUTF8).
func javaDecoded(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return appendJavaUTF16(nil, javatext.AppendDecodedUTF8(nil, b))
}

// appendJavaUTF16 encodes UTF-16 units as Flink encodes a Java String to UTF-8: surrogate pairs
// as one character, a lone surrogate as '?'.
func appendJavaUTF16(dst []byte, u []uint16) []byte {
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		switch {
		case utf16.IsSurrogate(c):
			if c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
				dst = utf8.AppendRune(dst, utf16.DecodeRune(c, rune(u[i+1])))
				i++
			} else {
				dst = append(dst, '?')
			}
		default:
			dst = utf8.AppendRune(dst, c)
		}
	}
	return dst
}

func compileSplitIndex(n *Node, args []Expr) (Expr, error) {
	if len(args) != 3 {
		return nil, unsupported("SPLIT_INDEX of %s is not supported natively yet", typeNames(args))
	}
	if err := intArgs(n, args, 2); err != nil {
		return nil, err
	}
	if err := requireStrings(n, args[:2], 0); err != nil {
		return nil, err
	}
	sep, ok := constantValue(args[1])
	if s, isStr := sep.(string); !ok || !isStr || s == "" {
		return nil, unsupported("SPLIT_INDEX with a separator that is not a constant, non-empty string")
	}
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		s, sep, idx := v[0], v[1], int(intOf(v[2]))
		if idx < 0 || len(s) == 0 { // commons-lang splits "" into no tokens
			return dst, false
		}
		for k := 0; ; k++ {
			i := bytes.Index(s, sep)
			if k == idx {
				if i < 0 {
					return append(dst, s...), true
				}
				return append(dst, s[:i]...), true
			}
			if i < 0 {
				return dst, false
			}
			s = s[i+len(sep):]
		}
	}}, nil
}

// upperHex appends the upper-case hex of s (SqlFunctionUtils#hex(String)).
func upperHex(dst, s []byte) []byte {
	start := len(dst)
	dst = hex.AppendEncode(dst, s)
	out := dst[start:]
	for i, c := range out {
		out[i] = upperASCII[c]
	}
	return dst
}

// initcap is SqlFunctionUtils#initcap on UTF-8 bytes: words of [A-Za-z0-9] get an upper-case
// first letter and a lower-case rest. Non-ASCII bytes are never letters or digits, exactly as
// the UTF-16 characters they encode.
func initcap(dst, s []byte) []byte {
	start := true
	for _, c := range s {
		alnum := (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
		switch {
		case !alnum:
			start = true
		case start:
			c = upperASCII[c]
			start = false
		default:
			c = lowerASCII[c]
		}
		dst = append(dst, c)
	}
	return dst
}

func compileInstr(n *Node, args []Expr) (Expr, error) {
	if len(args) < 2 || len(args) > 4 {
		return nil, unsupported("INSTR with %d operands", len(args))
	}
	if err := requireStrings(n, args[:2], 0); err != nil {
		return nil, err
	}
	if err := intArgs(n, args, 2, 3); err != nil {
		return nil, err
	}
	pos := func(v [][]byte) (start, nth int) {
		start, nth = 1, 1
		if len(v) > 2 {
			start = int(intOf(v[2]))
		}
		if len(v) > 3 {
			nth = int(intOf(v[3]))
		}
		return start, nth
	}
	return &stringFn{args: args, typ: n.Type,
		fails: func(v [][]byte) error {
			if _, nth := pos(v); nth <= 0 {
				return errNthAppearance
			}
			return nil
		},
		i32: func(v [][]byte) (int32, bool) {
			start, nth := pos(v)
			return int32(instr(v[0], v[1], start, nth)), true
		}}, nil
}

var errNthAppearance = errors.New("java.lang.IllegalArgumentException: nthAppearance must be positive!")

// instr is SqlFunctionUtils#instr: the character position of the nth occurrence of sub in s
// searching from character start (backwards from the end for a negative start), 0 if none.
func instr(s, sub []byte, start, nth int) int {
	switch {
	case start == 0:
		return 0
	case start > 0:
		index := 0
		for i := 0; i < nth; i++ {
			index = indexOfChars(s, sub, start-1) + 1
			if index == 0 {
				return 0
			}
			start = index + 1
		}
		return index
	}
	pos := instr(reverseChars(nil, s), reverseChars(nil, sub), -start, nth)
	if pos == 0 {
		return 0
	}
	return numChars(s) + 2 - pos - numChars(sub)
}

func compileFromBase64(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, unsupported("FROM_BASE64 with %d operands", len(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	return &stringFn{args: args, typ: n.Type,
		fails: func(v [][]byte) error {
			_, err := decodeBase64(nil, v[0])
			return err
		},
		str: func(dst []byte, v [][]byte) ([]byte, bool) {
			out, err := decodeBase64(dst, v[0])
			return out, err == nil
		}}, nil
}

// decodeBase64 appends the bytes of s decoded as java.util.Base64.getDecoder() does: the
// standard alphabet only (no line breaks, which Go's decoder would skip), '=' padding optional
// but exact when present, nothing after it.
func decodeBase64(dst, s []byte) ([]byte, error) {
	if bytes.ContainsAny(s, "\r\n") {
		return nil, errBase64
	}
	enc := base64.RawStdEncoding
	if bytes.IndexByte(s, '=') >= 0 {
		enc = base64.StdEncoding
	}
	out, err := enc.AppendDecode(dst, s)
	if err != nil {
		return nil, errBase64
	}
	return out, nil
}

var errBase64 = errors.New("java.lang.IllegalArgumentException: Illegal base64 character or ending")
