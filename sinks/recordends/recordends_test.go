package recordends

import "testing"

// A body is checked against the NullValue mark: every end must stay below it.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		body int
		ok   bool
	}{{0, true}, {NullValue - 1, true}, {NullValue, false}, {NullValue + 7, false}} {
		if err := Check("enc", c.body); (err == nil) != c.ok {
			t.Errorf("Check(%d) = %v, want ok %v", c.body, err, c.ok)
		}
	}
}
