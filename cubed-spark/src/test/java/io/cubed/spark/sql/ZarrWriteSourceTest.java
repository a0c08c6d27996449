package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DataFrame read from a Zarr group and written as Zarr takes its coordinates from the source's metadata instead of a
 * pass over its rows ({@link ZarrWriteSource}); anything else between the scan and the write (a filter, a computed
 * dimension) still gets the pass. Each output is checked cell by cell against the dataset's formulas
 * ({@link ClimateDataset}: lat descending in the source, so sorted ascending in the output), and which Spark jobs ran
 * is read from their descriptions.
 */
class ZarrWriteSourceTest {
    private static final int NT = 6;
    private static final int NY = 5;
    private static final int NX = 4;

    @TempDir
    static Path tmp;

    private static SparkSession spark;
    private static String source;
    private static final List<String> JOBS = Collections.synchronizedList(new ArrayList<>());
    private static final SparkListener RECORDER = new SparkListener() {
        @Override
        public void onJobStart(SparkListenerJobStart start) {
            String d = start.properties() == null ? null : start.properties().getProperty("spark.job.description");
            JOBS.add(String.valueOf(d));
        }
    };

    @BeforeAll
    static void setUp() {
        spark = SparkSession.builder().sparkContext(SparkTestContext.get().sc()).getOrCreate();
        spark.sparkContext().addSparkListener(RECORDER);
        source = tmp.resolve("climate.zarr").toString();
        new ClimateDataset(NT, NY, NX, 2, 3, 4).writeV2(source, StoreOptions.empty());
    }

    @AfterAll
    static void tearDown() {
        spark.sparkContext().removeSparkListener(RECORDER);
    }

    /** Writes {@code df} as Zarr at {@code url} with dimensions {@code dims}; the descriptions of the jobs it ran. */
    private static List<String> writeJobs(Dataset<Row> df, String dims, String url) {
        settle();
        JOBS.clear();
        df.write().format("zarr").option("dims", dims).save(url);
        settle();
        return List.copyOf(JOBS);
    }

