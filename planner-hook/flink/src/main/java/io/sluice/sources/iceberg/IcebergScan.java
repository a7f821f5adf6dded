package io.sluice.sources.iceberg;

import io.sluice.iceberg.IcebergConnector;
import io.sluice.runtime.NativeBatch;
import io.sluice.runtime.NativeBatchTypeInfo;
import io.sluice.sources.NativeSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.types.logical.LogicalType;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.iceberg.BaseMetadataTable;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.flink.FlinkConfigOptions;
import org.apache.iceberg.flink.FlinkReadConf;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.FlinkReadOptions;
import org.apache.iceberg.flink.source.IcebergSource;
import org.apache.iceberg.flink.source.StreamingStartingStrategy;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.sluice.iceberg.IcebergConnector.field;
import static io.sluice.iceberg.IcebergConnector.invoke;

/**
 * A scan of an Iceberg table (Flink's IcebergTableSource, from an Iceberg catalog or a
 * {@code 'connector' = 'iceberg'} table) read natively: Flink's Iceberg source (FLIP-27: split
 * planning, assignment, positions in checkpoints, exactly as the connector configures it for the
 * same table, options, projection and filters) with {@link NativeIcebergReader}, whose reader
 * is Go.
 *
 * <p>The connector keeps its state in private fields and has no API to replace its reader, so
 * they are read by reflection; the pinned connector version (iceberg-flink-runtime-2.1 1.11.0)
 * is what the tests cover. Only load this class when {@link #isIcebergSource} is true: the
 * connector is optional on the class path.
 */
public final class IcebergScan implements NativeSource {
    /** The class name of Flink's Iceberg table source. */
    public static final String SOURCE_CLASS = "org.apache.iceberg.flink.source.IcebergTableSource";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String table;
    private final TableLoader loader;
    private final ResolvedSchema schema;
    private final Map<String, String> properties;
    private final int[] projectedFields;
    private final Long limit;
    private final List<Expression> filters;
    private final ReadableConfig readableConfig;
    private byte[] scanJson;

    private IcebergScan(String table, DynamicTableSource source) {
        this.table = table;
        this.loader = field(source, "loader");
        this.schema = field(source, "schema");
        this.properties = field(source, "properties");
        this.projectedFields = field(source, "projectedFields");
        this.limit = field(source, "limit");
        this.filters = field(source, "filters");
        this.readableConfig = field(source, "readableConfig");
    }

    /** True if {@code source} is Flink's Iceberg table source. */
    public static boolean isIcebergSource(DynamicTableSource source) {
        return source.getClass().getName().equals(SOURCE_CLASS);
    }

    /** The native scan of an Iceberg table source ({@link #isIcebergSource} must hold). */
    public static IcebergScan of(String table, DynamicTableSource source) {
        return new IcebergScan(table, source);
    }

    @Override
    public String table() {
        return table;
    }

    /** The projected columns, as the connector computes them. */
    ResolvedSchema projectedSchema() {
        if (projectedFields == null) {
            return schema;
        }
        List<Column> all = schema.getColumns();
        return ResolvedSchema.of(Arrays.stream(projectedFields).mapToObj(all::get).collect(Collectors.toList()));
    }

    private Table loadTable() {
        return IcebergConnector.loadTable(loader);
    }

