package io.sluice.tools;

import org.apache.flink.table.runtime.util.TimeWindowUtil;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.TimeZone;

/**
 * Prints what Flink's TimeWindowUtil computes around daylight-saving transitions, for the golden
 * file of exec/window's zone test:
 * {@code bin/sluice-java io.sluice.tools.TimeWindowGolden > exec/window/testdata/timewindowutil.txt}.
 * Lines: {@code wall <zone> <wall ms> <toEpochMills> <toEpochMillsForTimer>} and
 * {@code instant <zone> <epoch ms> <toUtcTimestampMills> <next trigger, 1 h> <next trigger, 30 min>}.
 */
public final class TimeWindowGolden {
    public static void main(String[] args) {
        String[] walls = {
            "2024-03-10T01:59:59.999", "2024-03-10T02:00:00", "2024-03-10T02:30:00", "2024-03-10T02:59:59.999",
            "2024-03-10T03:00:00", "2024-03-10T23:59:59.999", "2024-11-03T00:59:59.999", "2024-11-03T01:00:00",
            "2024-11-03T01:30:00", "2024-11-03T01:59:59.999", "2024-11-03T02:00:00", "2024-11-03T23:59:59.999",
            "2024-03-31T01:59:59.999", "2024-03-31T02:30:00", "2024-03-31T03:00:00", "2024-10-27T01:59:59.999",
            "2024-10-27T02:30:00", "2024-10-27T02:59:59.999", "2024-10-27T03:00:00", "1990-07-01T12:00:00",
            "1970-01-01T00:00:00", "2024-04-07T01:45:00", "2024-04-07T01:59:59.999", "2024-10-06T02:15:00",
            "2024-10-06T01:59:59.999"
        };
        String[] instants = {
            "2024-03-10T09:30:00Z", "2024-03-10T09:59:59.999Z", "2024-03-10T10:30:00Z", "2024-11-03T08:30:00Z",
            "2024-11-03T09:00:00Z", "2024-11-03T09:30:00Z", "2024-03-31T00:30:00Z", "2024-03-31T01:30:00Z",
            "2024-10-27T00:30:00Z", "2024-10-27T01:30:00Z", "1990-07-01T12:00:00Z",
            "2024-04-06T14:45:00Z", "2024-04-06T15:15:00Z", "2024-10-05T15:45:00Z"
        };
        for (String name : new String[] {"America/Los_Angeles", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Shanghai"}) {
            ZoneId zone = ZoneId.of(name);
            boolean dst = TimeZone.getTimeZone(zone).useDaylightTime();
            for (String w : walls) {
                long wall = LocalDateTime.parse(w).toInstant(ZoneOffset.UTC).toEpochMilli();
                System.out.printf(Locale.ROOT, "wall %s %d %d %d%n", name, wall,
                        TimeWindowUtil.toEpochMills(wall, zone), TimeWindowUtil.toEpochMillsForTimer(wall, zone));
            }
            for (String i : instants) {
                long epoch = Instant.parse(i).toEpochMilli();
                System.out.printf(Locale.ROOT, "instant %s %d %d %d %d%n", name, epoch,
                        TimeWindowUtil.toUtcTimestampMills(epoch, zone),
                        TimeWindowUtil.getNextTriggerWatermark(epoch, 3_600_000L, zone, dst),
                        TimeWindowUtil.getNextTriggerWatermark(epoch, 1_800_000L, zone, dst));
            }
        }
    }
}
