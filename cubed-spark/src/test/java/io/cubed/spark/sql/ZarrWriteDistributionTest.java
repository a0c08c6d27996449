package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code df.write.format("zarr")} distributes its work without moving rows: input clustered by chunk (C order)
 * writes its chunks in place, input in any other order (shuffled, evicted from a bounded number of open chunks) is
 * staged as fragments and merged, a sparse grid keeps its fill values, and two rows for one cell in different tasks
 * stay an error that leaves nothing at the path; Zarr v2 and v3. Every cell is checked against the formulas that made
 * the rows, computed here in plain Java.
 */
class ZarrWriteDistributionTest {
    @TempDir
    static Path tmp;

    private static SparkSession spark;

    // time 0, 10, … 80 (bigint); lat 0.5, 1.5, … 5.5 (double); lon 0..6 (int): chunks 2 x 4 x 3 give 5 x 2 x 3 chunks,
    // with clipped chunks at each far edge.
    private static final int T = 9;
    private static final int Y = 6;
    private static final int X = 7;
    private static final String CHUNKS = "time:2,lat:4,lon:3";

    @BeforeAll
    static void setUp() {
        spark = SparkSession.builder().sparkContext(SparkTestContext.get().sc()).getOrCreate();
    }

    /** Every cell of the grid as a row in C order, in {@code partitions} partitions of the range. */
    private static Dataset<Row> grid(int partitions) {
        return spark.range(0, (long) T * Y * X, 1, partitions)
                .selectExpr(
                        "(id DIV " + (Y * X) + ") * 10 AS time",
                        "((id DIV " + X + ") % " + Y + ") + 0.5D AS lat",
                        "CAST(id % " + X + " AS INT) AS lon",
                        "CAST((id DIV " + (Y * X) + ") * 100 + ((id DIV " + X + ") % " + Y + ") * 10 + id % " + X
                                + " + 0.25D AS FLOAT) AS v",
                        "(id DIV " + (Y * X) + ") * 1000000 + ((id DIV " + X + ") % " + Y + ") * 1000 + id % " + X
                                + " AS k");
    }

    private static float v(int t, int y, int x) {
        return t * 100 + y * 10 + x + 0.25f;
    }

    private static long k(int t, int y, int x) {
        return t * 1_000_000L + y * 1000L + x;
    }

    /** Checks every cell of {@code v} and {@code k} at {@code url}: the formulas where {@code given}, else the fill. */
    private static void checkCells(String url, Given given) {
        ChunkStore va = Zarr.open(url + "/v", StoreOptions.empty());
        ChunkStore ka = Zarr.open(url + "/k", StoreOptions.empty());
        assertThat(va.grid().shape()).containsExactly(T, Y, X);
        assertThat(va.grid().chunkShape()).containsExactly(2, 4, 3);
        Chunk vs = va.readRegion(new long[3], new int[] {T, Y, X});
        Chunk ks = ka.readRegion(new long[3], new int[] {T, Y, X});
        for (int t = 0; t < T; t++) {
            for (int y = 0; y < Y; y++) {
                for (int x = 0; x < X; x++) {
                    int i = (t * Y + y) * X + x;
                    if (given.test(t, y, x)) {
                        assertThat(vs.getDouble(i)).as("v at %d,%d,%d", t, y, x).isEqualTo(v(t, y, x));
                        assertThat(ks.getLong(i)).as("k at %d,%d,%d", t, y, x).isEqualTo(k(t, y, x));
                    } else {
                        assertThat(vs.getDouble(i)).as("v at %d,%d,%d", t, y, x).isNaN();
                        assertThat(ks.getLong(i)).as("k at %d,%d,%d", t, y, x).isEqualTo(Long.MIN_VALUE);
                    }
                }
            }
        }
        assertThat(Path.of(url, ZarrWriteTask.STAGING)).doesNotExist();
    }

    interface Given {
        boolean test(int t, int y, int x);
    }

