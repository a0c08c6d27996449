package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cubed.Cubed;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.plan.Spec;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.zarr.cf.CfOptions;
import io.cubed.testing.PythonTool;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seven questions a climate user asks of an ERA5-like dataset written by xarray with CF packing ({@code
 * xarray/write_era5.py}: int16 t2m with scale_factor, add_offset and _FillValue, float32 tp with NaN, time in "hours
 * since 1900-01-01", descending lat, a static land-sea mask), answered in SQL over the decoded {@code zarr} source and
 * each equal to xarray's decoded answer computed by Python in the same test; the session's time zone is not UTC, and
 * the answers do not depend on it. Pruning on decoded time and descending latitude is checked with the scan's
 * chunksRead metric, and the array API, reading decoded, agrees. Skipped without xarray ({@code -Dcubed.test.python},
 * default {@code /usr/bin/python3}), failed in CI.
 */
class ZarrSqlEra5IT {

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void sevenQuestionsAnsweredAsXarrayAnswersThem() throws Exception {
        PythonTool.requireModules("xarray", "zarr", "pandas");
        Path script = Path.of(getClass().getResource("/xarray/write_era5.py").toURI());
        String url = tmp.resolve("era5.zarr").toString();
        Map<String, Object> want = PythonTool.runForJson(script, 300, url);

        SparkSession spark = SparkTestContext.ownSession("zarr-sql-era5")
                .config("spark.sql.session.timeZone", "America/Los_Angeles")
                .getOrCreate();
        try {
            ask(spark, url, want);
            arrayApiAgrees(url, want);
        } finally {
            spark.stop();
        }
    }

    private static long micros(Object labelMicros) {
        return ((Number) labelMicros).longValue();
    }

    private static LocalDateTime time(Object labelMicros) {
        long m = micros(labelMicros);
        return LocalDateTime.ofEpochSecond(
                Math.floorDiv(m, 1_000_000L), (int) Math.floorMod(m, 1_000_000L) * 1000, ZoneOffset.UTC);
    }

    private static double num(Map<String, Object> want, String key) {
        return ((Number) want.get(key)).doubleValue();
    }

    /** A relative tolerance for means over up to 10^5 values summed in another order. */
    private static org.assertj.core.data.Offset<Double> close(double value) {
        return within(Math.abs(value) * 1e-9);
    }

    @SuppressWarnings("unchecked")
    private static void ask(SparkSession spark, String url, Map<String, Object> want) {
        Dataset<Row> era =
                spark.read().format("zarr").option("variables", "t2m,tp").load(url);
        Dataset<Row> lsm =
                spark.read().format("zarr").option("variables", "lsm").load(url);
        era.createOrReplaceTempView("era");
        lsm.createOrReplaceTempView("lsm");
        StructType schema = era.schema();
        assertThat(schema.apply("time").dataType()).isEqualTo(DataTypes.TimestampNTZType);
        assertThat(schema.apply("t2m").dataType()).as("xarray: float32").isEqualTo(DataTypes.FloatType);
        assertThat(schema.apply("tp").dataType()).isEqualTo(DataTypes.FloatType);
        assertThat(lsm.schema().apply("lsm").dataType()).isEqualTo(DataTypes.FloatType);

        // 1. How many values, and how many of t2m are there?
        Row count = spark.sql("SELECT count(*), count(t2m) FROM era").first();
        assertThat(count.getLong(0)).isEqualTo(((Number) want.get("count")).longValue());
        assertThat(count.getLong(1)).isEqualTo(((Number) want.get("count_t2m")).longValue());

        // 2. The mean over a box of time, latitude (descending) and longitude.
        Dataset<Row> boxQuery = spark.sql("SELECT avg(t2m), avg(tp), count(*) FROM era"
                + " WHERE time BETWEEN TIMESTAMP '2020-02-10 00:00:00' AND TIMESTAMP '2020-02-20 18:00:00'"
                + " AND lat BETWEEN 30.5 AND 60 AND lon BETWEEN 0 AND 40");
        Row box = boxQuery.collectAsList().get(0); // collected on its own plan, whose metrics are read below
        assertThat(box.getDouble(0)).isCloseTo(num(want, "box_t2m"), close(num(want, "box_t2m")));
        assertThat(box.getDouble(1)).isCloseTo(num(want, "box_tp"), close(num(want, "box_tp")));
        assertThat(box.getLong(2)).isEqualTo(((Number) want.get("box_n")).longValue());
        // Time steps 160..203 lie in time chunks 3 and 4 (of 48), latitudes 60..40 in lat chunk 0, longitudes 0..40
        // in lon chunk 0: 2 chunks of each of the 2 variables.
        assertThat(ZarrScanMetrics.chunksRead(boxQuery)).isEqualTo(4);

        // 3. The values at one point and time (and at a cell whose t2m is missing).
        List<Object> point = (List<Object>) want.get("point");
        Dataset<Row> pointQuery = era.where(org.apache
                        .spark
                        .sql
                        .functions
                        .col("time")
                        .equalTo(org.apache.spark.sql.functions.lit(time(point.get(0))))
                        .and(org.apache.spark.sql.functions.col("lat").equalTo(point.get(1)))
                        .and(org.apache.spark.sql.functions.col("lon").equalTo(point.get(2))))
                .select("t2m", "tp");
        List<Row> at = pointQuery.collectAsList();
        assertThat(at).hasSize(1);
        assertThat(at.get(0).getFloat(0)).isEqualTo(((Number) point.get(3)).floatValue());
        assertThat(at.get(0).getFloat(1)).isEqualTo(((Number) point.get(4)).floatValue());
        assertThat(ZarrScanMetrics.chunksRead(pointQuery)).isEqualTo(2);
        List<Object> missing = (List<Object>) want.get("missing_point");
        Row gap = spark.sql("SELECT t2m, tp FROM era WHERE time = TIMESTAMP_NTZ '" + time(missing.get(0))
                        + "' AND lat = " + missing.get(1) + " AND lon = " + missing.get(2))
                .first();
        assertThat(gap.isNullAt(0)).as("a fill value is NULL").isTrue();
        assertThat(gap.getFloat(1)).isEqualTo(((Number) missing.get(3)).floatValue());

        // 4. Monthly means.
        List<Row> monthly = spark.sql("SELECT year(time), month(time), avg(t2m) FROM era GROUP BY 1, 2 ORDER BY 1, 2")
                .collectAsList();
        List<List<Number>> months = (List<List<Number>>) want.get("monthly");
        assertThat(monthly).hasSize(months.size());
        for (int i = 0; i < months.size(); i++) {
            assertThat(monthly.get(i).getInt(0)).isEqualTo(months.get(i).get(0).intValue());
            assertThat(monthly.get(i).getInt(1)).isEqualTo(months.get(i).get(1).intValue());
            double m = months.get(i).get(2).doubleValue();
            assertThat(monthly.get(i).getDouble(2)).isCloseTo(m, close(m));
        }

        // 5. The mean over land: a join with the static land-sea mask.
        Row land = spark.sql("SELECT avg(e.t2m), count(DISTINCT m.lat, m.lon) FROM era e"
                        + " JOIN lsm m ON e.lat = m.lat AND e.lon = m.lon WHERE m.lsm > 0.5")
                .first();
        assertThat(land.getDouble(0)).isCloseTo(num(want, "land_t2m"), close(num(want, "land_t2m")));
        assertThat(land.getLong(1)).isEqualTo(((Number) want.get("land_cells")).longValue());

        // 6 and 7. How many values of t2m and of tp are missing?
        assertThat(spark.sql("SELECT count(*) - count(t2m) FROM era").first().getLong(0))
                .isEqualTo(((Number) want.get("missing_t2m")).longValue());
        assertThat(spark.sql("SELECT count(*) FROM era WHERE tp IS NULL")
                        .first()
                        .getLong(0))
                .isEqualTo(((Number) want.get("missing_tp")).longValue());

        // avg skips missing values as xarray's mean does.
        Row means = spark.sql("SELECT avg(t2m), avg(tp) FROM era").first();
        assertThat(means.getDouble(0)).isCloseTo(num(want, "mean_t2m"), close(num(want, "mean_t2m")));
        assertThat(means.getDouble(1)).isCloseTo(num(want, "mean_tp"), close(num(want, "mean_tp")));
        Row span = spark.sql("SELECT min(time), max(time) FROM era").first();
        assertThat(span.<LocalDateTime>getAs(0)).isEqualTo(time(want.get("first_time")));
        assertThat(span.<LocalDateTime>getAs(1)).isEqualTo(time(want.get("last_time")));
    }

    /** The array API reads the same decoded values: times, a point, and the mean skipping missing values. */
    @SuppressWarnings("unchecked")
    private void arrayApiAgrees(String url, Map<String, Object> want) {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("200MB")
                .reservedMem(0)
                .build();
        Chunk time = Cubed.fromZarr(url + "/time", spec, CfOptions.defaults()).compute();
        assertThat(time.longs()[0]).isEqualTo(micros(want.get("first_time")));
        assertThat(time.longs()[time.size() - 1]).isEqualTo(micros(want.get("last_time")));
        Chunk t2m = Cubed.fromZarr(url + "/t2m", spec, CfOptions.defaults()).compute();
        List<Object> point = (List<Object>) want.get("point");
        int t = (int) ((micros(point.get(0)) - micros(want.get("first_time"))) / (6 * 3_600_000_000L));
        int y = (int) Math.round((90.0 - ((Number) point.get(1)).doubleValue()) / 10.0);
        int x = (int) Math.round(((Number) point.get(2)).doubleValue() / 10.0);
        assertThat(t2m.floats()[(t * 19 + y) * 36 + x]).isEqualTo(((Number) point.get(3)).floatValue());
        double mean = Statistical.nanmean(Cubed.fromZarr(url + "/t2m", spec, CfOptions.defaults()))
                .compute()
                .getDouble(0);
        assertThat(mean).isCloseTo(num(want, "mean_t2m"), within(1e-3));
    }
}
