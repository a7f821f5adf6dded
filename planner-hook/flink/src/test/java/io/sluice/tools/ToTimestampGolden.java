package io.sluice.tools;

import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.utils.DateTimeUtils;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Prints what Flink's DateTimeUtils#parseTimestampData(String, String) (TO_TIMESTAMP(s, format))
 * makes of strings under java.time patterns, in a JVM whose default zone is UTC (any fixed offset
 * gives the same file), for the golden file of javacompat/javatime's test:
 * {@code SLUICE_JAVA_OPTS="-Xmx1g -Duser.timezone=UTC -Duser.language=en -Duser.country=US" bin/sluice-java io.sluice.tools.ToTimestampGolden > javacompat/javatime/testdata/to_timestamp.txt}
 * (month and day names, AM/PM and eras in the English format locale).
 * Strings are the hex of their UTF-8 bytes ({@code -} when empty). Lines: {@code P <pattern>}
 * and one {@code I <input> <result>} per string, the result being the TIMESTAMP(3)'s epoch
 * milliseconds, or {@code N} where Flink's generated code gives NULL (parseTimestampData
 * returns null or throws). With the argument {@code digits}, it prints instead the runs of chars
 * of the Basic Multilingual Plane that Character#digit(c, 10) reads as digits, as
 * {@code D <lo> <hi>} in hex, for javacompat/javatime's test:
 * {@code bin/sluice-java io.sluice.tools.ToTimestampGolden digits > javacompat/javatime/testdata/java_digits.txt}.
 */
public final class ToTimestampGolden {
    private static final String[] PATTERNS = {
        "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd", "yyyyMMddHHmmss", "yyyyMMdd", "yyyy-MM-dd HH:mm:ss.SSS",
        "yyyy-MM-dd'T'HH:mm:ss", "dd/MM/yyyy", "HH:mm", "MM-dd", "yy-M-d H:m:s", "yyyy", "y-M-d", "yyy",
        "yyyyy-MM", "SSS", "ss.SSSSSSSSS", "yyyyMMddHHmmssSSS", "HH:mm:ss", "H", "yyyy-MM-dd HH", "yyyy-MM-dd HH:ss",
        "MMddyyyy", "dd.MM.yy", "yyyy yyyy", "d/M/y", "HHmm", "yyyy-MM-dd HH:mm:ss.S", "''yyyy''",
        "yyyy'年'MM'月'dd'日'", "yyMMdd", "yyyy-MM-dd HH:mm:ss.SSSSSS", "M/d/yyyy H:mm", "yyyy-MM-dd HH:mm:ss.SSSSSSSSS",
        "yyyy-MM", "yyyy-dd", "MM", "dd", "ss", "mm:ss", "HH:ss", "yyyy-MM-dd HH:mm:ssSSS", "yyyyMMddHH", "y", "yyyyy",
        "HH:mm:ss.SSS'Z'", "ss.S'x'", "SSS-", "yyyy-MM-dd HH:00:ss", "yyyy-MM-dd HH:mm:00.SSS", "yyyyyyyyyyyyyyyyyyy",
        "yyyy-MM-dd HH:mm", "Myy", "Hyy", "SSSHH", "MMdd", "yyyyMMd",
    };

    /** Patterns with names (English), AM/PM, eras, clock hours and proleptic years. */
    private static final String[] TEXT_PATTERNS = {
        "dd MMM yyyy", "d MMMM yyyy", "MMMM d, yyyy HH:mm", "EEE, dd MMM yyyy HH:mm:ss", "EEEE, MMMM d, yyyy",
        "yyyy-MM-dd hh:mm a", "yyyy-MM-dd hh:mm:ss a", "yyyy-MM-dd a", "a", "h a", "hh:mm", "KK:mm a", "K:mm a", "kk:mm", "k",
        "yyyy-MM-dd HH:mm a", "yyyy-MM-dd EEE", "EEE yyyy-MM-dd HH:mm", "E", "EEEE", "yyyy-MM EEE", "G yyyy-MM-dd",
        "yyyy-MM-dd GGGG", "yyyy-MM-dd G", "G", "LLL yyyy", "LLLL", "MMM", "MMMdd", "ddMMMyyyy", "yyyyMMMdd", "uuuu-MM-dd",
        "uuuu-MM-dd G", "yyyy-MM-dd uuuu", "uu-MM-dd", "u", "hh:mm:ss.SSS a", "yyyy-MM-dd HH:mm:ss a", "yyyy-MM-dd hh a",
        "yyyy-MM-dd hh:ss a", "yyyyMMddhhmma", "MMM dd HH:mm:ss yyyy", "yyyy-MM-dd kk:mm:ss", "yyyy-MM-dd KK:mm:ss", "L/d/yyyy",
        "yyyy-MM-dd'T'HH:mm:ss EEEE", "EEEEyyyy", "MMMMyyyy", "yyyy-MM-dd EEE HH", "a yyyy-MM-dd", "mm a", "yyyy-MM-dd HH:mm:ss EE",
        "G y", "GGG uuuu-MM-dd", "yyyy-MM-dd k a", "K H:ss", "K k:ss",
    };

