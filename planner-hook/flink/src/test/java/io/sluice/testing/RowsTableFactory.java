package io.sluice.testing;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded test source ('connector' = 'sluice-test-rows') that emits rows registered with {@link
 * #register}, RowKinds included, in order, from one subtask.
 */
public class RowsTableFactory implements DynamicTableSourceFactory {
    public static final String IDENTIFIER = "sluice-test-rows";
    private static final Map<String, List<Row>> DATA = new ConcurrentHashMap<>();
    private static final AtomicInteger IDS = new AtomicInteger();

    static final ConfigOption<String> DATA_ID = ConfigOptions.key("data-id").stringType().noDefaultValue();

    /** Milliseconds the source sleeps before each row (0: emit as fast as possible). */
    static final ConfigOption<Integer> DELAY_MS = ConfigOptions.key("delay-ms").intType().defaultValue(0);

    /**
     * Emit BinaryRowData instead of the converter's GenericRowData: strings then carry no Java
     * String, as from a binary source (Parquet, Iceberg, any exchange). Flink compares two strings
     * that both carry one by UTF-16 code units, others by UTF-8 bytes (docs/divergences.md).
     */
    static final ConfigOption<Boolean> BINARY_ROWS = ConfigOptions.key("binary-rows").booleanType().defaultValue(false);

    /** Registers rows and returns the id to put in the table's 'data-id' option. */
    public static String register(List<Row> rows) {
        String id = "rows-" + IDS.incrementAndGet();
        DATA.put(id, new ArrayList<>(rows));
        return id;
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(DATA_ID);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(DELAY_MS, BINARY_ROWS);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        String id = helper.getOptions().get(DATA_ID);
        List<Row> rows = DATA.get(id);
        if (rows == null) {
            throw new IllegalArgumentException("no rows registered under data-id " + id);
        }
        return new Source(context.getPhysicalRowDataType(), rows, helper.getOptions().get(DELAY_MS),
                helper.getOptions().get(BINARY_ROWS));
    }

    /** A one-subtask source that sleeps before each row, so that rows arrive one at a time. */
    static DataStream<RowData> slowSource(
            StreamExecutionEnvironment env, List<RowData> data, RowType rowType, int delayMs) {
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        List<byte[]> bytes = new ArrayList<>();
        for (RowData r : data) {
            BinaryRowData b = serializer.toBinaryRow(r).copy();
            bytes.add(BinarySegmentUtils.copyToBytes(b.getSegments(), b.getOffset(), b.getSizeInBytes()));
        }
        int arity = rowType.getFieldCount();
        GeneratorFunction<Long, RowData> gen = index -> {
            Thread.sleep(delayMs);
            byte[] b = bytes.get(index.intValue());
            BinaryRowData row = new BinaryRowData(arity);
            row.pointTo(MemorySegmentFactory.wrap(b), 0, b.length);
            return row;
        };
        return env.fromSource(
                        new DataGeneratorSource<>(gen, bytes.size(), InternalTypeInfo.of(rowType)),
                        WatermarkStrategy.noWatermarks(),
                        "slow rows")
                .setParallelism(1);
    }

    private static final class Source implements ScanTableSource {
        private final DataType type;
        private final List<Row> rows;
        private final int delayMs;
        private final boolean binaryRows;

        Source(DataType type, List<Row> rows, int delayMs, boolean binaryRows) {
            this.binaryRows = binaryRows;
            this.type = type;
            this.rows = rows;
            this.delayMs = delayMs;
        }

        @Override
        public ChangelogMode getChangelogMode() {
            boolean insertOnly = rows.stream().allMatch(r -> r.getKind() == RowKind.INSERT);
            return insertOnly ? ChangelogMode.insertOnly() : ChangelogMode.all();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext ctx) {
            DataStructureConverter converter = ctx.createDataStructureConverter(type);
            RowType rowType = (RowType) type.getLogicalType();
            return new DataStreamScanProvider() {
                @Override
                public DataStream<RowData> produceDataStream(
                        ProviderContext providerContext, StreamExecutionEnvironment env) {
                    converter.open(org.apache.flink.table.connector.RuntimeConverter.Context.create(
                            RowsTableFactory.class.getClassLoader()));
                    List<RowData> data = new ArrayList<>();
                    for (Row r : rows) {
                        RowData rd = (RowData) converter.toInternal(r);
                        if (binaryRows) {
                            rd = new RowDataSerializer(rowType).toBinaryRow(rd).copy();
                        }
                        rd.setRowKind(r.getKind());
                        data.add(rd);
                    }
                    if (data.isEmpty()) {
                        // fromData fails on an empty collection (Flink 2.1's generator asks for a
                        // first element): one placeholder row, dropped.
                        return env.fromData(List.<RowData>of(new org.apache.flink.table.data.GenericRowData(rowType.getFieldCount())),
                                        InternalTypeInfo.of(rowType))
                                .setParallelism(1)
                                .filter(r -> false)
                                .setParallelism(1);
                    }
                    if (delayMs == 0) {
                        return env.fromData(data, InternalTypeInfo.of(rowType)).setParallelism(1);
                    }
                    return slowSource(env, data, rowType, delayMs);
                }

                @Override
                public boolean isBounded() {
                    return true;
                }
            };
        }

        @Override
        public DynamicTableSource copy() {
            return new Source(type, rows, delayMs, binaryRows);
        }

        @Override
        public String asSummaryString() {
            return "sluice-test-rows";
        }
    }
}
