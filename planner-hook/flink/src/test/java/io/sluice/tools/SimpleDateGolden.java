package io.sluice.tools;

import org.apache.flink.table.utils.DateTimeUtils;

import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TimeZone;

/**
 * Prints what Flink's DateTimeUtils#unixTimestamp(String, String, TimeZone) (UNIX_TIMESTAMP(s,
 * format)) in UTC and in GMT+05:30, and DateTimeUtils#parseDate(String, String) (TO_DATE(s,
 * format)) make of strings under SimpleDateFormat patterns, for the golden file of exec/expr's
 * test, in an English locale:
 * {@code SLUICE_JAVA_OPTS="-Xmx1g -Duser.language=en -Duser.country=US" bin/sluice-java io.sluice.tools.SimpleDateGolden > exec/expr/testdata/simple_date.txt}.
 * Strings are the hex of their UTF-8 bytes ({@code -} when empty). Lines: {@code P <pattern>},
 * then {@code I <input> <seconds in UTC> <seconds in GMT+05:30> <epoch day>} per string;
 * before them, sections for printing (see {@link #printing}).
 */
public final class SimpleDateGolden {
    private static final String[] PATTERNS = {
        "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd", "yyyyMMdd", "yyyyMMddHHmmss", "yyyy/MM/dd", "dd-MM-yyyy'T'HH:mm:ss.SSS",
        "yyyy-M-d H:m:s", "yyy-MM-dd", "yyyyy-MM-dd", "dd/MM/yyyy", "yyyy-MM-dd HH:mm:ss.SSS", "yyyyMMddHHmmssSSS",
        "MM/dd/yyyy HH:mm", "yyyy-MM-dd'T'HH:mm:ss'Z'", "yyyy年MM月dd日", "yyyy.MM.dd", "yyyyMMdd HHmmss", "dd MM yyyy",
        "yyyy-MM-dd HH", "yyyyMd", "dMyyyy", "yyyy''MM''dd", "yyyy''''MM-dd", "yyyy'''MM'''dd",
        "'y'''yyyy-MM-dd'x'",
    };

    private static final String[] CRAFTED = {
        "", " ", "2024-01-05 10:20:30", "2024-01-05", "2024-1-5 1:2:3", " 2024-01-05 10:20:30", "2024-01-05 10:20:30junk",
        "2024-01-05  10:20:30", "2024-01-05\t10:20:30", "2024-01-05 10:20", "2024-13-45 25:61:61", "2024-00-00 00:00:00",
        "-2024-01-01 00:00:00", "2024--01-01 00:00:00", "2024-01--01 00:00:00", "0000-01-01 00:00:00", "0001-01-01 00:00:00",
        "-0001-01-01 00:00:00", "1582-10-10 00:00:00", "1582-10-04 23:59:59", "1582-10-15 00:00:00", "1582-10-05 12:00:00",
        "1583-01-01 -2400:00:00", "1581-12-31 240:00:00", "1000-02-29 00:00:00", "1900-02-29 00:00:00", "2000-02-29 00:00:00",
        "4294969320-01-05 00:00:00", "9223372036854775807-01-01 00:00:00", "9223372036854775808-01-01 00:00:00",
        "-9223372036854775808-01-01 00:00:00", "99999999999999999999-01-01 00:00:00", "2147483647-12-31 23:59:59",
        "-2147483648-01-01 00:00:00", "2024-2147483647-01 00:00:00", "2024-01-2147483647 00:00:00", "2024-01-05 2147483647:00:00",
        "NaN-01-05 10:20:30", "2024-NaN-05 10:20:30", "∞-01-05 10:20:30", "-∞-01-05 10:20:30", "2024E0-01-05 10:20:30",
        "2E3-01-05 10:20:30", "20E-1-01-05 10:20:30", "2024E-01-05", "2024E", "1E10-01-01 00:00:00", "15E-1-01-01 00:00:00",
        "2024.5-01-05 10:20:30", "2,024-01-05 10:20:30", "+2024-01-05 10:20:30", "٢٠٢٤-٠١-٠٥ ١٠:٢٠:٣٠", "２０２４-０１-０５",
        "20240105", "2024010", "202401051", "20240105102030", "2024010510203", "202401051020301", "20240105102030123",
        "2024 01 05", "20240105 102030", "2024/01/05", "2024.01.05", "05-01-2024T10:20:30.123", "05-01-2024T10:20:30.5",
        "05/01/2024", "5/1/2024", "01/05/2024 10:20", "1/5/2024 9:5", "2024-01-05T10:20:30Z", "2024年01月05日", "2024'01'05",
        "2024-01-05 10:20:30.123", "2024-01-05 10:20:30.1", "2024-01-05 10:20:30.-5", "2024-01-05 10:20:30.5000",
        "1969-12-31 23:59:59", "1969-12-31 23:59:59.999", "1970-01-01 00:00:00", "1970-01-01 00:00:01", "2024-1-5",
        "05 01 2024", "5 1 2024", "2024-01-05 1", "202415", "1512024", "20241231", "31122024", "2024 -01-05 10:20:30",
        "2024- 01-05 10:20:30", "2024-01-05 10:20: 30", "2024-01-05 10:20:\t30", "00000002024-01-05 10:20:30",
        "2024-0000000001-05 10:20:30", "2024-01-05 10:20:30\u0000", "\t2024-01-05 10:20:30",
        "2024''01-05", "2024'01-05", "2024'01'05", "y'2024-01-05x", "-292269054-12-02 16:47:04.192",
        "-292269054-12-02 16:47:04.193",
    };