    private static List<String> chunkFiles(String url, String var, String format) throws Exception {
        Path dir = format.equals("3") ? Path.of(url, var, "c") : Path.of(url, var);
        List<String> out = new ArrayList<>();
        try (var files = Files.walk(dir)) {
            files.filter(Files::isRegularFile)
                    .map(p -> dir.relativize(p).toString())
                    .filter(s -> !s.startsWith(".") && !s.equals("zarr.json"))
                    .forEach(out::add);
        }
        return out;
    }

    @Test
    void clusteredInputWritesEveryChunkOnce() throws Exception {
        for (String format : List.of("2", "3")) {
            String url = tmp.resolve("clustered-v" + format + ".zarr").toString();
            // 4 partitions of 94 or 95 rows: their boundaries cut chunks, which are merged from two fragments.
            grid(4).write()
                    .format("zarr")
                    .option("dims", "time,lat,lon")
                    .option("chunks", CHUNKS)
                    .option("zarrFormat", format)
                    .save(url);
            checkCells(url, (t, y, x) -> true);
            assertThat(chunkFiles(url, "v", format)).hasSize(30);
            if (format.equals("2")) { // a complete integer column: no fill value
                assertThat(Files.readString(Path.of(url, "k", ".zarray")))
                        .containsPattern("\"fill_value\"\\s*:\\s*null");
            }
        }
    }

    @Test
    void shuffledInputIsStagedAndMerged() throws Exception {
        for (String format : List.of("2", "3")) {
            String url = tmp.resolve("shuffled-v" + format + ".zarr").toString();
            grid(3).orderBy(org.apache.spark.sql.functions.rand(7))
                    .write()
                    .format("zarr")
                    .option("dims", "time,lat,lon")
                    .option("chunks", CHUNKS)
                    .option("zarrFormat", format)
                    .save(url);
            checkCells(url, (t, y, x) -> true);
            assertThat(chunkFiles(url, "k", format)).hasSize(30);
            // One open chunk a task at most: every change of chunk stages the one before as a fragment.
            String small = tmp.resolve("evicted-v" + format + ".zarr").toString();
            grid(2).repartition(3)
                    .write()
                    .format("zarr")
                    .option("dims", "time,lat,lon")
                    .option("chunks", CHUNKS)
                    .option("bufferBytes", "1")
                    .option("zarrFormat", format)
                    .save(small);
            checkCells(small, (t, y, x) -> true);
        }
    }

    @Test
    void sparseGridKeepsFillValuesAndWritesNoEmptyChunk() throws Exception {
        Given given = (t, y, x) -> (t + y + x) % 4 != 0 && !(t < 2 && y < 4 && x < 3);
        for (String format : List.of("2", "3")) {
            String url = tmp.resolve("sparse-v" + format + ".zarr").toString();
            grid(3).where("(time DIV 10 + CAST(lat AS INT) + lon) % 4 != 0")
                    .where("NOT (time < 20 AND lat < 4 AND lon < 3)")
                    .repartition(2)
                    .write()
                    .format("zarr")
                    .option("dims", "time,lat,lon")
                    .option("chunks", CHUNKS)
                    .option("coords.time", "0,10,20,30,40,50,60,70,80")
                    .option("zarrFormat", format)
                    .save(url);
            checkCells(url, given);
            // Chunk (0, 0, 0) has no row: it is not written (it reads as the fill value).
            assertThat(chunkFiles(url, "v", format)).hasSize(29);
        }
    }

