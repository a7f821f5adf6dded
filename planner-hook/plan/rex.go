package plan

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/expr"
)

// rexJSON is Flink's RexNode JSON (RexNodeJsonSerializer).
type rexJSON struct {
	Kind         string            `json:"kind"`
	InputIndex   int               `json:"inputIndex"`
	Value        json.RawMessage   `json:"value"`
	Symbol       string            `json:"symbol"`
	Sarg         *sargJSON         `json:"sarg"`
	Type         json.RawMessage   `json:"type"`
	InternalName string            `json:"internalName"`
	SystemName   string            `json:"systemName"`
	CatalogName  string            `json:"catalogName"`
	Class        string            `json:"class"`
	Operands     []json.RawMessage `json:"operands"`
	Name         string            `json:"name"`
	Expr         json.RawMessage   `json:"expr"`
}

type sargJSON struct {
	Ranges []struct {
		Lower *boundJSON `json:"lower"`
		Upper *boundJSON `json:"upper"`
	} `json:"ranges"`
	NullAs string `json:"nullAs"`
}

type boundJSON struct {
	Value     json.RawMessage `json:"value"`
	BoundType string          `json:"boundType"`
}

// DecodeRex turns a RexNode JSON into an expression tree. Function names are Flink's internal
// names without "$" and version ("$+$1" → "+"); a user-defined or catalog function is
// reported by name so that the verdict can say why it falls back.
func DecodeRex(data json.RawMessage) (*expr.Node, error) {
	var r rexJSON
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("rex node: %w", err)
	}
	if r.Kind == "FIELD_ACCESS" {
		// RexNodeJsonSerializer#serializeFieldAccess writes no type: it is the field's.
		row, err := DecodeRex(r.Expr)
		if err != nil {
			return nil, err
		}
		t, _, ok := expr.FieldType(row.Type, r.Name)
		if !ok {
			return nil, &expr.Unsupported{Reason: fmt.Sprintf("field access: %s has no field %q", row.Type, r.Name)}
		}
		return &expr.Node{Kind: expr.FieldAccess, Name: r.Name, Type: t, Args: []*expr.Node{row}}, nil
	}
	t, err := catalog.ParseType(r.Type)
	if err != nil {
		return nil, err
	}
	switch r.Kind {
	case "INPUT_REF":
		return &expr.Node{Kind: expr.InputRef, Index: r.InputIndex, Type: t}, nil
	case "LITERAL":
		if r.Sarg != nil {
			s, err := decodeSarg(r.Sarg, t)
			if err != nil {
				return nil, err
			}
			return &expr.Node{Kind: expr.Literal, Type: t, Value: s}, nil
		}
		if r.Symbol != "" {
			var v string
			if err := json.Unmarshal(r.Value, &v); err != nil {
				return nil, fmt.Errorf("symbol literal: %w", err)
			}
			return &expr.Node{Kind: expr.Literal, Type: t, Value: expr.Symbol{Kind: r.Symbol, Value: v}}, nil
		}
		v, err := decodeLiteral(r.Value, t)
		if err != nil {
			return nil, err
		}
		return &expr.Node{Kind: expr.Literal, Type: t, Value: v}, nil
	case "CALL":
		op := callName(&r)
		n := &expr.Node{Kind: expr.Call, Op: op, Type: t}
		for _, o := range r.Operands {
			a, err := DecodeRex(o)
			if err != nil {
				return nil, err
			}
			n.Args = append(n.Args, a)
		}
		return n, nil
	}
	return nil, &expr.Unsupported{Reason: fmt.Sprintf("expression kind %s is not supported natively yet", r.Kind)}
}

// callName extracts the operator name: "$CAST$1" → "CAST"; a system function keeps its name;
// catalog and class-based functions are user-defined.
func callName(r *rexJSON) string {
	switch {
	case r.InternalName != "":
		s := strings.TrimPrefix(r.InternalName, "$")
		if i := strings.LastIndex(s, "$"); i >= 0 {
			s = s[:i]
		}
		return s
	case r.SystemName != "":
		return strings.ToUpper(r.SystemName)
	case r.CatalogName != "":
		return "user-defined function " + r.CatalogName
	case r.Class != "":
		return "user-defined function " + r.Class
	}
	return "unknown function"
}

