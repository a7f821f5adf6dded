package io.sluice.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Calc benchmark: a Calc-heavy query over generated rows on stock Flink and on Sluice, at
 * parallelism 1 and 2 (medians of {@link Measurements#RUNS} runs after a warm-up run on 1M rows).
 */
public final class CalcBenchmark {
    static final long ROWS = Long.getLong("sluice.bench.rows", 10_000_000L);

    static String script(long rows) {
        return String.format(Locale.ROOT, """
                CREATE TABLE src (id BIGINT, a INT, b DOUBLE, cents INT, name STRING) WITH (
                  'connector' = 'datagen', 'rows-per-second' = '1000000000',
                  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '%d',
                  'fields.a.min' = '0', 'fields.a.max' = '1000', 'fields.b.min' = '0', 'fields.b.max' = '1',
                  'fields.cents.min' = '100', 'fields.cents.max' = '100000', 'fields.name.length' = '8');
                CREATE TABLE snk (x BIGINT, m INT, y DOUBLE, p DECIMAL(15, 3), q BIGINT, n STRING, len INT,
                  size STRING, flag BOOLEAN) WITH ('connector' = 'blackhole');
                INSERT INTO snk
                SELECT id * 2 + a, a %% 7, b * 100 + a, cents * 0.011, (id + cents) * 3 - a,
                       UPPER(name), CHAR_LENGTH(name) + a,
                       CASE WHEN a > 500 THEN 'big' WHEN a > 100 THEN 'mid' ELSE 'small' END,
                       (a BETWEEN 10 AND 20) OR id %% 3 = 0
                FROM src
                WHERE a %% 10 <> 3 AND b < 0.9 AND cents > 150
                """, rows);
    }

    record Row(int parallelism, double flink, double sluice) {}

    static final Measurements RUNS = new Measurements("calc");

    /** Runs the Calc benchmark and returns its section of docs/benchmarks.md. */
    static String section() throws Exception {
        String script = script(ROWS);
        long warmup = Math.min(ROWS, 1_000_000L);
        List<Row> rows = new ArrayList<>();
        for (int p : new int[] {1, 2}) {
            double flink = RUNS.measure("p" + p + "-flink", false, p, script(warmup), warmup, () -> script, ROWS);
            double sluice = RUNS.measure("p" + p + "-sluice", true, p, script(warmup), warmup, () -> script, ROWS);
            rows.add(new Row(p, flink, sluice));
        }
        StringBuilder md = new StringBuilder();
        md.append("## Calc: generated rows → filter + projections → blackhole\n\n");
        md.append("Row edges at both ends (BinaryRowData → Arrow → BinaryRowData): this is the floor that columnar\n");
        md.append("sources and sinks raise. ").append(String.format(Locale.ROOT, "%,d", ROWS)).append(" rows.\n\n");
        md.append("| parallelism | stock Flink (rows/s) | Sluice (rows/s) | Sluice / Flink |\n|---|---|---|---|\n");
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %.2fx |%n",
                    r.parallelism(), r.flink(), r.sluice(), r.sluice() / r.flink()));
        }
        RUNS.spread(md);
        md.append("```sql\n").append(script.strip()).append("\n```\n\n");
        return md.toString();
    }
}
