package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.PlanException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchingTest {
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

    private CubedArray of(DType dtype, double[] values, int[] shape, int... chunks) {
        return Cubed.asarray(new Ref(shape, values).chunk(dtype), spec(), chunks);
    }

    private CubedArray of(DType dtype, Ref ref, int... chunks) {
        return Cubed.asarray(ref.chunk(dtype), spec(), chunks);
    }

    @Test
    void whereBroadcastsAndPromotes() {
        Ref c = Ref.build(new int[] {5, 1}, i -> (double) (i[0] % 2));
        Ref x = Ref.iota(5, 4);
        Ref y = Ref.iotaFrom(-100, 4);
        CubedArray r = Searching.where(of(DType.BOOL, c, 2, 1), of(DType.INT16, x, 3, 2), of(DType.INT32, y, 3));
        assertThat(r.dtype()).isEqualTo(DType.INT32);
        assertThat(r.shape()).containsExactly(5, 4);
        assertThat(r.compute().toDoubleArray())
                .containsExactly(Ref.build(new int[] {5, 4}, i -> i[0] % 2 == 1 ? x.at(i) : y.at(i[1])).data);
        CubedArray s = Searching.where(of(DType.BOOL, c, 2, 1), of(DType.FLOAT32, x, 3, 2), Scalar.ofDouble(-1.5));
        assertThat(s.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(s.compute().toDoubleArray())
                .containsExactly(Ref.build(new int[] {5, 4}, i -> i[0] % 2 == 1 ? x.at(i) : -1.5).data);
        CubedArray notBool = of(DType.INT8, c, 2, 1);
        assertThatThrownBy(() -> Searching.where(notBool, notBool, notBool))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("where: the condition " + notBool.name())
                .hasMessageContaining("must be bool");
        assertThatThrownBy(() ->
                        Searching.where(of(DType.BOOL, c, 2, 1), of(DType.INT16, x, 3, 2), of(DType.FLOAT64, y, 3)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("where: the Array API standard defines no promotion");
        assertThatThrownBy(() -> Searching.where(
                        of(DType.BOOL, c, 2, 1), of(DType.INT16, x, 3, 2), of(DType.INT16, Ref.iota(3), 3)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cannot be broadcast");
    }

    /** NumPy's order: NaN after everything, equal to NaN. */
    private static int compare(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return Double.isNaN(a) ? (Double.isNaN(b) ? 0 : 1) : -1;
        }
        return a < b ? -1 : a > b ? 1 : 0;
    }

    private static double[] searchsortedRef(double[] sorted, double[] values, boolean right) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            int n = 0;
            for (double s : sorted) {
                int c = compare(s, values[i]);
                if (c < 0 || (right && c == 0)) {
                    n++;
                }
            }
            out[i] = n;
        }
        return out;
    }

    @Test
    void searchsortedMatchesALinearScan() {
        double[] sorted = {0, 1, 1, 1, 2, 3, 3, 5, 8, 8, 8, 8, 13, Double.NaN};
        CubedArray x1 = of(DType.FLOAT64, sorted, new int[] {14}, 3);
        double[] values = {-1, 0, 1, 2.5, 8, 100, Double.NaN, 13, 3, 7, 0.5, 1, 14, -0.0, 5};
        CubedArray x2 = of(DType.FLOAT32, values, new int[] {3, 5}, 2, 2);
        for (SearchSide side : SearchSide.values()) {
            CubedArray r = Searching.searchsorted(x1, x2, side);
            assertThat(r.dtype()).isEqualTo(DType.INT64);
            assertThat(r.chunkShape()).containsExactly(2, 2);
            assertThat(r.compute().toDoubleArray())
                    .as("side %s", side)
                    .containsExactly(searchsortedRef(sorted, values, side == SearchSide.RIGHT));
        }
        double[] ints = new double[40];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = i / 3;
        }
        CubedArray i1 = of(DType.INT64, ints, new int[] {40}, 7);
        double[] probes = {-5, 0, 4, 13, 14, 6};
        CubedArray i2 = of(DType.INT32, probes, new int[] {6}, 4);
        assertThat(Searching.searchsorted(i1, i2, SearchSide.RIGHT).compute().toDoubleArray())
                .containsExactly(searchsortedRef(ints, probes, true));
        Chunk one =
                Searching.searchsorted(i1, Scalar.ofLong(4), SearchSide.LEFT).compute();
        assertThat(one.shape()).isEmpty();
        assertThat(one.longs()).containsExactly(12);
        assertThatThrownBy(() -> Searching.searchsorted(x2, x1, SearchSide.LEFT))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("searchsorted: " + x2.name())
                .hasMessageContaining("one-dimensional");
        assertThatThrownBy(() -> Searching.searchsorted(
                        x1, Creation.zeros(new long[] {15}, new int[] {5}, DType.COMPLEX128, spec()), SearchSide.LEFT))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("no order");
    }

    @Test
    void isinMatchesALinearScan() {
        Ref a = Ref.build(new int[] {6, 5}, i -> (double) ((i[0] * 5 + i[1]) % 11));
        CubedArray x1 = of(DType.INT32, a, 4, 2);
        double[] set = {0, 3, 3, 7, 10, -1, 20};
        CubedArray x2 = of(DType.INT64, set, new int[] {7}, 3);
        Chunk in = Sets.isin(x1, x2).compute();
        Chunk out = Sets.isin(x1, x2, true).compute();
        assertThat(in.dtype()).isEqualTo(DType.BOOL);
        for (int i = 0; i < a.size(); i++) {
            boolean found = false;
            for (double s : set) {
                found |= s == a.data[i];
            }
            assertThat(in.booleans()[i]).as("element %d", i).isEqualTo(found);
            assertThat(out.booleans()[i]).isEqualTo(!found);
        }
        CubedArray f1 = of(DType.FLOAT64, new double[] {Double.NaN, 0.0, -0.0, 1.5}, new int[] {4}, 3);
        CubedArray f2 = of(DType.FLOAT32, new double[] {Double.NaN, 0.0}, new int[] {2}, 1);
        assertThat(Sets.isin(f1, f2).compute().booleans()).containsExactly(false, true, true, false);
    }

    @Test
    void dataDependentShapesAreRefusedWithTheReason() {
        CubedArray x = of(DType.INT32, Ref.iota(4), 2);
        assertThatThrownBy(() -> Searching.nonzero(x))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("nonzero of " + x.name())
                .hasMessageContaining("depends on the data");
        assertThatThrownBy(() -> Sets.uniqueValues(x))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("unique_values of " + x.name())
                .hasMessageContaining("depends on the data");
        assertThatThrownBy(() -> Sets.uniqueAll(x)).hasMessageContaining("unique_all");
    }
}
