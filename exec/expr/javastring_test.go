package expr

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/catalog"
)

func TestStringCompareHazard(t *testing.T) {
	str := catalog.StringType(true)
	col := &Node{Kind: InputRef, Type: str}
	lit := func(s string) *Node { return &Node{Kind: Literal, Type: str, Value: s} }
	call := func(op string, args ...*Node) *Node { return &Node{Kind: Call, Op: op, Type: str, Args: args} }
	for _, tc := range []struct {
		name     string
		a, b     *Node
		ordering bool
		want     string
	}{
		{"column vs computed", col, call("UPPER", col), true, ""},
		{"computed vs ascii literal", call("UPPER", col), lit("abc"), true, ""},
		{"computed vs literal above U+D800", call("UPPER", col), lit("\uE000"), true, "UTF-16 order"},
		{"two computed", call("UPPER", col), call("LOWER", col), true, "UTF-16 order"},
		{"two computed, equality", call("UPPER", col), call("LOWER", col), false, ""},
		{"LPAD vs literal, equality", call("LPAD", col, lit("x"), col), lit("?"), false, "lone surrogates"},
		{"LPAD vs column", call("LPAD", col, lit("x"), col), col, true, "lone surrogates"},
	} {
		err := stringCompareHazard("<", tc.a, tc.b, tc.ordering)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want a reason containing %q", tc.name, err, tc.want)
		}
	}
}
