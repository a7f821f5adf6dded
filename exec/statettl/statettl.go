// Package statettl holds the rules of Flink's state time-to-live as the operators with a state
// TTL use it (StateTtlConfig with OnCreateAndWrite, NeverReturnExpired and processing time):
// state written at t is gone from t + TTL on, by the wall clock.
package statettl

import "time"

// TTL is a state time to live with the clock it is measured by.
type TTL struct {
	// Millis is the time to live in milliseconds (0 or less: state lives forever).
	Millis int64
	// Clock returns the processing time in epoch milliseconds (nil: the wall clock).
	Clock func() int64
}

// Enabled says whether state expires.
func (t TTL) Enabled() bool { return t.Millis > 0 }

// Now is the processing time in epoch milliseconds.
func (t TTL) Now() int64 {
	if t.Clock != nil {
		return t.Clock()
	}
	return time.Now().UnixMilli()
}

// Expired says whether state written at written is gone at now (TtlUtils#expired: its
// expiration time written + TTL is not after now).
func (t TTL) Expired(written, now int64) bool {
	return t.Millis > 0 && written <= now-t.Millis
}
