package io.sluice.nexmark;

import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * Nexmark q14's scalar function count_char(s, c): how many bytes of s's UTF-8 equal the first
 * byte of c's (0 for a null s). Written here from its description in docs/internals/nexmark.md.
 */
public class CountChar extends ScalarFunction {
    public long eval(@DataTypeHint("STRING") StringData s, @DataTypeHint("STRING") StringData c) {
        if (s == null) {
            return 0;
        }
        byte b = c.toBytes()[0];
        long n = 0;
        for (byte x : s.toBytes()) {
            if (x == b) {
                n++;
            }
        }
        return n;
    }
}