func decodeSarg(s *sargJSON, t catalog.Type) (*expr.Sarg, error) {
	out := &expr.Sarg{NullAs: s.NullAs}
	bound := func(b *boundJSON) (*expr.Bound, error) {
		if b == nil {
			return nil, nil
		}
		v, err := decodeLiteral(b.Value, t)
		if err != nil {
			return nil, err
		}
		return &expr.Bound{Value: v, Closed: b.BoundType == "CLOSED"}, nil
	}
	for _, r := range s.Ranges {
		lo, err := bound(r.Lower)
		if err != nil {
			return nil, err
		}
		hi, err := bound(r.Upper)
		if err != nil {
			return nil, err
		}
		out.Ranges = append(out.Ranges, expr.Range{Lower: lo, Upper: hi})
	}
	return out, nil
}

// decodeLiteral reads a literal value in the form Node.Value documents.
func decodeLiteral(raw json.RawMessage, t catalog.Type) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	isString := raw[0] == '"'
	if isString {
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
	} else {
		s = string(raw)
	}
	bad := func(err error) error { return fmt.Errorf("literal %s of type %s: %v", raw, t, err) }
	switch t.Kind {
	case catalog.Boolean:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, bad(err)
		}
		return b, nil
	case catalog.TinyInt, catalog.SmallInt, catalog.Int, catalog.BigInt, catalog.IntervalDayTime, catalog.IntervalYearMonth:
		// Interval literals are milliseconds (DAY TO SECOND) or months (YEAR TO MONTH).
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, bad(err)
		}
		return v, nil
	case catalog.Float, catalog.Double:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, bad(err)
		}
		if t.Kind == catalog.Float {
			return float64(float32(f)), nil
		}
		return f, nil
	case catalog.Decimal:
		d, err := parseDecimal(s, t.Scale)
		if err != nil {
			return nil, bad(err)
		}
		return d, nil
	case catalog.Char, catalog.VarChar:
		return s, nil
	case catalog.Binary, catalog.VarBinary:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, bad(err)
		}
		return b, nil
	case catalog.Date:
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, bad(err)
		}
		return d.Unix() / 86400, nil
	case catalog.Time:
		d, err := time.Parse("15:04:05.999999999", s)
		if err != nil {
			return nil, bad(err)
		}
		return int64(d.Hour()*3600000 + d.Minute()*60000 + d.Second()*1000 + d.Nanosecond()/1e6), nil
	case catalog.Timestamp, catalog.TimestampLTZ:
		// A TIMESTAMP_LTZ literal is written as its UTC date-time.
		ts, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			return nil, bad(err)
		}
		if t.IsNanoTimestamp() {
			// Epoch millis and nanos of the millisecond (catalog.ArrowType).
			ms := ts.Unix()*1000 + int64(ts.Nanosecond()/1e6)
			return expr.NanoTimestamp{Millis: ms, NanoOfMilli: int32(ts.Nanosecond() % 1e6)}, nil
		}
		if t.Precision > 3 {
			// Microseconds (catalog.ArrowType).
			if ts.Nanosecond()%1e3 != 0 {
				return nil, &expr.Unsupported{Reason: "TIMESTAMP literal with sub-microsecond digits"}
			}
			return ts.UnixMicro(), nil
		}
		if ts.Nanosecond()%1e6 != 0 {
			return nil, &expr.Unsupported{Reason: "TIMESTAMP literal with sub-millisecond digits"}
		}
		return ts.UnixMilli(), nil
	}
	return nil, &expr.Unsupported{Reason: fmt.Sprintf("literal of type %s is not supported natively yet", t)}
}

// parseDecimal reads a BigDecimal#toString value ("12.50", "-1E+3") as an unscaled value at
// the given scale; digits beyond the scale are an error (Flink types literals exactly).
func parseDecimal(s string, scale int) (decimal128.Num, error) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return decimal128.Num{}, err
		}
		mant, exp = s[:i], e
	}
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimLeft(mant, "+-")
	frac := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		frac = len(mant) - i - 1
		mant = mant[:i] + mant[i+1:]
	}
	v, ok := new(big.Int).SetString(mant, 10)
	if !ok {
		return decimal128.Num{}, fmt.Errorf("not a decimal: %q", s)
	}
	cur := frac - exp // value = v * 10^-cur
	switch {
	case cur < scale:
		v.Mul(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale-cur)), nil))
	case cur > scale:
		d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(cur-scale)), nil)
		q, r := new(big.Int).QuoRem(v, d, new(big.Int))
		if r.Sign() != 0 {
			return decimal128.Num{}, fmt.Errorf("%q has more than %d fraction digits", s, scale)
		}
		v = q
	}
	if neg {
		v.Neg(v)
	}
	return decimal128.FromBigInt(v), nil
}
