package io.sluice.tools;

import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;

/**
 * Prints the instants java.util gives wall-clock times in zones with transitions, for the golden
 * file of javacompat/javatime's test: SimpleDateFormat's lenient parse in the zone, as Flink's
 * DateTimeUtils#unixTimestamp(String, String, TimeZone) (UNIX_TIMESTAMP(s)) parses them, at
 * millisecond precision:
 * {@code bin/sluice-java io.sluice.tools.WallGolden > javacompat/javatime/testdata/util_wall_offsets.txt}.
 * Walls: at and 1 ms before both wall times of every transition from 1890 to 2050 (so in and
 * around gaps and overlaps), halfway between them, around 1900-01-01 (where java.util's
 * transitions start), and at random. Lines: {@code <zone> <yyyy-MM-dd HH:mm:ss.SSS> <epoch ms>}.
 */
public final class WallGolden {
    private static final String[] ZONES = {
        "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kolkata",
        "Europe/Dublin", "Pacific/Apia", "America/St_Johns", "Europe/Moscow", "Asia/Shanghai",
    };

    private WallGolden() {}

    public static void main(String[] args) throws Exception {
        System.out.println("# " + WallGolden.class.getName() + " (JDK " + System.getProperty("java.version") + "): zone, wall time, epoch ms");
        SimpleDateFormat text = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS");
        text.setTimeZone(TimeZone.getTimeZone("UTC"));
        Random rnd = new Random(42);
        for (String z : ZONES) {
            SimpleDateFormat parse = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS");
            parse.setTimeZone(TimeZone.getTimeZone(z));
            ZoneRules rules = ZoneId.of(z).getRules();
            List<Long> walls = new ArrayList<>();
            ZoneOffsetTransition t = rules.nextTransition(Instant.parse("1890-01-01T00:00:00Z"));
            while (t != null && t.getInstant().isBefore(Instant.parse("2050-01-01T00:00:00Z"))) {
                long at = t.getInstant().toEpochMilli();
                long before = at + t.getOffsetBefore().getTotalSeconds() * 1000L;
                long after = at + t.getOffsetAfter().getTotalSeconds() * 1000L;
                for (long w : new long[] {before - 1, before, after - 1, after, (before + after) / 2}) {
                    walls.add(w);
                }
                t = rules.nextTransition(t.getInstant());
            }
            for (long w = -2208988800000L - 86_400_000L; w <= -2208988800000L + 86_400_000L; w += 3_600_000L) {
                walls.add(w);
            }
            for (int i = 0; i < 60; i++) {
                walls.add((long) ((rnd.nextDouble() * 2 - 0.3) * 5e12));
            }
            for (long w : walls) {
                String s = text.format(new Date(w)); // the wall time's fields
                System.out.println(z + "\t" + s + "\t" + parse.parse(s).getTime());
            }
        }
    }
}
