package io.cubed.jobs;

import static io.cubed.jobs.SqlFixture.LAT;
import static io.cubed.jobs.SqlFixture.LON;
import static io.cubed.jobs.SqlFixture.TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cubed sql} as a user runs it, with no Spark installation (SPARK_HOME unset): the script puts the build's
 * Spark jars (spark-runtime/target/lib) on the class path of the Spark commands only, and the query runs on
 * local[N].
 */
class CubedSqlIT {
    @TempDir
    Path tmp;

    /** The lines a run printed, without the JVM's note on the Vector API module. */
    private static List<String> lines(BinCubed.Result r) {
        return r.output()
                .lines()
                .filter(l -> !l.startsWith("WARNING: Using incubator modules"))
                .toList();
    }

    @Test
    void aQueryPrintsTheReferenceAnswerWithoutASparkInstallation() throws Exception {
        String era = SqlFixture.writeEra(tmp);
        String mask = SqlFixture.writeMask(tmp);
        // Neither a Spark installation nor SPARK_LOCAL_IP: bin/cubed binds Spark to 127.0.0.1 itself.
        BinCubed.Result r = BinCubed.runWithout(
                tmp,
                Set.of("SPARK_HOME", "SPARK_LOCAL_IP"),
                Map.of(),
                "sql",
                "SELECT e.time, avg(e.t2m) AS land FROM era e JOIN mask m ON e.lat = m.lat AND e.lon = m.lon"
                        + " WHERE m.lsm = 1 GROUP BY e.time ORDER BY e.time",
                "--table",
                "era=" + era,
                "--table",
                "mask=" + mask,
                "--threads",
                "2");
        assertThat(r.code()).as(r.output()).isZero();
        List<String[]> rows = SqlFixture.printedRows(r.output());
        assertThat(rows).hasSize(TIME.length);
        for (int t = 0; t < TIME.length; t++) {
            double sum = 0;
            int n = 0;
            for (int y = 0; y < LAT.length; y++) {
                for (int x = 0; x < LON.length; x++) {
                    if (SqlFixture.lsm(y, x) == 1) {
                        sum += SqlFixture.t2m(t, y, x);
                        n++;
                    }
                }
            }
            assertThat(Long.parseLong(rows.get(t)[0])).isEqualTo(TIME[t]);
            assertThat(Double.parseDouble(rows.get(t)[1])).isCloseTo(sum / n, within(1e-9));
        }
        // The table, the row count, nothing else: no Spark log lines.
        assertThat(lines(r)).hasSize(TIME.length + 5).last().isEqualTo("(6 rows)");
    }

    @Test
    void aSyntaxErrorIsOneLineAndExitCode2() throws Exception {
        String era = SqlFixture.writeEra(tmp);
        BinCubed.Result r = BinCubed.runWithout(
                tmp, Set.of("SPARK_HOME"), Map.of(), "sql", "SELEC * FROM era", "--table", "era=" + era);
        assertThat(r.code()).as(r.output()).isEqualTo(2);
        assertThat(lines(r)).hasSize(1);
        assertThat(lines(r).get(0)).startsWith("cubed: sql: [PARSE_SYNTAX_ERROR] Syntax error at or near 'SELEC'");
    }

    @Test
    void onlyTheSparkCommandsGetSparksJars() throws Exception {
        String era = SqlFixture.writeEra(tmp);
        // -XshowSettings prints the JVM's properties, the class path among them, and runs the command.
        Map<String, String> show = Map.of("CUBED_JAVA_OPTS", "-XshowSettings:properties");
        BinCubed.Result info = BinCubed.runWithout(tmp, Set.of("SPARK_HOME"), show, "info", era + "/t2m");
        assertThat(info.code()).as(info.output()).isZero();
        assertThat(info.output()).contains("java.class.path").doesNotContain("spark-runtime");
        // A bad --table is refused before Spark starts, after the JVM has shown its class path.
        BinCubed.Result sql = BinCubed.runWithout(tmp, Set.of("SPARK_HOME"), show, "sql", "SELECT 1", "--table", "x");
        assertThat(sql.code()).isEqualTo(2);
        assertThat(sql.output()).contains("spark-runtime/target/lib").contains("--table 'x' must be NAME=PATH");
        BinCubed.Result spark = BinCubed.runWithout(
                tmp, Set.of("SPARK_HOME"), show, "info", era + "/t2m", "--executor", "spark", "--threads", "0");
        assertThat(spark.output()).contains("spark-runtime/target/lib");
    }
}