    /** Waits until the listeners have seen every event posted so far. */
    private static void settle() {
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Spark's listener bus did not drain", e);
        }
    }

    private static boolean coordinatesPass(List<String> jobs, String url) {
        return jobs.contains("zarr write " + url + ": coordinates");
    }

    @Test
    void aPlainScanNeedsNoPass() {
        String url = tmp.resolve("copy.zarr").toString();
        Dataset<Row> df = spark.read().format("zarr").load(source).select("time", "lat", "lon", "t2m", "tp");
        List<String> jobs = writeJobs(df, "time,lat,lon", url);
        assertThat(coordinatesPass(jobs, url)).as(jobs.toString()).isFalse();
        assertThat(jobs).as("the write itself ran").contains("zarr write " + url);
        checkCopy(url, "time", "lat", "lon", NT, NY);
    }

    @Test
    void repartitionedAndSortedRowsNeedNoPass() {
        String url = tmp.resolve("repartitioned.zarr").toString();
        Dataset<Row> df = spark.read()
                .format("zarr")
                .load(source)
                .repartition(3)
                .sortWithinPartitions("lon")
                .select("time", "lat", "lon", "t2m", "tp");
        List<String> jobs = writeJobs(df, "time,lat,lon", url);
        assertThat(coordinatesPass(jobs, url)).as(jobs.toString()).isFalse();
        checkCopy(url, "time", "lat", "lon", NT, NY);
    }

    @Test
    void aQueryOfAViewOfTheScanNeedsNoPass() {
        String url = tmp.resolve("view.zarr").toString();
        spark.read().format("zarr").load(source).createOrReplaceTempView("climate_source");
        try {
            Dataset<Row> df = spark.sql("SELECT time, lat, lon, t2m, tp FROM climate_source");
            List<String> jobs = writeJobs(df, "time,lat,lon", url);
            assertThat(coordinatesPass(jobs, url)).as(jobs.toString()).isFalse();
            checkCopy(url, "time", "lat", "lon", NT, NY);
        } finally {
            spark.catalog().dropTempView("climate_source");
        }
    }

    @Test
    void renamedDimensionsAndAnIntegerVariable() throws java.io.IOException {
        // A rename keeps the source's coordinates; the uint8 flag (an integer without a fill value) still needs the
        // pass, for whether every cell has a value, but the pass reads no dimension column.
        String url = tmp.resolve("renamed.zarr").toString();
        Dataset<Row> df = spark.read()
                .format("zarr")
                .load(source)
                .withColumnRenamed("lat", "y")
                .withColumnRenamed("time", "t")
                .select("t", "y", "lon", "t2m", "tp", "flag");
        List<String> jobs = writeJobs(df, "t,y,lon", url);
        assertThat(coordinatesPass(jobs, url)).as(jobs.toString()).isTrue();
        checkCopy(url, "t", "y", "lon", NT, NY);
        ZarrArray flag = ZarrArray.open(url + "/flag", StoreOptions.empty());
        assertThat(java.nio.file.Files.readString(Path.of(url, "flag", ".zarray")))
                .as("every cell has a flag: no fill value")
                .containsPattern("\"fill_value\"\\s*:\\s*null");
        Chunk f = flag.readRegion(new long[] {0, 0, 0}, new int[] {NT, NY, NX});
        for (int t = 0; t < NT; t++) {
            for (int y = 0; y < NY; y++) {
                for (int x = 0; x < NX; x++) {
                    assertThat(f.getLong((t * NY + (NY - 1 - y)) * NX + x)).isEqualTo(ClimateDataset.flag(t, y, x));
                }
            }
        }
    }

    @Test
    void decodedTimesFromTheSource() {
        // CF-encoded times ("hours since 1900-01-01") decode to timestamps, which the source's coordinate gives as
        // the scan shows them; the output stores them CF-encoded again (seconds since 1970), NaN cells as fill.
        String packed = tmp.resolve("packed.zarr").toString();
        PackedClimate.write(packed);
        String url = tmp.resolve("packed-copy.zarr").toString();
        Dataset<Row> df = spark.read().format("zarr").load(packed).select("time", "lat", "lon", "tp");
        List<String> jobs = writeJobs(df, "time,lat,lon", url);
        assertThat(coordinatesPass(jobs, url)).as(jobs.toString()).isFalse();
        int nt = PackedClimate.NT;
        int ny = PackedClimate.NY;
        int nx = PackedClimate.NX;
        ZarrArray time = ZarrArray.open(url + "/time", StoreOptions.empty());
        assertThat(time.attributes()).containsEntry("units", "seconds since 1970-01-01");
        Chunk ts = time.readRegion(new long[] {0}, new int[] {nt});
        Chunk ys = ZarrArray.open(url + "/lat", StoreOptions.empty()).readRegion(new long[] {0}, new int[] {ny});
        Chunk tp = ZarrArray.open(url + "/tp", StoreOptions.empty())
                .readRegion(new long[] {0, 0, 0}, new int[] {nt, ny, nx});
        for (int t = 0; t < nt; t++) {
            assertThat(ts.getLong(t)).isEqualTo(PackedClimate.time(t).toEpochSecond(java.time.ZoneOffset.UTC));
            for (int i = 0; i < ny; i++) {
                int y = ny - 1 - i;
                assertThat(ys.getDouble(i)).isEqualTo(PackedClimate.lat(y));
                for (int x = 0; x < nx; x++) {
                    float want = PackedClimate.tp(t, y, x);
                    double got = tp.getDouble((t * ny + i) * nx + x);
                    if (Float.isNaN(want)) {
                        assertThat(got).isNaN();
                    } else {
                        assertThat(got).isEqualTo(want);
                    }
                }
            }
        }
    }

    @Test
    void aFilterGetsThePassAndItsRowsOnly() {
        String url = tmp.resolve("filtered.zarr").toString();
        Dataset<Row> df =
                spark.read().format("zarr").load(source).where("lat < 50").select("time", "lat", "lon", "t2m", "tp");
        List<String> jobs = writeJobs(df, "time,lat,lon", url);
        assertThat(coordinatesPass(jobs, url)).as(jobs.toString()).isTrue();
        // lat 60, 55, 50, 45, 40: the filter keeps 45 and 40.
        checkCopy(url, "time", "lat", "lon", NT, 2);
    }

    @Test
    void aComputedDimensionGetsThePass() {
        String url = tmp.resolve("computed.zarr").toString();
        Dataset<Row> df = spark.read().format("zarr").load(source).selectExpr("time", "lat", "lon * 2 AS lon2", "t2m");
        List<String> jobs = writeJobs(df, "time,lat,lon2", url);
        assertThat(coordinatesPass(jobs, url)).as(jobs.toString()).isTrue();
        Chunk lon2 = ZarrArray.open(url + "/lon2", StoreOptions.empty()).readRegion(new long[] {0}, new int[] {NX});
        for (int x = 0; x < NX; x++) {
            assertThat(lon2.getDouble(x)).isEqualTo(2.0 * ClimateDataset.lon(x));
        }
    }

    /**
     * Checks the written t2m and tp of the {@code ny} lowest latitudes against the formulas: the output's coordinates
     * are the source's sorted ascending (lat descends in the source).
     */
    private static void checkCopy(String url, String time, String lat, String lon, int nt, int ny) {
        Chunk ts = ZarrArray.open(url + "/" + time, StoreOptions.empty()).readRegion(new long[] {0}, new int[] {nt});
        Chunk ys = ZarrArray.open(url + "/" + lat, StoreOptions.empty()).readRegion(new long[] {0}, new int[] {ny});
        Chunk xs = ZarrArray.open(url + "/" + lon, StoreOptions.empty()).readRegion(new long[] {0}, new int[] {NX});
        ZarrArray t2m = ZarrArray.open(url + "/t2m", StoreOptions.empty());
        ZarrArray tp = ZarrArray.open(url + "/tp", StoreOptions.empty());
        assertThat(t2m.grid().shape()).containsExactly(nt, ny, NX);
        Chunk a = t2m.readRegion(new long[] {0, 0, 0}, new int[] {nt, ny, NX});
        Chunk b = tp.readRegion(new long[] {0, 0, 0}, new int[] {nt, ny, NX});
        for (int t = 0; t < nt; t++) {
            assertThat(ts.getLong(t)).isEqualTo(ClimateDataset.time(t));
            for (int i = 0; i < ny; i++) {
                int y = NY - 1 - i; // the i-th lowest latitude
                assertThat(ys.getDouble(i)).isEqualTo(ClimateDataset.lat(y));
                for (int x = 0; x < NX; x++) {
                    assertThat(xs.getDouble(x)).isEqualTo(ClimateDataset.lon(x));
                    int flat = (t * ny + i) * NX + x;
                    assertThat(a.getDouble(flat)).isEqualTo(ClimateDataset.t2m(t, y, x));
                    assertThat(b.getDouble(flat)).isEqualTo(ClimateDataset.tp(t, y, x));
                }
            }
        }
    }
}
