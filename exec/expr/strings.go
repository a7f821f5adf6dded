package expr

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

func init() {
	register(&Function{Name: "||", Family: "string", Doc: "concatenation; NULL if any operand is NULL", compile: compileConcat})
	register(&Function{Name: "UPPER", Family: "string", Doc: "ASCII exactly as Flink; other text by Unicode full case mapping (see divergences)", compile: compileCaseMap})
	register(&Function{Name: "LOWER", Family: "string", Doc: "as UPPER", compile: compileCaseMap})
	register(&Function{Name: "CHAR_LENGTH", Family: "string", Doc: "number of code points", compile: compileCharLength})
	register(&Function{Name: "SUBSTRING", Family: "string", Doc: "SUBSTRING(s FROM pos [FOR len]) in code points, Flink's rules for pos ≤ 0 and negative len; pos and len of TINYINT, SMALLINT or INT (a BIGINT fails in Flink's generated code, so it runs there)", compile: compileSubstring})
	register(&Function{Name: "SUBSTR", Family: "string", Doc: "SUBSTR(s, pos [, len]), as SUBSTRING", compile: compileSubstring})
	register(&Function{Name: "TRIM", Family: "string", Doc: "BOTH/LEADING/TRAILING with a constant set of characters", compile: compileTrim})
}

// stringFn is a kernel over string (and INT) operands applied to the rows where no operand is
// NULL. Exactly one of str, i32 and bl is set.
type stringFn struct {
	args []Expr
	typ  catalog.Type
	// str appends the result of one row to dst; ok=false yields NULL.
	str func(dst []byte, vals [][]byte) (out []byte, ok bool)
	// newStr, when set instead of str, makes the row function once per batch, for results
	// that keep state across a batch's rows (e.g. a zone's offset-period cache).
	newStr func() func(dst []byte, vals [][]byte) (out []byte, ok bool)
	i32    func(vals [][]byte) (int32, bool)
	bl     func(vals [][]byte) (bool, bool)
	// capacity, when set, bounds the bytes of all str results from the operands' columns, so
	// that the result is built without growing.
	capacity func(readers []bytesReader) int
	// fails, when set, is called on each row's values before the result function: a non-nil
	// error fails that row (Ctx.fail), as the Java exception Flink's function throws; the row
	// is NULL, and the failure counts only where Flink would have evaluated the call.
	fails func(vals [][]byte) error
}

func (e *stringFn) Type() catalog.Type { return e.typ }

