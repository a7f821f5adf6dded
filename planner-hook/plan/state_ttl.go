package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// stateJSON is a node's state metadata.
type stateJSON struct {
	Index int    `json:"index"`
	TTL   string `json:"ttl"`
}

// stateTTL is a node's state TTL in milliseconds (0 for none): the TTLs of its state metadata
// (the largest, for nodes with several), or without any, table.exec.state.ttl (as Flink's
// StateMetadata#getStateTtlForOneInputOperator falls back to it).
func stateTTL(states []stateJSON, options map[string]string) (int64, error) {
	var ttl int64
	for _, s := range states {
		ms, err := flinkDurationMillis(s.TTL)
		if err != nil {
			return 0, err
		}
		ttl = max(ttl, ms)
	}
	if len(states) == 0 && options[OptStateTTL] != "" {
		ms, err := strconv.ParseInt(options[OptStateTTL], 10, 64)
		if err != nil || ms < 0 {
			return 0, fmt.Errorf("table.exec.state.ttl %q is not a number of milliseconds", options[OptStateTTL])
		}
		ttl = ms
	}
	return ttl, nil
}

// inputStateTTLs are the state TTLs in milliseconds of a node with n inputs, by input (Flink's
// StateMetadata#getStateTtlForMultiInputOperator): its state metadata's, or without any,
// table.exec.state.ttl for every input.
func inputStateTTLs(states []stateJSON, n int, options map[string]string) ([]int64, error) {
	ttls := make([]int64, n)
	if len(states) == 0 {
		ttl, err := stateTTL(nil, options)
		for i := range ttls {
			ttls[i] = ttl
		}
		return ttls, err
	}
	if len(states) != n {
		return nil, fmt.Errorf("%d state entries for %d inputs", len(states), n)
	}
	for _, s := range states {
		if s.Index < 0 || s.Index >= n {
			return nil, fmt.Errorf("state entry of input %d of %d", s.Index, n)
		}
		ms, err := flinkDurationMillis(s.TTL)
		if err != nil {
			return nil, err
		}
		ttls[s.Index] = ms
	}
	return ttls, nil
}

// stateTTLReason says why a node with a state TTL cannot run natively ("" without one).
func stateTTLReason(states []stateJSON, options map[string]string, what string) (string, error) {
	ttl, err := stateTTL(states, options)
	if err != nil || ttl == 0 {
		return "", err
	}
	return fmt.Sprintf("%s with a state TTL (%d ms) is not supported natively yet", what, ttl), nil
}

// durationUnits are the labels of TimeUtils' time units, in nanoseconds.
var durationUnits = map[string]int64{
	"d": 86_400e9, "day": 86_400e9, "days": 86_400e9,
	"h": 3_600e9, "hour": 3_600e9, "hours": 3_600e9,
	"min": 60e9, "m": 60e9, "minute": 60e9, "minutes": 60e9,
	"s": 1e9, "sec": 1e9, "secs": 1e9, "second": 1e9, "seconds": 1e9,
	"ms": 1e6, "milli": 1e6, "millis": 1e6, "millisecond": 1e6, "milliseconds": 1e6,
	"µs": 1e3, "micro": 1e3, "micros": 1e3, "microsecond": 1e3, "microseconds": 1e3,
	"ns": 1, "nano": 1, "nanos": 1, "nanosecond": 1, "nanoseconds": 1,
}

// flinkDurationMillis reads a duration as Flink's plans write it (TimeUtils#formatWithHighestUnit:
// "0 ms", "1 h") in whole milliseconds, as StateTtlConfig takes it (Duration#toMillis).
func flinkDurationMillis(s string) (int64, error) {
	amount, unit, ok := strings.Cut(strings.TrimSpace(s), " ")
	n, err := strconv.ParseInt(amount, 10, 64)
	per, known := durationUnits[strings.ToLower(strings.TrimSpace(unit))]
	if !ok || err != nil || n < 0 || !known {
		return 0, fmt.Errorf("state TTL %q is not a Flink duration", s)
	}
	if n > (1<<63-1)/per {
		return 0, fmt.Errorf("state TTL %q is out of range", s)
	}
	return n * per / 1e6, nil
}
