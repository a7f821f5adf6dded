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
 * Cases with colliding keys grow red-black tree bins and remove keys from them (the bins
 * rebalance, move their roots to the front, and turn back into lists when small).
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
        // Colliding keys: buckets that grow the table before 64 buckets, and tree bins after;
        // then some of them removed, in random order, between more insertions.
        for (int step : new int[] {16, 64, 128, 1024, 1 << 16}) {
            for (int n : new int[] {7, 8, 9, 12, 14, 30, 70, 100}) {
                List<String> ops = new ArrayList<>();
                List<Integer> added = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ops.add("c" + (1 + step * i));
                    added.add(1 + step * i);
                    if (i % 4 == 0) {
                        ops.add("c" + r.nextInt(1000));
                    }
                }
                print(ops);
                for (int round = 0; round < 3; round++) {
                    List<String> churn = new ArrayList<>(ops);
                    java.util.Collections.shuffle(added, r);
                    int removals = 1 + r.nextInt(added.size());
                    for (int i = 0; i < removals; i++) {
                        churn.add("r" + added.get(i));
                        if (r.nextInt(5) == 0) {
                            churn.add("c" + (1 + step * (n + r.nextInt(20))));
                        }
                    }
                    print(churn);
                }
            }
        }
    }

    private void print(List<String> ops) {
        Map<Integer, Boolean> m = new HashMap<>();
        for (String op : ops) {
            if (op.startsWith("c")) {
                m.computeIfAbsent(Integer.parseInt(op.substring(1)), x -> Boolean.TRUE);
            } else if (op.startsWith("r")) {
                m.remove(Integer.parseInt(op.substring(1)));
            } else {
                m.clear();
            }
        }
        out.append(String.join(",", ops)).append('|');
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

}
