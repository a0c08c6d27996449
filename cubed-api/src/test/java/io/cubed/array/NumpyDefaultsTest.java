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

/** The NumPy-like forms: default data types and spec, integer arange, *_like with a dtype, diff's prepend/append. */
class NumpyDefaultsTest {
    @TempDir
    Path tmp;

    private Spec spec(String allowed) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem("1MB")
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    @Test
    void creationDefaultsFollowTheStandard() {
        Spec spec = spec("100MB");
        assertThat(Creation.zeros(new long[] {3, 4}, new int[] {2, 2}).dtype()).isEqualTo(DType.FLOAT64);
        assertThat(Creation.zeros(new long[] {3, 4}, new int[] {2, 2}).spec()).isSameAs(Spec.defaults());
        assertThat(Creation.ones(new long[] {3}, new int[] {2}, spec).compute().doubles())
                .containsExactly(1, 1, 1);
        assertThat(Creation.empty(new long[] {2}, new int[] {2}, spec).dtype()).isEqualTo(DType.FLOAT64);
        assertThat(Creation.full(new long[] {2}, Scalar.ofLong(7), new int[] {2}, spec)
                        .dtype())
                .isEqualTo(DType.INT64);
        assertThat(Creation.full(new long[] {2}, Scalar.ofDouble(0.5), new int[] {2}, spec)
                        .dtype())
                .isEqualTo(DType.FLOAT64);
        assertThat(Creation.full(new long[] {2}, Scalar.ofBoolean(true), new int[] {2}, spec)
                        .dtype())
                .isEqualTo(DType.BOOL);
        assertThat(Creation.full(new long[] {2}, Scalar.ofComplex(1, 2), new int[] {2}, spec)
                        .dtype())
                .isEqualTo(DType.COMPLEX128);
        assertThat(Creation.linspace(0, 1, 5, 2, spec).compute().doubles()).containsExactly(0, 0.25, 0.5, 0.75, 1);
    }

    @Test
    void integerArangeIsExactInt64() {
        Spec spec = spec("100MB");
        CubedArray a = Creation.arange(3, 17, 4, 2, spec);
        assertThat(a.dtype()).isEqualTo(DType.INT64);
        assertThat(a.compute().longs()).containsExactly(3, 7, 11, 15);
        assertThat(Creation.arange(10, 0, -3, 2, spec).compute().longs()).containsExactly(10, 7, 4, 1);
        assertThat(Creation.arange(5, 5, 1, 2, spec).shape()).containsExactly(0);
        // Beyond 2^53 a double cannot hold every integer; the int64 arange still can.
        long big = (1L << 60) + 1;
        assertThat(Creation.arange(big, big + 3, 1, 2, spec).compute().longs()).containsExactly(big, big + 1, big + 2);
        assertThat(Creation.arange(4, 3).compute().longs()).containsExactly(0, 1, 2, 3);
        assertThat(Creation.arange(0.0, 1.0, 0.25, 2, spec).dtype()).isEqualTo(DType.FLOAT64);
        assertThatThrownBy(() -> Creation.arange(0, 5, 0, 2, spec))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("step must not be 0");
    }

