package io.cubed.storage.zarr;

import static io.cubed.array.Index.all;
import static io.cubed.array.Index.at;
import static io.cubed.array.Index.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.array.CubedArray;
import io.cubed.array.Index;
import io.cubed.array.Indexing;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.BlockwiseTask;
import io.cubed.primitive.RechunkChunkFunction;
import io.cubed.primitive.RechunkKeyFunction;
import io.cubed.runtime.LocalExecutor;
import io.cubed.runtime.TaskIo;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.RegroupedChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.cf.CfDecodedArray;
import io.cubed.storage.zarr.cf.CfDecoding;
import io.cubed.storage.zarr.cf.CfOptions;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tasks that need part of a shard read only that part: a 38 x 35 float64 array in shards of 16 x 16 holding inner
 * chunks of 4 x 4 (uncompressed: 128 bytes each, the shard index 16 entries of 16 bytes and a 4-byte crc32c), edge
 * shards of 6 rows and 3 columns, shard (1, 2) never written. Through a store that counts what is requested, every
 * slice, flip and rechunk task reads the index of each shard it touches and the inner chunks holding the elements it
 * needs, no more; the values match a plain loop over the written data, and the bytes read match the inner chunks those
 * elements fall in, counted independently of the code under test.
 */
class ShardedBoxReadsTest {
    private static final int ROWS = 38;
    private static final int COLS = 35;
    private static final int SHARD = 16;
    private static final int INNER = 4;
    private static final long INDEX_BYTES = (SHARD / INNER) * (SHARD / INNER) * 16L + 4;
    private static final long INNER_BYTES = INNER * INNER * 8L;

    @TempDir
    Path tmp;

    private String url;
    private CountingStore counting;
    private ZarrV3Array a;
    private Spec spec;

