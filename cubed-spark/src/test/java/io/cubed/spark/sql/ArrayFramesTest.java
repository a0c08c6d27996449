package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Statistical;
import io.cubed.dtype.DType;
import io.cubed.error.CubedException;
import io.cubed.plan.Spec;
import io.cubed.spark.SparkExecutor;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lazy arrays as DataFrames: values against the formulas of {@link ClimateDataset} and a Java reference of the
 * anomaly, the last operation computed inside the DataFrame's tasks (never stored, and only for the chunks a filter
 * keeps), intermediates kept until released.
 */
class ArrayFramesTest {
    private static final ClimateDataset DATA = new ClimateDataset(16, 10, 12, 4, 5, 6);

    @TempDir
    static Path tmp;

    private static SparkSession spark;
    private static String url;

    @BeforeAll
    static void setUp() {
        spark = SparkTestContext.session();
        url = tmp.resolve("climate.zarr").toString();
        DATA.writeV2(url, StoreOptions.empty());
    }

    private Spec spec(Path work) {
        return SparkExecutor.create(SparkTestContext.get())
                .specBuilder()
                .workDir(work.toString())
                .allowedMem("100MB")
                .reservedMem("10MB")
                .build();
    }

    /** The mean of t2m over time at (y, x), by a plain loop. */
    private static double timeMean(int y, int x) {
        double s = 0;
        for (int t = 0; t < DATA.nt; t++) {
            s += ClimateDataset.t2m(t, y, x);
        }
        return s / DATA.nt;
    }

    @Test
    void anomalyAsADataFrameComputedInItsTasks() throws IOException {
        Path work = tmp.resolve("work-anomaly");
        Spec spec = spec(work);
        CubedArray t2m = Cubed.fromZarr(url + "/t2m", spec);
        CubedArray anomaly = Elementwise.subtract(t2m, Statistical.mean(t2m, ReductionOptions.axis(0)));
        assertThat(anomaly.dims()).contains(List.of("time", "lat", "lon"));
        Map<String, CubedArray> columns = new LinkedHashMap<>();
        columns.put("anomaly", anomaly);
        columns.put("t2m", t2m);
        Dataset<Row> df = ArrayFrames.toDataFrame(
                spark,
                columns,
                Map.of("lat", Cubed.fromZarr(url + "/lat", spec), "lon", Cubed.fromZarr(url + "/lon", spec)));
        assertThat(df.schema().fieldNames()).containsExactly("time", "lat", "lon", "anomaly", "t2m");
        // The means are stored in the work directory; the subtraction never is.
        assertThat(intermediates(work)).isNotEmpty().noneMatch(n -> n.contains("subtract"));

        List<Row> rows = df.collectAsList();
        assertThat(rows).hasSize(DATA.nt * DATA.ny * DATA.nx);
        for (Row r : rows) {
            int t = (int) r.getLong(0);
            int y = (int) Math.round((60.0 - r.getDouble(1)) / 5.0);
            int x = Math.round(r.getFloat(2) / 15.0f);
            assertThat(r.getDouble(1)).isEqualTo(ClimateDataset.lat(y));
            assertThat(r.getDouble(4)).isEqualTo(ClimateDataset.t2m(t, y, x));
            assertThat(r.getDouble(3)).isCloseTo(ClimateDataset.t2m(t, y, x) - timeMean(y, x), within(1e-9));
        }

        // A filter on time computes only the chunks of that time: 1 x 2 x 2 chunks of each of the 2 columns.
        Dataset<Row> one = df.where("time = 5");
        assertThat(one.count()).isEqualTo((long) DATA.ny * DATA.nx);
        Dataset<Row> sums = one.selectExpr("sum(anomaly)", "sum(t2m)");
        Row s = sums.collectAsList().get(0);
        assertThat(ZarrScanMetrics.chunksRead(sums)).isEqualTo(2 * 2 * 2);
        double wantAnomaly = 0;
        double wantT2m = 0;
        for (int y = 0; y < DATA.ny; y++) {
            for (int x = 0; x < DATA.nx; x++) {
                wantAnomaly += ClimateDataset.t2m(5, y, x) - timeMean(y, x);
                wantT2m += ClimateDataset.t2m(5, y, x);
            }
        }
        assertThat(s.getDouble(0)).isCloseTo(wantAnomaly, within(1e-9));
        assertThat(s.getDouble(1)).isCloseTo(wantT2m, within(1e-9));

        // Joins and SQL work as on any DataFrame.
        df.createOrReplaceTempView("anomalies");
        Row warmest = spark.sql("SELECT lat, max(anomaly) AS m FROM anomalies GROUP BY lat ORDER BY m DESC LIMIT 1")
                .first();
        assertThat(warmest.getDouble(1)).isGreaterThan(0);

        Dataset<Row> planned = df.where("time = 6");
        planned.queryExecution().executedPlan();
        ArrayFrames.release(df);
        assertThat(intermediates(work)).as("released").isEmpty();
        assertThatThrownBy(() -> df.count()).hasMessageContaining("no computed arrays registered");
        // A plan planned before the release fails in its tasks instead of reading deleted chunks as fill values.
        assertThatThrownBy(() -> planned.collectAsList()).hasMessageContaining("which no longer exists");
    }

    @Test
    void anArrayWithoutNamesGetsIndexColumnsAndNothingIsWrittenForAFusedChain() throws IOException {
        Path work = tmp.resolve("work-chain");
        Spec spec = spec(work);
        CubedArray tp = Cubed.fromZarr(url + "/tp", spec).withDims((List<String>) null);
        CubedArray scaled = Elementwise.multiply(Elementwise.add(tp, tp), io.cubed.dtype.Scalar.ofDouble(0.5));
        Dataset<Row> df = ArrayFrames.toDataFrame(spark, "scaled", scaled);
        assertThat(df.schema().fieldNames()).containsExactly("dim_0", "dim_1", "dim_2", "scaled");
        assertThat(intermediates(work))
                .as("a fused elementwise chain needs no intermediate")
                .isEmpty();
        for (Row r : df.where("dim_0 = 7 AND dim_2 < 3").collectAsList()) {
            assertThat(r.getFloat(3)).isEqualTo(ClimateDataset.tp(7, (int) r.getLong(1), (int) r.getLong(2)));
        }
        assertThat(df.where("dim_0 = 7 AND dim_2 < 3").count()).isEqualTo(DATA.ny * 3L);
    }

    @Test
    void badColumnsAreRefused() {
        Spec spec = spec(tmp.resolve("work-bad"));
        CubedArray t2m = Cubed.fromZarr(url + "/t2m", spec);
        CubedArray lat = Cubed.fromZarr(url + "/lat", spec);
        Map<String, CubedArray> mixed = new LinkedHashMap<>();
        mixed.put("t2m", t2m);
        mixed.put("lat2", lat);
        assertThatThrownBy(() -> ArrayFrames.toDataFrame(spark, mixed))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("column 'lat2'")
                .hasMessageContaining("has shape [10] but column 't2m' has [16, 10, 12]");
        assertThatThrownBy(() -> ArrayFrames.toDataFrame(spark, "time", t2m))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("column 'time' has the name of a dimension");
        CubedArray complex = Elementwise.astype(t2m, DType.COMPLEX128);
        assertThatThrownBy(() -> ArrayFrames.toDataFrame(spark, "z", complex))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("column 'z'")
                .hasMessageContaining("no Spark SQL column type");
    }

    private static List<String> intermediates(Path work) throws IOException {
        if (!Files.exists(work)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(work, 2)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".zarr"))
                    .map(p -> p.getFileName().toString())
                    .toList();
        }
    }
}
