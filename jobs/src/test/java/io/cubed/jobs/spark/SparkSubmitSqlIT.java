package io.cubed.jobs.spark;

import static io.cubed.jobs.SqlFixture.LAT;
import static io.cubed.jobs.SqlFixture.LON;
import static io.cubed.jobs.SqlFixture.TIME;
import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.jobs.SqlFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spark-submit --class io.cubed.jobs.CubedCli cubed-jobs-spark.jar sql ...}: the session spark-submit sets up. */
class SparkSubmitSqlIT {
    @TempDir
    Path tmp;

    @Test
    void sparkSubmitRunsCubedSqlFromTheJobsJar() throws Exception {
        String era = SqlFixture.writeEra(tmp);
        SparkSubmitProcess.Result r = SparkSubmitProcess.submit(
                List.of(),
                "io.cubed.jobs.CubedCli",
                List.of(
                        "sql",
                        "SELECT max(t2m) AS hi, count(*) AS n FROM era WHERE time = 103",
                        "--table",
                        "era=" + era),
                tmp.resolve("spark-submit.log"),
                300);
        assertThat(r.exitCode()).as(r.output()).isZero();
        float hi = -Float.MAX_VALUE;
        for (int y = 0; y < LAT.length; y++) {
            for (int x = 0; x < LON.length; x++) {
                hi = Math.max(hi, SqlFixture.t2m(3, y, x));
            }
        }
        assertThat(TIME[3]).isEqualTo(103);
        String[] row = SqlFixture.printedRows(r.output()).get(0);
        assertThat(Float.parseFloat(row[0])).isEqualTo(hi);
        assertThat(Long.parseLong(row[1])).isEqualTo(LAT.length * LON.length);
    }
}
