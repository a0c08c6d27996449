package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.spark.SparkTestContext;
import io.cubed.storage.zarr.Json;
import io.cubed.testing.ExternalTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DataFrame written with {@code df.write.format("zarr")} opened by xarray ({@code -Dcubed.test.python}, default
 * {@code /usr/bin/python3}): every cell of every variable against the DataFrame's rows, missing cells as NaN / NaT,
 * timestamps decoded to the same instants. Skipped without xarray, failed in CI.
 */
class ZarrWriteXarrayIT {
    private static final String PYTHON = System.getProperty("cubed.test.python", "/usr/bin/python3");

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void xarrayReadsEveryValueWritten() throws Exception {
        String probe = run(List.of(PYTHON, "-c", "import xarray, zarr"));
        ExternalTool.require(
                probe == null,
                PYTHON + " cannot import xarray and zarr (" + probe
                        + "); install python3-xarray or set -Dcubed.test.python");
        SparkSession spark = SparkTestContext.ownSession("zarr-write-xarray").getOrCreate();
        String url = tmp.resolve("out.zarr").toString();
        try {
            // time: hourly with a microsecond part (a coordinate: decoded exactly); lat descending given by option;
            // rows with (t + y + x) % 7 == 0 left out; seen: whole seconds with a missing value where x == 2.
            Dataset<Row> df = spark.sql("SELECT timestamp_micros(1700000000000000 + t * 3600000000 + t) AS time,"
                    + " CAST(45 - 15 * y AS DOUBLE) AS lat, CAST(x * 0.5 AS FLOAT) AS lon,"
                    + " CAST(t * 100 + y * 10 + x AS FLOAT) AS t2m, t - x AS n,"
                    + " CASE WHEN x = 2 THEN NULL ELSE timestamp_seconds(1600000000 + t * 60 + x) END AS seen"
                    + " FROM range(5) AS a(t) CROSS JOIN range(4) AS b(y) CROSS JOIN range(3) AS c(x)"
                    + " WHERE (t + y + x) % 7 != 0");
            df.write()
                    .format("zarr")
                    .option("dims", "time,lat,lon")
                    .option("coords.lat", "45,30,15,0")
                    .option("chunks", "time:2,lat:3,lon:2")
                    .save(url);
            Process p = new ProcessBuilder(
                            PYTHON,
                            Path.of(getClass()
                                            .getResource("/xarray/read_written.py")
                                            .toURI())
                                    .toString(),
                            url)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(err).isZero();
            Map<String, Object> got =
                    (Map<String, Object>) Json.parse(out.strip().getBytes(StandardCharsets.UTF_8));
            Map<String, List<Object>> coords = (Map<String, List<Object>>) got.get("coords");
            Map<String, List<Object>> vars = (Map<String, List<Object>>) got.get("vars");
            assertThat(((Map<String, Object>) got.get("dims")).get("t2m")).isEqualTo(List.of("time", "lat", "lon"));
            assertThat(((Map<String, Object>) got.get("dtypes")).get("time")).isEqualTo("datetime64[ns]");
            for (int t = 0; t < 5; t++) {
                long micros = 1700000000000000L + t * 3600000000L + t;
                assertThat(((Number) coords.get("time").get(t)).longValue()).isEqualTo(micros * 1000);
            }
            assertThat(coords.get("lat")).containsExactly(45.0, 30.0, 15.0, 0.0);
            assertThat(coords.get("lon")).containsExactly(0.0, 0.5, 1.0);
            Map<String, Row> byCell = new HashMap<>();
            for (Row r : df.collectAsList()) {
                byCell.put(r.getTimestamp(0).getTime() / 1000 + "," + r.getDouble(1) + "," + r.getFloat(2), r);
            }
            int present = 0;
            for (int t = 0; t < 5; t++) {
                for (int y = 0; y < 4; y++) {
                    for (int x = 0; x < 3; x++) {
                        int i = (t * 4 + y) * 3 + x;
                        long micros = 1700000000000000L + t * 3600000000L + t;
                        Row r = byCell.get(micros / 1000000 + "," + (45.0 - 15 * y) + "," + (x * 0.5f));
                        if (r == null) {
                            assertThat(vars.get("t2m").get(i)).isNull();
                            assertThat(vars.get("n").get(i))
                                    .as("int fill masked by xarray")
                                    .isNull();
                            assertThat(vars.get("seen").get(i)).isNull();
                            continue;
                        }
                        present++;
                        assertThat(((Number) vars.get("t2m").get(i)).floatValue())
                                .isEqualTo(r.getFloat(3));
                        assertThat(((Number) vars.get("n").get(i)).longValue()).isEqualTo(r.getLong(4));
                        if (r.isNullAt(5)) {
                            assertThat(vars.get("seen").get(i)).isNull();
                        } else {
                            long ns = r.getTimestamp(5).toInstant().getEpochSecond() * 1_000_000_000L;
                            assertThat(((Number) vars.get("seen").get(i)).longValue())
                                    .isEqualTo(ns);
                        }
                    }
                }
            }
            assertThat(present).isEqualTo((int) df.count());
            // our reader, CF-decoding by default, reads cells without a row as NULL: every row's t2m and no other
            assertThat(spark.read()
                            .format("zarr")
                            .load(url)
                            .where("t2m IS NOT NULL")
                            .count())
                    .isEqualTo(df.count());
        } finally {
            spark.stop();
        }
    }

    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 ? null : out;
        } catch (Exception e) {
            return e.toString();
        }
    }
}
