package io.sluice.sinks.adbc;

import io.sluice.jni.NativeLib;
import io.sluice.sources.adbc.AdbcTableSource;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code 'connector' = 'adbc'}: a table in a warehouse written and read through an ADBC driver.
 * Go writes the rows (Arrow batches of a native chain, or Flink's rows when the job runs on
 * Flink) by bulk ingestion, committed on checkpoints, and reads them by queries whose Arrow
 * results go into the native chain ({@link AdbcTableSource}; docs/connectors/adbc.md).
 */
public final class AdbcTableFactory implements DynamicTableSinkFactory, DynamicTableSourceFactory {
    /** The connector's identifier. */
    public static final String IDENTIFIER = "adbc";

    static final ConfigOption<String> DRIVER = ConfigOptions.key("driver").stringType().noDefaultValue()
            .withDescription("An ADBC driver name (postgresql, sqlite) or the path of a driver library.");
    static final ConfigOption<String> URI = ConfigOptions.key("uri").stringType().noDefaultValue()
            .withDescription("The database URI the driver connects to.");
    static final ConfigOption<String> TABLE_NAME = ConfigOptions.key("table-name").stringType().noDefaultValue()
            .withDescription("The warehouse table.");
    static final ConfigOption<String> DB_SCHEMA = ConfigOptions.key("db-schema").stringType().noDefaultValue()
            .withDescription("The table's schema (default: the connection's).");
    static final ConfigOption<String> USERNAME = ConfigOptions.key("username").stringType().noDefaultValue();
    static final ConfigOption<String> PASSWORD = ConfigOptions.key("password").stringType().noDefaultValue();
    static final ConfigOption<Integer> MAX_ROWS = ConfigOptions.key("sink.buffer-flush.max-rows").intType()
            .defaultValue(65536).withDescription("Rows buffered before one bulk ingestion.");
    static final ConfigOption<Duration> FLUSH_INTERVAL = ConfigOptions.key("sink.buffer-flush.interval")
            .durationType().defaultValue(Duration.ofSeconds(1))
            .withDescription("Buffered rows are ingested at least this often (0: only when full and at checkpoints).");
    static final ConfigOption<String> DELIVERY_GUARANTEE = ConfigOptions.key("sink.delivery-guarantee")
            .stringType().defaultValue("exactly-once")
            .withDescription("exactly-once (rows visible when their checkpoint completes), at-least-once or none.");
    static final ConfigOption<String> MODE = ConfigOptions.key("sink.mode").stringType().defaultValue("append");
    static final ConfigOption<String> COMMIT_TABLE = ConfigOptions.key("sink.commit-table").stringType()
            .defaultValue("sluice_commits")
            .withDescription("The table recording the checkpoints an exactly-once sink committed.");

    static final ConfigOption<String> COMMIT_MODE = ConfigOptions.key("sink.commit-mode").stringType()
            .defaultValue("auto")
            .withDescription("How exactly-once checkpoints are committed: two-phase (PostgreSQL prepared transactions), "
                    + "stage (stage tables) or auto (two-phase where the server allows it and the sink has a "
                    + "transactional-id prefix).");
    static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX = ConfigOptions.key("sink.transactional-id-prefix")
            .stringType().noDefaultValue()
            .withDescription("Names the sink's prepared transactions and stage tables in every job, so that a job "
                    + "restored from a savepoint or started anew rolls back what an earlier job left; unique per job.");
    static final ConfigOption<String> PARTITION_COLUMN = ConfigOptions.key("scan.partition.column").stringType()
            .noDefaultValue().withDescription("The integer column whose ranges split the scan into queries.");
    static final ConfigOption<Integer> PARTITION_NUM = ConfigOptions.key("scan.partition.num").intType()
            .noDefaultValue().withDescription("The number of ranges (queries) of a partitioned scan.");
    static final ConfigOption<Long> PARTITION_LOWER = ConfigOptions.key("scan.partition.lower-bound").longType()
            .noDefaultValue().withDescription("The smallest value of the first range.");
    static final ConfigOption<Long> PARTITION_UPPER = ConfigOptions.key("scan.partition.upper-bound").longType()
            .noDefaultValue().withDescription("The largest value of the last range.");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(DRIVER, URI, TABLE_NAME);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(DB_SCHEMA, USERNAME, PASSWORD, MAX_ROWS, FLUSH_INTERVAL, DELIVERY_GUARANTEE, MODE, COMMIT_TABLE,
                COMMIT_MODE, TRANSACTIONAL_ID_PREFIX, PARTITION_COLUMN, PARTITION_NUM, PARTITION_LOWER, PARTITION_UPPER);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        List<Column> columns = schema.getColumns().stream().filter(Column::isPhysical).toList();
        AdbcTableSink sink = new AdbcTableSink(
                context.getObjectIdentifier().asSummaryString(),
                context.getCatalogTable().getOptions(),
                columns,
                helper.getOptions().get(FLUSH_INTERVAL),
                schema.getPrimaryKey().map(k -> k.getColumns()).orElse(List.of()));
        NativeLib.ensureLoaded();
        try {
            NativeLib.adbcSinkCheck(sink.describe(true));
        } catch (RuntimeException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        return sink;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.createTableFactoryHelper(this, context).validate();
        AdbcTableSource source = new AdbcTableSource(
                context.getObjectIdentifier().asSummaryString(),
                context.getCatalogTable().getOptions(),
                (RowType) context.getPhysicalRowDataType().getLogicalType());
        source.check();
        return source;
    }
}
