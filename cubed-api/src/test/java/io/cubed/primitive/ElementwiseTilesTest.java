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
        // Fusion on, whatever the spec's default (the suite also runs with -Dcubed.optimize=false).
        double[] got =
                result.compute(ComputeOptions.builder().optimize(true).build()).doubles();
        assertThat(ElementwiseTiles.tiledChunks() - before)
                .as("one tiled chunk per chunk of x")
                .isEqualTo(2);
        for (int j = 0; j < cols; j++) {
            double mean = columnMean(ud, rows, cols, j);
            double expected = 0;
            for (int i = 0; i < rows; i++) {
                double d = ud[i * cols + j] - mean;
                expected += d * (d + 1);
            }
            assertThat(got[j]).as("column %d", j).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9 * rows));
        }
    }

    /** {@code data} in chunks of 100 x 100, Blosc-LZ4 in blocks of 128 bytes, as an in-memory Zarr array's URL. */
    private static String stored(Chunk data) {
        return io.cubed.storage.zarr.StoredArrays.blosc(
                        data, new int[] {100, 100}, io.cubed.storage.zarr.blosc.BloscShuffle.SHUFFLE, 128)
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
        CubedArray u = Cubed.fromZarr(stored(Chunk.wrap(DType.FLOAT64, new int[] {rows, cols}, ud)), spec);
        CubedArray v = Cubed.fromZarr(stored(Chunk.wrap(DType.FLOAT32, new int[] {rows, cols}, vd)), spec);

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
