package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** applyGufunc against plain loops: batched matrix-vector products with broadcast loop dimensions. */
class GufuncTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** (..., i, j) x (..., j) -> (..., i) on whole chunks; loop dims of the vector broadcast (length 1 or absent). */
    static Chunk matvec(Chunk[] blocks) {
        Chunk m = blocks[0];
        Chunk v = blocks[1];
        int nd = m.ndim();
        int rows = m.shape(nd - 2);
        int cols = m.shape(nd - 1);
        int batch = m.size() / (rows * cols);
        int vBatch = v.size() / cols;
        double[] out = new double[batch * rows];
        for (int b = 0; b < batch; b++) {
            for (int i = 0; i < rows; i++) {
                double s = 0;
                for (int j = 0; j < cols; j++) {
                    s += m.doubles()[(b * rows + i) * cols + j] * v.doubles()[(vBatch == 1 ? 0 : b) * cols + j];
                }
                out[b * rows + i] = s;
            }
        }
        int[] shape = java.util.Arrays.copyOf(m.shape(), nd - 1);
        return Chunk.wrap(DType.FLOAT64, shape, out);
    }

    @Test
    void batchedMatrixVectorProductEqualsTheLoop() {
        Spec spec = spec();
        Chunk m = Chunk.allocate(DType.FLOAT64, 5, 3, 4);
        for (int i = 0; i < m.size(); i++) {
            m.doubles()[i] = (i % 7) - 2.5;
        }
        Chunk v = Chunk.allocate(DType.FLOAT64, 4);
        for (int j = 0; j < 4; j++) {
            v.doubles()[j] = j + 1;
        }
        CubedArray a = Cubed.asarray(m, spec, 2, 3, 4);
        CubedArray x = Cubed.asarray(v, spec);
        CubedArray y = Gufunc.applyGufunc(GufuncTest::matvec, "(i,j),(j)->(i)", DType.FLOAT64, false, a, x);
        assertThat(y.shape()).containsExactly(5, 3);
        assertThat(y.chunkShape()).containsExactly(2, 3);
        double[] got = y.compute().doubles();
        for (int b = 0; b < 5; b++) {
            for (int i = 0; i < 3; i++) {
                double s = 0;
                for (int j = 0; j < 4; j++) {
                    s += m.doubles()[(b * 3 + i) * 4 + j] * (j + 1);
                }
                assertThat(got[b * 3 + i]).isEqualTo(s);
            }
        }
    }

    @Test
    void splitCoreDimensionsNeedAllowRechunk() {
        Spec spec = spec();
        Chunk m = Chunk.allocate(DType.FLOAT64, 2, 6);
        for (int i = 0; i < 12; i++) {
            m.doubles()[i] = i;
        }
        CubedArray a = Cubed.asarray(m, spec, 2, 4);
        CubedArray ones = Creation.ones(new long[] {6}, new int[] {6}, DType.FLOAT64, spec);
        assertThatThrownBy(
                        () -> Gufunc.applyGufunc(GufuncTest::matvec, "(i,j),(j)->(i)", DType.FLOAT64, false, a, ones))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("core dimension 'j' (axis 1 of '" + a.name() + "') has 2 chunks");
        CubedArray rowSums = Gufunc.applyGufunc(GufuncTest::matvec, "(i,j),(j)->(i)", DType.FLOAT64, true, a, ones);
        assertThat(rowSums.compute().doubles()).containsExactly(0 + 1 + 2 + 3 + 4 + 5, 6 + 7 + 8 + 9 + 10 + 11);
    }

    @Test
    void badSignaturesAreClearErrors() {
        Spec spec = spec();
        CubedArray a = Creation.ones(new long[] {3, 4}, new int[] {3, 4}, DType.FLOAT64, spec);
        CubedArray v = Creation.ones(new long[] {5}, new int[] {5}, DType.FLOAT64, spec);
        GufuncFunction id = blocks -> blocks[0];
        assertThatThrownBy(() -> Gufunc.applyGufunc(id, "(i,j)(j)->(i)", DType.FLOAT64, false, a, v))
                .hasMessageContaining("malformed signature");
        assertThatThrownBy(() -> Gufunc.applyGufunc(id, "(i,j),(j)", DType.FLOAT64, false, a, v))
                .hasMessageContaining("needs one '->'");
        assertThatThrownBy(() -> Gufunc.applyGufunc(id, "(i,j),(j)->(i)", DType.FLOAT64, false, a, v))
                .hasMessageContaining("core dimension 'j' has length 4 in one input and 5");
        assertThatThrownBy(() -> Gufunc.applyGufunc(id, "(i)->(k)", DType.FLOAT64, false, v))
                .hasMessageContaining("output core dimension 'k'");
        assertThatThrownBy(() -> Gufunc.applyGufunc(id, "(i,j,k)->()", DType.FLOAT64, false, a))
                .hasMessageContaining("fewer than its 3 core dimensions");
    }
}
