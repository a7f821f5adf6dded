package io.sluice.cli;

import java.util.Locale;

/**
 * {@code make demo}: a streaming Calc job over generated bids (Nexmark-like), run on stock Flink
 * and on Sluice. Prints Sluice's verdict and both throughputs.
 */
public final class Demo {
    private Demo() {}

    /** The demo job for the given number of generated rows. */
    public static String script(long rows) {
        return String.format(Locale.ROOT, """
                CREATE TABLE bids (
                  auction BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING, url STRING,
                  dt TIMESTAMP(3), extra STRING
                ) WITH (
                  'connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '1000000000',
                  'fields.auction.min' = '1000', 'fields.auction.max' = '1100',
                  'fields.bidder.min' = '1', 'fields.bidder.max' = '100000',
                  'fields.price.min' = '1', 'fields.price.max' = '10000',
                  'fields.channel.length' = '8', 'fields.url.length' = '40', 'fields.extra.length' = '16'
                );
                CREATE TABLE out_bids (
                  auction BIGINT, bidder BIGINT, euro DECIMAL(23, 4), channel STRING, url_len INT,
                  dt TIMESTAMP(3), tag STRING
                ) WITH ('connector' = 'blackhole');
                INSERT INTO out_bids
                SELECT auction, bidder, price * 0.9080 AS euro, UPPER(channel), CHAR_LENGTH(url), dt,
                       CASE WHEN price > 5000 THEN 'high' WHEN price > 1000 THEN 'mid' ELSE 'low' END
                FROM bids
                WHERE MOD(auction, 10) < 8 AND price > 10 AND bidder <> 42
                """, rows);
    }

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
        String script = script(rows);
        System.out.println("Sluice demo: " + rows + " generated bids -> filter + projection -> blackhole\n");
        System.out.println(script);
        TimedRun.Result flink = TimedRun.run(script, false, 1, rows);
        TimedRun.Result sluice = TimedRun.run(script, true, 1, rows);
        System.out.println(sluice.verdict());
        if (!sluice.nativePlan()) {
            System.out.println("The Sluice run fell back to stock Flink; see the reasons above.");
        }
        System.out.printf(Locale.ROOT, "stock Flink : %,12.0f rows/s (%d ms)%n", flink.rowsPerSecond(), flink.millis());
        System.out.printf(Locale.ROOT, "Sluice      : %,12.0f rows/s (%d ms)%n", sluice.rowsPerSecond(), sluice.millis());
        System.out.printf(Locale.ROOT, "ratio       : %.2fx%n", sluice.rowsPerSecond() / flink.rowsPerSecond());
        System.exit(0);
    }
}
