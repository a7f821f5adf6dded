package window

import (
	"fmt"
	"strconv"
	"time"
	_ "time/tzdata" // zone rules independent of the machine's
)

// Zone is the time zone that windows on a TIMESTAMP_LTZ time attribute align to (Flink's
// shiftTimeZone, the session's 'table.local-time-zone'): window boundaries are wall-clock
// times of the zone, and TimeWindowUtil converts between them and epoch milliseconds. A zone at
// a fixed offset is plain arithmetic; a zone with transitions goes through its rules.
type Zone struct {
	offset int64          // fixed zones: milliseconds east of UTC
	loc    *time.Location // zones with transitions; nil for fixed zones
	// dst is TimeZone#useDaylightTime: the zone keeps changing its offset (Flink then uses the
	// daylight-saving variants of the timer and trigger computations).
	dst  bool
	name string
}

// FixedZone is a zone offsetMillis east of UTC (0 also for TIMESTAMP time attributes).
func FixedZone(offsetMillis int64) Zone { return Zone{offset: offsetMillis} }

// LoadZone returns the zone with a region ID (e.g. "America/Los_Angeles").
func LoadZone(name string) (Zone, error) {
	loc, err := time.LoadLocation(name)
	if err != nil {
		return Zone{}, fmt.Errorf("time zone %q: %w", name, err)
	}
	return Zone{loc: loc, dst: usesDaylightTime(loc, time.Now()), name: name}, nil
}

// usesDaylightTime tells whether a zone observes daylight saving time in the year from now
// (java.util.TimeZone#useDaylightTime refers to the zone's last known rule, as of the clock).
func usesDaylightTime(loc *time.Location, now time.Time) bool {
	for m := 0; m <= 12; m++ {
		if now.AddDate(0, m, 0).In(loc).IsDST() {
			return true
		}
	}
	return false
}

// String identifies the zone (the offset in milliseconds for fixed zones).
func (z Zone) String() string {
	if z.loc == nil {
		return strconv.FormatInt(z.offset, 10)
	}
	return z.name
}

// offsetAt is the zone's offset in milliseconds at an instant.
func (z Zone) offsetAt(epochMillis int64) int64 {
	if z.loc == nil {
		return z.offset
	}
	_, secs := time.UnixMilli(epochMillis).In(z.loc).Zone()
	return int64(secs) * 1000
}

// ToUTC is TimeWindowUtil#toUtcTimestampMills: the zone's wall clock at an instant, as
// milliseconds of a UTC timestamp.
func (z Zone) ToUTC(epochMillis int64) int64 {
	if epochMillis == 1<<63-1 {
		return epochMillis
	}
	return epochMillis + z.offsetAt(epochMillis)
}

// Epoch is TimeWindowUtil#toEpochMills, LocalDateTime#atZone: the instant of a wall-clock
// time. A time in a gap moves later by the gap's length; a time in an overlap takes the earlier
// offset (the one before the transition).
func (z Zone) Epoch(wall int64) int64 {
	if wall == 1<<63-1 || z.loc == nil {
		if wall == 1<<63-1 {
			return wall
		}
		return wall - z.offset
	}
	const day = 86_400_000
	before, after := z.offsetAt(wall-day), z.offsetAt(wall+day)
	switch {
	case z.offsetAt(wall-before) == before:
		return wall - before
	case z.offsetAt(wall-after) == after:
		return wall - after
	}
	return wall - before // a gap: the later instant, as if the earlier offset still held
}

// TimerEpoch is TimeWindowUtil#toEpochMillsForTimer: when a timer for wall-clock time wall
// fires. In zones with daylight saving time, a time in a gap fires at the start of its hour
// after the transition and a time in an overlap at its second occurrence.
func (z Zone) TimerEpoch(wall int64) int64 {
	if !z.dst {
		return z.Epoch(wall)
	}
	if wall == 1<<63-1 {
		return wall
	}
	const hour = 3_600_000
	t1, t2 := z.Epoch(wall), z.Epoch(wall+hour)
	switch {
	case t1 == t2:
		return t1 - t1%hour
	case t2-t1 > hour:
		return t1 + hour
	}
	return t1
}

// IsFired is TimeWindowUtil#isWindowFired: the window ending at windowEnd (wall-clock
// milliseconds) has fired once progress (epoch milliseconds) reaches its timer.
func (z Zone) IsFired(windowEnd, progress int64) bool {
	if windowEnd == 1<<63-1 {
		return false
	}
	return progress >= z.TimerEpoch(windowEnd-1)
}

// NextTrigger is TimeWindowUtil#getNextTriggerWatermark: the next progress at which a window
// buffer flushes, on a grid of interval milliseconds without offset.
func (z Zone) NextTrigger(progress, interval int64) int64 {
	if progress == 1<<63-1 {
		return progress
	}
	var t int64
	if z.dst {
		t = z.TimerEpoch(WindowStartWithOffset(z.ToUTC(progress), 0, interval) + interval - 1)
	} else {
		t = WindowStartWithOffset(progress, 0, interval) + interval - 1
	}
	if t > progress {
		return t
	}
	return t + interval
}
