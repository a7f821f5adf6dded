package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ParseType parses a type in the form Flink's plan JSON uses: either the compact string of
// LogicalType#asSerializableString ("INT NOT NULL", "DECIMAL(10, 2)", "ROW<`a` INT>") or the
// generic object form ({"type":"TIMESTAMP_WITHOUT_TIME_ZONE","precision":3,"kind":"ROWTIME"}).
func ParseType(raw json.RawMessage) (Type, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 {
		return Type{}, fmt.Errorf("empty type")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return Type{}, fmt.Errorf("type %s: %w", raw, err)
		}
		return ParseTypeString(s)
	}
	var obj struct {
		Type        string            `json:"type"`
		Nullable    *bool             `json:"nullable"`
		Length      *int              `json:"length"`
		Precision   *int              `json:"precision"`
		Kind        string            `json:"kind"`
		ElementType json.RawMessage   `json:"elementType"`
		KeyType     json.RawMessage   `json:"keyType"`
		ValueType   json.RawMessage   `json:"valueType"`
		Fields      []json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return Type{}, fmt.Errorf("type %s: %w", raw, err)
	}
	t := Type{Nullable: obj.Nullable == nil || *obj.Nullable}
	switch obj.Type {
	case "TIMESTAMP_WITHOUT_TIME_ZONE":
		t.Kind = Timestamp
	case "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
		t.Kind = TimestampLTZ
	case "TIMESTAMP_WITH_TIME_ZONE":
		t.Kind = TimestampTZ
	case "CHAR":
		t.Kind = Char
	case "VARCHAR":
		t.Kind = VarChar
	case "BINARY":
		t.Kind = Binary
	case "VARBINARY":
		t.Kind = VarBinary
	case "ARRAY", "MULTISET":
		t.Kind = Array
		if obj.Type == "MULTISET" {
			t.Kind = Multiset
		}
		e, err := ParseType(obj.ElementType)
		if err != nil {
			return Type{}, err
		}
		t.Elem = &e
	case "MAP":
		t.Kind = Map
		k, err := ParseType(obj.KeyType)
		if err != nil {
			return Type{}, err
		}
		v, err := ParseType(obj.ValueType)
		if err != nil {
			return Type{}, err
		}
		t.Elem, t.Value = &k, &v
	case "ROW":
		t.Kind = Row
		for _, fr := range obj.Fields {
			var f struct {
				Name      string          `json:"name"`
				FieldType json.RawMessage `json:"fieldType"`
			}
			if err := json.Unmarshal(fr, &f); err != nil {
				return Type{}, fmt.Errorf("row field %s: %w", fr, err)
			}
			ft, err := ParseType(f.FieldType)
			if err != nil {
				return Type{}, err
			}
			t.Fields = append(t.Fields, Field{Name: f.Name, Type: ft})
		}
	default:
		// Structured, distinct, raw and other types Sluice does not execute.
		t.Kind = Raw
		t.Raw = obj.Type
		return t, nil
	}
	if obj.Length != nil {
		t.Length = *obj.Length
	}
	if obj.Precision != nil {
		t.Precision = *obj.Precision
	}
	switch obj.Kind {
	case "ROWTIME":
		t.TimeAttr = Rowtime
	case "PROCTIME":
		t.TimeAttr = Proctime
	}
	return t, nil
}

// ParseTypeString parses LogicalType#asSerializableString output.
func ParseTypeString(s string) (Type, error) {
	p := &typeParser{s: s}
	t, err := p.parse()
	if err != nil {
		return Type{}, fmt.Errorf("type %q: %w", s, err)
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return Type{}, fmt.Errorf("type %q: unexpected text at %d", s, p.pos)
	}
	return t, nil
}

type typeParser struct {
	s   string
	pos int
}

func (p *typeParser) skipSpace() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *typeParser) word() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' {
			p.pos++
			continue
		}
		break
	}
	return strings.ToUpper(p.s[start:p.pos])
}

func (p *typeParser) peekWord() string {
	save := p.pos
	w := p.word()
	p.pos = save
	return w
}

