package iceberg

import "testing"

// The names AvroSchemaUtil#makeCompatibleName gives (as its code computes them; the sink parity
// test compares a file with such a column name with the one stock Flink writes).
func TestCompatibleName(t *testing.T) {
	for in, want := range map[string]string{
		"window_start": "window_start",
		"_x":           "_x",
		"Grüße":        "Grüße",
		"a-b":          "a_x2Db",
		"a b":          "a_x20b",
		"1x":           "_1x",
		"x1":           "x1",
		"$":            "_x24",
		"a.b":          "a_x2Eb",
		"😀":            "_xD83D_xDE00",
		"a😀":           "a_xD83D_xDE00",
	} {
		if got := compatibleName(in); got != want {
			t.Errorf("compatibleName(%q) = %q, want %q", in, got, want)
		}
	}
}
