package expr

import (
	"errors"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/javacompat/javaregex"
)

func init() {
	const patterns = " with a constant java.util.regex pattern that Go's RE2 evaluates identically (see javacompat/javaregex: '.' and \\s as Java's, '^' anywhere (the start of the input), '$' only last, (?s:...) groups, the ASCII POSIX classes \\p{Alpha}, \\p{Upper}, \\p{Lower}, \\p{Digit}, \\p{Alnum}; no backreferences, lookaround, possessive quantifiers, other inline flags, \\b, other \\p{...} or nested classes); other patterns fall back"
	register(&Function{Name: "REGEXP", Family: "string",
		Doc:     "REGEXP(s, pattern): whether the pattern matches somewhere in s (Matcher#find)" + patterns,
		compile: compileRegexp})
	register(&Function{Name: "REGEXP_EXTRACT", Family: "string",
		Doc:     "REGEXP_EXTRACT(s, pattern [, group]): the group (0 when omitted) of the first match; NULL without a match, for a group that did not take part or does not exist" + patterns,
		compile: compileRegexp})
	register(&Function{Name: "REGEXP_REPLACE", Family: "string",
		Doc:     "REGEXP_REPLACE(s, pattern, replacement): String#replaceAll with the replacement taken literally" + patterns + "; patterns that can match the empty string fall back too (Java steps into surrogate pairs after an empty match)",
		compile: compileRegexp})
}

// compileRegexp compiles REGEXP, REGEXP_EXTRACT and REGEXP_REPLACE with a constant pattern.
func compileRegexp(n *Node, args []Expr) (Expr, error) {
	want := map[string][2]int{"REGEXP": {2, 2}, "REGEXP_EXTRACT": {2, 3}, "REGEXP_REPLACE": {3, 3}}[n.Op]
	if len(args) < want[0] || len(args) > want[1] {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	strs := args[:2]
	if n.Op == "REGEXP_REPLACE" {
		strs = args
	}
	if err := requireStrings(n, strs, 0); err != nil {
		return nil, err
	}
	src, ok := stringLiteral(n.Args[1])
	if !ok {
		return nil, unsupported("%s with a pattern that is not a constant string is not supported natively yet", n.Op)
	}
	p, err := javaregex.Compile(src)
	if err != nil {
		var u *javaregex.Unsupported
		if errors.As(err, &u) {
			return nil, unsupported("%s: %s", n.Op, u.Reason)
		}
		return nil, err
	}
	switch n.Op {
	case "REGEXP":
		return &stringFn{args: args[:1], typ: n.Type, bl: func(v [][]byte) (bool, bool) {
			return p.Find(v[0]), true
		}}, nil
	case "REGEXP_REPLACE":
		if p.Nullable {
			return nil, unsupported("REGEXP_REPLACE with a pattern that can match the empty string (%q) is not supported natively yet", src)
		}
		// The pattern column is a constant: it is not an operand of the kernel.
		return &stringFn{args: []Expr{args[0], args[2]}, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
			return p.ReplaceAll(dst, v[0], v[1]), true
		}}, nil
	}
	kernelArgs := args[:1]
	if len(args) == 3 {
		idx := args[2]
		switch t := idx.Type(); t.Kind {
		case catalog.TinyInt, catalog.SmallInt, catalog.BigInt:
			// Java widens to int, or casts a long to int (the long overload).
			idx = &cast{unary: unary{idx, catalog.IntType(t.Nullable)}, kind: castNumericKind}
		case catalog.Int:
		default:
			return nil, unsupported("REGEXP_EXTRACT with a %s group is not supported natively yet", t)
		}
		kernelArgs = []Expr{args[0], idx}
	}
	return &stringFn{args: kernelArgs, typ: n.Type, str: func(dst []byte, v [][]byte) ([]byte, bool) {
		g := 0
		if len(v) == 2 {
			g = int(intOf(v[1]))
		}
		sub, ok := p.Submatch(v[0], g)
		return append(dst, sub...), ok
	}}, nil
}