func (e *stringFn) Eval(ctx *Ctx, in Batch) (arrow.Array, error) {
	cols := make([]arrow.Array, len(e.args))
	for k, a := range e.args {
		c, err := a.Eval(ctx, in)
		if err != nil {
			for _, p := range cols[:k] {
				p.Release()
			}
			return nil, err
		}
		cols[k] = c
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	n := ctx.N
	valid := column.NewBitmap(ctx.Mem, n)
	vbits := valid.Bytes()
	vals := make([][]byte, len(cols))
	readers := make([]bytesReader, len(cols))
	for k, c := range cols {
		readers[k] = newBytesReader(c)
	}
	row := func(i int) bool {
		for k := range readers {
			r := &readers[k]
			if r.valid != nil && !bitutil.BitIsSet(r.valid, r.voff+i) {
				return false
			}
			vals[k] = r.at(i)
		}
		if e.fails != nil {
			if err := e.fails(vals); err != nil {
				ctx.fail(i, err)
				return false
			}
		}
		return true
	}
	str := e.str
	if e.newStr != nil {
		str = e.newStr()
	}
	switch {
	case str != nil:
		offBuf, offs := column.NewValues[int32](ctx.Mem, n+1)
		size := 16 * n
		if e.capacity != nil {
			size = e.capacity(readers)
		}
		data := make([]byte, 0, size)
		for i := 0; i < n; i++ {
			offs[i] = int32(len(data))
			if !row(i) {
				continue
			}
			var ok bool
			if data, ok = str(data, vals); ok {
				bitutil.SetBit(vbits, i)
			} else {
				data = data[:offs[i]]
			}
		}
		offs[n] = int32(len(data))
		return column.MakeArray(arrowType(e.typ), n, valid, offBuf, memory.NewBufferBytes(data)), nil
	case e.i32 != nil:
		buf, dst := column.NewValues[int32](ctx.Mem, n)
		for i := 0; i < n; i++ {
			if row(i) {
				v, ok := e.i32(vals)
				if ok {
					dst[i] = v
					bitutil.SetBit(vbits, i)
				}
			}
		}
		return column.MakeArray(arrowType(e.typ), n, valid, buf), nil
	}
	out := column.NewBitmap(ctx.Mem, n)
	obits := out.Bytes()
	for i := 0; i < n; i++ {
		if row(i) {
			v, ok := e.bl(vals)
			if ok {
				bitutil.SetBit(vbits, i)
				if v {
					bitutil.SetBit(obits, i)
				}
			}
		}
	}
	return column.MakeArray(arrowType(e.typ), n, valid, out), nil
}

// bytesReader reads the values of one operand column of a string kernel without per-row
// interface calls: string/binary bytes, or the 4 little-endian bytes of an INT.
type bytesReader struct {
	offs  []int32
	data  []byte
	ints  []int32
	longs []int64
	valid []byte
	voff  int
	tmp   [8]byte
}

func newBytesReader(c arrow.Array) bytesReader {
	r := bytesReader{}
	r.valid, r.voff = column.ValidBits(c)
	switch a := c.(type) {
	case *array.String:
		r.offs, r.data = a.ValueOffsets(), a.ValueBytes()
	case *array.Binary:
		r.offs, r.data = a.ValueOffsets(), a.ValueBytes()
	case *array.Int32:
		r.ints = a.Int32Values()
	case *array.Int64:
		r.longs = a.Int64Values()
	}
	return r
}

func (r *bytesReader) isValid(i int) bool {
	return r.valid == nil || bitutil.BitIsSet(r.valid, r.voff+i)
}

func (r *bytesReader) at(i int) []byte {
	if r.ints != nil {
		v := uint32(r.ints[i])
		r.tmp = [8]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
		return r.tmp[:4]
	}
	if r.longs != nil {
		binary.LittleEndian.PutUint64(r.tmp[:], uint64(r.longs[i]))
		return r.tmp[:]
	}
	base := r.offs[0]
	return r.data[r.offs[i]-base : r.offs[i+1]-base]
}

func longOf(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) }

func intOf(b []byte) int32 {
	return int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// intArgs lets the arguments at idx be any integer type Java passes to an int parameter: TINYINT
// and SMALLINT are widened to INT in place. A BIGINT does not convert implicitly in Java, so
// Flink's generated code for it does not compile (the job fails on Flink, and runs there).
func intArgs(n *Node, args []Expr, idx ...int) error {
	for _, i := range idx {
		if i >= len(args) {
			continue
		}
		switch t := args[i].Type(); t.Kind {
		case catalog.Int:
		case catalog.TinyInt, catalog.SmallInt:
			args[i] = &cast{unary: unary{args[i], catalog.IntType(t.Nullable)}, kind: castNumericKind}
		case catalog.BigInt:
			return unsupported("%s with a BIGINT argument fails in Flink's code generation (no long overload); it runs on Flink", n.Op)
		default:
			return unsupported("%s of %s is not supported natively yet", n.Op, typeNames(args))
		}
	}
	return nil
}

func requireStrings(n *Node, args []Expr, from int) error {
	for _, a := range args[from:] {
		if a == nil || !a.Type().IsString() {
			return unsupported("%s of %s is not supported natively yet", n.Op, typeNames(args))
		}
	}
	return nil
}

func compileConcat(n *Node, args []Expr) (Expr, error) {
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	if !n.Type.IsString() {
		return nil, unsupported("|| producing %s", n.Type)
	}
	// Flink concatenates the Java Strings (a CHAR(n) result of two CHARs is not padded again).
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		for _, p := range v {
			dst = append(dst, p...)
		}
		return dst, true
	}, capacity: func(readers []bytesReader) int {
		// Every row's result is its operands' bytes: at most all of them.
		size := 0
		for _, r := range readers {
			size += len(r.data)
		}
		return size
	}}, nil
}

