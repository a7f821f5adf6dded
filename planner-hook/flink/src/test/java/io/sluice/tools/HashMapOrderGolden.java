package io.sluice.tools;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;

/**
 * Prints the iteration order of java.util.HashMaps filled with keys of the objects Flink's
 * generated code boxes map keys into (what MapToMapAndMultisetToMultisetCastRule builds), for
 * javacompat/javahash's test:
 * {@code bin/sluice-java io.sluice.tools.HashMapOrderGolden > javacompat/javahash/testdata/hashmap_order.txt}.
 * Lines: {@code <type> <keys>|<entries>}; the keys, put in order with their index as value, are
 * comma-separated ({@code N} for null; integers and the DECIMAL's unscaled value in decimal;
 * FLOAT and DOUBLE as the hex of their raw bits; STRING as x + the hex of its UTF-8 bytes;
 * TIMESTAMP(6) as millis.nanos; BOOLEAN t or f); the entries are {@code k:v} for each entry in
 * iteration order, k the index of its key's first put and v that of its last.
 * Key sets include crafted collisions that make buckets resize, turn into red-black trees and
 * split, avoiding ties that Java breaks by identity hash codes.
 */
public final class HashMapOrderGolden {
    private static final HexFormat HEX = HexFormat.of();

    private final StringBuilder out = new StringBuilder();

    public static void main(String[] args) {
        HashMapOrderGolden g = new HashMapOrderGolden();
        g.all(new Random(20261202L));
        System.out.print(g.out);
    }

