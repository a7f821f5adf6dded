package io.sluice.testing;

import io.sluice.fuzz.FuzzCases;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server of a test's own (bin/sluice-postgres on another port than the shared one,
 * with a data directory of its own), which the test may kill and start again.
 */
public final class PostgresServer {
    private final int port;
    private final String uri;

    private PostgresServer(int port, String uri) {
        this.port = port;
        this.uri = uri;
    }

    /** Starts (initialising it the first time) the server on {@code port}. */
    public static PostgresServer start(int port) throws IOException, InterruptedException {
        return new PostgresServer(port, run(port, "start").trim());
    }

    /** The server's URI (ADBC's form). */
    public String uri() {
        return uri;
    }

    /** The server as a JDBC URL. */
    public String jdbcUrl() {
        java.net.URI u = java.net.URI.create(uri);
        return "jdbc:postgresql://" + u.getHost() + ":" + u.getPort() + u.getPath() + "?user=" + u.getUserInfo();
    }

    /** Starts the server again (after {@link #kill}). */
    public void restart() throws IOException, InterruptedException {
        run(port, "start");
    }

    /** Stops the server as a crash would: immediate shutdown, clients cut off. */
    public void kill() throws IOException, InterruptedException {
        run(port, "kill");
    }

    /** Stops the server. */
    public void stop() throws IOException, InterruptedException {
        run(port, "stop");
    }

    private static String run(int port, String command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(FuzzCases.repoRoot().resolve("bin/sluice-postgres").toString(), command)
                .redirectErrorStream(true);
        pb.environment().put("SLUICE_PG_PORT", Integer.toString(port));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("bin/sluice-postgres " + command + " (port " + port + ") failed: " + out);
        }
        return out;
    }
}
