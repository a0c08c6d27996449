package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.dtype.DType;
import io.cubed.error.CubedException;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrGroup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spark.read.format("zarr")} on local Spark: rows against the formulas of {@link ClimateDataset} (compared as
 * multisets: a scan emits chunk by chunk, and SQL promises no order), pushdown proved by the files opened (a counting
 * file system), column pruning, partitioning, errors at analysis time.
 */
class ZarrDataSourceTest {
    /** 40 x 30 x 24 in chunks of 8 x 10 x 12: 5 x 3 x 2 = 30 chunks per variable. */
    private static final ClimateDataset DATA = new ClimateDataset(40, 30, 24, 8, 10, 12);

    @TempDir
    static Path tmp;

    private static SparkSession spark;
    private static String v2;

    @BeforeAll
    static void setUp() {
        spark = SparkTestContext.session();
        v2 = tmp.resolve("climate.zarr").toString();
        DATA.writeV2(v2, StoreOptions.empty());
    }

    /** Every row the formulas give in C order (time, lat, lon), where {@code keep} accepts the flat index. */
    private static List<String> expected(IntPredicate keep) {
        List<String> out = new ArrayList<>();
        for (int t = 0; t < DATA.nt; t++) {
            for (int y = 0; y < DATA.ny; y++) {
                for (int x = 0; x < DATA.nx; x++) {
                    if (keep.test((t * DATA.ny + y) * DATA.nx + x)) {
                        out.add(row(t, y, x));
                    }
                }
            }
        }
        return out;
    }

    private static String row(int t, int y, int x) {
        return ClimateDataset.time(t) + "," + ClimateDataset.lat(y) + "," + ClimateDataset.lon(x) + ","
                + ClimateDataset.flag(t, y, x) + "," + ClimateDataset.t2m(t, y, x) + "," + ClimateDataset.tp(t, y, x);
    }

