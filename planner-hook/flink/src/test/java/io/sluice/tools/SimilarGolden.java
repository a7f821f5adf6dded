package io.sluice.tools;

import org.apache.flink.table.functions.SqlLikeUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Prints what Flink's SqlLikeUtils makes of SIMILAR TO patterns, for the golden file of
 * javacompat/javaregex's SIMILAR TO test:
 * {@code bin/sluice-java io.sluice.tools.SimilarGolden > javacompat/javaregex/testdata/similar.txt}.
 * Strings are written as hex of their UTF-8 bytes ({@code -} when empty, {@code ~} for no
 * escape). Lines: {@code P <pattern> <escape> <java regex, or !>} (! when Flink rejects the
 * pattern), then for an accepted pattern one line per input: {@code I <input> <0 or 1>} as
 * {@code SqlLikeUtils#similar} answers, or {@code I <input> !} when it throws.
 */
public final class SimilarGolden {
    public static void main(String[] args) {
        List<String[]> patterns = new ArrayList<>();
        for (String p : new String[] {"", "a", "a%", "%a", "_", "__", "%", "a_c", "a.c", "(a|b)%", "[a-c]_", "[^a-c]%", "[[:DIGIT:]]+",
                "[[:ALPHA:]][[:alnum:]]*", "[[:UPPER:][:lower:]]", "[[:SPACE:]]", "[[:WHITESPACE:]]+", "[[:bogus:]]", "a*b+c?", "(ab){2}",
                "a{1,2}", "a$", "\\", "a\\b", "^a", "a^", "[a", "a]", "[a_b]", "[a%]", "[a-]", "[-a]", "a|", "|a", "(a", "a)", "é_", "😀%",
                "%😀", "[é😀]", "a\u0000b", "x-y", "x+y", "[a-c][^x]?", "(a|b|)c", "%(a|b)%", "{", "a{", "a}", "%[ab]{2}%"}) {
            patterns.add(new String[] {p, null});
        }
        for (String[] pe : new String[][] {{"a!%", "!"}, {"!_a", "!"}, {"a!!", "!"}, {"a!", "!"}, {"!a", "!"}, {"a|%", "|"}, {"a||", "|"},
                {"|a", "|"}, {"[!]]", "!"}, {"[!a]", "!"}, {"[!-]", "!"}, {"a::", ":"}, {"[[:DIGIT:]]", ":"}, {"a%", "ab"}, {"a%", ""},
                {"a\\%", "\\"}, {"a\\\\b", "\\"}, {"a\\b", "\\"}, {"%$%", "$"}, {"a$_", "$"}, {"a__", "_"}, {"a_%", "_"}, {"[a_]]", "_"},
                {"x%y", "%"}, {"x%%", "%"}, {"a😀", "😀"},
                {"[a!-z]", "!"}, {"[!-!]]", "!"}, {"a{02}", null}, {"a{01,3}_", null}, {"_{0,}", null}}) {
            patterns.add(pe);
        }
        Random rnd = new Random(7);
        String[] pieces = {"a", "b", "_", "%", "(", ")", "|", "[", "]", "-", "^", "*", "+", "?", "{2}", ".", "$", "\\", "é", "[:DIGIT:]", "!", "1"};
        for (int k = 0; k < 300; k++) {
            StringBuilder b = new StringBuilder();
            for (int n = rnd.nextInt(6); n >= 0; n--) {
                b.append(pieces[rnd.nextInt(pieces.length)]);
            }
            patterns.add(new String[] {b.toString(), rnd.nextInt(4) == 0 ? "!" : null});
        }
        String[] inputs = {"", "a", "b", "c", "ab", "abc", "aXc", "a.c", "a\nc", "aa", "abab", "1", "42", "A", "Z9", " ", "\t", "é", "éx",
                "😀", "x😀", "😀x", "a%", "a_", "a!", "a|", "x-y", "xy", "a$", "a\\b", "{", "a{", "a}", "abc\n", "\n", "ba", "cab"};
        for (String[] pe : patterns) {
            String p = pe[0];
            String e = pe[1];
            String regex;
            try {
                regex = SqlLikeUtils.sqlToRegexSimilar(p, e);
            } catch (RuntimeException ex) {
                System.out.println("P " + RegexGolden.hex(p) + " " + (e == null ? "~" : RegexGolden.hex(e)) + " !");
                continue;
            }
            System.out.println("P " + RegexGolden.hex(p) + " " + (e == null ? "~" : RegexGolden.hex(e)) + " " + RegexGolden.hex(regex));
            for (String in : inputs) {
                String r;
                try {
                    r = (e == null ? SqlLikeUtils.similar(in, p) : SqlLikeUtils.similar(in, p, e)) ? "1" : "0";
                } catch (RuntimeException ex) {
                    r = "!";
                }
                System.out.println("I " + RegexGolden.hex(in) + " " + r);
            }
        }
    }
}