    /** Strings for {@link #TEXT_PATTERNS}: names in other cases and spellings, conflicts, edges. */
    private static final String[] TEXT_CRAFTED = {
        "05 Jan 2024", "5 January 2024", "05 jan 2024", "05 JAN 2024", "05 Sept 2024", "05 Sep 2024", "January 5, 2024 10:20",
        "Fri, 05 Jan 2024 10:20:30", "Mon, 05 Jan 2024 10:20:30", "Friday, January 5, 2024", "2024-01-05 12:00 AM",
        "2024-01-05 12:00 PM", "2024-01-05 00:30 AM", "2024-01-05 13:00 PM", "2024-01-05 11:59 pm", "2024-01-05 AM",
        "2024-01-05 PM", "AM", "PM", "am", "12 AM", "0 PM", "13 PM", "11:30 PM", "00:30", "12:30", "24:00", "0:00", "01:00", "Fri",
        "Friday", "Sun", "Sunday", "Mon", "2024-01-05 Fri", "2024-01-05 Sat", "Fri 2024-01-05 10:20", "AD 2024-01-05",
        "BC 2024-01-05", "2024-01-05 Anno Domini", "2024-01-05 Before Christ", "2024-01-05 AD", "2024-01-05 BC",
        "0000-01-01 BC", "0000-01-01 AD", "0001-01-01 BC", "AD", "BC", "Jan 2024", "January", "Jan", "May", "Jan05", "05Jan2024",
        "2024Jan05", "2024Feb30", "2023Feb29", "-0044-03-15", "0044-03-15 BC", "-0044-03-15 BC", "2024-02-29 10:20:30 PM",
        "2024-01-05 10:20:30 PM", "2024-01-05 22:20:30 PM", "2024-01-05 22:20:30 AM", "2024-01-05 10 PM", "2024-01-05 10:30 PM",
        "202401051020PM", "202401050020AM", "202401051220AM", "Jan 05 10:20:30 2024", "2024-01-05 24:00:00", "2024-01-05 00:00:00",
        "2024-01-05 12:00:00", "1/5/2024", "2024-01-05T10:20:30 Friday", "2024-01-05T10:20:30 Fri", "Friday2024", "January2024",
        "2024-12-31 24:00 PM", "2024-12-31 24 PM", "2024-12-31 24 AM", "2024-01-05 12:00 Am", "2024-01-05 Fri 24",
        "2024-01-04 Thu 24", "AM 2024-01-05", "PM 2024-01-05", "30 AM", "30 PM", "2024-01-05 10:20:30 Fr", "2024-01-05 10:20:30 Fri",
        "AD 2024", "BC 2024", "BC 1", "AD 0", "BC 1000000000", "AD 1000000000", "AD 2024-01-05", "BCE 2024-01-05",
        "2024-01-05 Anno  Domini", "Anno Domini", "Before Christ", "Jun", "June", "Junе", "Sept", "September", "Thursday",
        "Thur", "JANUARY", "janvier", "2024-01-05 2024", "2024-01-05 2025", "24-01-05", "-5", "0", "99999", "12 PM", "12 pm",
        "2024-01-05 0 AM", "2024-01-05 1 PM", "2024-01-05 23 PM", "00:00 AM", "11:00 AM", "12:00 AM", "1:05 PM", "12:60 PM",
        "2024-01-05 11:00:00", "2024-01-05 11:00:60", "2024-01-05 00:00:00 Sat", "2024-01-05 10:20:30 Fri",
        "-9223372036854775808 5:10", "-9223372036854775809 5:10", "9223372036854775808 5:10", "9223372036854775807 5:10",
        "-922337203685477580 5:10", "-0 5:10", "12 24:10",
    };

