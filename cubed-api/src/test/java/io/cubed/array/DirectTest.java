package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CubedException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mapDirect against plain loops: tasks read regions of side inputs that do not line up with their chunks. */
class DirectTest {
    @TempDir
    Path tmp;

    @Test
    void coarseningByTwoReadsRegionsAcrossChunkBoundaries() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
        Chunk data = Chunk.allocate(DType.FLOAT64, 6, 8);
        for (int i = 0; i < 48; i++) {
            data.doubles()[i] = i * 1.5;
        }
        // x is computed first (an intermediate), in chunks of 5 x 3 that the 2 x 2 windows straddle.
        CubedArray x = Elementwise.add(Cubed.asarray(data, spec, 5, 3), Scalar.ofDouble(1));
        CubedArray coarse = Direct.mapDirect(
                (inputs, id, offset, shape) -> {
                    Chunk window = inputs.region(
                            0, new long[] {2 * offset[0], 2 * offset[1]}, new int[] {2 * shape[0], 2 * shape[1]});
                    double[] w = window.doubles();
                    double[] out = new double[shape[0] * shape[1]];
                    for (int i = 0; i < shape[0]; i++) {
                        for (int j = 0; j < shape[1]; j++) {
                            int r = 2 * i;
                            int c = 2 * j;
                            int cols = 2 * shape[1];
                            out[i * shape[1] + j] = (w[r * cols + c]
                                            + w[r * cols + c + 1]
                                            + w[(r + 1) * cols + c]
                                            + w[(r + 1) * cols + c + 1])
                                    / 4;
                        }
                    }
                    return Chunk.wrap(DType.FLOAT64, shape, out);
                },
                new long[] {3, 4},
                new int[] {2, 3},
                DType.FLOAT64,
                4 * 6 * 8,
                x);
        double[] got = coarse.compute().doubles();
        double[] v = data.doubles();
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 4; j++) {
                double sum = 0;
                for (int di = 0; di < 2; di++) {
                    for (int dj = 0; dj < 2; dj++) {
                        sum += v[(2 * i + di) * 8 + 2 * j + dj] + 1;
                    }
                }
                assertThat(got[i * 4 + j]).isEqualTo(sum / 4);
            }
        }
    }

    @Test
    void declaredMemoryIsChecked() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("200MB")
                .build();
        CubedArray x = Creation.ones(new long[] {10}, new int[] {5}, DType.FLOAT64, spec);
        CubedArray y = Direct.mapDirect(
                (inputs, id, offset, shape) -> inputs.region(0, offset, shape),
                new long[] {10},
                new int[] {5},
                DType.FLOAT64,
                500_000_000L,
                x);
        assertThatThrownBy(y::compute)
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("map_direct")
                .hasMessageContaining("exceeds allowedMem");
        assertThatThrownBy(() ->
                        Direct.mapDirect((i, id, o, s) -> null, new long[] {10}, new int[] {5}, DType.FLOAT64, -1, x))
                .hasMessageContaining("extraMemBytes -1 is negative");
    }
}
