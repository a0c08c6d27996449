package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class JsonTest {
    @Test
    void parsesEveryKindOfValue() {
        Object v = Json.parse("{\"a\": [1, -2.5, 1e3, true, false, null], \"b\": {\"c\": \"x\\ny\\u00e9\"}, "
                + "\"big\": 18446744073709551615, \"n\": NaN, \"i\": -Infinity}");
        Map<?, ?> m = (Map<?, ?>) v;
        assertThat((List<Object>) m.get("a")).containsExactly(1L, -2.5, 1000.0, true, false, null);
        assertThat(((Map<?, ?>) m.get("b")).get("c")).isEqualTo("x\nyé");
        assertThat(m.get("big")).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat((Double) m.get("n")).isNaN();
        assertThat(m.get("i")).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void writesSortedIndentedAsciiThatParsesBack() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("zarr_format", 2L);
        m.put("chunks", Arrays.asList(10L, 20L));
        m.put("dtype", "<f8");
        m.put("note", "é\"");
        m.put("empty", List.of());
        String s = Json.write(m);
        assertThat(s)
                .isEqualTo("{\n    \"chunks\": [\n        10,\n        20\n    ],\n    \"dtype\": \"<f8\",\n"
                        + "    \"empty\": [],\n    \"note\": \"\\u00e9\\\"\",\n    \"zarr_format\": 2\n}\n");
        assertThat(Json.parse(s)).isEqualTo(m);
    }

    @Test
    void malformedJsonSaysWhere() {
        assertThatThrownBy(() -> Json.parse("{\"a\": [1, 2}"))
                .isInstanceOf(Json.JsonException.class)
                .hasMessageContaining("at character 11");
        assertThatThrownBy(() -> Json.parse("{} x")).hasMessageContaining("after the JSON value");
        assertThatThrownBy(() -> Json.parse("\"abc")).hasMessageContaining("end of JSON");
    }
}
