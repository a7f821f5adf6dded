package io.sluice.bench;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.connector.datagen.source.GeneratingIteratorSourceReader;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collection;
import java.util.Set;

/**
 * A deterministic, cheap bid generator for the benchmarks ('connector' = 'sluice-bench-bids'):
 * row i is (auction, bidder, price, ts) computed from i alone — auction a hash of i modulo
 * 'keys', bidder another hash modulo 100,000, price from i, event time advancing 'rows-per-ms'
 * rows per millisecond with up to 3 seconds of disorder. The schema must be (auction INT,
 * bidder BIGINT, price BIGINT, ts TIMESTAMP(3)). Generating a row
 * costs little, so the benchmark measures the operators, on the same rows for every engine.
 */
public class BidsTableFactory implements DynamicTableSourceFactory {
    public static final String IDENTIFIER = "sluice-bench-bids";

    static final ConfigOption<Long> ROWS = ConfigOptions.key("rows").longType().noDefaultValue();
    static final ConfigOption<Integer> KEYS = ConfigOptions.key("keys").intType().defaultValue(10_000);
    static final ConfigOption<Integer> ROWS_PER_MS = ConfigOptions.key("rows-per-ms").intType().defaultValue(100);

    /** 2024-01-01T00:00:00Z. */
    static final long BASE = 1_704_067_200_000L;

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(ROWS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(KEYS, ROWS_PER_MS);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        RowType type = (RowType) context.getPhysicalRowDataType().getLogicalType();
        if (!type.copy(true).asSummaryString().equals("ROW<`auction` INT, `bidder` BIGINT, `price` BIGINT, `ts` TIMESTAMP(3)>")) {
            throw new IllegalArgumentException(
                    IDENTIFIER + " produces (auction INT, bidder BIGINT, price BIGINT, ts TIMESTAMP(3)), not " + type);
        }
        return new BidsTableSource(type, helper.getOptions().get(ROWS), helper.getOptions().get(KEYS), helper.getOptions().get(ROWS_PER_MS));
    }

    private record BidsTableSource(RowType type, long rows, int keys, int rowsPerMs) implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext ctx) {
            int k = keys;
            int perMs = rowsPerMs;
            GeneratorFunction<Long, RowData> gen = i -> {
                long h = i * 0x9E3779B97F4A7C15L;
                int auction = (int) Math.floorMod(h >>> 17, (long) k);
                long disorder = (h >>> 40) % 3000;
                long bidder = (h >>> 23) % 100_000;
                return GenericRowData.of(auction, bidder, 1 + (i * 31) % 100_000,
                        TimestampData.fromEpochMillis(BASE + i / perMs - disorder));
            };
            return new DataStreamScanProvider() {
                @Override
                public DataStream<RowData> produceDataStream(ProviderContext providerContext, StreamExecutionEnvironment env) {
                    return env.fromSource(new BidsSource(gen, rows), WatermarkStrategy.noWatermarks(), "bids",
                            InternalTypeInfo.of(type));
                }

                @Override
                public boolean isBounded() {
                    return true;
                }
            };
        }

        @Override
        public DynamicTableSource copy() {
            return this;
        }

        @Override
        public String asSummaryString() {
            return IDENTIFIER;
        }
    }

    /**
     * Rows 0 .. rows-1 of a generator function, split as a number sequence. Unlike the datagen
     * connector's DataGeneratorSource, whose rate-limited reader (even with no limit) answers
     * "nothing available" after every record and so sends each record through the mailbox's
     * availability future, this reader emits a split's records back to back, so the source costs
     * every engine little and the benchmark measures the operators.
     */
    static final class BidsSource implements Source<RowData, NumberSequenceSplit, Collection<NumberSequenceSplit>> {
        private final GeneratorFunction<Long, RowData> gen;
        private final NumberSequenceSource numbers;

        BidsSource(GeneratorFunction<Long, RowData> gen, long rows) {
            this.gen = gen;
            this.numbers = new NumberSequenceSource(0, rows - 1);
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public SourceReader<RowData, NumberSequenceSplit> createReader(SourceReaderContext ctx) {
            return new GeneratingIteratorSourceReader<>(ctx, gen);
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
                SplitEnumeratorContext<NumberSequenceSplit> ctx) {
            return numbers.createEnumerator(ctx);
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> restoreEnumerator(
                SplitEnumeratorContext<NumberSequenceSplit> ctx, Collection<NumberSequenceSplit> checkpoint) {
            return numbers.restoreEnumerator(ctx, checkpoint);
        }

        @Override
        public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
            return numbers.getSplitSerializer();
        }

        @Override
        public SimpleVersionedSerializer<Collection<NumberSequenceSplit>> getEnumeratorCheckpointSerializer() {
            return numbers.getEnumeratorCheckpointSerializer();
        }
    }
}
