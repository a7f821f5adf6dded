package javatime

import (
	"fmt"
	"math"
	"strconv"
	"time"
	_ "time/tzdata" // zone rules where the machine has none (time.LoadLocation prefers the system's)
)

// Zone is a time zone as java.time applies it to the session's 'table.local-time-zone': a fixed
// offset is plain arithmetic, a region goes through its rules (Go's time.LoadLocation: the
// machine's tz database, else the one embedded in the binary).
type Zone struct {
	offset int64          // fixed zones: milliseconds east of UTC
	loc    *time.Location // zones with transitions; nil for fixed zones
	name   string
	// raw is TimeZone#getRawOffset (today's standard offset), for UtilOffsetAt.
	raw int64
	// utilStartWall is the wall time of java.util's first transition (utilTimeZoneStart at
	// its offset), for UtilWallOffset.
	utilStartWall int64
}

// FixedZone is a zone offsetMillis east of UTC.
func FixedZone(offsetMillis int64) Zone { return Zone{offset: offsetMillis} }

// LoadZone returns the zone with a region ID (e.g. "America/Los_Angeles").
func LoadZone(name string) (Zone, error) {
	loc, err := time.LoadLocation(name)
	if err != nil {
		return Zone{}, fmt.Errorf("time zone %q: %w", name, err)
	}
	z := Zone{loc: loc, name: name, raw: rawOffset(loc, time.Now())}
	z.utilStartWall = utilTimeZoneStart + z.OffsetAt(utilTimeZoneStart)
	return z, nil
}

// String identifies the zone (the offset in milliseconds for fixed zones).
func (z Zone) String() string {
	if z.loc == nil {
		return strconv.FormatInt(z.offset, 10)
	}
	return z.name
}

// FixedOffset is the zone's offset in milliseconds when it has no transitions.
func (z Zone) FixedOffset() (int64, bool) { return z.offset, z.loc == nil }

// Location is the zone's rules, nil for a fixed offset.
func (z Zone) Location() *time.Location { return z.loc }

// OffsetAt is the zone's offset in milliseconds at an instant.
func (z Zone) OffsetAt(epochMillis int64) int64 {
	if z.loc == nil {
		return z.offset
	}
	_, secs := time.UnixMilli(epochMillis).In(z.loc).Zone()
	return int64(secs) * 1000
}

// Wall is LocalDateTime#ofInstant: the zone's wall clock at an instant, as epoch milliseconds
// of that local date-time read as UTC.
func (z Zone) Wall(epochMillis int64) int64 { return epochMillis + z.OffsetAt(epochMillis) }

// Instant is LocalDateTime#atZone(zone)#toInstant; see Offsets#Instant.
func (z Zone) Instant(wall int64) int64 {
	o := z.Offsets()
	return o.Instant(wall)
}

// Offsets is a zone with the offset period of the last instant it was asked about, so that
// the instants of a batch, which mostly share a period, cost a comparison each instead of a
// lookup in the zone's rules. It is not safe for concurrent use; make one per loop.
type Offsets struct {
	Zone
	// [from, to) is the period of offset cur (from > to: none yet).
	from, to, cur int64
}

// Offsets returns the zone with an empty period cache.
func (z Zone) Offsets() Offsets { return Offsets{Zone: z, from: 1} }

// OffsetAt is Zone#OffsetAt.
func (o *Offsets) OffsetAt(epochMillis int64) int64 {
	if o.loc == nil {
		return o.offset
	}
	if epochMillis >= o.from && epochMillis < o.to {
		return o.cur
	}
	t := time.UnixMilli(epochMillis).In(o.loc)
	_, secs := t.Zone()
	start, end := t.ZoneBounds()
	o.from, o.to, o.cur = math.MinInt64, math.MaxInt64, int64(secs)*1000
	if !start.IsZero() {
		o.from = start.UnixMilli()
	}
	if !end.IsZero() {
		o.to = end.UnixMilli()
	}
	return o.cur
}

// Wall is Zone#Wall.
func (o *Offsets) Wall(epochMillis int64) int64 { return epochMillis + o.OffsetAt(epochMillis) }

// Instant is LocalDateTime#atZone(zone)#toInstant: the instant of a wall-clock time (epoch
// milliseconds of the local date-time read as UTC). A time in a gap moves later by the gap's
// length; a time in an overlap takes the earlier offset (the one before the transition).
func (o *Offsets) Instant(wall int64) int64 {
	if o.loc == nil {
		return wall - o.offset
	}
	const day = 86_400_000
	before, after := o.OffsetAt(wall-day), o.OffsetAt(wall+day)
	switch {
	case before == after:
		return wall - before // no transition within a day of it
	case o.OffsetAt(wall-before) == before:
		return wall - before
	case o.OffsetAt(wall-after) == after:
		return wall - after
	}
	return wall - before // a gap: the later instant, as if the earlier offset still held
}

// utilTimeZoneStart is 1900-01-01T00:00:00Z: java.util.TimeZone (sun.util.calendar.ZoneInfo)
// keeps the tz database's transitions from there on only.
const utilTimeZoneStart = -2208988800000

