package io.cubed.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {
    @Test
    void cellsAreRightAlignedInTheirColumnsWidthAndNullsShowAsNull() {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        TextTable.print(
                out,
                List.of("lat", "mean t2m", "n"),
                List.of(new String[] {"-90.0", "271.25", "4"}, new String[] {"0.0", null, "12345"}));
        out.flush();
        assertThat(s.toString().lines().toList())
                .containsExactly(
                        "+-----+--------+-----+",
                        "|  lat|mean t2m|    n|",
                        "+-----+--------+-----+",
                        "|-90.0|  271.25|    4|",
                        "|  0.0|    NULL|12345|",
                        "+-----+--------+-----+");
    }

    @Test
    void theCountLineSaysWhenRowsWereLeftOut() {
        assertThat(TextTable.count(1, 1)).isEqualTo("(1 row)");
        assertThat(TextTable.count(0, 0)).isEqualTo("(0 rows)");
        assertThat(TextTable.count(20, 8760)).isEqualTo("(20 of 8760 rows shown; --limit N shows more)");
    }
}
