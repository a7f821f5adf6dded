package io.sluice.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL server that {@code make test}, {@code make demo} and {@code make bench} start
 * (bin/sluice-postgres), as its URI is given in SLUICE_PG_URI: ADBC's form for the ADBC sink and
 * catalog, a JDBC URL for Flink's JDBC connector, and statements run through JDBC (PostgreSQL's
 * JDBC driver must be on the class path, as in the tests, demo and benchmarks).
 */
public final class LocalPostgres {
    private LocalPostgres() {}

    /** The server's URI (postgresql://user@host:port/db). */
    public static String uri() {
        String uri = System.getenv("SLUICE_PG_URI");
        if (uri == null || uri.isEmpty()) {
            throw new IllegalStateException("SLUICE_PG_URI is not set: run through make (`make test`, `make demo`, `make bench` "
                    + "start the server), or `make postgres` and `eval $(make -s env)`");
        }
        return uri;
    }

    /** The server as a JDBC URL; {@code rewriteBatches}: PgJDBC sends JDBC batches as multi-row INSERTs. */
    public static String jdbcUrl(boolean rewriteBatches) {
        java.net.URI u = java.net.URI.create(uri());
        return "jdbc:postgresql://" + u.getHost() + ":" + u.getPort() + u.getPath() + "?user=" + u.getUserInfo()
                + (rewriteBatches ? "&reWriteBatchedInserts=true" : "");
    }

    /** Runs statements, in order. */
    public static void execute(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl(false)); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** A query's rows as PostgreSQL renders their values, columns joined by " | ". */
    public static List<String> rows(String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl(false));
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? " | " : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    /** The first value of a query's first row. */
    public static String value(String query) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl(false));
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            if (!rs.next()) {
                throw new SQLException("no row: " + query);
            }
            return rs.getString(1);
        }
    }
}
