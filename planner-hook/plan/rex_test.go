package plan

import (
	"encoding/json"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/exec/expr"
)

func TestDecodeLiterals(t *testing.T) {
	cases := []struct {
		json string
		want any
	}{
		{`{"kind":"LITERAL","value":7,"type":"INT NOT NULL"}`, int64(7)},
		{`{"kind":"LITERAL","value":"1.5","type":"DECIMAL(2, 1) NOT NULL"}`, decimal128.FromI64(15)},
		{`{"kind":"LITERAL","value":"1E+3","type":"DECIMAL(4, 0) NOT NULL"}`, decimal128.FromI64(1000)},
		{`{"kind":"LITERAL","value":"-0.05","type":"DECIMAL(3, 2) NOT NULL"}`, decimal128.FromI64(-5)},
		{`{"kind":"LITERAL","value":"2.5E+0","type":"DOUBLE NOT NULL"}`, 2.5},
		{`{"kind":"LITERAL","value":"a%","type":"CHAR(2) NOT NULL"}`, "a%"},
		{`{"kind":"LITERAL","value":true,"type":"BOOLEAN NOT NULL"}`, true},
		{`{"kind":"LITERAL","value":null,"type":"INT"}`, nil},
		{`{"kind":"LITERAL","value":"2020-01-01 00:00:00","type":"TIMESTAMP(0) NOT NULL"}`, int64(1577836800000)},
		{`{"kind":"LITERAL","value":"1970-01-02","type":"DATE NOT NULL"}`, int64(1)},
		{`{"kind":"LITERAL","value":"00:00:01.5","type":"TIME(3) NOT NULL"}`, int64(1500)},
		{`{"kind":"LITERAL","symbol":"TRIM","value":"BOTH","type":{"type":"SYMBOL","nullable":false}}`, expr.Symbol{Kind: "TRIM", Value: "BOTH"}},
	}
	for _, c := range cases {
		n, err := DecodeRex(json.RawMessage(c.json))
		if err != nil {
			t.Errorf("%s: %v", c.json, err)
			continue
		}
		if n.Kind != expr.Literal || n.Value != c.want {
			t.Errorf("%s: got %#v want %#v", c.json, n.Value, c.want)
		}
	}
}

func TestDecodeSargAndCall(t *testing.T) {
	raw := `{"kind":"CALL","syntax":"INTERNAL","internalName":"$SEARCH$1","operands":[
	  {"kind":"INPUT_REF","inputIndex":0,"type":"INT"},
	  {"kind":"LITERAL","sarg":{"ranges":[{"lower":{"value":1,"boundType":"CLOSED"},"upper":{"value":1,"boundType":"CLOSED"}},
	    {"lower":{"value":5,"boundType":"OPEN"}}],"nullAs":"UNKNOWN"},"type":"INT NOT NULL"}],"type":"BOOLEAN"}`
	n, err := DecodeRex(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	if n.Op != "SEARCH" || len(n.Args) != 2 {
		t.Fatalf("decoded %+v", n)
	}
	s, ok := n.Args[1].Value.(*expr.Sarg)
	if !ok || len(s.Ranges) != 2 || s.Ranges[1].Upper != nil || s.Ranges[1].Lower.Closed || s.Ranges[0].Lower.Value != int64(1) {
		t.Fatalf("sarg %+v", n.Args[1].Value)
	}
}

func TestUserFunctionIsNamed(t *testing.T) {
	n, err := DecodeRex(json.RawMessage(`{"kind":"CALL","catalogName":"default_catalog.default_database.my_udf","operands":[],"type":"INT"}`))
	if err != nil {
		t.Fatal(err)
	}
	if n.Op != "user-defined function default_catalog.default_database.my_udf" {
		t.Fatalf("op %q", n.Op)
	}
}

func FuzzJudge(f *testing.F) {
	f.Add(`{"version":1,"nodes":[]}`)
	f.Add(`{"version":1,"nodes":[{"name":"c","inputType":"ROW<` + "`a`" + ` INT>","exec":{"id":1,"type":"stream-exec-calc_1","projection":[{"kind":"INPUT_REF","inputIndex":0,"type":"INT"}],"outputType":"ROW<` + "`a`" + ` INT>"}}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		// Malformed plans must produce errors or verdicts, never panics.
		if is, err := Decode([]byte(s)); err == nil {
			Judge(is)
		}
	})
}