    @Test
    void likeFunctionsTakeADtype() {
        Spec spec = spec("100MB");
        CubedArray x = Creation.ones(new long[] {2, 3}, new int[] {1, 2}, DType.INT32, spec);
        CubedArray z = Creation.zerosLike(x, DType.FLOAT32);
        assertThat(z.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(z.shape()).containsExactly(2, 3);
        assertThat(z.chunkShape()).containsExactly(1, 2);
        assertThat(Creation.onesLike(x, DType.BOOL).compute().booleans()).containsOnly(true);
        assertThat(Creation.fullLike(x, Scalar.ofDouble(2.5), DType.FLOAT64)
                        .compute()
                        .doubles())
                .containsOnly(2.5);
        assertThat(Creation.emptyLike(x, DType.INT64).dtype()).isEqualTo(DType.INT64);
    }

    @Test
    void diffWithPrependAndAppendMatchesNumpy() {
        Spec spec = spec("100MB");
        // x = [[1, 4, 9, 16], [2, 3, 5, 8]]; numpy.diff(x, axis=1, prepend=0, append=20)
        Chunk data = Chunk.wrap(DType.INT64, new int[] {2, 4}, new long[] {1, 4, 9, 16, 2, 3, 5, 8});
        CubedArray x = Cubed.asarray(data, spec, 1, 3);
        CubedArray d = Utility.diff(x, 1, 1, Scalar.ofLong(0), Scalar.ofLong(20));
        assertThat(d.shape()).containsExactly(2, 5);
        assertThat(d.compute().longs()).containsExactly(1, 3, 5, 7, 4, 2, 1, 2, 3, 12);
        // Second difference with an array prepended along axis 0: numpy.diff(x, n=2, axis=0, prepend=p)
        CubedArray p = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {1, 4}, new long[] {0, 0, 0, 0}), spec);
        CubedArray d2 = Utility.diff(x, 0, 2, p, null);
        assertThat(d2.compute().longs()).containsExactly(0, -5, -13, -24);
        CubedArray wrong = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {1, 3}, new long[] {0, 0, 0}), spec);
        assertThatThrownBy(() -> Utility.diff(x, 0, 1, wrong, null))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("prepend")
                .hasMessageContaining("has shape [1, 3], but it must have the shape of x [2, 4] except along axis 0");
    }

    @Test
    void takeAcceptsAnIndexArray() {
        Spec spec = spec("100MB");
        // x[i, j] = 10 i + j, 3 x 5 in chunks of 2 x 2; numpy.take(x, [4, 0, -1, 2], axis=1)
        long[] v = new long[15];
        for (int i = 0; i < 15; i++) {
            v[i] = 10 * (i / 5) + i % 5;
        }
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {3, 5}, v), spec, 2, 2);
        CubedArray idx = Cubed.asarray(Chunk.wrap(DType.INT32, new int[] {4}, new int[] {4, 0, -1, 2}), spec);
        CubedArray t = Indexing.take(x, idx, 1);
        assertThat(t.shape()).containsExactly(3, 4);
        assertThat(t.compute().longs()).containsExactly(4, 0, 4, 2, 14, 10, 14, 12, 24, 20, 24, 22);
        // Computed indices work too: arange(2, -1, -1) along axis 0 reverses the rows.
        assertThat(Indexing.take(x, Creation.arange(2L, -1L, -1L, 2, spec), 0)
                        .compute()
                        .longs())
                .startsWith(20, 21, 22, 23, 24, 10);
        CubedArray floats = Creation.ones(new long[] {2}, new int[] {2}, spec);
        assertThatThrownBy(() -> Indexing.take(x, floats, 0))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("must be a 1-d array of an integer data type");
    }

    @Test
    void clipMixesArrayAndScalarBounds() {
        Spec spec = spec("100MB");
        double[] v = {-3, -1, 0, 2, 5, 9};
        double[] lo = {-2, -2, 1, 1, 4, 4};
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {6}, v), spec, 4)
                .withDims("t");
        CubedArray min = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {6}, lo), spec, 4);
        double[] want = new double[6];
        double[] want2 = new double[6];
        for (int i = 0; i < 6; i++) {
            want[i] = Math.min(Math.max(v[i], lo[i]), 3.0);
            want2[i] = Math.min(Math.max(v[i], 0.5), lo[i]);
        }
        CubedArray c = Elementwise.clip(x, min, Scalar.ofDouble(3));
        assertThat(c.compute().doubles()).containsExactly(want);
        assertThat(c.dims()).contains(java.util.List.of("t"));
        assertThat(Elementwise.clip(x, Scalar.ofDouble(0.5), min).compute().doubles())
                .containsExactly(want2);
        assertThat(Elementwise.clip(x, min, (Scalar) null).compute().doubles()).containsExactly(-2, -1, 1, 2, 5, 9);
        CubedArray ints = Creation.arange(0L, 6L, 1L, 4, spec);
        assertThatThrownBy(() -> Elementwise.clip(ints, (CubedArray) null, Scalar.ofDouble(2.5)))
                .isInstanceOf(CubedException.class);
    }

    @Test
    void asarrayLimitFollowsTheMemorySettings() {
        Spec small = spec("3MB"); // (3 MB - 1 MB) / 2 = 1 MB
        assertThat(Cubed.asarrayLimitBytes(small)).isEqualTo(1_000_000);
        Chunk fits = Chunk.allocate(DType.FLOAT64, 125_000);
        assertThat(Cubed.asarray(fits, small).shape()).containsExactly(125_000);
        Chunk over = Chunk.allocate(DType.FLOAT64, 125_001);
        assertThatThrownBy(() -> Cubed.asarray(over, small))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("asarray takes at most 1.0 MB (1000000 bytes: half of allowedMem 3.0 MB")
                .hasMessageContaining("has 1000008 bytes; use Cubed.fromArray");
        assertThat(Cubed.asarray(over, spec("100MB")).size()).isEqualTo(125_001);
    }

    @Test
    void integerTrueDivisionGivesFloat64AsInNumpy() {
        Spec spec = spec("100MB");
        Chunk a = Chunk.allocate(DType.INT8, 5);
        Chunk b = Chunk.allocate(DType.INT32, 5);
        byte[] av = {7, -7, 1, 0, 100};
        int[] bv = {2, 2, 3, 5, -8};
        for (int i = 0; i < 5; i++) {
            a.bytes()[i] = av[i];
            b.ints()[i] = bv[i];
        }
        CubedArray x = Cubed.asarray(a, spec, 2);
        CubedArray y = Cubed.asarray(b, spec, 3);
        CubedArray q = Elementwise.divide(x, y);
        assertThat(q.dtype()).isEqualTo(DType.FLOAT64);
        // np.array([7, -7, 1, 0, 100], np.int8) / np.array([2, 2, 3, 5, -8], np.int32)
        assertThat(q.compute().doubles()).containsExactly(3.5, -3.5, 1.0 / 3, 0.0, -12.5);
        assertThat(Elementwise.divide(x, Scalar.ofLong(4)).compute().doubles())
                .containsExactly(1.75, -1.75, 0.25, 0.0, 25.0);
        assertThat(Elementwise.divide(Scalar.ofLong(1), y).compute().doubles())
                .containsExactly(0.5, 0.5, 1.0 / 3, 0.2, -0.125);
        // Floating-point inputs keep their type.
        CubedArray f = Elementwise.astype(x, DType.FLOAT32);
        assertThat(Elementwise.divide(f, f).dtype()).isEqualTo(DType.FLOAT32);
    }
}