func (p *typeParser) accept(c byte) bool {
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) expect(c byte) error {
	if !p.accept(c) {
		return fmt.Errorf("expected %q at %d", c, p.pos)
	}
	return nil
}

// args parses an optional "(n[, m])" list.
func (p *typeParser) args() ([]int, error) {
	if !p.accept('(') {
		return nil, nil
	}
	var out []int
	for {
		w := p.word()
		n, err := strconv.Atoi(w)
		if err != nil {
			return nil, fmt.Errorf("bad number %q at %d", w, p.pos)
		}
		out = append(out, n)
		if p.accept(')') {
			return out, nil
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
	}
}

func argOr(a []int, i, def int) int {
	if i < len(a) {
		return a[i]
	}
	return def
}

func (p *typeParser) parse() (Type, error) {
	t := Type{Nullable: true}
	w := p.word()
	switch w {
	case "BOOLEAN":
		t.Kind = Boolean
	case "TINYINT":
		t.Kind = TinyInt
	case "SMALLINT":
		t.Kind = SmallInt
	case "INT", "INTEGER":
		t.Kind = Int
	case "BIGINT":
		t.Kind = BigInt
	case "FLOAT", "REAL":
		t.Kind = Float
	case "DOUBLE":
		t.Kind = Double
		if p.peekWord() == "PRECISION" {
			p.word()
		}
	case "DATE":
		t.Kind = Date
	case "NULL":
		t.Kind = Null
	case "STRING":
		t.Kind, t.Length = VarChar, MaxVarLength
	case "BYTES":
		t.Kind, t.Length = VarBinary, MaxVarLength
	case "CHAR", "VARCHAR", "BINARY", "VARBINARY":
		a, err := p.args()
		if err != nil {
			return t, err
		}
		t.Kind = map[string]Kind{"CHAR": Char, "VARCHAR": VarChar, "BINARY": Binary, "VARBINARY": VarBinary}[w]
		t.Length = argOr(a, 0, 1)
	case "DECIMAL", "DEC", "NUMERIC":
		a, err := p.args()
		if err != nil {
			return t, err
		}
		t.Kind, t.Precision, t.Scale = Decimal, argOr(a, 0, 10), argOr(a, 1, 0)
	case "TIME":
		a, err := p.args()
		if err != nil {
			return t, err
		}
		t.Kind, t.Precision = Time, argOr(a, 0, 0)
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		a, err := p.args()
		if err != nil {
			return t, err
		}
		t.Kind, t.Precision = Timestamp, argOr(a, 0, 6)
		if w == "TIMESTAMP_LTZ" {
			t.Kind = TimestampLTZ
		} else if p.peekWord() == "WITH" {
			p.word()
			switch p.word() {
			case "LOCAL":
				if p.word() != "TIME" || p.word() != "ZONE" {
					return t, fmt.Errorf("bad TIMESTAMP WITH LOCAL TIME ZONE")
				}
				t.Kind = TimestampLTZ
			case "TIME":
				if p.word() != "ZONE" {
					return t, fmt.Errorf("bad TIMESTAMP WITH TIME ZONE")
				}
				t.Kind = TimestampTZ
			default:
				return t, fmt.Errorf("bad TIMESTAMP WITH")
			}
		} else if p.peekWord() == "WITHOUT" {
			p.word()
			if p.word() != "TIME" || p.word() != "ZONE" {
				return t, fmt.Errorf("bad TIMESTAMP WITHOUT TIME ZONE")
			}
		}
	case "INTERVAL":
		start := p.pos
		// INTERVAL YEAR(p) TO MONTH, INTERVAL MONTH, INTERVAL DAY(p) TO SECOND(p), ...
		first := p.word()
		if _, err := p.args(); err != nil {
			return t, err
		}
		if p.peekWord() == "TO" {
			p.word()
			p.word()
			if _, err := p.args(); err != nil {
				return t, err
			}
		}
		if first == "YEAR" || first == "MONTH" {
			t.Kind = IntervalYearMonth
		} else {
			t.Kind = IntervalDayTime
		}
		t.Raw = "INTERVAL" + strings.TrimRight(p.s[start:p.pos], " ")
	case "ARRAY", "MULTISET":
		if err := p.expect('<'); err != nil {
			return t, err
		}
		e, err := p.parse()
		if err != nil {
			return t, err
		}
		if err := p.expect('>'); err != nil {
			return t, err
		}
		t.Kind, t.Elem = Array, &e
		if w == "MULTISET" {
			t.Kind = Multiset
		}
	case "MAP":
		if err := p.expect('<'); err != nil {
			return t, err
		}
		k, err := p.parse()
		if err != nil {
			return t, err
		}
		if err := p.expect(','); err != nil {
			return t, err
		}
		v, err := p.parse()
		if err != nil {
			return t, err
		}
		if err := p.expect('>'); err != nil {
			return t, err
		}
		t.Kind, t.Elem, t.Value = Map, &k, &v
	case "ROW":
		if err := p.expect('<'); err != nil {
			return t, err
		}
		t.Kind = Row
		if !p.accept('>') {
			for {
				name, err := p.fieldName()
				if err != nil {
					return t, err
				}
				ft, err := p.parse()
				if err != nil {
					return t, err
				}
				p.skipSpace()
				if strings.HasPrefix(p.s[p.pos:], "'") { // field description
					if err := p.skipQuoted('\''); err != nil {
						return t, err
					}
				}
				t.Fields = append(t.Fields, Field{Name: name, Type: ft})
				if p.accept('>') {
					break
				}
				if err := p.expect(','); err != nil {
					return t, err
				}
			}
		}
	case "RAW":
		start := p.pos - 3
		if err := p.expect('('); err != nil {
			return t, err
		}
		depth := 1
		for p.pos < len(p.s) && depth > 0 {
			switch p.s[p.pos] {
			case '(':
				depth++
			case ')':
				depth--
			case '\'':
				if err := p.skipQuoted('\''); err != nil {
					return t, err
				}
				continue
			}
			p.pos++
		}
		t.Kind, t.Raw = Raw, p.s[start:p.pos]
	case "":
		return t, fmt.Errorf("missing type at %d", p.pos)
	default:
		return t, fmt.Errorf("unknown type %s", w)
	}
	if p.peekWord() == "NOT" {
		p.word()
		if p.word() != "NULL" {
			return t, fmt.Errorf("expected NULL after NOT")
		}
		t.Nullable = false
	}
	p.skipSpace()
	if strings.HasPrefix(p.s[p.pos:], "*ROWTIME*") {
		t.TimeAttr, p.pos = Rowtime, p.pos+len("*ROWTIME*")
	} else if strings.HasPrefix(p.s[p.pos:], "*PROCTIME*") {
		t.TimeAttr, p.pos = Proctime, p.pos+len("*PROCTIME*")
	}
	return t, nil
}

func (p *typeParser) fieldName() (string, error) {
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == '`' {
		var b strings.Builder
		p.pos++
		for p.pos < len(p.s) {
			c := p.s[p.pos]
			if c == '`' {
				if p.pos+1 < len(p.s) && p.s[p.pos+1] == '`' {
					b.WriteByte('`')
					p.pos += 2
					continue
				}
				p.pos++
				return b.String(), nil
			}
			b.WriteByte(c)
			p.pos++
		}
		return "", fmt.Errorf("unterminated field name")
	}
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] != ' ' {
		p.pos++
	}
	if start == p.pos {
		return "", fmt.Errorf("missing field name at %d", start)
	}
	return p.s[start:p.pos], nil
}

func (p *typeParser) skipQuoted(q byte) error {
	p.pos++ // opening quote
	for p.pos < len(p.s) {
		if p.s[p.pos] == q {
			if p.pos+1 < len(p.s) && p.s[p.pos+1] == q {
				p.pos += 2
				continue
			}
			p.pos++
			return nil
		}
		p.pos++
	}
	return fmt.Errorf("unterminated quote")
}