    /**
     * The description Go judges and reads with (node type {@code sluice-iceberg-scan_1}): the
     * projected columns with their Iceberg field ids and Flink types, and the facts that decide
     * whether the scan is native.
     */
    public ObjectNode describe() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", 0);
        n.put("type", "sluice-iceberg-scan_1");
        n.put("table", table);
        ArrayNode unsupported = n.putArray("unsupported");
        Table t = loadTable();
        if (t instanceof BaseMetadataTable) {
            unsupported.add("Iceberg metadata tables are not read natively");
        }
        ArrayNode fields = n.putArray("fields");
        for (Column c : projectedSchema().getColumns()) {
            ObjectNode f = fields.addObject();
            Types.NestedField nf = t.schema().findField(c.getName());
            f.put("id", nf == null ? -1 : nf.fieldId());
            f.put("name", c.getName());
            LogicalType lt = c.getDataType().getLogicalType();
            f.put("type", lt.asSerializableString());
            if (nf == null) {
                unsupported.add("column " + c.getName() + " is not in the table's current schema");
            }
        }
        // The field ids of nested columns' parts, which the Parquet files are read by.
        n.put("schema", SchemaParser.toJson(t.schema()));
        FlinkReadConf conf = new FlinkReadConf(t, properties, readableConfig);
        n.put("streaming", conf.streaming());
        if (limit != null && limit > 0) {
            n.put("limit", limit);
        }
        if (conf.watermarkColumn() != null) {
            n.put("watermarkColumn", conf.watermarkColumn());
        }
        n.put("fileFormat", t.properties().getOrDefault(
                TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT).toLowerCase());
        if (conf.branch() != null || conf.tag() != null || conf.asOfTimestamp() != null
                || conf.startTag() != null || conf.endTag() != null) {
            unsupported.add("reads of a branch, tag or timestamp are not native yet");
        }
        if (conf.streaming() && !flip27() && (conf.startSnapshotId() != null || conf.startSnapshotTimestamp() != null
                || conf.endSnapshotId() != null || properties.containsKey(FlinkReadOptions.STARTING_STRATEGY)
                || readableConfig.getOptional(FlinkReadOptions.STARTING_STRATEGY_OPTION).isPresent())) {
            // Flink SQL's default (legacy) streaming source reads from a start snapshot exclusively;
            // the FLIP-27 source the native scan uses has other starting strategies.
            unsupported.add("streaming reads with start or end options are not native yet");
        }
        if (TableUtil.formatVersion(t) >= 3) {
            // v3 columns can have initial defaults, which the connector fills in for old files.
            unsupported.add("Iceberg format version " + TableUtil.formatVersion(t) + " tables are not read natively yet");
        }
        if (t.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)) {
            // Files without Parquet field ids (imported files) are read through the name mapping.
            n.put("nameMapping", t.properties().get(TableProperties.DEFAULT_NAME_MAPPING));
        }
        if (filters != null && !filters.isEmpty()) {
            // The connector's reader also drops the rows its pushed filters reject, comparing
            // floating-point values with Double#compareTo (-0.0 < 0.0, NaN greatest), which
            // Flink's own comparisons do not: the native reader does not filter, so such filters
            // keep the scan on Flink's reader.
            for (int id : Binder.boundReferences(t.schema().asStruct(), filters, false)) {
                Types.NestedField f = t.schema().findField(id);
                if (f != null && (f.type().typeId() == Type.TypeID.FLOAT || f.type().typeId() == Type.TypeID.DOUBLE)) {
                    unsupported.add("a filter on the floating-point column " + f.name() + " is pushed into the Iceberg source"
                            + " (its reader compares with Double#compareTo)");
                }
            }
        }
        if (properties.containsKey("scan.parallelism")) {
            // Flink's planner sets it on the connector's stream; the native scan infers its own.
            unsupported.add("'scan.parallelism' is not native yet");
        }
        Snapshot snapshot = conf.snapshotId() != null ? t.snapshot(conf.snapshotId()) : t.currentSnapshot();
        if (snapshot != null) {
            String deletes = snapshot.summary().getOrDefault("total-delete-files", "0");
            n.put("deleteFiles", Long.parseLong(deletes));
            if (Long.parseLong(deletes) > 0 || !snapshot.summary().containsKey("total-delete-files")) {
                n.put("equalityDeletes", equalityDeleteFiles(t, snapshot));
            }
        }
        return n;
    }

    /**
     * The live equality delete files of a snapshot, from its delete manifests (the summary's
     * totals can be missing, and count records, not files).
     */
    private static long equalityDeleteFiles(Table t, Snapshot snapshot) {
        long n = 0;
        for (ManifestFile m : snapshot.deleteManifests(t.io())) {
            try (CloseableIterable<DeleteFile> files = ManifestFiles.readDeleteManifest(m, t.io(), t.specs())) {
                for (DeleteFile f : files) {
                    if (f.content() == FileContent.EQUALITY_DELETES) {
                        n++;
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return n;
    }

    @Override
    public NativeSource withScanJson(byte[] scanJson) {
        this.scanJson = scanJson;
        return this;
    }

    /** True when Flink SQL plans Iceberg scans with the FLIP-27 source too (not the default). */
    private boolean flip27() {
        return readableConfig.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_USE_FLIP27_SOURCE);
    }

    @Override
    public Transformation<NativeBatch> transformation(StreamExecutionEnvironment env) {
        IcebergSource.Builder<NativeBatch> builder = IcebergSource.<NativeBatch>builder();
        if (!flip27()) {
            // Flink SQL's default streaming source (StreamingMonitorFunction) reads the table's
            // current snapshot, then the appends of every later snapshot: the FLIP-27 source's
            // TABLE_SCAN_THEN_INCREMENTAL (its own default, used when Flink SQL is configured to
            // plan FLIP-27 sources, starts from the latest snapshot instead).
            builder.streamingStartingStrategy(StreamingStartingStrategy.TABLE_SCAN_THEN_INCREMENTAL);
        }
        IcebergSource<NativeBatch> source = builder
                .tableLoader(loader.clone())
                .assignerFactory(readableConfig.get(FlinkConfigOptions.TABLE_EXEC_SPLIT_ASSIGNER_TYPE).factory())
                .setAll(properties)
                .project(projectedSchema())
                .limit(limit)
                .filters(filters)
                .flinkConfig(readableConfig)
                .readerFunction(new NativeIcebergReader(scanJson))
                .build();
        DataStreamSource<NativeBatch> stream =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "IcebergSource-" + table, NativeBatchTypeInfo.INSTANCE);
        // The parallelism the connector gives its bounded sources (one subtask per split, up to
        // 'table.exec.iceberg.infer-source-parallelism.max'), which it keeps private.
        if (invoke(source, "shouldInferParallelism", new Class<?>[0])) {
            stream.setParallelism(invoke(source, "inferParallelism",
                    new Class<?>[] {ReadableConfig.class, StreamExecutionEnvironment.class}, readableConfig, env));
        }
        return stream.getTransformation();
    }
}
