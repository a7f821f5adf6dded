package io.sluice.catalog.adbc;

import io.sluice.jni.NativeLib;
import io.sluice.sinks.adbc.AdbcTableFactory;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.table.types.utils.TypeConversions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A database reached through ADBC as a Flink catalog: its schemas are the catalog's databases,
 * their tables and views its tables, with column types mapped as Flink's JDBC catalog for
 * PostgreSQL maps them (Go: catalog/adbc). The catalog's tables are {@code 'connector' = 'adbc'}
 * tables (written by the ADBC sink); {@code CREATE TABLE} creates the warehouse table. Each call
 * opens a connection of its own in Go.
 */
public final class AdbcCatalog extends AbstractCatalog {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String driver;
    private final String uri;
    private final String username;
    private final String password;

    AdbcCatalog(String name, String defaultDatabase, String driver, String uri, String username, String password) {
        super(name, defaultDatabase);
        this.driver = driver;
        this.uri = uri;
        this.username = username;
        this.password = password;
    }

    /** Runs a catalog request in Go; returns its JSON answer. */
    private JsonNode call(String op, String schema, String table, java.util.function.Consumer<ObjectNode> more) {
        ObjectNode r = MAPPER.createObjectNode().put("op", op).put("driver", driver).put("uri", uri);
        if (username != null) {
            r.put("username", username);
        }
        if (password != null) {
            r.put("password", password);
        }
        if (schema != null) {
            r.put("schema", schema);
        }
        if (table != null) {
            r.put("table", table);
        }
        if (more != null) {
            more.accept(r);
        }
        NativeLib.ensureLoaded();
        try {
            return MAPPER.readTree(NativeLib.adbcCatalog(r.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (java.io.IOException e) {
            throw new CatalogException("adbc catalog " + getName() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new CatalogException("catalog " + getName() + ": " + e.getMessage(), e);
        }
    }

    private static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Override
    public void open() {
        call("schemas", null, null, null); // fails early on a wrong URI, driver or credentials
    }

    @Override
    public void close() {}

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new AdbcTableFactory());
    }

    @Override
    public List<String> listDatabases() {
        return names(call("schemas", null, null, null));
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(getName(), databaseName);
        }
        return new CatalogDatabaseImpl(Map.of(), null);
    }

    @Override
    public boolean databaseExists(String databaseName) {
        return listDatabases().contains(databaseName);
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists) {
        throw new UnsupportedOperationException("adbc catalog " + getName() + ": CREATE DATABASE is not supported");
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade) {
        throw new UnsupportedOperationException("adbc catalog " + getName() + ": DROP DATABASE is not supported");
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog " + getName() + ": ALTER DATABASE is not supported");
    }

    @Override
    public List<String> listTables(String databaseName) throws DatabaseNotExistException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(getName(), databaseName);
        }
        return names(call("tables", databaseName, null, null));
    }

    @Override
    public List<String> listViews(String databaseName) {
        return List.of();
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        JsonNode t = call("describe", path.getDatabaseName(), path.getObjectName(), null);
        if (t == null || t.isNull()) {
            throw new TableNotExistException(getName(), path);
        }
        Schema.Builder schema = Schema.newBuilder();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (JsonNode c : t.get("columns")) {
            schema.column(c.get("name").asText(),
                    TypeConversions.fromLogicalToDataType(LogicalTypeParser.parse(c.get("type").asText(), loader)));
        }
        if (t.has("primaryKey")) {
            schema.primaryKeyNamed(t.get("primaryKeyName").asText(), names(t.get("primaryKey")));
        }
        Map<String, String> options = new HashMap<>();
        options.put("connector", AdbcTableFactory.IDENTIFIER);
        options.put("driver", driver);
        options.put("uri", uri);
        options.put("db-schema", path.getDatabaseName());
        options.put("table-name", path.getObjectName());
        if (username != null) {
            options.put("username", username);
        }
        if (password != null) {
            options.put("password", password);
        }
        return CatalogTable.newBuilder().schema(schema.build()).options(options).build();
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        JsonNode t = call("describe", path.getDatabaseName(), path.getObjectName(), null);
        return t != null && !t.isNull();
    }

    @Override
    public void dropTable(ObjectPath path, boolean ignoreIfNotExists) throws TableNotExistException {
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        call("drop", path.getDatabaseName(), path.getObjectName(), null);
    }

    @Override
    public void renameTable(ObjectPath path, String newTableName, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog " + getName() + ": renaming tables is not supported");
    }

    @Override
    public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        if (!(table instanceof ResolvedCatalogTable)) {
            throw new CatalogException("adbc catalog " + getName() + ": only tables can be created (not " + table.getTableKind() + ")");
        }
        ResolvedCatalogTable t = (ResolvedCatalogTable) table;
        if (!t.getOptions().isEmpty()) {
            throw new CatalogException("adbc catalog " + getName() + ": table " + path + " takes no WITH options (they come from the catalog): "
                    + t.getOptions().keySet());
        }
        if (!t.getPartitionKeys().isEmpty()) {
            throw new CatalogException("adbc catalog " + getName() + ": partitioned tables are not supported");
        }
        if (!databaseExists(path.getDatabaseName())) {
            throw new DatabaseNotExistException(getName(), path.getDatabaseName());
        }
        if (tableExists(path)) {
            if (ignoreIfExists) {
                return;
            }
            throw new TableAlreadyExistException(getName(), path);
        }
        call("create", path.getDatabaseName(), path.getObjectName(), r -> {
            ArrayNode cols = r.putArray("columns");
            for (Column c : t.getResolvedSchema().getColumns()) {
                if (!c.isPhysical()) {
                    throw new CatalogException("adbc catalog " + getName() + ": column " + c.getName()
                            + " is not a physical column (computed and metadata columns are not supported)");
                }
                cols.addObject().put("name", c.getName()).put("type", c.getDataType().getLogicalType().asSerializableString());
            }
            t.getResolvedSchema().getPrimaryKey().ifPresent(pk -> {
                ArrayNode keys = r.putArray("primaryKey");
                pk.getColumns().forEach(keys::add);
            });
        });
    }

    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog " + getName() + ": ALTER TABLE is not supported");
    }

    // Partitions, functions and statistics: none, as in Flink's JDBC catalog.

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path) {
        return List.of();
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec spec) {
        return List.of();
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(ObjectPath path, List<Expression> filters) {
        return List.of();
    }

    @Override
    public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec) throws PartitionNotExistException {
        throw new PartitionNotExistException(getName(), path, spec);
    }

    @Override
    public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
        return false;
    }

    @Override
    public void createPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition partition, boolean ignoreIfExists) {
        throw new UnsupportedOperationException("adbc catalog: partitions are not supported");
    }

    @Override
    public void dropPartition(ObjectPath path, CatalogPartitionSpec spec, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: partitions are not supported");
    }

    @Override
    public void alterPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition partition, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: partitions are not supported");
    }

    @Override
    public List<String> listFunctions(String dbName) {
        return List.of();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath functionPath) throws FunctionNotExistException {
        throw new FunctionNotExistException(getName(), functionPath);
    }

    @Override
    public boolean functionExists(ObjectPath functionPath) {
        return false;
    }

    @Override
    public void createFunction(ObjectPath functionPath, CatalogFunction function, boolean ignoreIfExists) {
        throw new UnsupportedOperationException("adbc catalog: functions are not supported");
    }

    @Override
    public void alterFunction(ObjectPath functionPath, CatalogFunction newFunction, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: functions are not supported");
    }

    @Override
    public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: functions are not supported");
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath path) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(ObjectPath path, CatalogTableStatistics stats, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: statistics are not supported");
    }

    @Override
    public void alterTableColumnStatistics(ObjectPath path, CatalogColumnStatistics stats, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: statistics are not supported");
    }

    @Override
    public void alterPartitionStatistics(ObjectPath path, CatalogPartitionSpec spec, CatalogTableStatistics stats, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: statistics are not supported");
    }

    @Override
    public void alterPartitionColumnStatistics(ObjectPath path, CatalogPartitionSpec spec, CatalogColumnStatistics stats,
            boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("adbc catalog: statistics are not supported");
    }
}
