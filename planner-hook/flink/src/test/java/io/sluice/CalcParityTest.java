package io.sluice;

import io.sluice.testing.ParityCase;
import io.sluice.testing.ParityHarness;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.sluice.testing.ParityCase.fallback;
import static io.sluice.testing.ParityCase.nativeCase;

/** Native Calc against stock Flink, case by case (see {@link ParityHarness}). */
class CalcParityTest {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    /** Schema of the main table: one column per supported type. */
    static final String ALL = "i INT, l BIGINT, d DOUBLE, s STRING, b BOOLEAN, dc DECIMAL(10, 2), dw DECIMAL(30, 8), ts TIMESTAMP(3)";

    static Row r(Object... f) {
        return Row.of(f);
    }

    /** Rows with nulls and edge values for every column of ALL. */
    static List<Row> allRows() {
        List<Row> rows = new ArrayList<>();
        rows.add(r(1, 10L, 1.5, "abc", true, new BigDecimal("12.34"), new BigDecimal("1234567890123456789012.12345678"), LocalDateTime.of(2020, 1, 1, 0, 0, 0, 123_000_000)));
        rows.add(r(null, null, null, null, null, null, null, null));
        rows.add(r(Integer.MAX_VALUE, Long.MAX_VALUE, Double.NaN, "", false, new BigDecimal("-99999999.99"), new BigDecimal("-0.00000001"), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000)));
        rows.add(r(Integer.MIN_VALUE, Long.MIN_VALUE, -0.0, "Grüße, 世界 🌍", true, new BigDecimal("0.00"), new BigDecimal("0E-8"), LocalDateTime.of(2024, 2, 29, 12, 30, 0)));
        rows.add(r(-7, -3L, Double.POSITIVE_INFINITY, "  padded  ", false, new BigDecimal("0.05"), new BigDecimal("99999999999999999999.99999999"), LocalDateTime.of(2000, 1, 1, 0, 0)));
        rows.add(r(0, 0L, Double.MIN_VALUE, "a%b_c\\d", null, new BigDecimal("-0.05"), new BigDecimal("1.00000000"), null));
        rows.add(r(42, 7L, -1e300, "ABCdef", true, new BigDecimal("5.00"), new BigDecimal("-3.33333333"), LocalDateTime.of(2038, 1, 19, 3, 14, 7, 1_000_000)));
        rows.add(Row.ofKind(RowKind.INSERT, 3, 5L, 2.5, "xyz", false, new BigDecimal("1.01"), new BigDecimal("2.50000000"), LocalDateTime.of(2020, 6, 1, 0, 0)));
        return rows;
    }

    static ParityCase n(String name, String query) {
        return nativeCase(name, ALL, allRows(), query);
    }

    static List<ParityCase> cases() {
        return Arrays.asList(
                n("projection", "SELECT i + 1, l, d, s, b, dc, dw, ts FROM t"),
                n("reorder", "SELECT ts, s, i FROM t"),
                n("filter-int", "SELECT i FROM t WHERE i > 0"),
                n("filter-null", "SELECT s FROM t WHERE i IS NULL"),
                n("filter-not-null", "SELECT s, i FROM t WHERE s IS NOT NULL"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFlink(ParityCase c) {
        ParityHarness.check(c);
    }
}
