package io.sluice.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Prints how this JVM prints DOUBLE and FLOAT values (Double.toString, Float.toString: what
 * Flink's CAST(x AS STRING) and BigDecimal.valueOf(double) use), for javacompat/javatext's test:
 * {@code bin/sluice-java io.sluice.tools.FloatTextGolden > javacompat/javatext/testdata/float_text.txt}
 * on Java 17. Lines: {@code D <bits> <text>} and {@code F <bits> <text>}, the bits in hex.
 * The values are the special ones, powers of two and of ten and their neighbours, whole numbers
 * around 2^53 and 2^63, short decimals and random bit patterns. With the arguments
 * {@code random <count> <seed>} it prints count random doubles and floats of those kinds
 * instead, for a long comparison ({@code make test-long}).
 */
public final class FloatTextGolden {
    public static void main(String[] args) {
        StringBuilder out = new StringBuilder();
        if (args.length == 3 && args[0].equals("random")) {
            long count = Long.parseLong(args[1]);
            Random r = new Random(Long.parseLong(args[2]));
            for (long i = 0; i < count; i++) {
                printDouble(out, randomDouble(r));
                printFloat(out, randomFloat(r));
                if (out.length() > 1 << 16) {
                    System.out.print(out);
                    out.setLength(0);
                }
            }
            System.out.print(out);
            return;
        }
        List<Double> doubles = new ArrayList<>();
        for (double d : new double[] {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL, 1.0, 0.1, 0.001, 1.0E-3, 9.999999999999999E-4,
                1.0E7, 9999999.999999998, 1.0E23, 2.0E23, 2.82879384806159E17, 1.0E-5, 123.456, 5.0E-324, 1.0E22}) {
            doubles.add(d);
        }
        for (int k = -1074; k <= 1023; k += 5) {
            withNeighbours(doubles, Math.scalb(1.0, k));
        }
        for (int k = -323; k <= 308; k += 2) {
            withNeighbours(doubles, Double.parseDouble("1e" + k));
        }
        Random r = new Random(20261202L);
        for (int i = 0; i < 300; i++) {
            doubles.add((double) ((1L << 53) + r.nextInt(1 << 20)) * (1L << r.nextInt(11)));
            doubles.add(Double.longBitsToDouble(r.nextLong()));
            doubles.add(Double.parseDouble(shortDecimal(r)));
            doubles.add(Double.longBitsToDouble(r.nextLong() & 0x000F_FFFF_FFFF_FFFFL)); // subnormal
        }
        for (double d : doubles) {
            printDouble(out, d);
        }
        List<Float> floats = new ArrayList<>();
        for (float f : new float[] {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL, 1f, 0.1f, 1.0E-44f, 1.0E7f, 3.4E38f, 16777216f}) {
            floats.add(f);
        }
        for (int k = -149; k <= 127; k += 2) {
            float p = Math.scalb(1f, k);
            floats.add(p);
            floats.add(Math.nextUp(p));
            floats.add(Math.nextDown(p));
        }
        for (int k = -45; k <= 38; k++) {
            float p = Float.parseFloat("1e" + k);
            floats.add(p);
            floats.add(Math.nextUp(p));
            floats.add(Math.nextDown(p));
        }
        for (int i = 0; i < 300; i++) {
            floats.add(Float.intBitsToFloat(r.nextInt()));
            floats.add(Float.parseFloat(shortDecimal(r)));
            floats.add((float) ((1 << 24) + r.nextInt(1 << 10)) * (1 << r.nextInt(30)));
        }
        for (float f : floats) {
            printFloat(out, f);
        }
        System.out.print(out);
    }

    private static void withNeighbours(List<Double> to, double d) {
        to.add(d);
        to.add(Math.nextUp(d));
        to.add(Math.nextDown(d));
    }

    private static String shortDecimal(Random r) {
        StringBuilder s = new StringBuilder();
        int digits = 1 + r.nextInt(9);
        for (int i = 0; i < digits; i++) {
            s.append((char) ('0' + r.nextInt(10)));
        }
        s.insert(r.nextInt(digits + 1), '.');
        return "0" + s + "e" + (r.nextInt(60) - 30);
    }

    private static double randomDouble(Random r) {
        switch (r.nextInt(5)) {
            case 0:
                return Double.longBitsToDouble(r.nextLong());
            case 1:
                return Double.parseDouble(shortDecimal(r));
            case 2:
                return Math.scalb((double) ((1L << 52) + (r.nextLong() & ((1L << 52) - 1))), r.nextInt(120) - 60);
            case 3:
                return Double.longBitsToDouble(r.nextLong() & 0x000F_FFFF_FFFF_FFFFL);
            default:
                double p = Double.parseDouble("1e" + (r.nextInt(632) - 323));
                return r.nextBoolean() ? Math.nextUp(p) : Math.nextDown(p);
        }
    }

    private static float randomFloat(Random r) {
        switch (r.nextInt(3)) {
            case 0:
                return Float.intBitsToFloat(r.nextInt());
            case 1:
                return Float.parseFloat(shortDecimal(r));
            default:
                return Math.scalb((float) ((1 << 23) + r.nextInt(1 << 23)), r.nextInt(80) - 40);
        }
    }

    private static void printDouble(StringBuilder out, double d) {
        out.append("D ").append(Long.toHexString(Double.doubleToRawLongBits(d))).append(' ')
                .append(Double.toString(d)).append('\n');
    }

    private static void printFloat(StringBuilder out, float f) {
        out.append("F ").append(Integer.toHexString(Float.floatToRawIntBits(f))).append(' ')
                .append(Float.toString(f)).append('\n');
    }
}
