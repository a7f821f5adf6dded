package io.sluice.tools;

import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.utils.DateTimeUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Prints what Flink's DateTimeUtils#parseTimestampData(String, 9) (CAST(string AS TIMESTAMP)
 * and TO_TIMESTAMP) makes of hand-picked and random strings, for the golden file of
 * javacompat/javatime's test:
 * {@code bin/sluice-java io.sluice.tools.TimestampTextGolden > javacompat/javatime/testdata/timestamp_text.txt}.
 * Lines: the string's UTF-8 bytes in hex ({@code -} for the empty string), a tab, then the
 * TimestampData's epoch milliseconds and nanoseconds of the millisecond, or {@code error}.
 */
public final class TimestampTextGolden {
    /** A valid value nine times in ten, else an invalid one. */
    private static String pick(Random rnd, String[][] values) {
        String[] from = values[rnd.nextInt(10) == 0 ? 1 : 0];
        return from[rnd.nextInt(from.length)];
    }

    public static void main(String[] args) {
        List<String> in = new ArrayList<>(List.of(
                "2024-01-31", "2024-01-31 12:34:56", "2024-01-31 12:34:56.789", "2024-1-5", "2024-1-5 1:2:3",
                "2024-01-31 12:34:56.123456789", "2024-01-31 12:34:56.1234567891", "2024-01-31 12:34:56.", "2024-01-31 ",
                " 2024-01-31", "2024-01-31T12:00:00", "2024-011-05", "2024-0101-05", "2024-122-05", "2024-01-001",
                "2023-02-31", "2024-02-30", "2023-04-31", "2023-04-32", "2023-13-01", "2023-00-10", "2023-01-00",
                "2024-01-31 24:00:00", "2024-12-31 24:00:00", "2024-01-31 24:00:01", "2024-01-31 24:00:00.0", "2024-01-31 23:60:00",
                "2024-01-31 23:59:60", "2024-01-31 12::", "2024-01-31 12::30", "2024-01-31 12::.5", "2024-01-31 :05:06",
                "2024-01-31 ::", "2024-01-31 ::.", "2024-01-31 12:30:", "2024--", "2024-5-", "2024-05-", "2024-- 12:00:00",
                "2024-- 24:00:00", "2024-5- 24:00", "2024-5- 24:00:00", "2024-13-", "0000-01-01", "0001-01-01", "9999-12-31 23:59:59.999999999",
                "+10000-01-01", "+2024-01-01", "-2024-01-01", "20245-01-01", "+999999999-12-31", "+999999999-12-31 24:00:00",
                "+1000000000-01-01", "+0000012345-01-01", "+00000000000000000001-01-01", "2024-01-31 -1:00:00", "2024-01--1",
                "2024--1-01", "2024-01-31 1:2:3.4", "2024-01-31 01:02:03.000000000", "2024-1-31 01:2:03", "2024-01-31 001:02:03",
                "2024-01-31 011:02:03", "2024-01-31 12:000:00", "2024-01-31 12:00:0000000000000000000", "２０２４-01-01", "2024-01-31\t12:00:00",
                "1582-10-10", "1969-12-31 23:59:59.999", "2024-01-31 12:34:56.123", "2024-1-1 0:0:0.0", "", "-", "2024", "2024-",
                "2024-01", "2024-01-31 12", "2024-01-31 12:34", "2024-02-29 24:00:00", "2023-02-29", "1900-02-29", "2000-02-29"));
        Random rnd = new Random(20261201);
        String[][] years = {{"2024", "1999", "0001", "9999", "+12345", "2023", "2000", "1900"}, {"+0002024", "0000", "12345", "-2024"}};
        String[][] days = {{"1", "01", "12", "2", "02", "28", "29", "30", "31", "011", "9"}, {"13", "0", "00", "-1", "", "001", "32", "031", "-0"}};
        String[][] clock = {{"0", "00", "12", "23", "7", "59", "5", "007"}, {"24", "-1", "", "023", "60", "+1"}};
        String[][] fractions = {{"", ".5", ".123456789", ".000", ".999999"}, {".", ".1234567891", "..1", ".0"}};
        String[] junk = {" ", "x", "-", ":", "0", "T", "\u00e9"};
        for (int i = 0; i < 4000; i++) {
            StringBuilder b = new StringBuilder(pick(rnd, years)).append('-').append(pick(rnd, days)).append('-').append(pick(rnd, days));
            if (rnd.nextInt(4) > 0) {
                b.append(' ').append(pick(rnd, clock)).append(':').append(pick(rnd, clock)).append(':').append(pick(rnd, clock))
                        .append(pick(rnd, fractions));
            }
            if (rnd.nextInt(8) == 0) {
                b.insert(rnd.nextInt(b.length() + 1), junk[rnd.nextInt(junk.length)]);
            }
            in.add(b.toString());
        }
        StringBuilder out = new StringBuilder();
        for (String s : in) {
            StringBuilder hex = new StringBuilder();
            for (byte x : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                hex.append(String.format("%02x", x & 0xff));
            }
            String r;
            try {
                TimestampData t = DateTimeUtils.parseTimestampData(s, 9);
                r = t.getMillisecond() + " " + t.getNanoOfMillisecond();
            } catch (RuntimeException e) {
                r = "error";
            }
            out.append(hex.length() == 0 ? "-" : hex).append('\t').append(r).append('\n');
        }
        System.out.print(out);
    }
}
