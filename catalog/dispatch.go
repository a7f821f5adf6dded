package catalog

// Numeric returns the one of six values that belongs to the numeric kind k (TINYINT, SMALLINT,
// INT, BIGINT, FLOAT, DOUBLE: Go's int8, int16, int32, int64, float32, float64), and false for
// any other kind. It is the one Kind -> Go type dispatch of Sluice's typed kernels: the caller
// passes a kernel instantiated per Go type (f[int8], ..., f[float64]) and the kind picks one,
// once per batch or per operator, never per row.
func Numeric[A any](k Kind, i8, i16, i32, i64, f32, f64 A) (A, bool) {
	switch k {
	case Float:
		return f32, true
	case Double:
		return f64, true
	}
	return Integral(k, i8, i16, i32, i64)
}

// Integral is Numeric for the integer kinds (TINYINT to BIGINT).
func Integral[A any](k Kind, i8, i16, i32, i64 A) (A, bool) {
	switch k {
	case TinyInt:
		return i8, true
	case SmallInt:
		return i16, true
	case Int:
		return i32, true
	case BigInt:
		return i64, true
	}
	var none A
	return none, false
}
