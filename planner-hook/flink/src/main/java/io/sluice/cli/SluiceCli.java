package io.sluice.cli;

import io.sluice.Sluice;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code sluice sql -f job.sql [--explain] [--vanilla] [--parallelism N] [--jobmanager host:port]}:
 * runs a SQL script on an embedded Flink MiniCluster (or a running cluster) with Sluice installed.
 * {@code --explain} prints Flink's plan and Sluice's verdict for each query instead of running it;
 * {@code --vanilla} runs stock Flink for comparison.
 */
public final class SluiceCli {
    private SluiceCli() {}

    static final String USAGE =
            "usage: sluice sql -f <script.sql> [--explain] [--vanilla] [--parallelism N] [--jobmanager host:port]";

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the CLI and returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || !"sql".equals(args[0])) {
            err.println(USAGE);
            return 2;
        }
        Path file = null;
        boolean explain = false;
        boolean vanilla = false;
        int parallelism = 1;
        String jobManager = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "-f":
                case "--file":
                    file = Path.of(value(args, ++i));
                    break;
                case "--explain":
                    explain = true;
                    break;
                case "--vanilla":
                    vanilla = true;
                    break;
                case "--parallelism":
                    try {
                        parallelism = Integer.parseInt(value(args, ++i));
                    } catch (NumberFormatException e) {
                        err.println("--parallelism takes a whole number, got '" + args[i] + "'");
                        return 2;
                    }
                    if (parallelism < 1) {
                        err.println("--parallelism must be at least 1, got " + parallelism);
                        return 2;
                    }
                    break;
                case "--jobmanager":
                    jobManager = value(args, ++i);
                    break;
                default:
                    err.println("unknown option '" + args[i] + "'\n" + USAGE);
                    return 2;
            }
        }
        if (file == null) {
            err.println("missing -f <script.sql>\n" + USAGE);
            return 2;
        }
        String script;
        try {
            script = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("cannot read " + file + ": " + e.getMessage());
            return 2;
        }
        StreamTableEnvironment tEnv = environment(parallelism, jobManager, vanilla);
        for (String stmt : SqlScript.split(script)) {
            try {
                execute(tEnv, stmt, explain, out);
            } catch (Exception e) {
                err.println("statement failed: " + firstLine(stmt));
                err.println(e.getMessage());
                Throwable root = e;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                if (root != e) {
                    err.println("caused by: " + root);
                }
                return 1;
            }
        }
        return 0;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** A streaming table environment on an embedded MiniCluster (or jobManager), with Sluice unless vanilla. */
    public static StreamTableEnvironment environment(int parallelism, String jobManager, boolean vanilla) {
        StreamExecutionEnvironment env;
        if (jobManager != null) {
            String[] hp = jobManager.split(":", 2);
            String jar = SluiceCli.class.getProtectionDomain().getCodeSource().getLocation().getPath();
            env = StreamExecutionEnvironment.createRemoteEnvironment(hp[0], Integer.parseInt(hp[1]), jar);
        } else {
            env = StreamExecutionEnvironment.getExecutionEnvironment();
        }
        env.setParallelism(parallelism);
        return environment(env, vanilla);
    }

    /** A streaming table environment on env (whose parallelism it keeps), with Sluice unless vanilla. */
    public static StreamTableEnvironment environment(StreamExecutionEnvironment env, boolean vanilla) {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (!vanilla) {
            Sluice.install(tEnv);
        }
        return tEnv;
    }

    static void execute(StreamTableEnvironment tEnv, String stmt, boolean explain, PrintStream out)
            throws Exception {
        String head = stmt.stripLeading().toUpperCase(Locale.ROOT);
        boolean query = head.startsWith("SELECT") || head.startsWith("INSERT") || head.startsWith("WITH");
        if (explain && query) {
            out.println(Sluice.explain(tEnv, stmt));
            return;
        }
        TableResult result = SqlScript.execute(tEnv, stmt);
        if (query && result != null) {
            if (head.startsWith("INSERT")) {
                result.await();
                out.println("OK " + firstLine(stmt));
            } else {
                result.print();
            }
        }
    }

    private static String firstLine(String s) {
        String line = s.strip().split("\n", 2)[0];
        return line.length() > 80 ? line.substring(0, 77) + "..." : line;
    }
}
