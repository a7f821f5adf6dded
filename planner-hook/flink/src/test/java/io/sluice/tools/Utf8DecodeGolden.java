package io.sluice.tools;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * Prints how this JVM decodes byte strings that are not all valid UTF-8 (new String(bytes,
 * UTF_8), what Flink's CAST of BINARY to STRING does), for javacompat/javatext's test:
 * {@code bin/sluice-java io.sluice.tools.Utf8DecodeGolden > javacompat/javatext/testdata/utf8_decode.txt}
 * on Java 17. Lines: {@code <bytes> <utf-16 units>}, both in hex ({@code -} when empty). The byte
 * strings are every one of up to two bytes from a set of boundary bytes and random ones of three
 * to seven.
 */
public final class Utf8DecodeGolden {
    private static final int[] BYTES = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2,
        0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xf7, 0xf8, 0xff};

    public static void main(String[] args) {
        List<byte[]> inputs = new ArrayList<>();
        for (int a : BYTES) {
            inputs.add(new byte[] {(byte) a});
            for (int b : BYTES) {
                inputs.add(new byte[] {(byte) a, (byte) b});
            }
        }
        Random r = new Random(20261202L);
        for (int i = 0; i < 1500; i++) {
            byte[] s = new byte[3 + r.nextInt(5)];
            for (int k = 0; k < s.length; k++) {
                s[k] = (byte) BYTES[r.nextInt(BYTES.length)];
            }
            inputs.add(s);
        }
        HexFormat hex = HexFormat.of();
        StringBuilder out = new StringBuilder();
        for (byte[] s : inputs) {
            String decoded = new String(s, StandardCharsets.UTF_8);
            StringBuilder units = new StringBuilder();
            for (int k = 0; k < decoded.length(); k++) {
                units.append(String.format("%04x", (int) decoded.charAt(k)));
            }
            out.append(hex.formatHex(s)).append(' ').append(units.length() == 0 ? "-" : units).append('\n');
        }
        System.out.print(out);
    }
}
