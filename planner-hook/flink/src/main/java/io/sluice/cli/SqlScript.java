package io.sluice.cli;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL scripts as the SQL client reads them: statements split at semicolons outside quotes and
 * comments, and {@code SET 'key' = 'value'} applied to the table configuration.
 */
public final class SqlScript {
    private static final Pattern SET =
            Pattern.compile("(?is)SET\\s+'((?:[^']|'')*)'\\s*=\\s*'((?:[^']|'')*)'\\s*");

    private SqlScript() {}

    /**
     * Runs one statement: a SET statement changes the environment's configuration (and returns
     * null); any other statement goes to {@link TableEnvironment#executeSql}.
     */
    public static TableResult execute(TableEnvironment tEnv, String stmt) {
        Matcher m = SET.matcher(stmt.strip());
        if (m.matches()) {
            tEnv.getConfig().getConfiguration().setString(m.group(1).replace("''", "'"), m.group(2).replace("''", "'"));
            return null;
        }
        return tEnv.executeSql(stmt);
    }

    public static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                int j = i + 1;
                while (j < n) {
                    if (script.charAt(j) == c) {
                        if (j + 1 < n && script.charAt(j + 1) == c) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                cur.append(script, i, Math.min(j + 1, n));
                i = j + 1;
                continue;
            }
            if (c == ';') {
                add(out, cur);
                cur.setLength(0);
            } else {
                cur.append(c);
            }
            i++;
        }
        add(out, cur);
        return out;
    }

    private static void add(List<String> out, StringBuilder sb) {
        String s = sb.toString().trim();
        if (!s.isEmpty()) {
            out.add(s);
        }
    }
}