    public static void main(String[] args) {
        TimeZone utc = TimeZone.getTimeZone("UTC");
        TimeZone india = TimeZone.getTimeZone("GMT+05:30");
        Random rnd = new Random(5);
        printing(rnd, utc, india);
        for (String p : PATTERNS) {
            System.out.println("P " + RegexGolden.hex(p));
            Set<String> inputs = new LinkedHashSet<>(List.of(CRAFTED));
            inputs.addAll(formatted(p, rnd));
            for (String in : inputs) {
                System.out.println("I " + RegexGolden.hex(in) + " " + DateTimeUtils.unixTimestamp(in, p, utc) + " "
                        + DateTimeUtils.unixTimestamp(in, p, india) + " " + DateTimeUtils.parseDate(in, p));
            }
        }
    }

    private static final String[] PRINT_PATTERNS = {
        "yyyy-MM-dd HH:mm:ss", "yy/M/d", "yyyyMMddHHmmssSSS", "H:m:s.S", "d'T'yyyy", "y-yyy-yyyyy", "SSSS ss.SS", "'q''uote' MM''",
    };

    /**
     * FROM_UNIXTIME(n, format) in UTC, GMT+05:30 and America/New_York and DATE_FORMAT(string,
     * format) in UTC and GMT+05:30: lines {@code F <pattern>}, then {@code N <seconds> <three
     * strings>} and {@code S <input> <two strings>} ({@code ~} for NULL).
     */
    private static void printing(Random rnd, TimeZone utc, TimeZone india) {
        TimeZone ny = TimeZone.getTimeZone("America/New_York");
        List<Long> seconds = new ArrayList<>(List.of(0L, -1L, 1L, 59L, 86_399L, -86_400L, 1_704_450_030L, -12_219_292_800L,
                -12_219_292_801L, -62_135_596_800L, -62_135_596_801L, -62_167_219_200L, 253_402_300_799L, 253_402_300_800L,
                1_710_054_000L, 1_710_055_800L, 1_730_613_600L, -2_208_988_800L, Long.MAX_VALUE / 1000, Long.MIN_VALUE / 1000,
                Long.MAX_VALUE, 9_223_372_036_854_776L));
        for (int i = 0; i < 80; i++) {
            seconds.add(rnd.nextInt(4) == 0 ? rnd.nextLong() % 100_000_000_000_000L : rnd.nextLong() % 4_000_000_000L);
        }
        String[] strings = {"2024-01-05 10:20:30", "2024-1-5 1:2:3 trailing", "0000-01-01 00:00:00", "1582-10-10 12:00:00", "abc", "",
            "2024-13-45 25:61:61", "99999-01-01 00:00:00", " 2024-01-05 10:20:30", "1969-12-31 23:59:59"};
        for (String p : PRINT_PATTERNS) {
            System.out.println("F " + RegexGolden.hex(p));
            for (long n : seconds) {
                System.out.println("N " + n + " " + RegexGolden.hex(DateTimeUtils.formatUnixTimestamp(n, p, utc)) + " "
                        + RegexGolden.hex(DateTimeUtils.formatUnixTimestamp(n, p, india)) + " "
                        + RegexGolden.hex(DateTimeUtils.formatUnixTimestamp(n, p, ny)));
            }
            for (String in : strings) {
                String u = DateTimeUtils.formatTimestampString(in, "yyyy-MM-dd HH:mm:ss", p, utc);
                String i = DateTimeUtils.formatTimestampString(in, "yyyy-MM-dd HH:mm:ss", p, india);
                System.out.println("S " + RegexGolden.hex(in) + " " + (u == null ? "~" : RegexGolden.hex(u)) + " "
                        + (i == null ? "~" : RegexGolden.hex(i)));
            }
        }
    }

    /** Random instants printed with the pattern (SimpleDateFormat, UTC), some of them altered. */
    private static List<String> formatted(String pattern, Random rnd) {
        SimpleDateFormat f = new SimpleDateFormat(pattern);
        f.setTimeZone(TimeZone.getTimeZone("UTC"));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long ms = rnd.nextInt(10) == 0 ? rnd.nextLong() % 400_000_000_000_000L : (rnd.nextLong() % 8_000_000_000_000L);
            String s = f.format(new Date(ms));
            switch (rnd.nextInt(6)) {
                case 0 -> s = s.replaceFirst("0(\\d)", "$1");
                case 1 -> s = s + rnd.nextInt(10);
                case 2 -> s = s.length() > 1 ? s.substring(0, s.length() - 1) : s;
                case 3 -> {
                    int at = rnd.nextInt(s.length() + 1);
                    s = s.substring(0, at) + "+-:. x\t".charAt(rnd.nextInt(7)) + s.substring(at);
                }
                default -> {
                    // as printed
                }
            }
            out.add(s);
        }
        return out;
    }
}
