package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

        Dataset<Row> back = spark.read().format("zarr").load(url);
        assertThat(back.schema().fieldNames()).containsExactly("time", "lat", "n", "t2m");
        List<String> got = new ArrayList<>();
        for (Row r : back.where("NOT isnan(t2m)").collectAsList()) {
            got.add(r.getLong(0) + "," + r.getDouble(1) + "," + r.getFloat(3) + "," + r.getInt(2));
        }
        List<String> want = new ArrayList<>();
        for (Row r : grid().collectAsList()) {
            want.add(r.getLong(0) + "," + r.getDouble(1) + "," + r.getFloat(2) + "," + r.getInt(3));
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
