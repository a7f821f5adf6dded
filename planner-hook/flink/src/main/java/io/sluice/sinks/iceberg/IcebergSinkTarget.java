package io.sluice.sinks.iceberg;

import io.sluice.iceberg.IcebergConnector;
import io.sluice.runtime.NativeBatch;
import io.sluice.sinks.NativeSink;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.flink.FlinkConfigOptions;
import org.apache.iceberg.flink.FlinkWriteConf;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkWriteResult;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.flink.sink.TaskWriterFactory;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.iceberg.util.PropertyUtil;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.sluice.iceberg.IcebergConnector.construct;
import static io.sluice.iceberg.IcebergConnector.field;
import static io.sluice.iceberg.IcebergConnector.invoke;

/**
 * An insert into an Iceberg table (Flink's IcebergTableSink, for an Iceberg catalog's table or a
 * {@code 'connector' = 'iceberg'} table) whose data files Go writes: the connector's sink
 * operators are built as its table sink builds them (the v1 FlinkSink's writer operator and
 * files committer by default, the v2 IcebergSink with 'table.exec.iceberg.use-v2-sink'), with
 * {@link NativeIcebergTaskWriter} as the task writer. Only load this class when
 * {@link #isIcebergSink} is true: the connector is optional on the class path.
 */
public final class IcebergSinkTarget implements NativeSink {
    /** The class name of Flink's Iceberg table sink. */
    public static final String SINK_CLASS = "org.apache.iceberg.flink.IcebergTableSink";

    /** The write.parquet.* properties the native writer applies or that do not change what is read. */
    private static final Set<String> PARQUET_PROPERTIES = Set.of(
            TableProperties.PARQUET_COMPRESSION, TableProperties.PARQUET_COMPRESSION_LEVEL,
            TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, TableProperties.PARQUET_PAGE_SIZE_BYTES,
            TableProperties.PARQUET_DICT_SIZE_BYTES, TableProperties.PARQUET_PAGE_ROW_LIMIT,
            "write.parquet.row-group-check-min-record-count", "write.parquet.row-group-check-max-record-count");

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String table;
    private final TableLoader loader;
    private final ResolvedSchema schema;
    private final ReadableConfig readableConfig;
    private final Map<String, String> writeProps;
    private final boolean overwrite;
    private final boolean dynamic;
    private final boolean insertOnly;

    private IcebergSinkTarget(String table, DynamicTableSink sink, boolean insertOnly) {
        this.table = table;
        this.loader = field(sink, "tableLoader");
        this.schema = field(sink, "resolvedSchema");
        this.readableConfig = field(sink, "readableConfig");
        this.writeProps = field(sink, "writeProps");
        this.overwrite = field(sink, "overwrite");
        this.dynamic = field(sink, "useDynamicSink");
        this.insertOnly = insertOnly;
    }

    /** True if {@code sink} is Flink's Iceberg table sink. */
    public static boolean isIcebergSink(DynamicTableSink sink) {
        return sink.getClass().getName().equals(SINK_CLASS);
    }

    /**
     * The native sink of an Iceberg table sink ({@link #isIcebergSink} must hold);
     * {@code insertOnly}: whether the sink's input only inserts.
     */
    public static IcebergSinkTarget of(String table, DynamicTableSink sink, boolean insertOnly) {
        return new IcebergSinkTarget(table, sink, insertOnly);
    }

    private Table loadTable() {
        return IcebergConnector.loadTable(loader);
    }

    /** The physical columns written, as the connector's table sink takes them. */
    private List<Column> physicalColumns() {
        return schema.getColumns().stream().filter(Column::isPhysical).collect(Collectors.toList());
    }