    private static final String[] CRAFTED = {
        "", " ", "2024-01-05 10:20:30", "2024-01-05", "2024-1-5 1:2:3", "1999-9-10 05:20:10", "1999-9-10", " 2024-01-05 ",
        "2024-01-05 10:20:30.123", "2024-01-05 10:20:30.123456789", "2024-01-05 10:20:30.1234567891", "2024-01-05 10:20:30.",
        "2024-02-31 10:00:00", "2023-02-29 00:00:00", "2024-02-31", "2024-04-31", "2024-13-01 00:00:00", "2024-00-01 00:00:00",
        "2024-01-32 00:00:00", "2024-01-05 24:00:00", "2024-12-31 24:00:00", "2024-01-05 25:61:61", "2024-01-05 -1:00:00",
        "2024-01-05 +1:+2:+3", "+999-01-01 00:00:00", "-999-01-01 00:00:00", "0000-01-01 00:00:00", "0000-01-01", "0001-01-01",
        "1000-02-29 00:00:00", "1500-02-29", "1582-10-04 00:00:00", "1582-10-05 00:00:00", "1582-10-10 12:00:00",
        "1582-10-14 23:59:59", "1582-10-15 00:00:00", "1582-01-01 00:00:00", "1582-12-31 00:00:00", "1581-12-31 240:00:00",
        "1583-01-01 -48:00:00", "1582-10-15 -1:00:00", "1200-03-01 00:00:00", "0100-02-29", "9999-12-31 23:59:59.999",
        "٢٠٢٤-٠١-٠٥ ١٠:٢٠:٣٠", "２０２４-０１-０５", "2024-01-05 10:20:30.٥", "2024-01-05 10:20:30.-5", "2024-01-05T10:20:30",
        "2024-01-05 10:20", "2024-01-05 10:20:30 ", "2024-01-05  10:20:30", "2024-01-05 10::30", "2024-01-05 :20:30",
        "2024--05 10:20:30", "24-01-05 10:20:30", "20240-01-05 10:20:30", "2024-001-05 10:20:30", "2024-01-005",
        "20240105102030", "20240105", "202401051020301", "2024010510203", "20240105102030123", "+120240105", "+2024-01-05",
        "-2024-01-05", "+12024-01-05 00:00:00", "12024-01-05 00:00:00", "05/01/2024", "5/1/2024", "10:20", "1:2", "24:00",
        "01-05", "02-29", "02-30", "13-01", "24-1-5 1:2:3", "99-12-31 23:59:59", "2024", "+2024", "12024", "+12024", "-2024",
        "0", "-0", "+0", "2024 2024", "2024 2025", "123", "12", "1234567890123456789", "12345678901234567890", "9999999999",
        "1000000000", "999999999", "5", "05", "59.123456789", "59.12345678", "60.000000000", "'2024'", "2024年01月05日",
        "240105", "991231", "2024-01-05 10:20:30.1", "2024-01-05 10:20:30.12X", "2024-01-05 10:20:30.12", "2024-01-05 10:20:3012",
        "2024-01-05 10:20:30123", "2024-01-05 10:20:301", "1/5/2024 9:05", "2024-01-05 10", "2024-01-05 24", "2024-01-05 10:30",
        "2024-05", "2024-13", "2024-31", "2024-02", "12", "13", "00", "32", "30:59", "60:00", "24:30", "10:60", "2024010510",
        "2024010524", "\t2024-01-05\t", "2024-01-05\u000010:20:30", "2024-01-05 10:20:30\u0000", "2147483648-01-01 00:00:00",
        "2024-01-05 2147483647:00:00", "2024-01-05 2147483648:00:00", "2024-01-05 0:0:2147483647", "2024-01-05 10:20:30.000000000",
        "1970-01-01 00:00:00", "1969-12-31 23:59:59.999", "2024-1-5 10:20:30.5", "2024-1-05", "2024-01-5", "2024-1-5",
        "10:20:30.12Z", "10:20:30.123Z", "30.x", "30.5x", "12--", "123-", "2024-01-05 25:00:10", "2024-01-05 10:00:61",
        "2024-01-05 10:00:10", "2024-01-05 10:60:00.000", "2024-01-05 24:00:00.000", "2024-01-05 10:20:00.123",
        "+999999999-12-31 24:00", "+999999999-12-31 23:59", "+999999999-12-31 24", "1224", "12245", "524", "1299", "12324",
        "12312", "0105", "105", "10500", "2024015", "20240105", "2024011", "12310", "1231024", "0000000000000000001",
    };