// upperASCII and lowerASCII map every byte to itself except the ASCII letters of the other case.
var upperASCII, lowerASCII = func() (u, l [256]byte) {
	for i := range u {
		u[i], l[i] = byte(i), byte(i)
	}
	for c := 'a'; c <= 'z'; c++ {
		u[c] = byte(c - 32)
		l[c-32] = byte(c)
	}
	return u, l
}()

func isASCII(b []byte) bool {
	var or byte
	for _, c := range b {
		or |= c
	}
	return or < 0x80
}

func compileCaseMap(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	m := newCaseMapper(n.Op == "UPPER")
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		return m.appendMapped(dst, v[0]), true
	}}, nil
}

// caseMapper maps strings to upper or lower case as Flink does: ASCII strings byte by byte
// (BinaryStringData's fast path), others with Unicode full case mapping (Java's
// String#toUpperCase/#toLowerCase). Upper-casing, and lower-casing without a capital sigma, map
// each character on its own, so the mapping of each non-ASCII character is computed once and
// cached; a capital sigma (whose lower case depends on its position) uses the full mapper.
//
// A cases.Caser is not safe for concurrent use: each compiled expression (one per pipeline, used
// by one task thread) owns its mapper.
type caseMapper struct {
	upper bool
	table *[256]byte
	caser cases.Caser
	runes map[rune][]byte
}

func newCaseMapper(upper bool) *caseMapper {
	m := &caseMapper{upper: upper, table: &lowerASCII, caser: cases.Lower(language.Und), runes: map[rune][]byte{}}
	if upper {
		m.table, m.caser = &upperASCII, cases.Upper(language.Und)
	}
	return m
}

func (m *caseMapper) appendMapped(dst, s []byte) []byte {
	if isASCII(s) {
		start := len(dst)
		dst = append(dst, s...)
		out := dst[start:]
		for i, c := range out {
			out[i] = m.table[c]
		}
		return dst
	}
	if !utf8.Valid(s) {
		if !hasLeadByte(s) {
			// BinaryStringData#toUpperCase/#toLowerCase map byte by byte while no byte starts a
			// multi-byte sequence: stray bytes (80..C1, F8..FF) stay as they are.
			start := len(dst)
			dst = append(dst, s...)
			for i, c := range dst[start:] {
				if c < utf8.RuneSelf {
					dst[start+i] = m.table[c]
				}
			}
			return dst
		}
		s = javaDecoded(s) // toString(): Java's decoding
	}
	if !m.upper && bytes.ContainsRune(s, 'Σ') {
		return m.appendLowerWithSigma(dst, s)
	}
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			dst = append(dst, m.table[c])
			s = s[1:]
			continue
		}
		r, size := utf8.DecodeRune(s)
		mapped, ok := m.runes[r]
		if !ok {
			mapped = []byte(m.caser.String(string(s[:size])))
			m.runes[r] = mapped
		}
		dst = append(dst, mapped...)
		s = s[size:]
	}
	return dst
}

// hasLeadByte reports whether s holds a byte that starts a multi-byte UTF-8 sequence as
// BinaryStringData#numBytesForFirstByte sees it (C2..F7).
func hasLeadByte(s []byte) bool {
	for _, c := range s {
		if c >= 0xC2 && c <= 0xF7 {
			return true
		}
	}
	return false
}

// appendLowerWithSigma lower-cases valid UTF-8 holding a capital sigma: each sigma as Java
// decides (javaLowerSigma), every other character by its own mapping.
func (m *caseMapper) appendLowerWithSigma(dst, s []byte) []byte {
	runes := []rune(string(s))
	for i, r := range runes {
		if r == 'Σ' {
			dst = utf8.AppendRune(dst, javaLowerSigma(runes, i))
			continue
		}
		dst = m.appendMapped(dst, []byte(string(r)))
	}
	return dst
}

