package io.sluice.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Prints the iteration order of java.util.HashMaps of Integer keys after sequences of
 * computeIfAbsent, remove and clear, the calls Flink's mini-batch join buffers make
 * (join.stream.bundle.*Bundle), for javacompat/javahash's test:
 * {@code bin/sluice-java io.sluice.tools.HashMapChurnGolden > javacompat/javahash/testdata/hashmap_churn.txt}.
 * Lines: {@code <ops>|<keys>}; the ops are comma-separated, {@code c<k>} computeIfAbsent(k),
 * {@code r<k>} remove(k), {@code x} clear(); the keys are the map's keys in iteration order.
 * Removals only take keys of buckets that never held 8 keys (no tree bins are removed from);
 * separate cases grow tree bins by computeIfAbsent alone.
 */
public final class HashMapChurnGolden {
    private final StringBuilder out = new StringBuilder();

    public static void main(String[] args) {
        HashMapChurnGolden g = new HashMapChurnGolden();
        g.all(new Random(20261207L));
        System.out.print(g.out);
    }

    private void all(Random r) {
        // Random churn: keys from small and large ranges, removals of present and absent keys,
        // clears that keep the capacity.
        for (int c = 0; c < 300; c++) {
            int n = r.nextInt(c % 10 == 0 ? 400 : 60);
            int range = 1 + r.nextInt(c % 3 == 0 ? 30 : 1_000_000);
            List<String> ops = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = r.nextInt(range) - range / 3;
                int p = r.nextInt(100);
                if (p < 65) {
                    ops.add("c" + k);
                } else if (p < 98) {
                    ops.add("r" + k);
                } else {
                    ops.add("x");
                }
            }
            print(ops);
        }
        // Colliding keys: buckets that grow the table before 64 buckets, and tree bins after.
        for (int step : new int[] {16, 64, 128, 1024, 1 << 16}) {
            for (int n : new int[] {7, 8, 9, 12, 14, 30, 70, 100}) {
                List<String> ops = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ops.add("c" + (1 + step * i));
                    if (i % 4 == 0) {
                        ops.add("c" + r.nextInt(1000));
                    }
                }
                print(ops);
            }
        }
    }

    private void print(List<String> ops) {
        Map<Integer, Boolean> m = new HashMap<>();
        // Removals are replayed only from buckets that never held 8 keys: the keys' bucket
        // counts at the largest capacity are an upper bound; any such op is dropped.
        List<String> kept = new ArrayList<>();
        Map<Integer, Integer> perBucket = new HashMap<>();
        for (String op : ops) {
            if (op.startsWith("c")) {
                int k = Integer.parseInt(op.substring(1));
                if (!m.containsKey(k)) {
                    int b = spread(k) & 63;
                    perBucket.merge(b, 1, Integer::sum);
                }
                m.computeIfAbsent(k, x -> Boolean.TRUE);
            } else if (op.startsWith("r")) {
                int k = Integer.parseInt(op.substring(1));
                if (perBucket.getOrDefault(spread(k) & 63, 0) >= 7) {
                    continue;
                }
                m.remove(k);
            } else {
                m.clear();
            }
            kept.add(op);
        }
        out.append(String.join(",", kept)).append('|');
        boolean first = true;
        for (Integer k : m.keySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            out.append(k);
        }
        out.append('\n');
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
