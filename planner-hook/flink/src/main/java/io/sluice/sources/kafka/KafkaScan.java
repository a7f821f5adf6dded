package io.sluice.sources.kafka;

import io.sluice.kafka.KafkaConnector;
import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchTypeInfo;
import io.sluice.sources.NativeSource;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.abilities.source.SourceAbilitySpec;
import org.apache.flink.table.planner.plan.abilities.source.WatermarkPushDownSpec;
import org.apache.flink.table.runtime.connector.source.ScanRuntimeProviderContext;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.watermark.WatermarkParams;

import java.time.Duration;
import java.util.List;

/**
 * The native scan of a Kafka table ('connector' = 'kafka'): Flink's Kafka source as the table's
 * connector builds it (topics, startup and bounded modes, properties), its records decoded in Go
 * one partition fetch at a time, and a pushed WATERMARK run per partition by Flink's own
 * watermark machinery on each fetch's maximum. Only load this class when {@link #isKafkaSource}
 * holds: the connector is optional on the class path.
 */
public final class KafkaScan implements NativeSource {
    /** The class name of Flink's Kafka table source. */
    public static final String SOURCE_CLASS = "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource";

    private final String table;
    private final DynamicTableSource source;
    private final boolean watermark;
    private final long idleTimeoutMillis;
    private byte[] scanJson;

    private KafkaScan(String table, DynamicTableSource source, List<SourceAbilitySpec> abilities) {
        this.table = table;
        this.source = source;
        boolean w = false;
        long idle = -1;
        for (SourceAbilitySpec a : abilities) {
            if (a instanceof WatermarkPushDownSpec) {
                w = true;
                // As WatermarkPushDownSpec#apply computes it: the table's own idle timeout,
                // else the global one.
                long global = KafkaConnector.field(a, "globalIdleTimeoutMillis");
                WatermarkParams params = KafkaConnector.field(a, "watermarkParams");
                idle = params != null && params.getSourceIdleTimeout() >= 0 ? params.getSourceIdleTimeout() : global;
            }
        }
        this.watermark = w;
        this.idleTimeoutMillis = idle;
    }

    /** True if {@code source} is Flink's Kafka table source. */
    public static boolean isKafkaSource(DynamicTableSource source) {
        return source.getClass().getName().equals(SOURCE_CLASS);
    }

    /** The native scan of a Kafka table source ({@link #isKafkaSource} must hold). */
    public static KafkaScan of(String table, DynamicTableSource source, List<SourceAbilitySpec> abilities) {
        return new KafkaScan(table, source, abilities);
    }

    @Override
    public String table() {
        return table;
    }

    @Override
    public NativeSource withScanJson(byte[] scanJson) {
        this.scanJson = scanJson;
        return this;
    }

    @Override
    public Transformation<NativeBatch> transformation(StreamExecutionEnvironment env) {
        // The KafkaSource the connector's getScanRuntimeProvider builds, with the same value
        // deserializer, for the enumerator, the reader's consumer and the records Go leaves to
        // Flink.
        ScanRuntimeProviderContext context = ScanRuntimeProviderContext.INSTANCE;
        DecodingFormat<DeserializationSchema<RowData>> format = KafkaConnector.field(source, "valueDecodingFormat");
        DeserializationSchema<RowData> value = KafkaConnector.invoke(source, "createDeserialization",
                new Class<?>[] {DynamicTableSource.Context.class, DecodingFormat.class, int[].class, String.class},
                context, format, KafkaConnector.field(source, "valueProjection"), null);
        // The key's deserializer (null without a key format), as getScanRuntimeProvider makes it.
        DecodingFormat<DeserializationSchema<RowData>> keyFormat = KafkaConnector.field(source, "keyDecodingFormat");
        DeserializationSchema<RowData> key = KafkaConnector.invoke(source, "createDeserialization",
                new Class<?>[] {DynamicTableSource.Context.class, DecodingFormat.class, int[].class, String.class},
                context, keyFormat, KafkaConnector.field(source, "keyProjection"), KafkaConnector.field(source, "keyPrefix"));
        DataType produced = KafkaConnector.field(source, "producedDataType");
        TypeInformation<?> producedInfo = context.createTypeInformation(produced);
        KafkaSource<RowData> stock = KafkaConnector.invoke(source, "createKafkaSource",
                new Class<?>[] {DeserializationSchema.class, DeserializationSchema.class, TypeInformation.class},
                key, value, producedInfo);
        NativeKafkaSource nativeSource = new NativeKafkaSource(stock, scanJson, (RowType) produced.getLogicalType());
        WatermarkStrategy<NativeBatch> strategy = WatermarkStrategy.noWatermarks();
        if (watermark) {
            strategy = WatermarkStrategy.forGenerator(new FetchWatermarks());
            if (idleTimeoutMillis > 0) {
                strategy = strategy.withIdleness(Duration.ofMillis(idleTimeoutMillis));
            }
        }
        String identifier = KafkaConnector.field(source, "tableIdentifier");
        return env.fromSource(nativeSource, strategy, "KafkaSource-" + identifier, NativeBatchTypeInfo.INSTANCE)
                .getTransformation();
    }

    /**
     * The pushed WATERMARK's generator for native batches, as the planner's generated one
     * (GeneratedWatermarkGeneratorSupplier.DefaultWatermarkGenerator, periodic emission) keeps it
     * per split: the maximum so far of the expression over the split's rows, one batch at a time.
     */
    static final class FetchWatermarks implements WatermarkGeneratorSupplier<NativeBatch> {
        private static final long serialVersionUID = 1L;

        @Override
        public WatermarkGenerator<NativeBatch> createWatermarkGenerator(Context context) {
            return new WatermarkGenerator<>() {
                private long current = Long.MIN_VALUE;

                @Override
                public void onEvent(NativeBatch batch, long timestamp, WatermarkOutput output) {
                    current = Math.max(current, batch.watermark());
                }

                @Override
                public void onPeriodicEmit(WatermarkOutput output) {
                    output.emitWatermark(new Watermark(current));
                }
            };
        }
    }
}
