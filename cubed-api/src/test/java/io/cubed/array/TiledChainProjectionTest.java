package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Computation;
import io.cubed.plan.FusionOptions;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The projected memory of fused elementwise chains that run tile by tile (docs/fusion.md): what the tiles hold (the
 * leaf chunks with their read copies, a tile buffer per leaf, each operation's result and working arrays on a tile, the
 * output chunk with its write copy), written out term by term against the plan's figure. Chunks are stored uncompressed
 * on a local disk (one read and one write copy each) and are never read: the figures are the plan's.
 */
class TiledChainProjectionTest {
    /** Elements of a tile ({@code ElementwiseTiles.TILE_ELEMENTS}). */
    private static final long T = 8192;

    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("2GB")
                .reservedMem(100)
                .build();
    }

    private CubedArray stored(String name, DType dtype, long[] shape, int[] chunks, Spec spec) {
        String url = tmp.resolve(name + ".zarr").toString();
        ZarrArray.create(url, ZarrCreateOptions.builder(shape, chunks, dtype).build());
        return Cubed.fromZarr(url, spec);
    }

    private static long projected(CubedArray target, Spec spec, FusionOptions fusion) {
        Computation c = Computation.prepare(spec, List.of(target.node()), Map.of(), fusion);
        return c.projectedMemBytes().get(target.node().op());
    }

    @Test
    void aFusedFloat64ChainIsProjectedAsItsTilesHold() {
        Spec spec = spec();
        long[] shape = {2000, 1000};
        int[] chunks = {1000, 1000};
        CubedArray x = stored("x", DType.FLOAT64, shape, chunks, spec);
        CubedArray y = stored("y", DType.FLOAT64, shape, chunks, spec);
        CubedArray z = Elementwise.multiply(Elementwise.negative(x), y);
        long chunk = 8_000_000; // 1000 x 1000 float64
        long tile = T * 8;
        // Leaves x and y: chunk + read copy, and a tile buffer for each of the two tile lengths; negative and multiply
        // on float64 need no working arrays beyond their result tile, kept for both tile lengths; the output chunk
        // with its write copy.
        long expected = 100 + 2 * (chunk * 2 + 2 * tile) + 2 * (2 * tile) + chunk * 2;
        assertThat(projected(z, spec, FusionOptions.defaults())).isEqualTo(expected);
        // Chunk by chunk the same task was projected as multiply's (negative's output chunk held, y with its read
        // copy, the output with its write copy) plus negative's working set (x with its read copy): 56 MB, not 48.5.
        long chunkwise = 100 + chunk + 2 * chunk + 2 * chunk + 2 * chunk;
        assertThat(expected).isLessThan(chunkwise);
        // Unfused, each operation keeps its own figure.
        assertThat(projected(z, spec, FusionOptions.disabled())).isEqualTo(100 + 2 * chunk + 2 * chunk + 2 * chunk);
    }

    @Test
    void anInt8ChainCountsEachOperationsWorkingArraysOnATile() {
        Spec spec = spec();
        CubedArray x = stored("i8", DType.INT8, new long[] {2000, 1500}, new int[] {1500, 1500}, spec);
        CubedArray row = stored("row", DType.INT8, new long[] {1500}, new int[] {1500}, spec);
        // The sweep's int8 chain: (abs(x) + 1) * (x - row).
        CubedArray z = Elementwise.multiply(
                Elementwise.add(Elementwise.abs(x), Scalar.ofLong(1)), Elementwise.subtract(x, row));
        long chunk = 1500L * 1500;
        // On a tile of 8192 int8 elements, int8 loops work on long[]: abs widens its input (8 B an element) and
        // computes a long[] result it then narrows (8 B); add with a scalar widens the array (8), expands the scalar
        // to the tile (1) and widens it (8), and narrows the result (8); subtract widens x's tile (8), expands the
        // row to the tile (1) and widens it (8), and narrows (8); multiply widens both (8 + 8) and narrows (8). Each
        // adds its int8 result tile (1), and each is counted for both tile lengths.
        long abs = 2 * (T * (8 + 8) + T);
        long addScalar = 2 * (T * (8 + 1 + 8 + 8) + T);
        long subtract = 2 * (T * (8 + 1 + 8 + 8) + T);
        long multiply = 2 * (T * (8 + 8 + 8) + T);
        // Leaves: x twice (chunk + read copy, two tile buffers) and the row (1500 B + read copy, two 1500 B buffers).
        long leaves = 2 * (2 * chunk + 2 * T) + (2 * 1500 + 2 * 1500);
        long expected = 100 + leaves + abs + addScalar + subtract + multiply + 2 * chunk;
        assertThat(projected(z, spec, FusionOptions.defaults())).isEqualTo(expected);
    }

    @Test
    void aChainReducedBoxByBoxHoldsItsLeavesNotItsOutputChunk() {
        Spec spec = spec();
        CubedArray x = stored("m8", DType.INT8, new long[] {2000, 1000}, new int[] {1000, 1000}, spec);
        CubedArray m = Statistical.mean(Elementwise.astype(x, DType.FLOAT32), ReductionOptions.axis(0));
        long f32Chunk = 4_000_000;
        long i8Chunk = 1_000_000;
        // The mean's first round alone reads a stored float32 chunk (held, with its read copy) and counts one more in
        // its extra memory. Fused, astype's tiles go to the mean as they are computed: no float32 chunk exists. The
        // task holds x's chunk with its read copy and two tile buffers, astype's working arrays on a tile (int8
        // widened to long[], then to double[], 8 + 8 B an element, and its float32 result, for two tile lengths), and
        // instead of the stale float32 chunk, x's.
        long astypeTile = 2 * (T * 16 + T * 4);
        long unfusedRound = projected(
                Statistical.mean(
                        stored("f32", DType.FLOAT32, new long[] {2000, 1000}, new int[] {1000, 1000}, spec),
                        ReductionOptions.axis(0)),
                spec,
                FusionOptions.defaults());
        long expected = unfusedRound - 2 * f32Chunk - f32Chunk + i8Chunk + (2 * i8Chunk + 2 * T) + astypeTile;
        Computation c = Computation.prepare(spec, List.of(m.node()), Map.of(), FusionOptions.defaults());
        OpNode round = m.node().op();
        assertThat(c.isFused(round.inputs().get(0).op())).isTrue();
        assertThat(c.projectedMemBytes().get(round)).isEqualTo(expected);
    }

    @Test
    void aChainTooWideForTilesKeepsTheChunkByChunkFigure() {
        Spec spec = spec();
        long[] shape = {1000, 1000};
        int[] chunks = {1000, 1000};
        CubedArray[] xs = new CubedArray[8];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = stored("w" + i, DType.FLOAT64, shape, chunks, spec);
        }
        CubedArray left = Elementwise.add(Elementwise.add(xs[0], xs[1]), Elementwise.add(xs[2], xs[3]));
        CubedArray right = Elementwise.add(Elementwise.add(xs[4], xs[5]), Elementwise.add(xs[6], xs[7]));
        CubedArray total = Elementwise.add(left, right);
        FusionOptions wide = new FusionOptions(
                true, 8, FusionOptions.DEFAULT_MAX_INPUT_BLOCKS, java.util.Set.of(), java.util.Set.of());
        long chunk = 8_000_000;
        long tile = T * 8;
        // The halves run by tiles: four leaves with read copies and tile buffers, three additions, their output.
        long half = 4 * (2 * chunk + 2 * tile) + 3 * (2 * tile);
        // The last addition has eight leaves, more than the six chunks it holds chunk by chunk (two inputs, plus the
        // four a half holds), so it computes chunk by chunk: the two halves' output chunks held, its output with a
        // write copy, and the working set of computing one half (its projection without its output and write copy).
        long expected = 100 + 2 * chunk + 2 * chunk + half;
        assertThat(projected(total, spec, wide)).isEqualTo(expected);
        Computation c = Computation.prepare(spec, List.of(total.node()), Map.of(), wide);
        assertThat(c.isFused(left.node().op())).isTrue();
        assertThat(c.isFused(right.node().op())).isTrue();
    }

    @Test
    void theValuesOfAChainComputedByTilesStayTheSame() {
        Spec spec = spec();
        double[] a = new double[300 * 200];
        for (int k = 0; k < a.length; k++) {
            a[k] = k % 97 - 48;
        }
        CubedArray x = Cubed.fromArray(Chunk.wrap(DType.FLOAT64, new int[] {300, 200}, a), spec, 250, 200);
        double[] got =
                Elementwise.multiply(Elementwise.negative(x), x).compute().doubles();
        for (int k = 0; k < a.length; k++) {
            assertThat(got[k]).isEqualTo(-a[k] * a[k]);
        }
    }
}