func compileCharLength(n *Node, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, unsupported("CHAR_LENGTH with %d operands", len(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	if n.Type.Kind != catalog.Int {
		return nil, unsupported("CHAR_LENGTH returning %s", n.Type)
	}
	return &stringFn{args: args, typ: n.Type, i32: func(v [][]byte) (int32, bool) {
		return int32(numChars(v[0])), true
	}}, nil
}

// numChars counts characters as BinaryStringData#numChars: one per UTF-8 lead byte. For valid
// UTF-8 that is every byte that is not a continuation byte (10xxxxxx).
func numChars(b []byte) int {
	if isASCII(b) {
		return len(b)
	}
	if utf8.Valid(b) {
		n := 0
		for _, c := range b {
			if c&0xC0 != 0x80 {
				n++
			}
		}
		return n
	}
	n := 0
	for i := 0; i < len(b); {
		i += utf8LeadLen(b[i])
		n++
	}
	return n
}

// utf8LeadLen is BinaryStringData's numBytesForFirstByte.
func utf8LeadLen(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b>>5 == 0x6:
		return 2
	case b>>4 == 0xe:
		return 3
	case b>>3 == 0x1e:
		return 4
	}
	return 1
}

// charSpan returns the byte range of characters [from, to) of b (clamped).
func charSpan(b []byte, from, to int) []byte {
	i, c := 0, 0
	for i < len(b) && c < from {
		i += utf8LeadLen(b[i])
		c++
	}
	j := i
	for j < len(b) && c < to {
		j += utf8LeadLen(b[j])
		c++
	}
	if i > len(b) {
		i = len(b)
	}
	if j > len(b) {
		j = len(b)
	}
	return b[i:j]
}

func compileSubstring(n *Node, args []Expr) (Expr, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, unsupported("SUBSTRING with %d operands", len(args))
	}
	if err := requireStrings(n, args[:1], 0); err != nil {
		return nil, err
	}
	if err := intArgs(n, args, 1, 2); err != nil {
		return nil, err
	}
	return &stringFn{args: args, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		pos := int(intOf(v[1]))
		length := int(^uint32(0) >> 1) // Integer.MAX_VALUE
		if len(v) == 3 {
			length = int(intOf(v[2]))
		}
		sub, ok := substringSQL(v[0], pos, length)
		return append(dst, sub...), ok
	}}, nil
}

// substringSQL is BinaryStringDataUtil#substringSQL; ok=false is NULL.
func substringSQL(s []byte, pos, length int) ([]byte, bool) {
	if length < 0 {
		return nil, false
	}
	if len(s) == 0 {
		return nil, true
	}
	numChars := numChars(s)
	var start int
	switch {
	case pos > 0:
		start = pos - 1
		if start >= numChars {
			return nil, true
		}
	case pos < 0:
		start = numChars + pos
		if start < 0 {
			return nil, true
		}
	}
	end := start + length
	if numChars-start < length {
		end = numChars
	}
	return charSpan(s, start, end), true
}

func compileTrim(n *Node, args []Expr) (Expr, error) {
	if len(args) != 3 || len(n.Args) != 3 {
		return nil, unsupported("TRIM with %d operands", len(args))
	}
	sym, ok := n.Args[0].Value.(Symbol)
	if !ok {
		return nil, unsupported("TRIM without a flag")
	}
	leading := sym.Value == "BOTH" || sym.Value == "LEADING"
	trailing := sym.Value == "BOTH" || sym.Value == "TRAILING"
	if err := requireStrings(n, args, 1); err != nil {
		return nil, err
	}
	return &stringFn{args: args[1:], typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		return append(dst, trimChars(v[1], v[0], leading, trailing)...), true
	}}, nil
}

// trimChars removes from the chosen ends every character that occurs in set.
func trimChars(s, set []byte, leading, trailing bool) string {
	str := string(s)
	cut := string(set)
	if leading {
		str = strings.TrimLeftFunc(str, func(r rune) bool { return strings.ContainsRune(cut, r) })
	}
	if trailing {
		str = strings.TrimRightFunc(str, func(r rune) bool { return strings.ContainsRune(cut, r) })
	}
	return str
}
