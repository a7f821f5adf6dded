package window

import (
	"time"

	"github.com/sluice-project/sluice/javacompat/javatime"
)

// Zone is the time zone that windows on a TIMESTAMP_LTZ time attribute align to (Flink's
// shiftTimeZone, the session's 'table.local-time-zone'): window boundaries are wall-clock
// times of the zone, and TimeWindowUtil converts between them and epoch milliseconds.
type Zone struct {
	javatime.Zone
	// dst is TimeZone#useDaylightTime: the zone keeps changing its offset (Flink then uses the
	// daylight-saving variants of the timer and trigger computations).
	dst bool
}

// FixedZone is a zone offsetMillis east of UTC (0 also for TIMESTAMP time attributes).
func FixedZone(offsetMillis int64) Zone { return Zone{Zone: javatime.FixedZone(offsetMillis)} }

// LoadZone returns the zone with a region ID (e.g. "America/Los_Angeles").
func LoadZone(name string) (Zone, error) {
	z, err := javatime.LoadZone(name)
	if err != nil {
		return Zone{}, err
	}
	return Zone{Zone: z, dst: usesDaylightTime(z.Location(), time.Now())}, nil
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

// ToUTC is TimeWindowUtil#toUtcTimestampMills: the zone's wall clock at an instant, as
// milliseconds of a UTC timestamp (Long.MAX_VALUE, the end of input, stays).
func (z Zone) ToUTC(epochMillis int64) int64 {
	if epochMillis == 1<<63-1 {
		return epochMillis
	}
	return z.Wall(epochMillis)
}

// Epoch is TimeWindowUtil#toEpochMills, LocalDateTime#atZone: the instant of a wall-clock
// time (Long.MAX_VALUE stays).
func (z Zone) Epoch(wall int64) int64 {
	if wall == 1<<63-1 {
		return wall
	}
	return z.Instant(wall)
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