    @BeforeEach
    void writeShards() {
        url = tmp.resolve("sharded").toString();
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {ROWS, COLS},
                new int[] {SHARD, SHARD},
                DType.FLOAT64,
                Scalar.zero(),
                ZarrV3Metadata.sharding(new int[] {INNER, INNER}, List.of()));
        ZarrV3Array written = ZarrV3Array.create(url, m, false, StoreOptions.empty());
        ChunkGrid g = written.grid();
        for (long i = 0; i < 3; i++) {
            for (long j = 0; j < 3; j++) {
                if (i == 1 && j == 2) {
                    continue;
                }
                int[] shape = g.chunkShapeAt(i, j);
                Chunk c = Chunk.allocate(DType.FLOAT64, shape);
                for (int r = 0; r < shape[0]; r++) {
                    for (int k = 0; k < shape[1]; k++) {
                        c.doubles()[r * shape[1] + k] = stored(i * SHARD + r, j * SHARD + k);
                    }
                }
                written.writeChunk(c, i, j);
            }
        }
        counting = new CountingStore(Stores.open(url, StoreOptions.empty()));
        CountingStore store = counting;
        a = new ZarrV3Array(url, () -> store, m);
        spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1))
                .build();
    }

    /** The value written at ({@code r}, {@code c}): never the fill value 0. */
    private static double stored(long r, long c) {
        return (r * COLS + c) * 0.5 + 1;
    }

    /** The value read at ({@code r}, {@code c}): the fill value in the shard never written. */
    private static double value(long r, long c) {
        return r / SHARD == 1 && c / SHARD == 2 ? 0 : stored(r, c);
    }

    /** Bytes of all stored shards. */
    private long shardBytes() {
        io.cubed.storage.Store s = Stores.open(url, StoreOptions.empty());
        long total = 0;
        for (long i = 0; i < 3; i++) {
            for (long j = 0; j < 3; j++) {
                total += Math.max(0, s.size("c/" + i + "/" + j));
            }
        }
        return total;
    }

    private CubedArray x() {
        return CubedArray.of(ArrayNode.source(a), spec);
    }

    private static long[] range(long start, long stop, long step) {
        return step > 0
                ? LongStream.iterate(start, i -> i < stop, i -> i + step).toArray()
                : LongStream.iterate(start, i -> i > stop, i -> i + step).toArray();
    }

    /**
     * Bytes a computation of output chunks {@code outChunks} (over the axes of {@code sel} not {@code dropped}) reads
     * when each task reads, per input chunk of {@code inChunks} holding elements it takes, the index of the written
     * shard holding that input chunk and every inner chunk holding those elements: {@code sel[a]} lists the input
     * indexes along axis {@code a} in output order.
     */
    private static long touchedBytes(long[][] sel, boolean[] dropped, int[] outChunks, int[] inChunks) {
        int rowChunk = dropped[0] ? 1 : outChunks[0];
        int colChunk = dropped[1] ? 1 : outChunks[dropped[0] ? 0 : 1];
        long total = 0;
        for (int r0 = 0; r0 < sel[0].length; r0 += rowChunk) {
            for (int c0 = 0; c0 < sel[1].length; c0 += colChunk) {
                Set<List<Long>> chunks = new HashSet<>();
                Set<List<Long>> inners = new HashSet<>();
                for (int r = r0; r < Math.min(sel[0].length, r0 + rowChunk); r++) {
                    for (int c = c0; c < Math.min(sel[1].length, c0 + colChunk); c++) {
                        long i = sel[0][r];
                        long j = sel[1][c];
                        if (i / SHARD == 1 && j / SHARD == 2) {
                            continue; // not stored: nothing read
                        }
                        chunks.add(List.of(i / inChunks[0], j / inChunks[1]));
                        inners.add(List.of(i / INNER, j / INNER));
                    }
                }
                total += chunks.size() * INDEX_BYTES + inners.size() * INNER_BYTES;
            }
        }
        return total;
    }

    /**
     * Computes {@code y}, the elements {@code sel} of the array ({@code dropped} axes indexed by an integer), checks
     * its values against a loop over the written data and the bytes read against {@link #touchedBytes}.
     */
    private void check(String what, CubedArray y, long[][] sel, boolean[] dropped) {
        check(what, y, sel, dropped, new int[] {SHARD, SHARD});
    }

    /**
     * As above for an array in chunks of {@code inChunks}. A chunk whose stored inner chunks are all needed may be read
     * whole, which reads the same bytes: the bytes, not the requests, are checked.
     */
    private void check(String what, CubedArray y, long[][] sel, boolean[] dropped, int[] inChunks) {
        counting.reset();
        double[] got = y.compute().toDoubleArray();
        double[] expected = new double[sel[0].length * sel[1].length];
        int k = 0;
        for (long i : sel[0]) {
            for (long j : sel[1]) {
                expected[k++] = value(i, j);
            }
        }
        assertThat(got).as(what + ": values").containsExactly(expected);
        assertThat(counting.bytesRead.get())
                .as(what + ": bytes read (shard indexes and inner chunks)")
                .isEqualTo(touchedBytes(sel, dropped, y.chunkShape(), inChunks));
    }

    @Test
    void slicesReadTheInnerChunksTheyTouch() {
        CubedArray x = x();
        boolean[] none = {false, false};
        check("x[3, 5]", Indexing.index(x, at(3), at(5)), new long[][] {{3}, {5}}, new boolean[] {true, true});
        // 260 + 128 bytes of a shard of 2308: the index and one inner chunk, with two ranged reads.
        assertThat(counting.bytesRead.get()).isEqualTo(INDEX_BYTES + INNER_BYTES);
        assertThat(counting.wholeGets.get()).isZero();
        check(
                "inside one shard x[17:23, 2:7]",
                Indexing.index(x, slice(17L, 23L), slice(2L, 7L)),
                new long[][] {range(17, 23, 1), range(2, 7, 1)},
                none);
        check(
                "across four shards x[14:19, 30:34]",
                Indexing.index(x, slice(14L, 19L), slice(30L, 34L)),
                new long[][] {range(14, 19, 1), range(30, 34, 1)},
                none);
        check(
                "stepped x[1:30:3, 5:12:2]",
                Indexing.index(x, slice(1L, 30L, 3), slice(5L, 12L, 2)),
                new long[][] {range(1, 30, 3), range(5, 12, 2)},
                none);
        check(
                "corners of a shard x[0:16:15, 0:16:15]",
                Indexing.index(x, slice(0L, 16L, 15), slice(0L, 16L, 15)),
                new long[][] {range(0, 16, 15), range(0, 16, 15)},
                none);
        // Their box is the whole shard, but only the index and its four corner inner chunks are read.
        assertThat(counting.bytesRead.get()).isEqualTo(INDEX_BYTES + 4 * INNER_BYTES);
        assertThat(counting.wholeGets.get()).isZero();
        check(
                "edge shard x[33:35, 32:35]",
                Indexing.index(x, slice(33L, 35L), slice(32L, 35L)),
                new long[][] {range(33, 35, 1), range(32, 35, 1)},
                none);
        assertThat(counting.wholeGets.get()).isZero();
        check(
                "row x[20, :] through the shard never written",
                Indexing.index(x, at(20), all()),
                new long[][] {{20}, range(0, COLS, 1)},
                new boolean[] {true, false});
        check(
                "reversed x[9:1:-1, 30:20:-3]",
                Indexing.index(x, slice(9L, 1L, -1), slice(30L, 20L, -3)),
                new long[][] {range(9, 1, -1), range(30, 20, -3)},
                none);
    }

    /**
     * 120 random slices (bounds anywhere, steps from -6 to 6, so some longer than an inner chunk) match a loop over the
     * written data, and read per output chunk and written shard its index and the inner chunks its elements fall in:
     * not those between the elements of a step longer than an inner chunk.
     */
    @Test
    void randomSlicesReadTheInnerChunksTheirElementsFallIn() {
        java.util.Random random = new java.util.Random(20261130);
        CubedArray x = x();
        for (int n = 0; n < 120; n++) {
            long[][] sel = new long[2][];
            Index[] key = new Index[2];
            int[] len = {ROWS, COLS};
            for (int ax = 0; ax < 2; ax++) {
                long step = (random.nextInt(6) + 1) * (random.nextBoolean() ? 1 : -1);
                long start = random.nextInt(len[ax]);
                if (step > 0) {
                    long stop = start + 1 + random.nextInt(len[ax] - (int) start);
                    sel[ax] = range(start, stop, step);
                    key[ax] = slice(start, stop, step);
                } else {
                    long stop = random.nextInt((int) start + 1) - 1; // -1: to the first element
                    sel[ax] = range(start, stop, step);
                    key[ax] = slice(start, stop < 0 ? null : stop, step);
                }
            }
            CubedArray y = Indexing.index(x, key);
            String what = "x[" + key[0] + ", " + key[1] + "]";
            counting.reset();
            double[] got = y.compute().toDoubleArray();
            double[] expected = new double[sel[0].length * sel[1].length];
            int k = 0;
            for (long i : sel[0]) {
                for (long j : sel[1]) {
                    expected[k++] = value(i, j);
                }
            }
            assertThat(got).as(what).containsExactly(expected);
            assertThat(counting.bytesRead.get())
                    .as(what + ": bytes read")
                    .isEqualTo(touchedBytes(sel, new boolean[2], y.chunkShape(), new int[] {SHARD, SHARD}));
        }
    }

    /** A flip's output chunks hold parts of two shards each (38 rows in shards of 16): it reads those parts. */
    @Test
    void aFlipReadsThePartsOfShardsItsChunksHold() {
        CubedArray y = Manipulation.flip(x(), 0);
        assertThat(y.chunkShape()).containsExactly(SHARD, SHARD);
        check("flip(x, 0)", y, new long[][] {range(ROWS - 1, -1, -1), range(0, COLS, 1)}, new boolean[] {false, false});
        // Output chunk 0 holds rows 37-22, chunk 1 rows 21-6, chunk 2 rows 5-0: the 5 written shards of rows 0-31 are
        // each read in part by two tasks. Reading whole shards would read those 5 twice.
        io.cubed.storage.Store s = Stores.open(url, StoreOptions.empty());
        long twice = s.size("c/0/0") + s.size("c/0/1") + s.size("c/0/2") + s.size("c/1/0") + s.size("c/1/1");
        assertThat(counting.bytesRead.get()).isLessThan(shardBytes() + twice);
    }

    /** A slice that needs every element of a shard reads it whole: one request, no index. */
    @Test
    void aSliceOfAWholeShardReadsItWhole() {
        Chunk got = Indexing.index(x(), slice(16L, 32L), slice(0L, 16L)).compute();
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 16; c++) {
                assertThat(got.doubles()[r * 16 + c]).isEqualTo(stored(16 + r, c));
            }
        }
        assertThat(counting.wholeGets.get()).isEqualTo(1);
        assertThat(counting.rangedGets.get()).isZero();
        assertThat(counting.bytesRead.get())
                .isEqualTo(Stores.open(url, StoreOptions.empty()).size("c/1/0"))
                .isEqualTo(16 * INNER_BYTES + INDEX_BYTES);
    }

    /**
     * Rechunk tasks whose output chunks (4 x 8) cover parts of shards read those parts: each task reads the index of
     * its shard and the two inner chunks (one at the right edge) its output chunk holds, and counts as bytes read its
     * output chunk's elements, so the whole array once over all tasks. The planned rechunk, whose tasks each copy a
     * whole shard into its output chunks, reads each written shard once, whole.
     */
    @Test
    void rechunkTasksReadThePartOfTheShardTheirChunkCovers() {
        ChunkGrid in = a.grid();
        ChunkGrid out = ChunkGrid.of(new long[] {ROWS, COLS}, new int[] {4, 8});
        ZarrArray target = ZarrArray.create(
                tmp.resolve("rechunked").toString(),
                ZarrCreateOptions.builder(out.shape(), out.chunkShape(), DType.FLOAT64)
                        .build());
        BlockwiseTask task = new BlockwiseTask(
                "rechunk",
                new ChunkStore[] {a},
                new ChunkStore[] {target},
                new RechunkKeyFunction(in, out),
                new RechunkChunkFunction(DType.FLOAT64, in, out, true));
        counting.reset();
        long taskBytes = 0;
        for (long t = 0; t < task.numTasks(); t++) {
            TaskIo io = task.run(t);
            taskBytes += io.bytesRead();
        }
        assertThat(taskBytes).as("bytes the tasks count").isEqualTo(ROWS * COLS * 8L);
        assertThat(counting.wholeGets.get()).isZero();
        assertThat(counting.bytesRead.get())
                .isEqualTo(touchedBytes(
                        new long[][] {range(0, ROWS, 1), range(0, COLS, 1)},
                        new boolean[] {false, false},
                        new int[] {4, 8},
                        new int[] {SHARD, SHARD}));
        Chunk got = target.readRegion(new long[2], new int[] {ROWS, COLS});
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLS; c++) {
                assertThat(got.doubles()[r * COLS + c]).isEqualTo(value(r, c));
            }
        }

        counting.reset();
        Chunk planned = Manipulation.rechunk(x(), 4, 8).compute();
        assertThat(planned.doubles()).containsExactly(got.doubles());
        // One read per shard: the 8 written ones whole, the one never written found missing.
        assertThat(counting.wholeGets.get()).isEqualTo(9);
        assertThat(counting.bytesRead.get()).isEqualTo(shardBytes());
        assertThat(counting.rangedGets.get()).isZero();
    }

    /**
     * On a store whose requests the executor keeps in flight (an object store), reads started ahead of a task are of
     * the boxes it reads (the shard index and the box's inner chunks), never of their whole shards, and of the shards
     * it reads whole.
     */
    @Test
    void readsAheadOfATaskAreOfTheBoxesItReads() {
        CountingStore ahead = new CountingStore(Stores.open(url, StoreOptions.empty()), 4);
        ZarrV3Array remote = new ZarrV3Array(url, () -> ahead, a.metadata());
        CubedArray x = CubedArray.of(ArrayNode.source(remote), spec);
        assertThat(Indexing.index(x, slice(17L, 23L), slice(2L, 7L)).compute().toDoubleArray())
                .containsExactly(Indexing.index(x(), slice(17L, 23L), slice(2L, 7L))
                        .compute()
                        .toDoubleArray());
        assertThat(ahead.wholeGets.get()).as("whole-shard reads").isZero();
        // The index, then the box's inner chunks: two runs of two (flat 0, 1 and 4, 5 of the shard's inner grid).
        assertThat(ahead.rangedGets.get()).isEqualTo(3);
        assertThat(ahead.bytesRead.get()).isEqualTo(INDEX_BYTES + 4 * INNER_BYTES);
        // The slice fused into the operation reading it: its reads ahead too.
        ahead.reset();
        double[] negated = io.cubed.array.Elementwise.negative(Indexing.index(x, slice(17L, 23L), slice(2L, 7L)))
                .compute()
                .toDoubleArray();
        assertThat(negated[0]).isEqualTo(-stored(17, 2));
        assertThat(ahead.wholeGets.get()).as("whole-shard reads, fused").isZero();
        assertThat(ahead.bytesRead.get()).isEqualTo(INDEX_BYTES + 4 * INNER_BYTES);
        ahead.reset();
        Chunk whole = Indexing.index(x, slice(16L, 32L), slice(0L, 16L)).compute();
        assertThat(whole.doubles()[0]).isEqualTo(stored(16, 0));
        assertThat(ahead.wholeGets.get()).isEqualTo(1);
        assertThat(ahead.rangedGets.get()).isZero();
    }

    /** Indices of shape (rows, COLS) along axis 0 whose row {@code i} is {@code pick(i, c)} in column {@code c}. */
    private CubedArray indices(int rows, java.util.function.IntBinaryOperator pick) {
        Chunk idx = Chunk.allocate(DType.INT64, rows, COLS);
        for (int i = 0; i < rows; i++) {
            for (int c = 0; c < COLS; c++) {
                idx.longs()[i * COLS + c] = pick.applyAsInt(i, c);
            }
        }
        return io.cubed.Cubed.asarray(idx, spec, rows, COLS);
    }

    /**
     * {@code take_along_axis(x, indices, 0)} reads of each shard holding taken elements its index and the inner chunks
     * holding them (the rows the indices name, across the output chunk's columns), never a whole shard: rows 5 and 21
     * in every column touch, per column of shards, inner row 1 of both shard rows; 4 inner chunks across a full shard,
     * 1 across the last (3 columns); the shard never written (rows 16..31, columns 32..34) reads as the fill value.
     */
    @Test
    void takeAlongAxisReadsOnlyTheInnerChunksOfTheTakenElements() {
        CubedArray idx = indices(2, (i, c) -> i == 0 ? 5 : 21);
        counting.reset();
        Chunk got = Indexing.takeAlongAxis(x(), idx, 0).compute();
        for (int c = 0; c < COLS; c++) {
            assertThat(got.doubles()[c]).as("row 5, column %d", c).isEqualTo(value(5, c));
            assertThat(got.doubles()[COLS + c]).as("row 21, column %d", c).isEqualTo(value(21, c));
        }
        assertThat(counting.wholeGets.get()).as("whole-shard reads").isZero();
        assertThat(counting.bytesRead.get())
                .isEqualTo(2 * 2 * (INDEX_BYTES + 4 * INNER_BYTES) + INDEX_BYTES + INNER_BYTES);

        // Scattered indices: the values of a loop over the written data, and never more than the shards.
        java.util.Random random = new java.util.Random(43);
        int[][] picks = new int[5][COLS];
        for (int[] row : picks) {
            for (int c = 0; c < COLS; c++) {
                row[c] = random.nextInt(ROWS);
            }
        }
        counting.reset();
        Chunk scattered = Indexing.takeAlongAxis(x(), indices(5, (i, c) -> picks[i][c]), 0)
                .compute();
        for (int i = 0; i < 5; i++) {
            for (int c = 0; c < COLS; c++) {
                assertThat(scattered.doubles()[i * COLS + c]).isEqualTo(value(picks[i][c], c));
            }
        }
        assertThat(counting.bytesRead.get()).isLessThanOrEqualTo(shardBytes());
    }

    /**
     * On a store whose requests the executor keeps in flight, {@code take_along_axis} reads nothing of {@code x} ahead
     * (which boxes it takes depends on the values of the indices), and no whole shard.
     */
    @Test
    void takeAlongAxisReadsNoWholeShardAhead() {
        CountingStore ahead = new CountingStore(Stores.open(url, StoreOptions.empty()), 4);
        ZarrV3Array remote = new ZarrV3Array(url, () -> ahead, a.metadata());
        CubedArray x = CubedArray.of(ArrayNode.source(remote), spec);
        Chunk got = Indexing.takeAlongAxis(x, indices(2, (i, c) -> i == 0 ? 5 : 21), 0)
                .compute();
        assertThat(got.doubles()[COLS + 7]).isEqualTo(value(21, 7));
        assertThat(ahead.wholeGets.get()).as("whole-shard reads").isZero();
        assertThat(ahead.bytesRead.get())
                .isEqualTo(2 * 2 * (INDEX_BYTES + 4 * INNER_BYTES) + INDEX_BYTES + INNER_BYTES);
    }

    /** A view in chunks of whole inner chunks (8 x 16) reads the inner chunk of {@code x[3, 5]} only. */
    @Test
    void aViewByInnerChunksReadsTheBoxToo() {
        CubedArray view = CubedArray.of(ArrayNode.source(RegroupedChunkStore.of(a, new int[] {8, 16})), spec);
        counting.reset();
        assertThat(Indexing.index(view, at(3), at(5)).compute().toDoubleArray()).containsExactly(stored(3, 5));
        assertThat(counting.wholeGets.get()).isZero();
        assertThat(counting.bytesRead.get()).isEqualTo(INDEX_BYTES + INNER_BYTES);
        counting.reset();
        check(
                "view x[6:10, 14:18]",
                Indexing.index(view, slice(6L, 10L), slice(14L, 18L)),
                new long[][] {range(6, 10, 1), range(14, 18, 1)},
                new boolean[] {false, false},
                new int[] {8, 16});
    }

    /**
     * A CF-decoded array reads boxes as the stored array does, and decodes them: a slice of it reads the index and
     * the inner chunk its elements lie in. Its region read holds the stored box with its copies, counted in decoded
     * boxes (float64 stored and decoded here: one for one), and the decoded box.
     */
    @Test
    void aCfDecodedArrayReadsBoxesToo() {
        ZarrV3Array scaled = a.writeAttributes(Map.of("scale_factor", 2.0));
        ChunkStore decoded = CfDecodedArray.of(scaled, CfDecoding.of(scaled, CfOptions.defaults()));
        assertThat(decoded.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(decoded.readableChunkShape()).containsExactly(INNER, INNER);
        int[] box = {INNER, INNER};
        assertThat(decoded.regionReadCopies(box)).isEqualTo(1 + scaled.regionReadCopies(box));
        counting.reset();
        CubedArray y = Indexing.index(CubedArray.of(ArrayNode.source(decoded), spec), at(3), Index.slice(5L, 7L));
        assertThat(y.compute().toDoubleArray()).containsExactly(2 * stored(3, 5), 2 * stored(3, 6));
        assertThat(counting.wholeGets.get()).isZero();
        assertThat(counting.bytesRead.get()).isEqualTo(INDEX_BYTES + INNER_BYTES);
    }

    /**
     * int16 values scaled by 0.5 decode to float32 (xarray's choice for integers of 2 bytes): a region read holds the
     * int16 box with its copies, half a float32 box each, and the decoded box; a slice reads one inner chunk of 32
     * bytes and the index.
     */
    @Test
    void aCfDecodedArrayOfNarrowerStoredValuesCountsThemInDecodedBoxes() {
        ZarrV3Metadata m = ZarrV3Metadata.create(
                        new long[] {8, 8},
                        new int[] {8, 8},
                        DType.INT16,
                        Scalar.ofLong(-1),
                        ZarrV3Metadata.sharding(new int[] {INNER, INNER}, List.of()))
                .withAttributes(Map.of("scale_factor", 0.5));
        String shortUrl = tmp.resolve("int16").toString();
        ZarrV3Array written = ZarrV3Array.create(shortUrl, m, false, StoreOptions.empty());
        Chunk c = Chunk.allocate(DType.INT16, 8, 8);
        for (int k = 0; k < 64; k++) {
            c.shorts()[k] = (short) (3 * k);
        }
        written.writeChunk(c, 0, 0);
        CountingStore store = new CountingStore(Stores.open(shortUrl, StoreOptions.empty()));
        ZarrV3Array stored16 = new ZarrV3Array(shortUrl, () -> store, m);
        ChunkStore decoded = CfDecodedArray.of(stored16, CfDecoding.of(stored16, CfOptions.defaults()));
        assertThat(decoded.dtype()).isEqualTo(DType.FLOAT32);
        int[] box = {INNER, INNER};
        int rc = stored16.regionReadCopies(box);
        assertThat(decoded.regionReadCopies(box)).isEqualTo((2 * (1 + rc) + 3) / 4);
        CubedArray y = Indexing.index(CubedArray.of(ArrayNode.source(decoded), spec), at(6), slice(1L, 3L));
        assertThat(y.compute().toDoubleArray()).containsExactly(0.5 * 3 * (6 * 8 + 1), 0.5 * 3 * (6 * 8 + 2));
        assertThat(store.wholeGets.get()).isZero();
        // The index of 4 entries and its crc32c, one inner chunk of 16 int16 values.
        assertThat(store.bytesRead.get()).isEqualTo(4 * 16 + 4 + 16 * 2);
    }
}
