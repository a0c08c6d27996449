package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code df.write.format("zarr")} on local Spark: values and fill cells against the rows written (a plain loop over a
 * grid with some cells left out), each chunk file written once, modes and errors.
 */
class ZarrWriteTest {
    @TempDir
    static Path tmp;

    private static SparkSession spark;

    @BeforeAll
    static void setUp() {
        spark = SparkSession.builder().sparkContext(SparkTestContext.get().sc()).getOrCreate();
    }

    /** t in 0..6 (long), y in 0..4 (double, descending values), a float and an int variable; cell (t+y)%5==3 empty. */
    private static Dataset<Row> grid() {
        List<Row> rows = new ArrayList<>();
        for (int t = 0; t < 7; t++) {
            for (int y = 0; y < 5; y++) {
                if ((t + y) % 5 != 3) {
                    rows.add(RowFactory.create((long) t * 6, 10.0 * y - 20, (float) (t * 100 + y), t - y));
                }
            }
        }
        StructType schema = new StructType()
                .add("time", DataTypes.LongType)
                .add("lat", DataTypes.DoubleType)
                .add("t2m", DataTypes.FloatType)
                .add("n", DataTypes.IntegerType);
        return spark.createDataFrame(rows, schema);
    }

    @Test
    void valuesFillCellsAndChunksWrittenOnce() throws Exception {
        String url = tmp.resolve("grid.zarr").toString();
        grid().repartition(3)
                .write()
                .format("zarr")
                .option("dims", "time,lat")
                .option("chunks", "time:3,lat:2")
                .save(url);
        ZarrArray t2m = ZarrArray.open(url + "/t2m", StoreOptions.empty());
        ZarrArray n = ZarrArray.open(url + "/n", StoreOptions.empty());
        assertThat(t2m.grid().shape()).containsExactly(7, 5);
        assertThat(t2m.grid().chunkShape()).containsExactly(3, 2);
        assertThat(t2m.attributes().get("_ARRAY_DIMENSIONS")).isEqualTo(List.of("time", "lat"));
        Chunk tv = t2m.readRegion(new long[] {0, 0}, new int[] {7, 5});
        Chunk nv = n.readRegion(new long[] {0, 0}, new int[] {7, 5});
        Chunk lat = ZarrArray.open(url + "/lat", StoreOptions.empty()).readRegion(new long[] {0}, new int[] {5});
        Chunk time = ZarrArray.open(url + "/time", StoreOptions.empty()).readRegion(new long[] {0}, new int[] {7});
        for (int t = 0; t < 7; t++) {
            assertThat(time.getLong(t)).isEqualTo(t * 6L);
            for (int y = 0; y < 5; y++) {
                assertThat(lat.getDouble(y)).isEqualTo(10.0 * y - 20);
                if ((t + y) % 5 == 3) {
                    assertThat(tv.getDouble(t * 5 + y)).isNaN();
                    assertThat(nv.getLong(t * 5 + y)).isEqualTo(Integer.MIN_VALUE);
                } else {
                    assertThat(tv.getDouble(t * 5 + y)).isEqualTo(t * 100 + y);
                    assertThat(nv.getLong(t * 5 + y)).isEqualTo(t - y);
                }
            }
        }
        // 3 x 3 chunks per variable, each a file; the group's documents written.
        try (var files = Files.list(Path.of(url, "t2m"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(s -> !s.startsWith(".")))
                    .containsExactlyInAnyOrder("0.0", "0.1", "0.2", "1.0", "1.1", "1.2", "2.0", "2.1", "2.2");
        }
        assertThat(Path.of(url, ".zgroup")).exists();
        assertThat(Path.of(url, ".zmetadata")).exists();
        assertThat(t2m.attributes()).doesNotContainKey("cubed:incomplete");

        // Read back CF-decoded (the default): NaN and the int fill value are NULL; n, with a fill value, is double.
        Dataset<Row> back = spark.read().format("zarr").load(url);
        assertThat(back.schema().fieldNames()).containsExactly("time", "lat", "n", "t2m");
        assertThat(back.schema().apply("n").dataType()).isEqualTo(DataTypes.DoubleType);
        assertThat(back.where("t2m IS NULL AND n IS NULL").count()).isEqualTo(35 - grid().count());
        List<String> got = new ArrayList<>();
        for (Row r : back.where("t2m IS NOT NULL").collectAsList()) {
            got.add(r.getLong(0) + "," + r.getDouble(1) + "," + r.getFloat(3) + "," + r.getDouble(2));
        }
        List<String> want = new ArrayList<>();
        for (Row r : grid().collectAsList()) {
            want.add(r.getLong(0) + "," + r.getDouble(1) + "," + r.getFloat(2) + "," + (double) r.getInt(3));
        }
        assertThat(got).containsExactlyInAnyOrderElementsOf(want);
    }

    @Test
    void modes() {
        String url = tmp.resolve("modes.zarr").toString();
        grid().write().format("zarr").option("dims", "time,lat").save(url);
        assertThatThrownBy(() ->
                        grid().write().format("zarr").option("dims", "time,lat").save(url))
                .hasMessageContaining("already exists");
        assertThatThrownBy(() -> grid().write()
                        .format("zarr")
                        .mode("append")
                        .option("dims", "time,lat")
                        .save(url))
                .hasMessageContaining("mode append");
        grid().where("time = 0")
                .write()
                .format("zarr")
                .mode("ignore")
                .option("dims", "time,lat")
                .save(url);
        assertThat(spark.read().format("zarr").load(url).count()).isEqualTo(35);
        grid().where("time = 0")
                .write()
                .format("zarr")
                .mode("overwrite")
                .option("dims", "time,lat")
                .save(url);
        // time 0 has no row at lat 10 ((0 + 3) % 5 == 3): one time by four latitudes
        assertThat(spark.read().format("zarr").load(url).count()).isEqualTo(4);
        Dataset<Row> self = spark.read().format("zarr").load(url);
        assertThatThrownBy(() -> self.write()
                        .format("zarr")
                        .mode("overwrite")
                        .option("dims", "time,lat")
                        .save(url))
                .hasMessageContaining("the DataFrame reads");
        assertThat(spark.read().format("zarr").load(url).count()).isEqualTo(4);
    }

    @Test
    void errors() {
        String url = tmp.resolve("bad.zarr").toString();
        Dataset<Row> dup = grid().union(grid().where("time = 12 AND lat = 0.0"));
        assertThatThrownBy(() ->
                        dup.write().format("zarr").option("dims", "time,lat").save(url))
                .hasStackTraceContaining("two rows have (time, lat) = (12, 0.0)");
        assertThat(Path.of(url)).doesNotExist();
        Dataset<Row> withString = grid().selectExpr("time", "lat", "cast(n as string) AS s");
        assertThatThrownBy(() -> withString
                        .write()
                        .format("zarr")
                        .option("dims", "time,lat")
                        .save(url))
                .hasMessageContaining("column s has type string");
        assertThatThrownBy(() -> grid().write()
                        .format("zarr")
                        .option("dims", "time,height")
                        .save(url))
                .hasMessageContaining("dims names height, which is not a column");
        assertThatThrownBy(() -> grid().write()
                        .format("zarr")
                        .option("dims", "time,lat")
                        .option("coords.lat", "-20,-10,0,10")
                        .save(url))
                .hasStackTraceContaining("the dimension column lat has the value 20.0");
        assertThat(Path.of(url)).doesNotExist();
    }

    /**
     * A DataFrame written and read back through the source with CF decoding on (the default) gives its rows: NULLs and
     * cells without a row are NULL (float NaN, integer and time fill values masked), an integer column with missing
     * cells comes back as double (xarray's promotion), timestamps as timestamp_ntz of their UTC time, dates as
     * timestamp_ntz at midnight; on Zarr v2 and v3. The expected rows are built in Java from the values generated.
     */
    @Test
    void roundTripThroughCfDecoding() {
        StructType schema = new StructType()
                .add("time", DataTypes.TimestampNTZType)
                .add("lat", DataTypes.DoubleType)
                .add("f", DataTypes.FloatType)
                .add("i", DataTypes.IntegerType)
                .add("ts", DataTypes.TimestampType)
                .add("day", DataTypes.DateType);
        LocalDateTime t0 = LocalDateTime.of(2021, 3, 1, 0, 0);
        List<Row> rows = new ArrayList<>();
        Map<String, String> want = new TreeMap<>();
        for (int t = 0; t < 5; t++) {
            for (int y = 0; y < 4; y++) {
                LocalDateTime time = t0.plusHours(6L * t);
                double lat = 45.0 - 1.5 * y;
                String key = time + "|" + lat;
                if ((t * 4 + y) % 7 == 5) {
                    want.put(key, key + "|null|null|null|null");
                    continue;
                }
                Float f = (t + y) % 3 == 0 ? null : (float) (t * 10 + y) / 4;
                Integer i = (t * y) % 4 == 1 ? null : t * 1000 - y;
                Instant ts =
                        y == 2 ? null : Instant.parse("2020-01-01T00:00:00Z").plusMillis(t * 86_400_123L + y);
                LocalDate day = LocalDate.of(2022, 1 + t, 1 + y);
                rows.add(RowFactory.create(
                        time, lat, f, i, ts == null ? null : Timestamp.from(ts), java.sql.Date.valueOf(day)));
                want.put(
                        key,
                        key + "|" + f + "|" + (i == null ? null : (double) i) + "|"
                                + (ts == null ? null : LocalDateTime.ofInstant(ts, ZoneOffset.UTC)) + "|"
                                + day.atStartOfDay());
            }
        }
        Dataset<Row> df = spark.createDataFrame(rows, schema);
        for (String format : List.of("2", "3")) {
            String url = tmp.resolve("roundtrip-v" + format + ".zarr").toString();
            df.write()
                    .format("zarr")
                    .option("dims", "time,lat")
                    .option("coords.lat", "45,43.5,42,40.5")
                    .option("chunks", "time:2,lat:3")
                    .option("zarrFormat", format)
                    .save(url);
            Dataset<Row> back = spark.read().format("zarr").load(url);
            assertThat(back.schema().fieldNames()).containsExactly("time", "lat", "day", "f", "i", "ts");
            assertThat(back.schema().apply("time").dataType()).isEqualTo(DataTypes.TimestampNTZType);
            assertThat(back.schema().apply("i").dataType()).isEqualTo(DataTypes.DoubleType);
            assertThat(back.schema().apply("ts").dataType()).isEqualTo(DataTypes.TimestampNTZType);
            Map<String, String> got = new TreeMap<>();
            for (Row r : back.collectAsList()) {
                String key = r.get(0) + "|" + r.get(1);
                got.put(key, key + "|" + r.get(3) + "|" + r.get(4) + "|" + r.get(5) + "|" + r.get(2));
            }
            assertThat(got).as("Zarr v" + format).isEqualTo(want);
        }
    }

    /** An integer column that fills every cell gets no fill value, so it reads back as its type, exactly. */
    @Test
    void completeIntegerColumnKeepsItsType() throws Exception {
        String url = tmp.resolve("complete.zarr").toString();
        spark.sql("SELECT id DIV 4 AS t, id % 4 AS y, id * 1000000007 + 9007199254740993 AS k FROM range(12)")
                .write()
                .format("zarr")
                .option("dims", "t,y")
                .save(url);
        assertThat(Files.readString(Path.of(url, "k", ".zarray"))).containsPattern("\"fill_value\"\\s*:\\s*null");
        Dataset<Row> back = spark.read().format("zarr").load(url);
        assertThat(back.schema().apply("k").dataType()).isEqualTo(DataTypes.LongType);
        Map<String, Long> got = new TreeMap<>();
        for (Row r : back.collectAsList()) {
            got.put(r.getLong(0) + "," + r.getLong(1), r.getLong(2));
        }
        Map<String, Long> want = new TreeMap<>();
        for (long id = 0; id < 12; id++) {
            want.put(id / 4 + "," + id % 4, id * 1000000007L + 9007199254740993L);
        }
        assertThat(got).isEqualTo(want);
    }

    @Test
    void timestampsCfEncoded() {
        String url = tmp.resolve("times.zarr").toString();
        spark.sql("SELECT timestamp_micros(1600000000000000 + id * 3600000000) AS time, CAST(id * 1.5 AS DOUBLE) AS v,"
                        + " timestamp_seconds(1500000000 + id) AS seen FROM range(10)")
                .write()
                .format("zarr")
                .option("dims", "time")
                .save(url);
        ZarrArray time = ZarrArray.open(url + "/time", StoreOptions.empty());
        assertThat(time.attributes())
                .containsEntry("units", "seconds since 1970-01-01")
                .containsEntry("calendar", "proleptic_gregorian");
        Chunk t = time.readRegion(new long[] {0}, new int[] {10});
        ZarrArray seen = ZarrArray.open(url + "/seen", StoreOptions.empty());
        Chunk s = seen.readRegion(new long[] {0}, new int[] {10});
        for (int i = 0; i < 10; i++) {
            assertThat(t.getLong(i)).isEqualTo(1600000000L + i * 3600L);
            assertThat(s.getLong(i)).isEqualTo(1500000000L + i);
        }
        assertThat(Map.copyOf(seen.attributes())).containsEntry("units", "seconds since 1970-01-01");
    }
}
