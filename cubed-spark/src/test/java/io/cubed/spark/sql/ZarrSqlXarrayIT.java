package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cubed.spark.SparkTestContext;
import io.cubed.testing.PythonTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dataset written by xarray (Debian's python3-xarray; {@code -Dcubed.test.python}, default {@code /usr/bin/python3})
 * read with {@code spark.read.format("zarr")}: coordinates from xarray's coordinate arrays, variables of different
 * chunking in one table, and SQL answers against NumPy's on the same arrays. Skipped without xarray, failed in CI.
 */
class ZarrSqlXarrayIT {

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void sqlOverAnXarrayDatasetMatchesNumpy() throws Exception {
        PythonTool.requireModules("xarray", "zarr");
        Path script = Path.of(getClass().getResource("/xarray/write_dataset.py").toURI());
        String url = tmp.resolve("era.zarr").toString();
        Map<String, Object> want = PythonTool.runForJson(script, 120, url);

        // Integration tests share one JVM: this class starts its own context and stops it, as SparkS3IT does.
        SparkSession spark = SparkTestContext.ownSession("zarr-sql-xarray").getOrCreate();
        try {
            check(spark, url, want);
        } finally {
            spark.stop();
        }
    }

    @SuppressWarnings("unchecked")
    private static void check(SparkSession spark, String url, Map<String, Object> want) {
        Dataset<Row> df = spark.read().format("zarr").load(url);
        assertThat(df.schema().fieldNames()).containsExactly("time", "lat", "lon", "t2m", "tp");
        // time in "hours" (no "since"): durations, as xarray shows them
        assertThat(want.get("time_dtype")).isEqualTo("timedelta64[ns]");
        assertThat(df.schema().apply("time").dataType())
                .isEqualTo(org.apache.spark.sql.types.DataTypes.createDayTimeIntervalType());
        assertThat(df.count()).isEqualTo(((Number) want.get("count")).longValue());
        df.createOrReplaceTempView("era");

        List<Row> perTime = spark.sql(
                        "SELECT time, avg(t2m) FROM era WHERE lat BETWEEN -30 AND 30 GROUP BY time ORDER BY time")
                .collectAsList();
        List<List<Number>> expected = (List<List<Number>>) want.get("per_time");
        assertThat(perTime).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(perTime.get(i).<java.time.Duration>getAs(0))
                    .isEqualTo(java.time.Duration.ofHours(expected.get(i).get(0).longValue()));
            assertThat(perTime.get(i).getDouble(1))
                    .isCloseTo(expected.get(i).get(1).doubleValue(), within(1e-9));
        }
        double tpSum = spark.sql("SELECT sum(tp) FROM era WHERE time IN (INTERVAL '18' HOUR, INTERVAL '42' HOUR)"
                        + " AND lon < 90")
                .first()
                .getDouble(0);
        assertThat(tpSum).isCloseTo(((Number) want.get("tp_sum")).doubleValue(), within(1e-9));
        for (List<Number> r : (List<List<Number>>) want.get("rows")) {
            Row got = df.where(
                            "time = INTERVAL '" + r.get(0) + "' HOUR AND lat = " + r.get(1) + " AND lon = " + r.get(2))
                    .first();
            assertThat(got.getFloat(3)).isEqualTo(r.get(3).floatValue());
            assertThat(got.getDouble(4)).isEqualTo(r.get(4).doubleValue());
        }
    }

    @Test
    void xarrayOpensWhatCubedWritesWithNamedDimensions() throws Exception {
        PythonTool.requireModules("xarray", "zarr");
        io.cubed.plan.Spec spec = io.cubed.plan.Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("100MB")
                .reservedMem("1MB")
                .build();
        String group = tmp.resolve("out.zarr").toString();
        io.cubed.storage.zarr.ZarrGroup.create(group, spec.storeOptions());
        io.cubed.array.Creation.arange(0, 6, 1, 3, io.cubed.dtype.DType.INT64, spec)
                .withDims("x")
                // xarray reads a v2 fill_value as _FillValue and shows stored values equal to it as NaN: the
                // coordinate holds 0, so it gets a fill value no element takes (see docs/sql.md).
                .toZarr(
                        group + "/x",
                        io.cubed.array.ComputeOptions.builder()
                                .zarrFormat(io.cubed.storage.zarr.ZarrFormat.v2(
                                        io.cubed.storage.zarr.Compressor.defaultCompressor(),
                                        io.cubed.dtype.Scalar.ofLong(-1)))
                                .build());
        io.cubed.array.CubedArray v = io.cubed.array.Creation.ones(
                        new long[] {4, 6}, new int[] {2, 3}, io.cubed.dtype.DType.FLOAT64, spec)
                .withDims("y", "x");
        io.cubed.array.Elementwise.multiply(v, io.cubed.dtype.Scalar.ofDouble(2.5))
                .toZarr(group + "/v");
        String code = "import sys, xarray as xr\n"
                + "ds = xr.open_zarr(sys.argv[1], consolidated=False)\n"
                + "print(ds['v'].dims, list(ds['x'].values), float(ds['v'].sum()))\n";
        Process p = new ProcessBuilder(PythonTool.PYTHON, "-c", code, group)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        // With a _FillValue, xarray decodes integers to float64 (to hold NaN): the values are 0..5.
        assertThat(out.strip()).endsWith("('y', 'x') [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] 60.0");
    }
}
