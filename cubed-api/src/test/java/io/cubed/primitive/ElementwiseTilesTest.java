package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Statistical;
import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.Elementwise;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.VirtualArray;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fused elementwise expressions computed tile by tile ({@link ElementwiseTiles}): the same values as a reference loop
 * and as the operations applied to whole chunks, for tiles cut along the first, a middle and the last axis (with a
 * shorter last tile), leaves broadcast along the tiled axes or not, every data type family; the memory rule that sends
 * a wide expression chunk by chunk; bytes read; errors naming the operation; and the array API's fused chains.
 */
class ElementwiseTilesTest {
    @TempDir
    Path tmp;

    /** One chunk of {@code shape}, elements from {@code seed}, as a single-chunk in-memory array. */
    private static ChunkStore leaf(DType t, int[] shape, int seed) {
        int n = Chunk.elementCount(shape);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = ((i * 7L + seed * 13L) % 23) - 11 + seed * 0.25;
            d[i] = t.kind() == DType.Kind.UNSIGNED ? Math.abs(Math.floor(d[i])) : d[i];
        }
        Chunk c = Elementwise.astype(Chunk.wrap(DType.FLOAT64, shape, d), t);
        return VirtualArray.inMemory(c, ChunkGrid.of(toLongs(shape), shape));
    }

    private static long[] toLongs(int[] a) {
        return Arrays.stream(a).asLongStream().toArray();
    }

    /** A fused elementwise operation on single-chunk inputs: every input's chunk 0. */
    private static ComputedChunkStore op(
            String name, ElementwiseChunkFunction f, DType t, int[] shape, ChunkStore... in) {
        KeyFunction keys = coords -> {
            long[][][] k = new long[in.length][][];
            for (int j = 0; j < in.length; j++) {
                k[j] = new long[][] {new long[in[j].grid().shape().length]};
            }
            return k;
        };
        return new ComputedChunkStore(name, in, keys, f, 0, t, ChunkGrid.of(toLongs(shape), shape));
    }

    private static ElementwiseChunkFunction binary(BinaryFunction f) {
        return b -> Elementwise.binary(f, b[0], b[1]);
    }

    private static ElementwiseChunkFunction squared() {
        return b -> Elementwise.binary(BinaryFunction.POW, b[0], Scalar.ofLong(2));
    }

    private static Chunk read(ChunkStore s) {
        return s.readChunk(new long[s.grid().shape().length]);
    }

    @Test
    void quadraticDeviationsMatchAReferenceLoopWhereverTheTilesAreCut() {
        // (shape of u and v, shape of the operand subtracted from each): tiles along axis 0 with a shorter last tile
        // (rows of 50, 163 per tile), along the middle axis of a 3-d chunk with a column leaf sliced with them, and
        // along the last axis of rows longer than a tile with a row leaf sliced with them.
        int[][][] cases = {
            {{300, 50}, {1, 50}},
            {{3, 40, 300}, {40, 1}},
            {{2, 20000}, {1, 20000}},
            {{5, 7}, {7}}
        };
        for (int[][] c : cases) {
            int[] shape = c[0];
            ChunkStore u = leaf(DType.FLOAT64, shape, 1);
            ChunkStore v = leaf(DType.FLOAT64, shape, 2);
            ChunkStore mu = leaf(DType.FLOAT64, c[1], 3);
            ChunkStore mv = leaf(DType.FLOAT64, c[1], 4);
            ComputedChunkStore du = op("du", binary(BinaryFunction.SUBTRACT), DType.FLOAT64, shape, u, mu);
            ComputedChunkStore dv = op("dv", binary(BinaryFunction.SUBTRACT), DType.FLOAT64, shape, v, mv);
            ComputedChunkStore su = op("su", squared(), DType.FLOAT64, shape, du);
            ComputedChunkStore sv = op("sv", squared(), DType.FLOAT64, shape, dv);
            ComputedChunkStore sum = op("sum", binary(BinaryFunction.ADD), DType.FLOAT64, shape, su, sv);

            long before = ElementwiseTiles.tiledChunks();
            long[] bytesRead = new long[1];
            Chunk got = sum.readChunk(new long[shape.length], bytesRead);
            assertThat(ElementwiseTiles.tiledChunks() - before)
                    .as("computed tile by tile: %s", Arrays.toString(shape))
                    .isEqualTo(1);

            double[] ud = read(u).doubles();
            double[] vd = read(v).doubles();
            double[] mud = read(mu).doubles();
            double[] mvd = read(mv).doubles();
            int[] rs = c[1];
            int pad = shape.length - rs.length;
            int[] strides = Chunk.strides(shape);
            int[] rowStrides = Chunk.strides(rs);
            double[] g = got.doubles();
            assertThat(got.shape()).containsExactly(shape);
            for (int i = 0; i < ud.length; i++) {
                int r = 0; // index of the broadcast operand's element for element i
                for (int a = pad; a < shape.length; a++) {
                    int idx = (i / strides[a]) % shape[a];
                    r += rs[a - pad] == 1 ? 0 : idx * rowStrides[a - pad];
                }
                double x = ud[i] - mud[r];
                double y = vd[i] - mvd[r];
                assertThat(g[i]).as("%s element %d", Arrays.toString(shape), i).isEqualTo(x * x + y * y);
            }
            long leafBytes = 8L * (ud.length + vd.length + mud.length + mvd.length);
            assertThat(bytesRead[0]).as("bytes read: every leaf once").isEqualTo(leafBytes);
        }
    }

    @Test
    void everyTypeFamilyGivesWhatWholeChunksGive() {
        int[] shape = {70, 300}; // 21000 elements: three tiles, the last one shorter
        int[] row = {1, 300};
        for (DType t : new DType[] {DType.FLOAT32, DType.INT32, DType.UINT8, DType.COMPLEX128, DType.INT64}) {
            ChunkStore a = leaf(t, shape, 1);
            ChunkStore b = leaf(t, row, 2);
            ChunkStore c = leaf(t, shape, 3);
            // (a * b + c) > c, and (a * b + c) itself
            ComputedChunkStore ab = op("ab", binary(BinaryFunction.MULTIPLY), t, shape, a, b);
            ComputedChunkStore abc = op("abc", binary(BinaryFunction.ADD), t, shape, ab, c);
            Chunk whole = Elementwise.binary(
                    BinaryFunction.ADD, Elementwise.binary(BinaryFunction.MULTIPLY, read(a), read(b)), read(c));
            assertThat(abc.readChunk(0, 0).contentEquals(whole)).as("%s", t).isTrue();
            if (!t.isComplex()) {
                ComputedChunkStore gt = op("gt", binary(BinaryFunction.GREATER), DType.BOOL, shape, abc, c);
                Chunk expected = Elementwise.binary(BinaryFunction.GREATER, whole, read(c));
                assertThat(gt.readChunk(0, 0).contentEquals(expected))
                        .as("bool result of %s", t)
                        .isTrue();
            }
        }
    }

    @Test
    void aWideExpressionIsComputedChunkByChunkWhereItsLeavesWouldNeedMoreMemory() {
        int[] shape = {64, 256};
        ChunkStore[] l = new ChunkStore[8];
        for (int i = 0; i < l.length; i++) {
            l[i] = leaf(DType.FLOAT64, shape, i);
        }
        ElementwiseChunkFunction add = binary(BinaryFunction.ADD);
        DType f8 = DType.FLOAT64;
        // ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)): 8 leaves at once against 6 chunks chunk by chunk.
        ComputedChunkStore left =
                op("left", add, f8, shape, op("a", add, f8, shape, l[0], l[1]), op("b", add, f8, shape, l[2], l[3]));
        ComputedChunkStore right =
                op("right", add, f8, shape, op("c", add, f8, shape, l[4], l[5]), op("d", add, f8, shape, l[6], l[7]));
        ComputedChunkStore wide = op("wide", add, f8, shape, left, right);
        // l0 + l1 + ... + l5 left to right: 6 leaves at once against 10 chunks chunk by chunk.
        ChunkStore chain = l[0];
        for (int i = 1; i < 6; i++) {
            chain = op("chain" + i, add, f8, shape, chain, l[i]);
        }

        long before = ElementwiseTiles.tiledChunks();
        Chunk w = read(wide);
        long afterWide = ElementwiseTiles.tiledChunks();
        Chunk ch = read(chain);
        long afterChain = ElementwiseTiles.tiledChunks();

        // The wide tree's halves are deep enough to run by tiles themselves (4 leaves against 5 chunks).
        assertThat(afterWide - before)
                .as("the two halves by tiles, the whole not")
                .isEqualTo(2);
        assertThat(afterChain - afterWide).as("the chain by tiles, once").isEqualTo(1);
        double[] wd = w.doubles();
        double[] cd = ch.doubles();
        double[][] ld = new double[8][];
        for (int i = 0; i < 8; i++) {
            ld[i] = read(l[i]).doubles();
        }
        for (int i = 0; i < wd.length; i++) {
            double expectedWide =
                    ((ld[0][i] + ld[1][i]) + (ld[2][i] + ld[3][i])) + ((ld[4][i] + ld[5][i]) + (ld[6][i] + ld[7][i]));
            double expectedChain = ld[0][i] + ld[1][i] + ld[2][i] + ld[3][i] + ld[4][i] + ld[5][i];
            assertThat(wd[i]).isEqualTo(expectedWide);
            assertThat(cd[i]).isEqualTo(expectedChain);
        }
    }

    /** {@code u} of {@code shape}, a row {@code mu} and {@code (u - mu)²} as two fused operations. */
    private record SquaredDeviation(ChunkStore u, ChunkStore mu, ComputedChunkStore squared) {}

    private static SquaredDeviation squaredDeviation(int[] shape) {
        ChunkStore u = leaf(DType.FLOAT64, shape, 1);
        ChunkStore mu = leaf(DType.FLOAT64, new int[] {1, shape[1]}, 3);
        ComputedChunkStore du = op("du", binary(BinaryFunction.SUBTRACT), DType.FLOAT64, shape, u, mu);
        return new SquaredDeviation(u, mu, op("su", squared(), DType.FLOAT64, shape, du));
    }

    @Test
    void theNextTaskOfAnOperationAssemblesItsChunkInTheArrayTheLastOneUsed() {
        int[] shape = {300, 50};
        SquaredDeviation dev = squaredDeviation(shape);
        ChunkStore u = dev.u();
        ChunkStore mu = dev.mu();
        ComputedChunkStore su = dev.squared();
        Chunk expected = Elementwise.binary(
                BinaryFunction.POW, Elementwise.binary(BinaryFunction.SUBTRACT, read(u), read(mu)), Scalar.ofLong(2));
        Object[] arrays = new Object[3];
        for (int task = 0; task < arrays.length; task++) {
            // One scope per task, as BlockwiseTask opens them; the chunk is written (here: compared) within it.
            try (io.cubed.chunk.ArrayRecycler.Scope scope =
                    io.cubed.chunk.ArrayRecycler.open("elementwise-tiles-test", 1 << 20)) {
                Chunk c = read(su);
                assertThat(c.contentEquals(expected)).as("task %d", task).isTrue();
                arrays[task] = c.data();
            }
        }
        assertThat(arrays[1]).as("the second task's chunk").isSameAs(arrays[0]);
        assertThat(arrays[2]).as("the third task's chunk").isSameAs(arrays[0]);
        // Outside a task the chunk is a new array of its own, as a result handed to a caller must be.
        assertThat(read(su).data()).isNotSameAs(arrays[0]);
    }

    @Test
    void aFusedOperationReturningTheWrongTypeIsNamed() {
        int[] shape = {100, 200};
        ChunkStore a = leaf(DType.FLOAT64, shape, 1);
        ElementwiseChunkFunction toFloat32 = b -> Elementwise.astype(b[0], DType.FLOAT32);
        ComputedChunkStore wrong = op("mislabelled", toFloat32, DType.FLOAT64, shape, a);
        ComputedChunkStore top = op("top", squared(), DType.FLOAT64, shape, wrong);
        assertThatThrownBy(() -> read(top))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("mislabelled (fused)")
                .hasMessageContaining("float32")
                .hasMessageContaining("float64");
    }

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** The mean of column {@code j} of the row-major {@code rows x cols} matrix {@code d}, in a plain loop. */
    private static double columnMean(double[] d, int rows, int cols, int j) {
        double mean = 0;
        for (int i = 0; i < rows; i++) {
            mean += d[i * cols + j];
        }
        return mean / rows;
    }

    @Test
    void theArrayApiRunsAFusedChainByTiles() {
        Spec spec = spec();
        int rows = 240;
        int cols = 90;
        Chunk u = Chunk.allocate(DType.FLOAT64, rows, cols);
        double[] ud = u.doubles();
        for (int i = 0; i < ud.length; i++) {
            ud[i] = Math.sin(i * 0.37) * 10 + (i % 11);
        }
        CubedArray x = Cubed.asarray(u, spec, 120, 90);
        ReductionOptions keep = ReductionOptions.axis(0).keepdims(true);
        CubedArray dev = io.cubed.array.Elementwise.subtract(x, Statistical.mean(x, keep));
        CubedArray sq =
                io.cubed.array.Elementwise.multiply(dev, io.cubed.array.Elementwise.add(dev, Scalar.ofDouble(1)));
        CubedArray result = Statistical.sum(sq, ReductionOptions.axis(0));

        long before = ElementwiseTiles.tiledChunks();
        long boxedBefore = ElementwiseTiles.boxedChunks();
        // Fusion on, whatever the spec's default (the suite also runs with -Dcubed.optimize=false).
        ComputeOptions fused = ComputeOptions.builder().optimize(true).build();
        double[] got = result.compute(fused).doubles();
        assertThat(ElementwiseTiles.boxedChunks() - boxedBefore)
                .as("the tiles of each chunk of x go to the sum, the chunk never assembled")
                .isEqualTo(2);
        assertThat(ElementwiseTiles.tiledChunks() - before).isZero();
        double[] squares = sq.compute(fused).doubles();
        assertThat(ElementwiseTiles.tiledChunks() - before)
                .as("computed alone: one chunk assembled from tiles per chunk of x")
                .isEqualTo(2);
        for (int j = 0; j < cols; j++) {
            double mean = columnMean(ud, rows, cols, j);
            double expected = 0;
            for (int i = 0; i < rows; i++) {
                double d = ud[i * cols + j] - mean;
                expected += d * (d + 1);
            }
            assertThat(got[j]).as("column %d", j).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9 * rows));
            double square = 0;
            for (int i = 0; i < rows; i++) {
                double d = ud[i * cols + j] - mean;
                square += squares[i * cols + j];
                assertThat(squares[i * cols + j]).isCloseTo(d * (d + 1), org.assertj.core.data.Offset.offset(1e-9));
            }
            assertThat(square).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9 * rows));
        }
    }

    /**
     * {@code op} ("sum", "max" or "mean") of the C-order array {@code d} of {@code shape} over the axes where {@code
     * reduced} is true, in a plain loop: the result in C order of the other axes.
     */
    private static double[] reduce(double[] d, int[] shape, boolean[] reduced, String op) {
        int nd = shape.length;
        int outSize = 1;
        for (int a = 0; a < nd; a++) {
            outSize *= reduced[a] ? 1 : shape[a];
        }
        double[] out = new double[outSize];
        Arrays.fill(out, op.equals("max") ? Double.NEGATIVE_INFINITY : 0);
        int[] strides = Chunk.strides(shape);
        for (int i = 0; i < d.length; i++) {
            int o = 0;
            for (int a = 0; a < nd; a++) {
                if (!reduced[a]) {
                    o = o * shape[a] + (i / strides[a]) % shape[a];
                }
            }
            out[o] = op.equals("max") ? Math.max(out[o], d[i]) : out[o] + d[i];
        }
        if (op.equals("mean")) {
            for (int o = 0; o < outSize; o++) {
                out[o] /= d.length / outSize;
            }
        }
        return out;
    }

    @Test
    void aReductionTakesTheTilesOfAFusedExpressionWithoutItsChunks() {
        Spec spec = spec();
        ComputeOptions fused = ComputeOptions.builder().optimize(true).build();
        // (array shape, chunk shape): tiles of 81 of a chunk's 100 rows (and an edge chunk of 50 rows); of 27 of the
        // 40 rows of a 3-d chunk's middle axis; and of 8192 elements within rows of 20000.
        int[][][] cases = {{{250, 100}, {100, 100}}, {{6, 40, 300}, {3, 40, 300}}, {{4, 20000}, {2, 20000}}};
        for (int[][] c : cases) {
            int[] shape = c[0];
            int[] chunks = c[1];
            int n = Chunk.elementCount(shape);
            double[] xd = new double[n];
            double[] yd = new double[n];
            for (int i = 0; i < n; i++) {
                xd[i] = Math.sin(i * 0.37) * 10 + (i % 11);
                yd[i] = (i * 7) % 23 - 11;
            }
            // x stored (its chunks stream into the tiles), y in memory (read whole and sliced).
            CubedArray x = Cubed.fromZarr(stored(Chunk.wrap(DType.FLOAT64, shape, xd), chunks, 4096), spec);
            CubedArray y = Cubed.asarray(Chunk.wrap(DType.FLOAT64, shape, yd), spec, chunks);
            CubedArray d = io.cubed.array.Elementwise.subtract(x, Scalar.ofDouble(1.5));
            CubedArray e = io.cubed.array.Elementwise.add(io.cubed.array.Elementwise.multiply(d, d), y);
            double[] ed = new double[n];
            for (int i = 0; i < n; i++) {
                ed[i] = (xd[i] - 1.5) * (xd[i] - 1.5) + yd[i];
            }
            int chunkCount = 1;
            for (int a = 0; a < shape.length; a++) {
                chunkCount *= (shape[a] + chunks[a] - 1) / chunks[a];
            }
            int last = shape.length - 1;
            for (int[] axes : new int[][] {{0}, {last}, {}}) {
                boolean[] reduced = new boolean[shape.length];
                for (int a : axes) {
                    reduced[a] = true;
                }
                if (axes.length == 0) {
                    Arrays.fill(reduced, true);
                }
                ReductionOptions o = axes.length == 0 ? ReductionOptions.all() : ReductionOptions.axis(axes);
                for (String op : new String[] {"sum", "max", "mean"}) {
                    CubedArray r =
                            switch (op) {
                                case "sum" -> Statistical.sum(e, o);
                                case "max" -> Statistical.max(e, o);
                                default -> Statistical.mean(e, o);
                            };
                    long before = ElementwiseTiles.boxedChunks();
                    double[] got = r.compute(fused).doubles();
                    String what = op + " over " + Arrays.toString(axes) + " of " + Arrays.toString(shape);
                    assertThat(ElementwiseTiles.boxedChunks() - before)
                            .as("%s: every chunk of the expression handed over in tiles", what)
                            .isEqualTo(chunkCount);
                    double[] expected = reduce(ed, shape, reduced, op);
                    assertThat(got).as(what).hasSize(expected.length);
                    for (int i = 0; i < expected.length; i++) {
                        assertThat(got[i])
                                .as("%s, element %d", what, i)
                                .isCloseTo(expected[i], org.assertj.core.data.Offset.offset(1e-9 * n));
                    }
                }
            }
        }
    }

    @Test
    void theTilesOfAComputedChunkCoverItOnceAndAreChecked() {
        int[] shape = {300, 50};
        SquaredDeviation dev = squaredDeviation(shape);
        ChunkStore u = dev.u();
        ComputedChunkStore su = dev.squared();

        Chunk whole = read(su);
        double[] assembled = new double[Chunk.elementCount(shape)];
        int[] covered = new int[assembled.length];
        int[] boxes = new int[1];
        long[] bytesRead = new long[1];
        su.readChunkInBoxes(new long[2], bytesRead, (offset, box) -> {
            boxes[0]++;
            int[] bs = box.shape();
            double[] b = box.doubles();
            for (int i = 0; i < bs[0]; i++) {
                for (int j = 0; j < bs[1]; j++) {
                    int at = (offset[0] + i) * shape[1] + offset[1] + j;
                    assembled[at] = b[i * bs[1] + j];
                    covered[at]++;
                }
            }
        });
        assertThat(boxes[0]).as("tiles of 163 rows of 50").isEqualTo(2);
        assertThat(covered).containsOnly(1);
        assertThat(Chunk.wrap(DType.FLOAT64, shape, assembled).contentEquals(whole))
                .isTrue();
        assertThat(bytesRead[0]).as("u and mu, once").isEqualTo(8L * (300 * 50 + 50));

        // Any other operation hands over its chunk whole.
        ChunkFunction notElementwise = (args, coords) -> new Chunk[] {args.chunk(0)};
        ComputedChunkStore copy = new ComputedChunkStore(
                "copy",
                new ChunkStore[] {u},
                coords -> new long[][][] {{{0, 0}}},
                notElementwise,
                0,
                DType.FLOAT64,
                ChunkGrid.of(new long[] {300, 50}, shape));
        int[] wholeBoxes = new int[1];
        copy.readChunkInBoxes(new long[2], new long[1], (offset, box) -> {
            wholeBoxes[0]++;
            assertThat(offset).containsExactly(0, 0);
            assertThat(box.shape()).containsExactly(shape);
        });
        assertThat(wholeBoxes[0]).isEqualTo(1);

        // A tile of the wrong type names the operation that returned it.
        ElementwiseChunkFunction toFloat32 = b -> Elementwise.astype(b[0], DType.FLOAT32);
        ComputedChunkStore wrong = op("mislabelled", toFloat32, DType.FLOAT64, shape, u);
        assertThatThrownBy(() -> wrong.readChunkInBoxes(new long[2], new long[1], (offset, box) -> {}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("mislabelled (fused)")
                .hasMessageContaining("float32");
    }

    /** {@code data} in chunks of {@code chunks}, Blosc-LZ4 in blocks of {@code blocksize} bytes, as an in-memory URL. */
    private static String stored(Chunk data, int[] chunks, int blocksize) {
        return io.cubed.storage.zarr.StoredArrays.blosc(
                        data, chunks, io.cubed.storage.zarr.blosc.BloscShuffle.SHUFFLE, blocksize)
                .url();
    }

    @Test
    void storedInputsAreDecodedBlockByBlockIntoTheTiles() {
        Spec spec = spec();
        // 250 x 100 in chunks of 100 x 100: two full chunks, each in tiles of 81 rows and one of 19, whose Blosc
        // blocks (16 float64 or 32 float32 elements) end inside rows and tiles; and an edge chunk, read whole.
        int rows = 250;
        int cols = 100;
        double[] ud = new double[rows * cols];
        float[] vd = new float[rows * cols];
        for (int i = 0; i < ud.length; i++) {
            ud[i] = Math.sin(i * 0.37) * 10 + (i % 11);
            vd[i] = (i * 7) % 23 - 11;
        }
        CubedArray u = Cubed.fromZarr(
                stored(Chunk.wrap(DType.FLOAT64, new int[] {rows, cols}, ud), new int[] {100, 100}, 128), spec);
        CubedArray v = Cubed.fromZarr(
                stored(Chunk.wrap(DType.FLOAT32, new int[] {rows, cols}, vd), new int[] {100, 100}, 128), spec);

        long before = ElementwiseTiles.tiledChunks();
        double[] sum = io.cubed.array.Elementwise.add(u, v).compute().doubles();
        assertThat(ElementwiseTiles.tiledChunks() - before)
                .as("one operation, its full chunks streamed into tiles")
                .isEqualTo(2);
        for (int i = 0; i < ud.length; i++) {
            assertThat(sum[i]).as("element %d", i).isEqualTo(ud[i] + vd[i]);
        }

        // A fused chain with a leaf broadcast along the tiled axis, read whole: (u - mean(u, 0))² + v.
        CubedArray dev = io.cubed.array.Elementwise.subtract(
                u, Statistical.mean(u, ReductionOptions.axis(0).keepdims(true)));
        double[] got = io.cubed.array.Elementwise.add(io.cubed.array.Elementwise.multiply(dev, dev), v)
                .compute(ComputeOptions.builder().optimize(true).build())
                .doubles();
        for (int j = 0; j < cols; j++) {
            double mean = columnMean(ud, rows, cols, j);
            for (int i = 0; i < rows; i++) {
                double d = ud[i * cols + j] - mean;
                assertThat(got[i * cols + j])
                        .as("(%d, %d)", i, j)
                        .isCloseTo(d * d + vd[i * cols + j], org.assertj.core.data.Offset.offset(1e-9));
            }
        }
    }
}