    /**
     * The description Go judges and writes with (node type {@code sluice-iceberg-sink_1}): the
     * table's columns in the order of the sink's input with their field ids and Iceberg types, the
     * schema, the Parquet write properties, and what else decides whether Go writes the files.
     */
    public ObjectNode describe() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", 0);
        n.put("type", "sluice-iceberg-sink_1");
        n.put("table", table);
        ArrayNode unsupported = n.putArray("unsupported");
        if (dynamic) {
            unsupported.add("the dynamic Iceberg sink is not native yet");
            return n;
        }
        if (schema == null) {
            unsupported.add("an Iceberg sink without a resolved schema is not native");
            return n;
        }
        if (!insertOnly) {
            unsupported.add("only insert-only input is written natively");
        }
        if (overwrite) {
            unsupported.add("INSERT OVERWRITE is not native yet");
        }
        Table t = loadTable();
        FlinkWriteConf conf = new FlinkWriteConf(t, writeProps, readableConfig);
        if (conf.upsertMode() || !t.schema().identifierFieldIds().isEmpty() || schema.getPrimaryKey().isPresent()) {
            unsupported.add("upserts and equality fields (primary keys) are not written natively yet");
        }
        if (conf.dataFileFormat() != FileFormat.PARQUET) {
            unsupported.add("data files in " + conf.dataFileFormat() + " are not written natively (Parquet only)");
        }
        if (conf.writeParallelism() != null) {
            unsupported.add("'write-parallelism' is not native yet");
        }
        if (conf.tableRefreshInterval() != null) {
            unsupported.add("'table-refresh-interval' is not native yet (the native writer keeps the table of the job's start)");
        }
        if (conf.distributionMode() == DistributionMode.RANGE) {
            unsupported.add("the RANGE write distribution mode is not native yet");
        }
        if (TableUtil.formatVersion(t) > 2) {
            unsupported.add("Iceberg format version " + TableUtil.formatVersion(t) + " tables are not written natively yet");
        }
        if (t.properties().keySet().stream().anyMatch(k -> k.startsWith("encryption."))) {
            unsupported.add("encrypted Iceberg tables are not written natively");
        }
        for (String k : t.properties().keySet()) {
            if (k.startsWith("write.parquet.") && !PARQUET_PROPERTIES.contains(k)) {
                unsupported.add("the table property '" + k + "' is not applied natively");
            }
        }
        List<Column> columns = physicalColumns();
        if (columns.size() != t.schema().columns().size()) {
            unsupported.add("the sink writes " + columns.size() + " columns of the table's " + t.schema().columns().size());
        }
        ArrayNode fields = n.putArray("fields");
        for (Column c : columns) {
            NestedField f = t.schema().findField(c.getName());
            if (f == null) {
                unsupported.add("column " + c.getName() + " is not in the table's current schema");
                continue;
            }
            // notNull: the sink's column is NOT NULL in Flink, which Flink's ConstraintEnforcer checks.
            fields.addObject().put("id", f.fieldId()).put("name", f.name())
                    .put("type", f.type().toString()).put("required", f.isRequired())
                    .put("notNull", !c.getDataType().getLogicalType().isNullable());
        }
        ArrayNode partition = n.putArray("partition");
        for (PartitionField f : t.spec().fields()) {
            partition.addObject().put("sourceId", f.sourceId()).put("transform", f.transform().toString());
        }
        n.put("schema", SchemaParser.toJson(t.schema()));
        ObjectNode parquet = n.putObject("parquet");
        parquet.put("codec", conf.parquetCompressionCodec());
        if (conf.parquetCompressionLevel() != null) {
            parquet.put("level", Integer.parseInt(conf.parquetCompressionLevel()));
        }
        Map<String, String> props = t.properties();
        parquet.put("rowGroupBytes", PropertyUtil.propertyAsLong(props,
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES_DEFAULT));
        parquet.put("pageBytes", PropertyUtil.propertyAsLong(props,
                TableProperties.PARQUET_PAGE_SIZE_BYTES, TableProperties.PARQUET_PAGE_SIZE_BYTES_DEFAULT));
        parquet.put("dictBytes", PropertyUtil.propertyAsLong(props,
                TableProperties.PARQUET_DICT_SIZE_BYTES, TableProperties.PARQUET_DICT_SIZE_BYTES_DEFAULT));
        return n;
    }

    @Override
    public String operatorName() {
        return "sluice-iceberg-sink";
    }

    /**
     * The sink's operators over the native batches of {@code input}, as the connector's table
     * sink builds them for the same table and options (with the connector's own names and uids),
     * writing data files natively.
     */
    @Override
    @SuppressWarnings("unchecked")
    public Transformation<?> transformation(DataStream<NativeBatch> input, byte[] sinkJson, String uidPrefix) {
        Table t = loadTable();
        FlinkWriteConf conf = new FlinkWriteConf(t, writeProps, readableConfig);
        TaskWriterFactory<NativeBatch> files = new NativeIcebergTaskWriterFactory(t, sinkJson, conf.targetDataFileSize());
        ResolvedSchema physical = ResolvedSchema.of(physicalColumns());
        if (!t.spec().isUnpartitioned() && conf.distributionMode() == DistributionMode.HASH) {
            // The connector keys the rows by their partition's path (PartitionKeySelector): Go
            // splits the batches by partition, and Flink shuffles the parts by that path.
            input = input.flatMap(new IcebergPartitionSplitter(t.spec(), sinkJson), input.getType())
                    .name("sluice-iceberg-partitioner")
                    .uid(uidPrefix + "-partitioner")
                    .setParallelism(input.getParallelism())
                    .keyBy(NativeBatch::partition, Types.STRING);
        }
        if (readableConfig.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_USE_V2_SINK)) {
            IcebergSink.Builder builder = IcebergSink.forRowData((DataStream<RowData>) null)
                    .tableLoader(loader)
                    .overwrite(overwrite)
                    .setAll(writeProps)
                    .flinkConf(readableConfig)
                    .resolvedSchema(physical);
            IcebergSink connector = invoke(builder, "build", new Class<?>[0]);
            String name = conf.uidSuffix() == null || conf.uidSuffix().isEmpty() ? t.name() : conf.uidSuffix();
            return input.sinkTo(new NativeIcebergSink<>(connector, files)).uid(name).name(name)
                    .setParallelism(input.getParallelism()).getTransformation();
        }
        // The v1 FlinkSink: its writer operator (flushes the task writer before each checkpoint
        // barrier and at the end of input) and its single files committer.
        OneInputStreamOperator<NativeBatch, FlinkWriteResult> writer = construct(
                "org.apache.iceberg.flink.sink.IcebergStreamWriter",
                new Class<?>[] {String.class, TaskWriterFactory.class}, t.name(), files);
        SingleOutputStreamOperator<FlinkWriteResult> written = input
                .transform("IcebergStreamWriter", TypeInformation.of(FlinkWriteResult.class), writer)
                .setParallelism(input.getParallelism());
        OneInputStreamOperatorFactory<FlinkWriteResult, Void> committer = construct(
                "org.apache.iceberg.flink.sink.IcebergFilesCommitterFactory",
                new Class<?>[] {TableLoader.class, boolean.class, Map.class, int.class, String.class, PartitionSpec.class},
                loader, conf.overwriteMode(), Map.of(), conf.workerPoolSize(), conf.branch(), t.spec());
        SingleOutputStreamOperator<Void> committed = written
                .transform("IcebergFilesCommitter", Types.VOID, committer)
                .setParallelism(1)
                .setMaxParallelism(1);
        return committed.sinkTo(new DiscardingSink<>())
                .name("IcebergSink " + t.name())
                .setParallelism(1)
                .getTransformation();
    }
}