    private static List<String> rows(Dataset<Row> df) {
        List<String> out = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            out.add(r.get(0) + "," + r.get(1) + "," + r.get(2) + "," + r.get(3) + "," + r.get(4) + "," + r.get(5));
        }
        return out;
    }

    @Test
    void schemaHasDimensionsThenVariables() {
        StructType schema = spark.read().format("zarr").load(v2).schema();
        assertThat(schema.fieldNames()).containsExactly("time", "lat", "lon", "flag", "t2m", "tp");
        assertThat(schema.fields()[0].dataType()).isEqualTo(DataTypes.LongType);
        assertThat(schema.fields()[1].dataType()).isEqualTo(DataTypes.DoubleType);
        assertThat(schema.fields()[2].dataType()).isEqualTo(DataTypes.FloatType);
        assertThat(schema.fields()[3].dataType()).as("uint8 widens").isEqualTo(DataTypes.ShortType);
        assertThat(schema.fields()[4].dataType()).isEqualTo(DataTypes.DoubleType);
        assertThat(schema.fields()[5].dataType()).isEqualTo(DataTypes.FloatType);
    }

    @Test
    void everyRowInOrder() {
        Dataset<Row> df = spark.read().format("zarr").load(v2);
        assertThat(rows(df)).containsExactlyInAnyOrderElementsOf(expected(i -> true));
    }

    @Test
    void everyRowInOrderFromShardedV3() {
        String v3 = tmp.resolve("climate-v3.zarr").toString();
        DATA.writeV3Sharded(v3, StoreOptions.empty());
        Dataset<Row> df = spark.read().format("zarr").load(v3);
        assertThat(df.schema().fieldNames()).containsExactly("time", "lat", "lon", "flag", "t2m", "tp");
        assertThat(rows(df)).containsExactlyInAnyOrderElementsOf(expected(i -> true));
        List<String> filtered =
                rows(spark.read().format("zarr").load(v3).where("time IN (3, 17) AND lat < 0 AND lon >= 150"));
        assertThat(filtered).containsExactlyInAnyOrderElementsOf(expected(i -> {
            int t = i / (DATA.ny * DATA.nx);
            int y = i / DATA.nx % DATA.ny;
            int x = i % DATA.nx;
            return (t == 3 || t == 17) && ClimateDataset.lat(y) < 0 && ClimateDataset.lon(x) >= 150;
        }));
    }

    @Test
    void oneArrayTakesItsCoordinatesFromItsGroup() {
        Dataset<Row> df = spark.read().format("zarr").load(v2 + "/t2m");
        assertThat(df.schema().fieldNames()).containsExactly("time", "lat", "lon", "t2m");
        List<Row> got = df.where("time = 5 AND lat = 0.0").collectAsList();
        assertThat(got).hasSize(DATA.nx);
        for (int x = 0; x < DATA.nx; x++) {
            Row r = got.get(x);
            assertThat(r.getLong(0)).isEqualTo(5L);
            assertThat(r.getFloat(2)).isEqualTo(ClimateDataset.lon(x));
            assertThat(r.getDouble(3)).isEqualTo(ClimateDataset.t2m(5, 12, x));
        }
    }

    @Test
    void filtersOnDimensionsReadOnlyTheChunksTheyKeep() {
        String id = "prune";
        List<String> opened = CountingFileSystem.opened(id);
        Dataset<Row> df = CountedReads.load(spark, id, v2);
        opened.clear();
        // time 8..15 is time chunk 1; lat >= 0 is y 0..12, lat chunks 0 and 1; lon 30 and 60 are x 2 and 4, chunk 0.
        Dataset<Row> q = df.where("time BETWEEN 8 AND 15 AND lat >= 0 AND lon IN (30.0, 60.0)");
        assertThat(rows(q)).containsExactlyInAnyOrderElementsOf(expected(i -> {
            int t = i / (DATA.ny * DATA.nx);
            int y = i / DATA.nx % DATA.ny;
            int x = i % DATA.nx;
            return t >= 8 && t <= 15 && y <= 12 && (x == 2 || x == 4);
        }));
        assertThat(chunkReads(opened, "t2m")).containsExactlyInAnyOrder("1.0.0", "1.1.0");
        // The scan's SQL metrics count the same reads, 2 chunks of 3 variables, and the values of the boxes taken from
        // them: 8 times, lat 0..9 and 10..12, lon 2..4 (the bounding range of 30 and 60), 8 + 4 + 1 bytes a row.
        assertThat(ZarrScanMetrics.chunksRead(q)).isEqualTo(6);
        assertThat(ZarrScanMetrics.valueBytesRead(q)).isEqualTo(8L * (10 + 3) * 3 * (8 + 4 + 1));
        assertThat(chunkReads(opened, "tp")).containsExactlyInAnyOrder("1.0.0", "1.1.0");
        assertThat(chunkReads(opened, "flag")).containsExactlyInAnyOrder("1.0.0", "1.1.0");

        // Only the variables a query uses are read; a count reads no chunk at all.
        opened.clear();
        double sum = df.where("time < 8").selectExpr("sum(tp)").first().getDouble(0);
        double want = 0;
        for (int t = 0; t < 8; t++) {
            for (int y = 0; y < DATA.ny; y++) {
                for (int x = 0; x < DATA.nx; x++) {
                    want += ClimateDataset.tp(t, y, x);
                }
            }
        }
        assertThat(sum).isCloseTo(want, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(chunkReads(opened, "tp"))
                .containsExactlyInAnyOrder("0.0.0", "0.0.1", "0.1.0", "0.1.1", "0.2.0", "0.2.1");
        assertThat(chunkReads(opened, "t2m")).isEmpty();
        assertThat(chunkReads(opened, "flag")).isEmpty();
        opened.clear();
        assertThat(df.count()).isEqualTo((long) DATA.nt * DATA.ny * DATA.nx);
        assertThat(chunkReads(opened, "t2m")).isEmpty();

        // OR on one dimension prunes to the union; OR across dimensions cannot prune, yet the answer is right.
        opened.clear();
        assertThat(df.where("time = 3 OR time = 35").count()).isEqualTo(2L * DATA.ny * DATA.nx);
        opened.clear();
        List<String> either = rows(df.where("time = 3 OR time = 35"));
        assertThat(either)
                .containsExactlyInAnyOrderElementsOf(
                        expected(i -> i / (DATA.ny * DATA.nx) == 3 || i / (DATA.ny * DATA.nx) == 35));
        assertThat(chunkReads(opened, "t2m"))
                .hasSize(2 * 3 * 2)
                .allMatch(k -> k.startsWith("0.") || k.startsWith("4."));
        opened.clear();
        List<String> across = rows(df.where("time = 3 OR lat = 60.0"));
        assertThat(across)
                .containsExactlyInAnyOrderElementsOf(
                        expected(i -> i / (DATA.ny * DATA.nx) == 3 || i / DATA.nx % DATA.ny == 0));
        assertThat(chunkReads(opened, "t2m")).hasSize(30);
        opened.clear();
        assertThat(df.where("lat > 1000").count()).isZero();
        assertThat(chunkReads(opened, "t2m")).isEmpty();
    }

    /** The chunk keys of {@code variable} among the opened paths. */
    private static Set<String> chunkReads(List<String> opened, String variable) {
        return CountedReads.chunkReads(opened, "climate.zarr", variable);
    }

    @Test
    void partitionsFollowTheOptions() {
        Dataset<Row> one =
                spark.read().format("zarr").option("chunksPerPartition", "1").load(v2);
        assertThat(one.rdd().getNumPartitions()).isEqualTo(30);
        Dataset<Row> six =
                spark.read().format("zarr").option("chunksPerPartition", "6").load(v2);
        assertThat(six.rdd().getNumPartitions()).isEqualTo(5);
        assertThat(rows(six)).containsExactlyInAnyOrderElementsOf(expected(i -> true));
        Dataset<Row> small =
                spark.read().format("zarr").option("batchRows", "7").load(v2);
        assertThat(rows(small)).containsExactlyInAnyOrderElementsOf(expected(i -> true));
        Dataset<Row> pruned = spark.read()
                .format("zarr")
                .option("chunksPerPartition", "1")
                .load(v2)
                .where("time = 9");
        assertThat(pruned.rdd().getNumPartitions()).isEqualTo(3 * 2);
        // By size: 28,800 rows of 34 bytes (979,200 bytes) in partitions of at most 200,000 bytes is 5 partitions,
        // made 6 (whole waves of the session's 2 cores) of equal size: 5 chunks of 960 rows each.
        Dataset<Row> bySize = spark.read()
                .format("zarr")
                .option("maxPartitionBytes", "200000")
                .load(v2);
        assertThat(bySize.rdd().getNumPartitions()).isEqualTo(6);
        List<Integer> rowsPerPartition = bySize.javaRDD().glom().map(List::size).collect();
        assertThat(rowsPerPartition).containsOnly(5 * 960);
    }

    @Test
    void variablesOptionPicksColumns() {
        Dataset<Row> df = spark.read().format("zarr").option("variables", "tp").load(v2);
        assertThat(df.schema().fieldNames()).containsExactly("time", "lat", "lon", "tp");
        Row r = df.where("time = 39 AND lat = -85.0 AND lon = 345.0").first();
        assertThat(r.getFloat(3)).isEqualTo(ClimateDataset.tp(39, 29, 23));
    }

    @Test
    void arraysWithoutDimensionNamesGetIndexColumns() {
        String url = tmp.resolve("plain.zarr").toString();
        io.cubed.storage.zarr.ZarrArray a = io.cubed.storage.zarr.ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {5, 3}, new int[] {2, 2}, DType.INT32)
                        .build());
        a.writeChunk(io.cubed.chunk.Chunk.wrap(DType.INT32, new int[] {2, 2}, new int[] {0, 1, 3, 4}), 0, 0);
        Dataset<Row> raw =
                spark.read().format("zarr").option("decodeCf", "false").load(url);
        assertThat(raw.schema().fieldNames()).containsExactly("dim_0", "dim_1", "plain");
        List<String> got = new ArrayList<>();
        for (Row r : raw.where("dim_0 >= 1 AND dim_1 < 2").collectAsList()) {
            got.add(r.getLong(0) + "," + r.getLong(1) + "," + r.getInt(2));
        }
        // Unwritten chunks read as the fill value, 0.
        assertThat(got).containsExactly("1,0,3", "1,1,4", "2,0,0", "2,1,0", "3,0,0", "3,1,0", "4,0,0", "4,1,0");
        // Decoded (the default), the Zarr v2 fill value 0 is a _FillValue, as xarray reads it: values equal to it,
        // unwritten chunks included, are NULL in a double column (xarray: float64 with NaN).
        Dataset<Row> df = spark.read().format("zarr").load(url);
        assertThat(df.schema().apply("plain").dataType()).isEqualTo(DataTypes.DoubleType);
        assertThat(df.schema().apply("plain").nullable()).isTrue();
        List<String> decoded = new ArrayList<>();
        for (Row r : df.where("dim_0 <= 1 AND dim_1 < 2").collectAsList()) {
            decoded.add(r.getLong(0) + "," + r.getLong(1) + "," + r.get(2));
        }
        assertThat(decoded).containsExactly("0,0,null", "0,1,1.0", "1,0,3.0", "1,1,4.0");
        assertThat(df.selectExpr("count(plain)").first().getLong(0)).isEqualTo(3);
    }

    @Test
    void badInputFailsAtAnalysisNamingPathAndProblem() throws Exception {
        assertThatThrownBy(() -> spark.read()
                        .format("zarr")
                        .option("variables", "t2m,nope")
                        .load(v2))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("no variable 'nope' in " + v2)
                .hasMessageContaining("[flag, t2m, tp]");
        String missing = tmp.resolve("missing.zarr").toString();
        assertThatThrownBy(() -> spark.read().format("zarr").load(missing))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("no Zarr array or group at " + missing);

        String mixed = tmp.resolve("mixed.zarr").toString();
        ZarrGroup g = ZarrGroup.create(mixed, StoreOptions.empty());
        g.createArray(
                "a",
                ZarrCreateOptions.builder(new long[] {4, 4}, new int[] {2, 2}, DType.FLOAT64)
                        .build());
        g.createArray(
                "b",
                ZarrCreateOptions.builder(new long[] {4, 5}, new int[] {2, 2}, DType.FLOAT64)
                        .build());
        assertThatThrownBy(() -> spark.read().format("zarr").load(mixed))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("the variables of " + mixed + " do not share dimensions and shape")
                .hasMessageContaining("b [dim_0, dim_1] shape [4, 5]");
        assertThat(spark.read()
                        .format("zarr")
                        .option("variables", "b")
                        .load(mixed)
                        .count())
                .isEqualTo(20);

        // Non-dimension coordinates named in a data variable's `coordinates` attribute (as xarray writes a scalar
        // height and 2-d latitudes) are columns only where they share the data's dimensions and shape.
        String coords = tmp.resolve("coords.zarr").toString();
        ZarrGroup cg = ZarrGroup.create(coords, StoreOptions.empty());
        io.cubed.storage.zarr.ZarrArray t = cg.createArray(
                "t",
                ZarrCreateOptions.builder(new long[] {3, 2, 4}, new int[] {3, 2, 4}, DType.FLOAT64)
                        .build());
        t.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("time", "y", "x"), "coordinates", "height lat2d w"));
        cg.createArray(
                        "height",
                        ZarrCreateOptions.builder(new long[0], new int[0], DType.FLOAT64)
                                .build())
                .writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of()));
        cg.createArray(
                        "lat2d",
                        ZarrCreateOptions.builder(new long[] {2, 4}, new int[] {2, 4}, DType.FLOAT64)
                                .build())
                .writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("y", "x")));
        cg.createArray(
                        "w",
                        ZarrCreateOptions.builder(new long[] {3, 2, 4}, new int[] {3, 2, 4}, DType.FLOAT64)
                                .build())
                .writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("time", "y", "x")));
        assertThat(spark.read().format("zarr").load(coords).columns()).containsExactly("time", "y", "x", "t", "w");
        assertThat(spark.read().format("zarr").load(coords).count()).isEqualTo(24);
        assertThat(spark.read()
                        .format("zarr")
                        .option("variables", "lat2d")
                        .load(coords)
                        .count())
                .isEqualTo(8);

        String complex = tmp.resolve("complex.zarr").toString();
        io.cubed.storage.zarr.ZarrArray.create(
                complex,
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.COMPLEX128)
                        .build());
        assertThatThrownBy(() -> spark.read().format("zarr").load(complex))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining(complex)
                .hasMessageContaining("complex128, which has no Spark SQL column type");

        String corrupt = tmp.resolve("corrupt.zarr").toString();
        Files.createDirectories(Path.of(corrupt));
        Files.writeString(Path.of(corrupt, ".zarray"), "{\"zarr_format\": 2, \"shape\": [4", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> spark.read().format("zarr").load(corrupt))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining(corrupt + "/.zarray");

        String badDims = tmp.resolve("baddims.zarr").toString();
        io.cubed.storage.zarr.ZarrArray bd = io.cubed.storage.zarr.ZarrArray.create(
                badDims,
                ZarrCreateOptions.builder(new long[] {4, 4}, new int[] {2, 2}, DType.FLOAT64)
                        .build());
        bd.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("x")));
        assertThatThrownBy(() -> spark.read().format("zarr").load(badDims))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining(badDims)
                .hasMessageContaining("names 1 dimensions, but the array has 2");
        assertThatThrownBy(() -> spark.read()
                        .format("zarr")
                        .option("chunksPerPartition", "0")
                        .load(v2))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("chunksPerPartition must be a whole number of at least 1, got '0'");
    }
}
