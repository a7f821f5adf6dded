package catalog

import "testing"

func TestNumericPicksTheKindsGoType(t *testing.T) {
	for _, c := range []struct {
		k    Kind
		want string
		ok   bool
	}{
		{TinyInt, "int8", true}, {SmallInt, "int16", true}, {Int, "int32", true}, {BigInt, "int64", true},
		{Float, "float32", true}, {Double, "float64", true}, {Decimal, "", false}, {Date, "", false}, {Boolean, "", false},
	} {
		got, ok := Numeric(c.k, "int8", "int16", "int32", "int64", "float32", "float64")
		if got != c.want || ok != c.ok {
			t.Errorf("Numeric(%v) = %q, %v; want %q, %v", c.k, got, ok, c.want, c.ok)
		}
		gotI, okI := Integral(c.k, "int8", "int16", "int32", "int64")
		wantI, wantOK := c.want, c.ok
		if c.k == Float || c.k == Double {
			wantI, wantOK = "", false
		}
		if gotI != wantI || okI != wantOK {
			t.Errorf("Integral(%v) = %q, %v", c.k, gotI, okI)
		}
	}
}
