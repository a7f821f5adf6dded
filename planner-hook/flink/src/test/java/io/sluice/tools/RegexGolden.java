package io.sluice.tools;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Prints what java.util.regex makes of hand-picked and random patterns on a set of strings, for
 * the golden file of javacompat/javaregex's test:
 * {@code bin/sluice-java io.sluice.tools.RegexGolden > javacompat/javaregex/testdata/java.txt}.
 * Strings are written as hex of their UTF-8 bytes ({@code -} when empty). Lines:
 * {@code P <pattern> invalid} or {@code P <pattern> <groupCount>}, then for a valid pattern one
 * line per input: {@code I <input> <find: 0 or 1> <group 0..n: hex, or ~ when null>
 * <replaceAll(input, "<>")>}, as Flink's REGEXP, REGEXP_EXTRACT and REGEXP_REPLACE call them.
 */
public final class RegexGolden {
    static String hex(String s) {
        if (s.isEmpty()) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            b.append(String.format("%02x", x & 0xff));
        }
        return b.toString();
    }

    public static void main(String[] args) {
        List<String> patterns = new ArrayList<>(List.of(
                "", "a", "a*", "a+b", "^a", "a$", "^a$", "^$", "$", "^", ".", ".*", "a.c", "\\d+", "\\w+", "\\s", "\\S+", "[ab]+",
                "[^a]", "[a-c]+", "(a)(b)?", "(a|b)+", "(?:ab)+", "a{2}", "a{1,2}", "a{2,}", "a*?b", "(a*)(b*)", "x|", "\\.", "[.]",
                "a\\$", "\\Q.*\\E", "\\Qa\\E*", "[\\s]", "[\\d-]", "[a-]", "[-a]", "\\t", "\\x41", "\\x{1F600}", "😀", "é.", "(é)|(😀)",
                "\\e", "[\\x41-Z]", "[\\w-a]", "[a-\\d]", "a{,2}", "a{2}{3}", "a**", "a*+", "(?=a)", "(?i)a", "\\b", "\\1", "(a)\\1",
                "[[:alpha:]]", "[a&&b]", "\\p{L}", "\\v", "\\h", "\\R", "\\u0041", "\\0101", "a{1001}", "(?<n>a)", "\\z", "a\\z", "\\Aa",
                "a|^b", "a|b$", "(a$)", "\\Z", "]", "}", "{", "a{", "[]a]", "[^]a]", "[a", "(a", "a)", "\\", "\\ ", "\\#", "\\-", "\\_",
                "\\&", "[\\.-]", "[a-z-0]", "[^-a]", "\\r\\n", "(\\n)?$", "\r$", "a\\s*$", "[^\\n]+", "\\W", "\\D", "[\\W\\d]",
                "[a\\-z]", "[!\\-~]+", "\\-", "a{02}", "a{01,03}", "a{0,}", "(?s:a.b)", "(?s:.)+", "(?s:a(b.)c).", "(?s)a.b",
                "[\\p{Alpha}]+", "\\p{Upper}\\p{Lower}", "[^\\p{Alnum}]", "[\\p{Alpha}-]", "[\\p{Alpha}-z]", "\\p{Digit}+",
                // '^' inside a pattern (Nexmark q21's REGEXP_EXTRACT).
                "(&|^)channel_id=([^&]*)", "(^|,)a", "a(^b)?", "(x|^)+y"));
        String[] tokens = {"a", "b", ".", "\\d", "\\w", "\\s", "\\S", "[ab]", "[^a]", "[a-c]", "*", "+", "?", "*?", "{2}", "{1,2}", "(",
            ")", "(?:", "|", "^", "$", "\\.", "x", "é", "😀", "\\n", "[\\s]", "\\Q.\\E", "\\t", "\\r"};
        Random rnd = new Random(20261201);
        for (int i = 0; i < 600; i++) {
            StringBuilder b = new StringBuilder();
            int n = 1 + rnd.nextInt(6);
            for (int k = 0; k < n; k++) {
                b.append(tokens[rnd.nextInt(tokens.length)]);
            }
            patterns.add(b.toString());
        }
        String[] inputs = {"", "a", "ab", "aab", "ba\n", "a\r\n", "a\r", "a\u0085", "a\u2028", "\n", "x.y", "1 2\t3", "é😀a", "abcabc",
            "a\n\nb", "AB", "x-y", "\u000B", "a\u000Bb", "😀😀", "a.b.c", "bbb", "\r\n", "a\n", "aa\r\n\r\n", "c\u2029",
            "channel_id=7&q=1", "https://x/item.htm?query=1&channel_id=42", "a,a,b"};
        StringBuilder out = new StringBuilder();
        for (String p : patterns) {
            Pattern compiled;
            try {
                compiled = Pattern.compile(p);
            } catch (PatternSyntaxException e) {
                out.append("P ").append(hex(p)).append(" invalid\n");
                continue;
            }
            int groups = compiled.matcher("").groupCount();
            out.append("P ").append(hex(p)).append(' ').append(groups).append('\n');
            for (String in : inputs) {
                Matcher m = compiled.matcher(in);
                boolean found = m.find(0);
                out.append("I ").append(hex(in)).append(' ').append(found ? 1 : 0);
                m = compiled.matcher(in);
                boolean f = m.find();
                for (int g = 0; g <= groups; g++) {
                    String v = f ? m.group(g) : null;
                    out.append(' ').append(v == null ? "~" : hex(v));
                }
                out.append(' ').append(hex(in.replaceAll(p, Matcher.quoteReplacement("<>")))).append('\n');
            }
        }
        System.out.print(out);
    }
}