    @Test
    void twoRowsForOneCellInDifferentTasksAreAnError() {
        String url = tmp.resolve("dup.zarr").toString();
        // A chunk written whole by one task and given again by another.
        Dataset<Row> oneMore = grid(1).where("time = 40 AND lat = 2.5 AND lon = 5");
        assertThatThrownBy(() -> grid(3).union(oneMore)
                        .write()
                        .format("zarr")
                        .option("dims", "time,lat,lon")
                        .option("chunks", CHUNKS)
                        .save(url))
                .hasStackTraceContaining("two rows have (time, lat, lon) = (40, 2.5, 5)");
        assertThat(Path.of(url)).doesNotExist();
        // Every chunk written whole twice.
        assertThatThrownBy(() -> grid(1).union(grid(1))
                        .write()
                        .format("zarr")
                        .option("dims", "time,lat,lon")
                        .option("chunks", CHUNKS)
                        .save(url))
                .hasStackTraceContaining("two rows have (time, lat, lon) = (0, 0.5, 0)");
        assertThat(Path.of(url)).doesNotExist();
        // Both rows in fragments, found by the merge (v3).
        assertThatThrownBy(() -> grid(2).union(oneMore)
                        .repartition(4)
                        .write()
                        .format("zarr")
                        .option("dims", "time,lat,lon")
                        .option("chunks", CHUNKS)
                        .option("zarrFormat", "3")
                        .save(url))
                .hasStackTraceContaining("two rows have (time, lat, lon) = (40, 2.5, 5)");
        assertThat(Path.of(url)).doesNotExist();
    }

    /** {@code partitions}: fewer than the DataFrame's merges neighbours (coalesce), more spreads rows round-robin. */
    @Test
    void partitionsOptionCoalescesOrSpreads() {
        for (String n : List.of("2", "5")) {
            String url = tmp.resolve("partitions-" + n + ".zarr").toString();
            grid(4).write()
                    .format("zarr")
                    .option("dims", "time,lat,lon")
                    .option("chunks", CHUNKS)
                    .option("partitions", n)
                    .save(url);
            checkCells(url, (t, y, x) -> true);
        }
    }

    @Test
    void aNullDimensionValueIsAnError() {
        String url = tmp.resolve("null-dim.zarr").toString();
        Dataset<Row> withNull =
                grid(2).selectExpr("time", "IF(time = 30 AND lon = 2, NULL, lat) AS lat", "lon", "v", "k");
        assertThatThrownBy(() -> withNull.write()
                        .format("zarr")
                        .option("dims", "time,lat,lon")
                        .option("chunks", CHUNKS)
                        .save(url))
                .hasStackTraceContaining("the dimension column lat is null in a row");
        assertThat(Path.of(url)).doesNotExist();
    }

