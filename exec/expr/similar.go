package expr

import (
	"errors"

	"github.com/sluice-project/sluice/javacompat/javaregex"
)

func init() {
	for _, op := range []string{"SIMILAR TO", "NOT SIMILAR TO"} {
		register(&Function{Name: op, Family: "string",
			Doc:     "s [NOT] SIMILAR TO pattern [ESCAPE e] with a constant pattern and escape: the pattern becomes a java.util.regex as Flink's SqlLikeUtils#sqlToRegexSimilar writes it (quirks included: '.' and other regex characters keep their regex meaning), matched against the whole string; patterns Flink rejects, and regexes javacompat/javaregex cannot run as Java does, fall back",
			compile: compileSimilar})
	}
}

func compileSimilar(n *Node, args []Expr) (Expr, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, unsupported("%s with %d operands", n.Op, len(args))
	}
	if err := requireStrings(n, args, 0); err != nil {
		return nil, err
	}
	pattern, ok := stringLiteral(n.Args[1])
	if !ok {
		return nil, unsupported("%s with a pattern that is not a constant string is not supported natively yet", n.Op)
	}
	escape := ""
	if len(args) == 3 {
		e, ok := stringLiteral(n.Args[2])
		if !ok {
			return nil, unsupported("%s with an escape that is not a constant string is not supported natively yet", n.Op)
		}
		escape = e
	}
	java, err := javaregex.FromSimilar(pattern, escape, len(args) == 3)
	if err != nil {
		// Flink fails every row that reaches the pattern: let it.
		return nil, unsupported("%s: %v (Flink fails on it)", n.Op, err)
	}
	p, err := javaregex.Compile(java)
	if err != nil {
		var u *javaregex.Unsupported
		if errors.As(err, &u) {
			return nil, unsupported("%s %q as the regular expression %q: %s", n.Op, pattern, java, u.Reason)
		}
		return nil, err
	}
	negate := n.Op == "NOT SIMILAR TO"
	return &stringFn{args: args[:1], typ: n.Type, bl: func(v [][]byte) (bool, bool) {
		return p.Matches(v[0]) != negate, true
	}}, nil
}
