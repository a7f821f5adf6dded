package io.sluice.sinks.adbc;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The sink of an ADBC table. A job that runs on Flink writes Flink's rows through it (Go
 * transposes them to Arrow); when the job's island is native, Sluice's planner stage replaces it
 * by {@link AdbcNativeSink}, fed with the chain's Arrow batches. Both paths are the same
 * {@link AdbcSink}: one Go writer per subtask, one committer.
 */
public final class AdbcTableSink implements DynamicTableSink {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String table;
    private final Map<String, String> options;
    private final List<Column> columns;
    private final Duration flushInterval;
    /** The table's primary key columns (empty: none). */
    private final List<String> primaryKey;

    AdbcTableSink(String table, Map<String, String> options, List<Column> columns, Duration flushInterval, List<String> primaryKey) {
        this.table = table;
        this.options = options;
        this.columns = columns;
        this.flushInterval = flushInterval;
        this.primaryKey = primaryKey;
    }

    /** The Flink table's identifier. */
    public String table() {
        return table;
    }

    /** The sink's interval of buffer flushes (zero: none). */
    public Duration flushInterval() {
        return flushInterval;
    }

    /**
     * The sink's description for Go (node type {@code sluice-adbc-sink_1}): the table, its
     * options and columns; {@code insertOnly}: its input has inserts only.
     */
    public byte[] describe(boolean insertOnly) {
        return MAPPER.createObjectNode().setAll(describeNode(insertOnly, false)).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * {@link #describe} as a JSON node; {@code upsertMaterialize}: Flink puts its
     * SinkUpsertMaterializer in front of the sink.
     */
    public ObjectNode describeNode(boolean insertOnly, boolean upsertMaterialize) {
        ObjectNode node = MAPPER.createObjectNode().put("type", "sluice-adbc-sink_1").put("table", table);
        ObjectNode opts = node.putObject("options");
        options.forEach(opts::put);
        ArrayNode cols = node.putArray("columns");
        for (Column c : columns) {
            cols.addObject().put("name", c.getName()).put("type", c.getDataType().getLogicalType().asSerializableString());
        }
        if (!primaryKey.isEmpty()) {
            ArrayNode keys = node.putArray("primaryKey");
            primaryKey.forEach(keys::add);
        }
        node.put("insertOnly", insertOnly);
        node.put("upsertMaterialize", upsertMaterialize);
        return node;
    }

    /** The row type of the table's physical columns. */
    RowType rowType() {
        return RowType.of(
                columns.stream().map(c -> c.getDataType().getLogicalType()).toArray(LogicalType[]::new),
                columns.stream().map(Column::getName).toArray(String[]::new));
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (!primaryKey.isEmpty() && !"append".equalsIgnoreCase(options.get("sink.mode"))) {
            // Upserts by the key, as Flink's JDBC sink with a primary key takes them.
            return ChangelogMode.newBuilder()
                    .addContainedKind(RowKind.INSERT)
                    .addContainedKind(RowKind.UPDATE_AFTER)
                    .addContainedKind(RowKind.DELETE)
                    .build();
        }
        for (RowKind kind : requestedMode.getContainedKinds()) {
            if (kind != RowKind.INSERT) {
                // As Flink's JDBC sink without a primary key: an append table takes inserts only.
                throw new ValidationException("adbc table " + table + ": the query produces updates or deletes ("
                        + requestedMode + "), but the table has no PRIMARY KEY and is written in append mode");
            }
        }
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        // The planner gave an append table inserts only (getChangelogMode); an upsert table's
        // writer takes every RowKind.
        return SinkV2Provider.of(AdbcSink.<RowData>forRows(describe(true), rowType(), flushInterval));
    }

    @Override
    public DynamicTableSink copy() {
        return new AdbcTableSink(table, options, columns, flushInterval, primaryKey);
    }

    @Override
    public String asSummaryString() {
        return "ADBC(" + options.get("driver") + ")";
    }
}
