// Package recordends is how the Kafka value encoders lay out a batch's records: one body of
// record bytes, and per record the offset of its end in the body, with NullValue set for a
// record without a value (Kafka's null value, a tombstone), which adds no bytes.
package recordends

import "fmt"

// NullValue marks the end of a record without a value; the end itself is the bits below it.
const NullValue = 1 << 31

// Check says whether a body of the given length still leaves every end below NullValue; what
// names the encoder in the error.
func Check(what string, body int) error {
	if body >= NullValue {
		return fmt.Errorf("%s: %d bytes of records in one batch", what, body)
	}
	return nil
}
