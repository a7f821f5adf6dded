package io.sluice.testing;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test sink ('connector' = 'sluice-test-sink', 'sink-id' = id) that appends every row it
 * receives to a list kept in this JVM under its id, across jobs: a job stopped with a savepoint
 * and its restored successors write to the same list.
 */
public class RowsSinkFactory implements DynamicTableSinkFactory {
    public static final String IDENTIFIER = "sluice-test-sink";
    private static final Map<String, List<Row>> ROWS = new ConcurrentHashMap<>();

    static final ConfigOption<String> SINK_ID = ConfigOptions.key("sink-id").stringType().noDefaultValue();
    /**
     * 'changelog' = 'all' takes updates and deletes (rows keep their RowKinds); 'upsert' takes
     * them without UPDATE_BEFORE (a table with a primary key); inserts only otherwise.
     */
    static final ConfigOption<String> CHANGELOG = ConfigOptions.key("changelog").stringType().defaultValue("insert-only");

    /** The rows written under id so far (a copy). */
    public static List<Row> rows(String id) {
        List<Row> rows = ROWS.getOrDefault(id, List.of());
        synchronized (rows) {
            return new ArrayList<>(rows);
        }
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(SINK_ID);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(CHANGELOG);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        String changelog = helper.getOptions().get(CHANGELOG);
        ChangelogMode mode = switch (changelog) {
            case "all" -> ChangelogMode.all();
            case "upsert" -> ChangelogMode.upsert();
            case "insert-only" -> ChangelogMode.insertOnly();
            default -> throw new org.apache.flink.table.api.ValidationException(
                    "'changelog' must be 'all', 'upsert' or 'insert-only', not '" + changelog + "'");
        };
        if (changelog.equals("upsert") && context.getCatalogTable().getResolvedSchema().getPrimaryKey().isEmpty()) {
            throw new org.apache.flink.table.api.ValidationException("'changelog' = 'upsert' needs a primary key");
        }
        return new TableSink(helper.getOptions().get(SINK_ID), context.getPhysicalRowDataType(), mode);
    }

    private record TableSink(String id, org.apache.flink.table.types.DataType type, ChangelogMode mode) implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requested) {
            return mode;
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            DataStructureConverter converter = context.createDataStructureConverter(type);
            return SinkV2Provider.of(new ListSink(id, converter));
        }

        @Override
        public DynamicTableSink copy() {
            return new TableSink(id, type, mode);
        }

        @Override
        public String asSummaryString() {
            return IDENTIFIER;
        }
    }

    private static final class ListSink implements Sink<RowData> {
        private static final long serialVersionUID = 1L;
        private final String id;
        private final DynamicTableSink.DataStructureConverter converter;

        ListSink(String id, DynamicTableSink.DataStructureConverter converter) {
            this.id = id;
            this.converter = converter;
        }

        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            converter.open(RuntimeConverter.Context.create(RowsSinkFactory.class.getClassLoader()));
            List<Row> rows = ROWS.computeIfAbsent(id, k -> Collections.synchronizedList(new ArrayList<>()));
            return new SinkWriter<>() {
                @Override
                public void write(RowData element, Context ctx) {
                    rows.add((Row) converter.toExternal(element));
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
