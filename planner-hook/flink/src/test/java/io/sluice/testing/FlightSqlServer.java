package io.sluice.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Flight SQL server of a test's own: build/flightsqlserver (arrow-go's example server over a
 * SQLite file, built by {@code make test}; SLUICE_FLIGHTSQL_SERVER names it), started with the
 * statements that create its tables, stopped by closing its standard input.
 */
public final class FlightSqlServer implements AutoCloseable {
    private final Process process;
    private final String uri;

    private FlightSqlServer(Process process, String uri) {
        this.process = process;
        this.uri = uri;
    }

    /** Serves a new SQLite database under {@code dir} after running {@code init} in it. */
    public static FlightSqlServer start(Path dir, String... init) throws IOException {
        String binary = System.getenv("SLUICE_FLIGHTSQL_SERVER");
        if (binary == null || !Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException("SLUICE_FLIGHTSQL_SERVER is not an executable (" + binary
                    + "): run through make (`make test` builds build/flightsqlserver)");
        }
        List<String> cmd = new ArrayList<>(List.of(binary, "-db", dir.resolve("warehouse.db").toString()));
        for (String s : init) {
            cmd.add("-init");
            cmd.add(s);
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (line == null || !line.startsWith("grpc://")) {
            p.destroy();
            throw new IOException("the Flight SQL server did not start: " + line);
        }
        return new FlightSqlServer(p, line.trim());
    }

    /** The server's URI, for ADBC's Flight SQL driver. */
    public String uri() {
        return uri;
    }

    @Override
    public void close() throws Exception {
        process.getOutputStream().close();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
