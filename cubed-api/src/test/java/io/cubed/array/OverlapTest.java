package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mapOverlap against plain loops over the whole array, with chunks that split the axes unevenly. */
class OverlapTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** The 5-point Laplacian of a 2-d float64 chunk, in place of its interior; the border keeps its values. */
    static Chunk laplacian(Chunk[] blocks, long[] id) {
        Chunk in = blocks[0];
        int rows = in.shape(0);
        int cols = in.shape(1);
        double[] v = in.doubles();
        double[] out = v.clone();
        for (int i = 1; i < rows - 1; i++) {
            for (int j = 1; j < cols - 1; j++) {
                out[i * cols + j] = v[(i - 1) * cols + j]
                        + v[(i + 1) * cols + j]
                        + v[i * cols + j - 1]
                        + v[i * cols + j + 1]
                        - 4 * v[i * cols + j];
            }
        }
        return Chunk.wrap(DType.FLOAT64, in.shape(), out);
    }

    @Test
    void aStencilEqualsTheLoopOverTheWholeArray() {
        int rows = 7;
        int cols = 9;
        Chunk data = Chunk.allocate(DType.FLOAT64, rows, cols);
        for (int i = 0; i < rows * cols; i++) {
            data.doubles()[i] = (i * 37 % 11) + 0.25 * i;
        }
        CubedArray x = Cubed.asarray(data, spec(), 3, 4);
        CubedArray y =
                Overlap.mapOverlap(OverlapTest::laplacian, new int[] {1, 1}, Scalar.ofDouble(-1), DType.FLOAT64, x);
        assertThat(y.shape()).containsExactly(rows, cols);
        assertThat(y.chunkShape()).containsExactly(3, 4);
        double[] got = y.compute().doubles();
        double[] v = data.doubles();
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                double up = i > 0 ? v[(i - 1) * cols + j] : -1;
                double down = i < rows - 1 ? v[(i + 1) * cols + j] : -1;
                double left = j > 0 ? v[i * cols + j - 1] : -1;
                double right = j < cols - 1 ? v[i * cols + j + 1] : -1;
                assertThat(got[i * cols + j])
                        .as("(%d, %d)", i, j)
                        .isEqualTo(up + down + left + right - 4 * v[i * cols + j]);
            }
        }
    }

    @Test
    void aHaloDeeperThanAChunkReadsSeveralNeighbours() {
        CubedArray x = Creation.arange(0, 11, 1, 2, DType.INT64, spec());
        // Sum over a window of 7 (depth 3) with zero boundary.
        CubedArray y = Overlap.mapOverlap(
                (blocks, id) -> {
                    long[] v = blocks[0].longs();
                    long[] out = new long[v.length];
                    for (int i = 3; i < v.length - 3; i++) {
                        for (int d = -3; d <= 3; d++) {
                            out[i] += v[i + d];
                        }
                    }
                    return Chunk.wrap(DType.INT64, blocks[0].shape(), out);
                },
                new int[] {3},
                Scalar.ofLong(0),
                DType.INT64,
                x);
        long[] got = y.compute().toLongArray();
        for (int i = 0; i < 11; i++) {
            long expected = 0;
            for (int k = Math.max(0, i - 3); k <= Math.min(10, i + 3); k++) {
                expected += k;
            }
            assertThat(got[i]).as("element %d", i).isEqualTo(expected);
        }
    }

    @Test
    void badArgumentsAreClearErrors() {
        CubedArray x = Creation.ones(new long[] {4, 4}, new int[] {2, 2}, DType.FLOAT64, spec());
        assertThatThrownBy(
                        () -> Overlap.mapOverlap((b, id) -> b[0], new int[] {1}, Scalar.ofDouble(0), DType.FLOAT64, x))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("depth [1] has 1 entries")
                .hasMessageContaining(x.name());
        assertThatThrownBy(() ->
                        Overlap.mapOverlap((b, id) -> b[0], new int[] {1, -1}, Scalar.ofDouble(0), DType.FLOAT64, x))
                .hasMessageContaining("negative on axis 1");
        CubedArray wrong = Overlap.mapOverlap(
                (b, id) -> Chunk.allocate(DType.FLOAT64, 2, 2), new int[] {1, 1}, Scalar.ofDouble(0), DType.FLOAT64, x);
        assertThatThrownBy(wrong::compute)
                .isInstanceOf(CubedException.class)
                .hasStackTraceContaining("expected float64 of the extended shape [4, 4]");
    }
}