    public static void main(String[] args) {
        if (!java.util.TimeZone.getDefault().toZoneId().getRules().isFixedOffset()) {
            throw new IllegalStateException("run with a fixed-offset zone, e.g. -Duser.timezone=UTC");
        }
        if (args.length > 0 && args[0].equals("digits")) {
            int lo = -1;
            for (int c = 0; c <= 0x10000; c++) {
                boolean digit = c < 0x10000 && Character.digit((char) c, 10) >= 0;
                if (digit && lo < 0) {
                    lo = c;
                } else if (!digit && lo >= 0) {
                    System.out.printf("D %x %x%n", lo, c - 1);
                    lo = -1;
                }
            }
            return;
        }
        if (!Locale.getDefault(Locale.Category.FORMAT).getLanguage().equals("en")) {
            throw new IllegalStateException("run with an English format locale: -Duser.language=en -Duser.country=US");
        }
        Random rnd = new Random(11);
        for (String p : PATTERNS) {
            Set<String> inputs = new LinkedHashSet<>(List.of(CRAFTED));
            inputs.addAll(formatted(p, rnd, 6));
            if (p.equals("yyyy-MM-dd HH:mm:ss") || p.equals("yyyy-MM-dd")) {
                inputs.addAll(lenient(rnd));
            }
            print(p, inputs);
        }
        Random textRnd = new Random(12);
        for (String p : TEXT_PATTERNS) {
            Set<String> inputs = new LinkedHashSet<>(List.of(TEXT_CRAFTED));
            inputs.addAll(formatted(p, textRnd, 9));
            print(p, inputs);
        }
    }

    private static void print(String pattern, Set<String> inputs) {
        System.out.println("P " + RegexGolden.hex(pattern));
        for (String in : inputs) {
            String r;
            try {
                TimestampData t = DateTimeUtils.parseTimestampData(in, pattern);
                r = t == null ? "N" : Long.toString(t.getMillisecond());
            } catch (RuntimeException e) {
                r = "N";
            }
            System.out.println("I " + RegexGolden.hex(in) + " " + r);
        }
    }

    /**
     * Strings for the Timestamp#valueOf and Date#valueOf fallback: single-digit and overflowing
     * fields, years around the Julian-Gregorian cutover and before Christ.
     */
    private static List<String> lenient(Random rnd) {
        List<String> out = new ArrayList<>(List.of("0000-01-01 -24:00:00", "0000-02-29 00:00:00", "0000-03-01 -24:00:00",
                "0004-02-29", "0000-12-31 23:59:59", "0001-01-01 -1:00:00", "1582-10-04 24:00:00", "1582-10-15 -24:00:00"));
        int[] years = {0, 1, 2, 3, 4, 99, 100, 1000, 1500, 1580, 1581, 1582, 1583, 1584, 1600, 1900, 1970, 2000, 2024, 9999};
        for (int i = 0; i < 150; i++) {
            String date = String.format("%04d-%d-%d", years[rnd.nextInt(years.length)], rnd.nextInt(14), rnd.nextInt(33));
            if (rnd.nextInt(4) == 0) {
                out.add(date);
                continue;
            }
            String time = String.format("%d:%d:%d", rnd.nextInt(400) - 100, rnd.nextInt(200) - 50, rnd.nextInt(200) - 50);
            if (rnd.nextInt(3) == 0) {
                time += "." + rnd.nextInt(1_000_000_000);
            }
            out.add(date + " " + time);
        }
        return out;
    }

    /**
     * Random date-times printed with the pattern, some of them altered: the first six
     * alterations touch digits and punctuation, three more (with {@code kinds} 9) names.
     */
    private static List<String> formatted(String pattern, Random rnd, int kinds) {
        DateTimeFormatter f = DateTimeFormatter.ofPattern(pattern);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int year = rnd.nextInt(10) == 0 ? rnd.nextInt(30000) - 5000 : 1900 + rnd.nextInt(200);
            LocalDateTime t = LocalDateTime.of(year, 1 + rnd.nextInt(12), 1 + rnd.nextInt(28), rnd.nextInt(24),
                    rnd.nextInt(60), rnd.nextInt(60), rnd.nextInt(1_000_000_000));
            String s;
            try {
                s = f.format(t);
            } catch (RuntimeException e) {
                continue;
            }
            switch (rnd.nextInt(kinds)) {
                case 0 -> s = s.replaceFirst("0(\\d)", "$1"); // a padding zero dropped
                case 1 -> s = s + rnd.nextInt(10); // a digit more
                case 2 -> s = s.length() > 1 ? s.substring(0, s.length() - 1) : s; // a digit less
                case 3 -> {
                    int at = rnd.nextInt(s.length() + 1);
                    s = s.substring(0, at) + "+-:. x".charAt(rnd.nextInt(6)) + s.substring(at);
                }
                case 6 -> s = s.toLowerCase(Locale.ROOT); // names in lower case
                case 7 -> s = s.contains("AM") ? s.replace("AM", "PM") : s.replace("PM", "AM"); // the other half day
                case 8 -> s = s.replaceFirst("Mon|Tue|Wed|Thu|Fri|Sat|Sun", "Wed"); // a day of the week that may not fit
                default -> {
                    // as printed
                }
            }
            out.add(s);
        }
        return out;
    }
}
