package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CreationTest {
    @TempDir
    Path tmp;

    private Spec spec;

    private Spec spec() {
        if (spec == null) {
            spec = Spec.builder()
                    .workDir(tmp.resolve("work").toString())
                    .executor(new LocalExecutor(2, 1, 0))
                    .build();
        }
        return spec;
    }

    private CubedArray small(Ref ref, DType dtype, int... chunks) {
        return Cubed.asarray(ref.chunk(dtype), spec(), chunks);
    }

    @Test
    void meshgridInBothIndexings() {
        Ref a = Ref.iotaFrom(0, 5);
        Ref b = Ref.iotaFrom(10, 3);
        Ref c = Ref.iotaFrom(20, 4);
        CubedArray x = small(a, DType.INT64, 2);
        CubedArray y = small(b, DType.INT64, 2);
        CubedArray z = small(c, DType.INT64, 3);
        List<CubedArray> ij = Creation.meshgrid(MeshIndexing.IJ, x, y, z);
        List<Chunk> got = Cubed.compute(ij);
        for (int k = 0; k < 3; k++) {
            assertThat(ij.get(k).shape()).containsExactly(5, 3, 4);
            assertThat(ij.get(k).chunkShape()).containsExactly(2, 2, 3);
            int kk = k;
            Ref expected =
                    Ref.build(new int[] {5, 3, 4}, i -> kk == 0 ? a.at(i[0]) : kk == 1 ? b.at(i[1]) : c.at(i[2]));
            assertThat(got.get(k).toDoubleArray()).containsExactly(expected.data);
        }
        List<CubedArray> xy = Creation.meshgrid(x, y, z);
        assertThat(xy.get(0).shape()).containsExactly(3, 5, 4);
        assertThat(xy.get(0).chunkShape()).containsExactly(2, 2, 3);
        assertThat(xy.get(0).compute().toDoubleArray())
                .containsExactly(Ref.build(new int[] {3, 5, 4}, i -> a.at(i[1])).data);
        assertThat(xy.get(1).compute().toDoubleArray())
                .containsExactly(Ref.build(new int[] {3, 5, 4}, i -> b.at(i[0])).data);
        assertThat(Creation.meshgrid(x).get(0).shape()).containsExactly(5);

        CubedArray two = small(Ref.iota(2, 2), DType.INT64, 1, 1);
        assertThatThrownBy(() -> Creation.meshgrid(x, two))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("meshgrid: " + two.name())
                .hasMessageContaining("not one-dimensional");
        CubedArray f = small(b, DType.FLOAT64, 2);
        assertThatThrownBy(() -> Creation.meshgrid(x, f))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("one dtype");
    }

    @Test
    void trilAndTriuWithOffsets() {
        Ref r = Ref.iotaFrom(1, 2, 5, 7);
        CubedArray x = small(r, DType.FLOAT32, 1, 2, 3);
        for (long k : new long[] {-2, -1, 0, 2, 9}) {
            CubedArray lo = Creation.tril(x, k);
            assertThat(lo.chunkShape()).containsExactly(1, 2, 3);
            assertThat(lo.dtype()).isEqualTo(DType.FLOAT32);
            assertThat(lo.compute().toDoubleArray())
                    .as("tril k=%d", k)
                    .containsExactly(Ref.build(new int[] {2, 5, 7}, i -> i[2] - i[1] <= k ? r.at(i) : 0.0).data);
            assertThat(Creation.triu(x, k).compute().toDoubleArray())
                    .as("triu k=%d", k)
                    .containsExactly(Ref.build(new int[] {2, 5, 7}, i -> i[2] - i[1] >= k ? r.at(i) : 0.0).data);
        }
        CubedArray lower = Creation.tril(x);
        // Chunk (0, 0, 2) covers rows 0-1, columns 6: entirely above the diagonal, so it reads no input chunk.
        assertThat(lower.node().op().keyFunction().inputKeys(new long[] {0, 0, 2})[0])
                .isEmpty();
        assertThat(Creation.triu(x).node().op().keyFunction().inputKeys(new long[] {0, 0, 2})[0])
                .hasDimensions(1, 3);
        CubedArray v = small(Ref.iota(4), DType.INT32, 2);
        assertThatThrownBy(() -> Creation.triu(v))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("triu: " + v.name())
                .hasMessageContaining("at least 2");
    }
    /**
     * linspace into an integer type takes the floor of each value, as NumPy does (since 1.20), not its truncation, and
     * converts values outside the type as astype does; a step that underflows to 0 and a single value with the
     * endpoint follow NumPy's formulas. Expected values are NumPy 1.24's.
     */
    @Test
    void linspaceFloorsIntoIntegerTypesAndFollowsNumpysStepRules() {
        Spec s = spec();
        assertThat(Creation.linspace(-3.3, 7.1, 13, true, 4, DType.INT32, s)
                        .compute()
                        .ints())
                .containsExactly(-4, -3, -2, -1, 0, 1, 1, 2, 3, 4, 5, 6, 7);
        assertThat(Creation.linspace(-3.3, 7.1, 13, false, 5, DType.INT32, s)
                        .compute()
                        .ints())
                .containsExactly(-4, -3, -2, -1, -1, 0, 1, 2, 3, 3, 4, 5, 6);
        assertThat(Creation.linspace(-5, 0, 4, true, 3, DType.INT64, s)
                        .compute()
                        .longs())
                .containsExactly(-5, -4, -2, 0);
        // -1 and -0.5 floor to -1, which wraps to 255 in uint8.
        assertThat(Creation.linspace(-1, 1, 5, true, 2, DType.UINT8, s)
                        .compute()
                        .bytes())
                .containsExactly((byte) 255, (byte) 255, 0, 0, 1);
        // Outside int32 (±1e300 and ±5e299): the signed conversion's invalid value, as astype(int32) gives.
        assertThat(Creation.linspace(1e300, -1e300, 5, true, 2, DType.INT32, s)
                        .compute()
                        .ints())
                .containsExactly(Integer.MIN_VALUE, Integer.MIN_VALUE, 0, Integer.MIN_VALUE, Integer.MIN_VALUE);
        // (stop - start) / 3 underflows to 0: NumPy computes (j / 3) * (stop - start) + start instead.
        assertThat(Creation.linspace(0, 3 * Double.MIN_VALUE, 4, true, 3, DType.FLOAT64, s)
                        .compute()
                        .doubles())
                .containsExactly(0.0, Double.MIN_VALUE, 2 * Double.MIN_VALUE, 3 * Double.MIN_VALUE);
        // One value with the endpoint has no step: 0 * (stop - start) + start, NaN for an infinite stop.
        assertThat(Creation.linspace(0, Double.POSITIVE_INFINITY, 1, true, 1, DType.FLOAT64, s)
                        .compute()
                        .doubles())
                .containsExactly(Double.NaN);
        assertThat(Creation.linspace(2, 7, 1, true, 1, DType.FLOAT64, s)
                        .compute()
                        .doubles())
                .containsExactly(2.0);
    }
    /**
     * full with a float value and an integer dtype converts the value as astype would: truncated, and NaN, infinities
     * and values outside the type as NumPy 1.24 on x86-64 ({@code np.full(3, v, dtype=t)}); it saturated (NaN gave 0).
     */
    @Test
    void fullConvertsAFloatValueToAnIntegerTypeAsAstype() {
        Spec s = spec();
        long[] shape = {5};
        int[] chunks = {2};
        assertThat(Creation.full(shape, Scalar.ofDouble(Double.NaN), chunks, DType.INT64, s)
                        .compute()
                        .longs())
                .containsOnly(Long.MIN_VALUE);
        assertThat(Creation.full(shape, Scalar.ofDouble(1e10), chunks, DType.INT32, s)
                        .compute()
                        .ints())
                .containsOnly(Integer.MIN_VALUE);
        assertThat(Creation.full(shape, Scalar.ofDouble(300.7), chunks, DType.INT8, s)
                        .compute()
                        .bytes())
                .containsOnly((byte) 44);
        assertThat(Creation.full(shape, Scalar.ofDouble(-1.5), chunks, DType.UINT64, s)
                        .compute()
                        .longs())
                .containsOnly(-1L); // 18446744073709551615
        assertThat(Creation.full(shape, Scalar.ofDouble(Double.POSITIVE_INFINITY), chunks, DType.UINT8, s)
                        .compute()
                        .bytes())
                .containsOnly((byte) 0);
        assertThat(Creation.full(shape, Scalar.ofDouble(Double.NaN), chunks, DType.UINT64, s)
                        .compute()
                        .longs())
                .containsOnly(Long.MIN_VALUE); // 9223372036854775808
        assertThat(Creation.full(shape, Scalar.ofDouble(-2.9), chunks, DType.INT16, s)
                        .compute()
                        .shorts())
                .containsOnly((short) -2);
    }
}
