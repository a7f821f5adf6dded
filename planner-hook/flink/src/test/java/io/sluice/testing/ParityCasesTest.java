package io.sluice.testing;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JSON form of parity cases: what a file says is what the case demands, and typos are errors. */
class ParityCasesTest {
    static List<ParityCase> parse(String json, Map<String, String> constants) throws Exception {
        return ParityCases.parse("test.json", new ObjectMapper().readTree(json.replace('\'', '"')), constants);
    }

    @Test
    void defaultsMergeAndConstantsAreReplaced() throws Exception {
        List<ParityCase> cases = parse("{'defaults': {'unordered': true, 'vars': {'schema': '${S}', 'opts': ''}},"
                + " 'cases': [{'name': 'a', 'query': 'SELECT ${C} FROM t'},"
                + " {'name': 'b', 'query': 'SELECT 1', 'unordered': false, 'vars': {'opts': ', x'}, 'parallelism': 2,"
                + "  'expect': {'fallback': 'why'}, 'fails': 'boom', 'config': {'k': 'v'}, 'ddl': ['CREATE ${later}']}]}",
                Map.of("S", "i INT", "C", "i"));
        ParityCase a = cases.get(0), b = cases.get(1);
        assertEquals("SELECT i FROM t", a.query());
        assertTrue(a.unordered());
        assertEquals(Map.of("schema", "i INT", "opts", ""), a.vars());
        assertEquals(Expectation.nativeRun(), a.expect());
        assertFalse(b.unordered());
        assertEquals(Map.of("schema", "i INT", "opts", ", x"), b.vars());
        assertEquals(2, b.parallelism());
        assertEquals(new Expectation(Expectation.Run.FALLBACK, "why", "boom"), b.expect());
        assertEquals(Map.of("k", "v"), b.config());
        assertEquals(List.of("CREATE T"), b.ddl(Map.of("later", "T")));
    }

    @Test
    void anEdgeExpectationAndABareArray() throws Exception {
        ParityCase c = parse("[{'name': 'e', 'query': 'q', 'expect': {'edge': 'note'}}]", Map.of()).get(0);
        assertEquals(Expectation.Run.EDGE, c.expect().run());
        assertEquals("note", c.reason());
        assertTrue(c.expectNative());
        assertNull(c.expect().failure());
    }

    @Test
    void typosAndGapsAreErrors() {
        for (String bad : List.of(
                "[{'name': 'a', 'query': 'q', 'expected': 'native'}]",
                "[{'name': 'a'}]",
                "[{'query': 'q'}]",
                "[{'name': 'a', 'query': 'q'}, {'name': 'a', 'query': 'r'}]",
                "[{'name': 'a', 'query': 'q', 'expect': 'fallback'}]",
                "[{'name': 'a', 'query': 'q', 'parallelism': 0}]",
                "{'cases': [], 'default': {}}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(bad, Map.of()), bad);
            assertTrue(e.getMessage().startsWith("test.json"), e::getMessage);
        }
        ParityCase c = ParityCase.of("x", "q", Map.of());
        assertThrows(IllegalArgumentException.class, () -> c.substitute("${nothing}", Map.of()));
    }
}