    /**
     * The task itself: rows of cells 4 to 23 of a 6 x 4 grid in chunks of 2 x 4 (three chunks of 8 cells) write chunks
     * 1 and 2 whole and stage chunk 0 (cells 4 to 7) as a fragment; with one open chunk and rows alternating between
     * chunks, every switch stages a fragment. The task serializes.
     */
    @Test
    void taskWritesWholeChunksAndStagesTheRest() throws Exception {
        String url = tmp.resolve("task.zarr").toString();
        ZarrWriteColumn tc = new ZarrWriteColumn("t", ZarrWriteColumn.Kind.INT64, null, 1);
        ZarrWriteColumn yc = new ZarrWriteColumn("y", ZarrWriteColumn.Kind.INT64, null, 1);
        List<ZarrWriteCoordinate> dims = List.of(
                ZarrWriteCoordinate.of(url, tc, new Object[] {0L, 1L, 2L, 3L, 4L, 5L}, true),
                ZarrWriteCoordinate.of(url, yc, new Object[] {0L, 1L, 2L, 3L}, true));
        ZarrWriteColumn vc = new ZarrWriteColumn("v", ZarrWriteColumn.Kind.FLOAT64, Scalar.ofDouble(Double.NaN), 1);
        ChunkStore array = ZarrArray.create(
                url + "/v",
                ZarrCreateOptions.builder(new long[] {6, 4}, new int[] {2, 4}, DType.FLOAT64)
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .build(),
                StoreOptions.empty());
        ZarrWriteGrid grid = new ZarrWriteGrid(url, dims, new int[] {2, 4});
        ZarrWriteTask task =
                roundTrip(new ZarrWriteTask(grid, List.of(vc), List.of(array), 4, url, StoreOptions.empty()));
        List<InternalRow> rows = new ArrayList<>();
        for (int cell = 4; cell < 24; cell++) {
            rows.add(new GenericInternalRow(new Object[] {(long) cell / 4, (long) cell % 4, cell * 1.5}));
        }
        ZarrWriteTask.Result r = one(task.call(7, rows.iterator()));
        assertThat(r.rows).isEqualTo(20);
        assertThat(r.completeRuns).containsExactly(1, 3);
        assertThat(r.fragmentChunks).containsExactly(0);
        assertThat(r.fragmentKeys).containsExactly(ZarrWriteTask.STAGING + "/0/7-0");
        Chunk c1 = array.readChunk(1, 0);
        for (int i = 0; i < 8; i++) {
            assertThat(c1.getDouble(i)).isEqualTo((8 + i) * 1.5);
        }
        // The fragment merged: cells 0 to 3 keep the fill value.
        List<ZarrWriteMerge.Item> items = ZarrWriteFragments.toMerge(
                grid, List.of(r), io.cubed.storage.fs.Stores.open(url, StoreOptions.empty()));
        assertThat(items).hasSize(1);
        ZarrWriteMerge merge =
                roundTrip(new ZarrWriteMerge(grid, List.of(vc), List.of(array), url, StoreOptions.empty()));
        assertThat(one(merge.call(items.iterator()))).isEqualTo(1L);
        Chunk c0 = array.readChunk(0, 0);
        for (int i = 0; i < 8; i++) {
            if (i < 4) {
                assertThat(c0.getDouble(i)).isNaN();
            } else {
                assertThat(c0.getDouble(i)).isEqualTo(i * 1.5);
            }
        }

        // One open chunk, rows alternating between chunks 0 and 2: each switch stages the chunk left.
        ZarrWriteTask one = new ZarrWriteTask(grid, List.of(vc), List.of(array), 1, url, StoreOptions.empty());
        List<InternalRow> alternating = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            alternating.add(new GenericInternalRow(new Object[] {0L, (long) i, 1.0}));
            alternating.add(new GenericInternalRow(new Object[] {4L, (long) i, 2.0}));
        }
        ZarrWriteTask.Result e = one(one.call(3, alternating.iterator()));
        assertThat(e.completeRuns).isEmpty();
        assertThat(e.fragmentChunks).containsExactly(0, 2, 0, 2, 0, 2);
        assertThat(ZarrWriteFragments.toMerge(
                        grid, List.of(e), io.cubed.storage.fs.Stores.open(url, StoreOptions.empty())))
                .hasSize(2);
    }

    @Test
    void scanSerializes() throws Exception {
        ZarrWriteScan scan = roundTrip(new ZarrWriteScan(List.of(ZarrWriteColumn.Kind.FLOAT64), 0, 0));
        List<InternalRow> rows = List.of(
                new GenericInternalRow(new Object[] {-0.0}),
                new GenericInternalRow(new Object[] {0.0}),
                new GenericInternalRow(new Object[] {2.5}),
                new GenericInternalRow(new Object[] {2.5}),
                new GenericInternalRow(new Object[] {-1.0}));
        ZarrWriteScan.Stats s = one(scan.call(rows.iterator()));
        assertThat(s.rows).isEqualTo(5);
        List<Double> values = new ArrayList<>();
        for (long key : s.keys[0]) {
            values.add(ZarrWriteIndex.fromOrderedBits(key));
        }
        assertThat(values).containsExactlyInAnyOrder(0.0, 2.5, -1.0);
    }

    private static <T> T one(Iterator<T> it) {
        T t = it.next();
        assertThat(it.hasNext()).isFalse();
        return t;
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }
}
