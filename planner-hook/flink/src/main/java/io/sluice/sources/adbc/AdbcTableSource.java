package io.sluice.sources.adbc;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchTypeInfo;
import io.sluice.sources.NativeSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The bounded scan of an ADBC table: Go runs {@code SELECT <projected columns> FROM <table>}
 * (one query per partition of 'scan.partition.column') through the table's driver. When the
 * job's island is native, Sluice's planner stage reads the Arrow batches into the chain ({@link
 * #nativeSource}); a job that runs on Flink reads the same queries as rows.
 */
public final class AdbcTableSource implements ScanTableSource, SupportsProjectionPushDown {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String table;
    private final Map<String, String> options;
    private RowType produced;

    /**
     * @param table the Flink table's identifier
     * @param options the table's options
     * @param physical the table's physical columns as a row type
     */
    public AdbcTableSource(String table, Map<String, String> options, RowType physical) {
        this.table = table;
        this.options = options;
        this.produced = physical;
    }

    /** The Flink table's identifier. */
    public String table() {
        return table;
    }

    /**
     * The scan's description for Go (node type {@code sluice-adbc-scan_1}): the table, its
     * options and the columns read.
     */
    public ObjectNode describeNode() {
        ObjectNode node = MAPPER.createObjectNode().put("type", "sluice-adbc-scan_1").put("table", table);
        ObjectNode opts = node.putObject("options");
        options.forEach(opts::put);
        ArrayNode fields = node.putArray("fields");
        for (RowType.RowField f : produced.getFields()) {
            fields.addObject().put("name", f.getName()).put("type", f.getType().asSerializableString());
        }
        return node;
    }

    private byte[] describe() {
        return describeNode().toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Checks the scan's options and columns in Go and returns the number of splits it reads;
     * throws a ValidationException naming the mistake.
     */
    public int check() {
        NativeLib.ensureLoaded();
        try {
            return NativeLib.adbcScanCheck(describe());
        } catch (RuntimeException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        DataType type = org.apache.flink.table.types.utils.TypeConversions.fromLogicalToDataType(produced);
        return SourceProvider.of(AdbcSource.rows(
                describe(), check(), produced.getFieldCount(), context.createTypeInformation(type)));
    }

    /** The native source of this scan, read from the island JSON of its scan node. */
    public NativeSource nativeSource() {
        int splits = check();
        return new NativeSource() {
            private byte[] scanJson;

            @Override
            public Transformation<NativeBatch> transformation(StreamExecutionEnvironment env) {
                return env.fromSource(AdbcSource.batches(scanJson, splits), WatermarkStrategy.noWatermarks(),
                                "AdbcSource-" + table, NativeBatchTypeInfo.INSTANCE)
                        .getTransformation();
            }

            @Override
            public String table() {
                return table;
            }

            @Override
            public NativeSource withScanJson(byte[] json) {
                this.scanJson = json;
                return this;
            }
        };
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        this.produced = (RowType) producedDataType.getLogicalType();
    }

    @Override
    public DynamicTableSource copy() {
        return new AdbcTableSource(table, options, produced);
    }

    @Override
    public String asSummaryString() {
        return "ADBC";
    }
}