// UtilOffsetAt is java.util.TimeZone#getOffset(epochMillis), the offset SimpleDateFormat and
// GregorianCalendar use: the tz database's from 1900 on, before it the zone's raw offset
// (TimeZone#getRawOffset, today's standard offset) instead of local mean time and early
// standard times.
//
// In the last year that epoch milliseconds reach (292,278,994), a daylight-saving period that
// would end after Long.MAX_VALUE does not apply either (SimpleTimeZone's transition times of
// that year overflow): the raw offset again.
func (z Zone) UtilOffsetAt(epochMillis int64) int64 {
	o := z.Offsets()
	return o.UtilOffsetAt(epochMillis)
}

// UtilOffsetAt is Zone#UtilOffsetAt.
func (o *Offsets) UtilOffsetAt(epochMillis int64) int64 {
	switch {
	case o.loc == nil:
		return o.offset
	case epochMillis < utilTimeZoneStart:
		return o.raw
	case epochMillis >= lastYearStart:
		t := time.UnixMilli(epochMillis).In(o.loc)
		if _, end := t.ZoneBounds(); t.IsDST() && (end.IsZero() || end.After(lastInstant)) {
			return o.raw
		}
	}
	return o.OffsetAt(epochMillis)
}

// UtilWallOffset is the offset java.util's GregorianCalendar takes a wall-clock time (epoch
// milliseconds of the local date-time read as UTC) to be in, so that its instant is wall minus
// the offset (ZoneInfo#getOffsetsByWall): the offset after the last transition whose own wall
// time (in that offset) is not after it. A time in a gap so takes the offset before the gap
// (its instant lands after the transition, as java.time's would), a time in an overlap the
// offset after it (the later instant; java.time takes the earlier one). Before java.util's
// first transition (1900-01-01T00:00Z, read at its offset) the raw offset, as UtilOffsetAt.
func (o *Offsets) UtilWallOffset(wall int64) int64 {
	if o.loc == nil {
		return o.offset
	}
	if wall < o.utilStartWall {
		return o.raw
	}
	if wall >= lastYearStart {
		return o.UtilOffsetAt(wall - o.raw)
	}
	// As Instant, this assumes at most one transition within a day of wall (true of every
	// zone's rules since 1900 but for a few of the 1940s' double summer time changes).
	const day = 86_400_000
	before, after := o.OffsetAt(wall-day), o.OffsetAt(wall+day)
	if before == after {
		return before // no transition within a day of it
	}
	// The transition is the start of the period holding wall + day.
	start, _ := time.UnixMilli(wall + day).In(o.loc).ZoneBounds()
	if wall >= start.UnixMilli()+after {
		return after
	}
	return before
}

// lastInstant is Long.MAX_VALUE epoch milliseconds; lastYearStart the start of its year.
var (
	lastInstant   = time.UnixMilli(1<<63 - 1)
	lastYearStart = time.Date(lastInstant.Year(), 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
)

// rawOffset is a zone's standard offset at now as java.util has it: the smallest offset of the
// periods of the year from now. The JDK's tz database is compiled from the "rearguard" form,
// where daylight saving time always adds to the standard offset; Go's database keeps negative
// DST (Europe/Dublin's winter time is its DST there, Africa/Casablanca's +01 is standard with
// a month of +00), so its IsDST flag cannot say.
func rawOffset(loc *time.Location, now time.Time) int64 {
	end := now.AddDate(1, 0, 0)
	_, least := now.In(loc).Zone()
	for t := now; t.Before(end); {
		lt := t.In(loc)
		_, off := lt.Zone()
		least = min(least, off)
		_, next := lt.ZoneBounds()
		if next.IsZero() || !next.After(t) {
			break
		}
		t = next
	}
	return int64(least) * 1000
}

// UtilFixedZone is java.util.TimeZone#getTimeZone(id) for the IDs whose zone is a fixed offset
// Sluice can name without Java's zone database: "UTC", "GMT" and the custom IDs "GMT+h",
// "GMT+hh", "GMT+hhmm", "GMT+h:mm" and "GMT+hh:mm" (also with '-'; hours up to 23, minutes up to
// 59, as TimeZone#parseCustomTimeZone reads them). ok is false for any other ID (a region, an
// alias, or text Java would silently read as GMT).
func UtilFixedZone(id string) (Zone, bool) {
	if id == "UTC" || id == "GMT" {
		return FixedZone(0), true
	}
	if len(id) < 5 || id[:3] != "GMT" || id[3] != '+' && id[3] != '-' {
		return Zone{}, false
	}
	negative := id[3] == '-'
	hours, num, delims, n := 0, 0, 0, 0
	for _, c := range []byte(id[4:]) {
		if c == ':' {
			if delims > 0 || n > 2 {
				return Zone{}, false
			}
			hours, num, n = num, 0, 0
			delims++
			continue
		}
		if c < '0' || c > '9' {
			return Zone{}, false
		}
		num = num*10 + int(c-'0')
		n++
		if n > 4 {
			return Zone{}, false // beyond hhmm: no int overflow to mimic
		}
	}
	if delims == 0 {
		if n <= 2 {
			hours, num = num, 0
		} else {
			hours, num = num/100, num%100
		}
	} else if n != 2 {
		return Zone{}, false
	}
	if hours > 23 || num > 59 {
		return Zone{}, false
	}
	offset := int64((hours*60 + num) * 60_000)
	if negative {
		offset = -offset
	}
	return FixedZone(offset), true
}