    private void all(Random r) {
        // INT: random small maps with duplicates and nulls, then colliding multiples
        for (int c = 0; c < 150; c++) {
            int n = r.nextInt(40);
            int range = 1 + r.nextInt(c % 3 == 0 ? 20 : 100000);
            List<Integer> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add(r.nextInt(10) == 0 ? null : r.nextInt(range) - range / 3);
            }
            print("INT", keys, String::valueOf);
        }
        for (int step : new int[] {16, 32, 64, 128, 1024, 1 << 16, 1 << 20, 3 << 16}) {
            for (int n : new int[] {7, 8, 9, 10, 11, 12, 20, 40, 70}) {
                List<Integer> keys = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    keys.add(1 + step * i);
                    if (i % 3 == 0) {
                        keys.add(r.nextInt(1000));
                    }
                }
                shuffleSome(keys, r);
                print("INT", keys, String::valueOf);
            }
        }
        // Big colliding sets: buckets of trees that split when the table grows
        for (int c = 0; c < 20; c++) {
            List<Integer> keys = new ArrayList<>();
            int n = 50 + r.nextInt(300);
            int step = 1 << (4 + r.nextInt(6));
            for (int i = 0; i < n; i++) {
                keys.add(r.nextInt(4) == 0 ? r.nextInt() : 1 + step * r.nextInt(n));
            }
            print("INT", keys, String::valueOf);
        }
        // BIGINT: equal hash codes (high ^ low equal) in one bucket, ordered by Long#compareTo
        for (int c = 0; c < 30; c++) {
            List<Long> keys = new ArrayList<>();
            int n = 5 + r.nextInt(60);
            long h = r.nextInt(8) == 0 ? 0 : r.nextInt();
            for (int i = 0; i < n; i++) {
                long hi = r.nextInt(c % 2 == 0 ? 30 : Integer.MAX_VALUE) * (r.nextBoolean() ? 1L : -1L);
                long v = (hi << 32) | ((hi ^ h) & 0xffffffffL);
                keys.add(r.nextInt(5) == 0 ? r.nextLong() : v);
                if (r.nextInt(8) == 0) {
                    keys.add(null);
                }
            }
            print("BIGINT", keys, String::valueOf);
        }
        // DOUBLE and FLOAT: NaN (several payloads), both zeros, integers, random
        for (int c = 0; c < 40; c++) {
            List<Double> keys = new ArrayList<>();
            int n = 1 + r.nextInt(c < 30 ? 30 : 150);
            for (int i = 0; i < n; i++) {
                switch (r.nextInt(8)) {
                    case 0: keys.add(Double.longBitsToDouble(0x7ff0000000000001L + r.nextInt(100))); break;
                    case 1: keys.add(r.nextBoolean() ? 0.0 : -0.0); break;
                    case 2: keys.add((double) r.nextInt(c % 2 == 0 ? 10 : 1 << 20)); break;
                    case 3: keys.add(null); break;
                    default: keys.add(r.nextDouble() * 1e6);
                }
            }
            print("DOUBLE", keys, d -> Long.toHexString(Double.doubleToRawLongBits(d)));
            List<Float> floats = new ArrayList<>();
            for (Double d : keys) {
                floats.add(d == null ? null : d.floatValue());
            }
            print("FLOAT", floats, f -> Integer.toHexString(Float.floatToRawIntBits(f)));
        }
        // STRING: random text, then strings that share buckets
        for (int c = 0; c < 60; c++) {
            List<BinaryStringData> keys = new ArrayList<>();
            int n = r.nextInt(c < 40 ? 30 : 200);
            for (int i = 0; i < n; i++) {
                keys.add(r.nextInt(10) == 0 ? null : BinaryStringData.fromBytes(randomText(r, c % 4 == 0 ? 2 : 9)));
            }
            print("STRING", keys, s -> "x" + HEX.formatHex(s.toBytes()));
        }
        for (int mask : new int[] {15, 63, 127, 255}) {
            for (int c = 0; c < 4; c++) {
                List<BinaryStringData> keys = new ArrayList<>();
                int want = r.nextInt(mask + 1);
                int n = 9 + r.nextInt(60);
                while (keys.size() < n) {
                    BinaryStringData s = BinaryStringData.fromBytes(randomText(r, 12));
                    int h = s.hashCode();
                    if (((h ^ (h >>> 16)) & mask) == want || r.nextInt(40) == 0) {
                        keys.add(s);
                    }
                }
                keys.add(keys.get(r.nextInt(keys.size())));
                print("STRING", keys, s -> "x" + HEX.formatHex(s.toBytes()));
            }
        }
        // DECIMAL(38, 10) and DECIMAL(10, 2)
        for (int c = 0; c < 30; c++) {
            boolean wide = c % 2 == 0;
            int p = wide ? 38 : 10;
            int s = wide ? 10 : 2;
            List<DecimalData> keys = new ArrayList<>();
            int n = r.nextInt(c < 20 ? 30 : 120);
            for (int i = 0; i < n; i++) {
                BigInteger u = wide ? new BigInteger(1 + r.nextInt(126), r) : BigInteger.valueOf(r.nextInt(c % 3 == 0 ? 50 : 1 << 30));
                if (r.nextBoolean()) {
                    u = u.negate();
                }
                keys.add(r.nextInt(10) == 0 ? null : DecimalData.fromBigDecimal(new BigDecimal(u, s), p, s));
            }
            print(wide ? "DECIMAL(38,10)" : "DECIMAL(10,2)", keys, d -> d.toBigDecimal().unscaledValue().toString());
        }
        // TIMESTAMP: millis and nanos of the millisecond
        for (int c = 0; c < 30; c++) {
            List<TimestampData> keys = new ArrayList<>();
            int n = r.nextInt(c < 20 ? 30 : 120);
            for (int i = 0; i < n; i++) {
                long ms = c % 3 == 0 ? r.nextInt(100) * 1000L : r.nextLong() % 300_000_000_000_000L;
                keys.add(r.nextInt(10) == 0 ? null : TimestampData.fromEpochMillis(ms, c % 2 == 0 ? 0 : r.nextInt(1000) * 1000));
            }
            print("TIMESTAMP(6)", keys, t -> t.getMillisecond() + "." + t.getNanoOfMillisecond());
        }
        // TINYINT and SMALLINT: Byte and Short hash to their (sign-extended) value
        for (int c = 0; c < 10; c++) {
            List<Byte> bytes = new ArrayList<>();
            List<Short> shorts = new ArrayList<>();
            int n = r.nextInt(c < 5 ? 20 : 300);
            for (int i = 0; i < n; i++) {
                boolean isNull = r.nextInt(12) == 0;
                bytes.add(isNull ? null : (byte) r.nextInt(256));
                shorts.add(isNull ? null : (short) (r.nextInt(c % 2 == 0 ? 64 : 65536) * (c % 3 == 0 ? 64 : 1)));
            }
            print("TINYINT", bytes, String::valueOf);
            print("SMALLINT", shorts, String::valueOf);
        }
        // BOOLEAN
        for (int c = 0; c < 10; c++) {
            List<Boolean> keys = new ArrayList<>();
            int n = r.nextInt(6);
            for (int i = 0; i < n; i++) {
                keys.add(r.nextInt(4) == 0 ? null : r.nextBoolean());
            }
            print("BOOLEAN", keys, b -> b ? "t" : "f");
        }
    }

    private static byte[] randomText(Random r, int maxLen) {
        String[] parts = {"a", "b", "Z", "0", "é", "世", "🌍", " ", "-"};
        StringBuilder s = new StringBuilder();
        int n = r.nextInt(maxLen + 1);
        for (int i = 0; i < n; i++) {
            s.append(parts[r.nextInt(parts.length)]);
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static <T> void shuffleSome(List<T> keys, Random r) {
        for (int i = 0; i < keys.size() / 2; i++) {
            int a = r.nextInt(keys.size());
            int b = r.nextInt(keys.size());
            T t = keys.get(a);
            keys.set(a, keys.get(b));
            keys.set(b, t);
        }
    }

    private <T> void print(String type, List<T> keys, Function<T, String> text) {
        Map<Object, Integer> map = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            map.put(keys.get(i), i);
        }
        out.append(type).append(' ');
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(keys.get(i) == null ? "N" : text.apply(keys.get(i)));
        }
        out.append('|');
        boolean first = true;
        for (Map.Entry<Object, Integer> e : map.entrySet()) {
            int k = 0;
            while (!Objects.equals(keys.get(k), e.getKey())) {
                k++;
            }
            out.append(first ? "" : " ").append(k).append(':').append(e.getValue());
            first = false;
        }
        out.append('\n');
    }
}
