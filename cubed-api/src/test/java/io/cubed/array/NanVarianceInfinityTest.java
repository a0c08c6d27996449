package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.StoredArrays;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * nanvar and nanstd of data holding ±inf as well as NaN: only NaN elements are skipped, so a slice with an infinite
 * element has a NaN variance, as NumPy's (its mean is ±inf or NaN, and the deviations inf − inf are NaN). Checked in
 * one chunk, across chunks (the merge of partial states), on stored chunks read box by box, for float64 and float32,
 * with and without an axis, and with a correction. Expectations are worked out by hand (and agree with NumPy 1.24).
 */
class NanVarianceInfinityTest {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final double NAN = Double.NaN;

    private static Spec spec() {
        return Spec.builder()
                .workDir(
                        "memory://" + NanVarianceInfinityTest.class.getSimpleName() + "-" + UUID.randomUUID() + "/work")
                .allowedMem(50_000_000)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    private static Chunk f64(int[] shape, double... v) {
        return Chunk.wrap(DType.FLOAT64, shape, v);
    }

    private static Chunk f32(int[] shape, double... v) {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            f[i] = (float) v[i];
        }
        return Chunk.wrap(DType.FLOAT32, shape, f);
    }

    /** The result's elements as doubles, whatever its floating type. */
    private static double[] values(Chunk c) {
        if (c.dtype() == DType.FLOAT32) {
            float[] f = c.floats();
            double[] d = new double[f.length];
            for (int i = 0; i < f.length; i++) {
                d[i] = f[i];
            }
            return d;
        }
        return c.doubles();
    }

    private static void assertValues(String what, Chunk actual, double tol, double... expected) {
        double[] got = values(actual);
        assertThat(got).as(what).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (Double.isNaN(expected[i])) {
                assertThat(got[i]).as("%s [%d]", what, i).isNaN();
            } else {
                assertThat(got[i]).as("%s [%d]", what, i).isCloseTo(expected[i], within(tol));
            }
        }
    }

    /** 1-d data in one chunk: an infinite element makes the result NaN; NaN elements alone are skipped. */
    @Test
    void oneChunkWithInfinitiesIsNan() {
        double[][] data = {
            {INF, -INF, 5}, // mean NaN
            {INF, INF}, // mean inf, deviations NaN
            {INF, 1.0}, // mean inf, deviations NaN and -inf
            {-INF, -INF, NAN}, // the NaN skipped, the rest as above
            {-INF}, // one element
            {1, NAN, 3}, // no infinity: the variance of {1, 3}
            {NAN, NAN} // nothing left: NaN
        };
        double[] var = {NAN, NAN, NAN, NAN, NAN, 1.0, NAN};
        double[] var1 = {NAN, NAN, NAN, NAN, NAN, 2.0, NAN}; // correction 1
        Spec spec = spec();
        for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
            List<CubedArray> results = new ArrayList<>();
            for (double[] d : data) {
                int[] shape = {d.length};
                CubedArray x = Cubed.asarray(t == DType.FLOAT64 ? f64(shape, d) : f32(shape, d), spec, d.length);
                results.add(Statistical.nanvar(x));
                results.add(Statistical.nanstd(x));
                results.add(Statistical.nanvar(x, ReductionOptions.all().correction(1)));
                results.add(Statistical.nanstd(x, ReductionOptions.axis(0).correction(1)));
            }
            List<Chunk> got = Cubed.compute(results);
            for (int k = 0; k < data.length; k++) {
                String what = t + " " + java.util.Arrays.toString(data[k]);
                assertThat(got.get(4 * k).dtype()).isEqualTo(t);
                assertValues("nanvar " + what, got.get(4 * k), 1e-15, var[k]);
                assertValues("nanstd " + what, got.get(4 * k + 1), 1e-15, Math.sqrt(var[k]));
                assertValues("nanvar correction 1 " + what, got.get(4 * k + 2), 1e-15, var1[k]);
                assertValues("nanstd correction 1 " + what, got.get(4 * k + 3), 1e-6, Math.sqrt(var1[k]));
            }
        }
    }

    /**
     * The audit's case: rows with infinities spread over (3, 2) chunks, so that the infinite and finite elements of a
     * row meet only when the chunks' states are merged (NumPy: [nan, nan, nan, 0.667]; before, [nan, inf, 0, 0.667]).
     */
    @Test
    void acrossChunksTheMergeKeepsNan() {
        int[] shape = {4, 3};
        double[] d = {INF, -INF, 1, INF, INF, 2, -INF, -INF, NAN, 1, 2, 3};
        Spec spec = spec();
        for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
            CubedArray x = Cubed.asarray(t == DType.FLOAT64 ? f64(shape, d) : f32(shape, d), spec, 3, 2);
            List<Chunk> got = Cubed.compute(List.of(
                    Statistical.nanvar(x, ReductionOptions.axis(1)),
                    Statistical.nanstd(x, ReductionOptions.axis(1)),
                    Statistical.nanvar(x, ReductionOptions.axis(1).correction(1)),
                    Statistical.nanvar(x, ReductionOptions.axis(0)),
                    Statistical.nanvar(x),
                    Statistical.nanstd(x, ReductionOptions.axis(1).keepdims(true))));
            double tol = t == DType.FLOAT64 ? 1e-15 : 1e-7;
            assertValues(t + " nanvar axis 1", got.get(0), tol, NAN, NAN, NAN, 2.0 / 3);
            assertValues(t + " nanstd axis 1", got.get(1), tol, NAN, NAN, NAN, Math.sqrt(2.0 / 3));
            assertValues(t + " nanvar axis 1 correction 1", got.get(2), tol, NAN, NAN, NAN, 1.0);
            assertValues(t + " nanvar axis 0", got.get(3), tol, NAN, NAN, 2.0 / 3); // column 2: {1, 2, 3}
            assertValues(t + " nanvar", got.get(4), tol, NAN);
            assertThat(got.get(5).shape()).containsExactly(4, 1);
            assertValues(t + " nanstd axis 1 keepdims", got.get(5), tol, NAN, NAN, NAN, Math.sqrt(2.0 / 3));
        }
    }

    /**
     * Stored chunks of 32 float64 (16 float32) elements in Blosc blocks of 128 bytes, so that the reduction takes each
     * chunk box by box and merges the boxes' states: rows 0 and 5 hold an infinity in one box only, row 2 holds two
     * infinities of opposite sign in different chunks, row 7 only NaN.
     */
    @Test
    void storedChunksReadBoxByBoxKeepNan() {
        int[] shape = {8, 8};
        double[] d = new double[64];
        for (int i = 0; i < 64; i++) {
            d[i] = i % 8; // each row 0..7: variance 5.25
        }
        d[0 * 8 + 3] = INF;
        d[0 * 8 + 5] = NAN;
        d[2 * 8 + 1] = INF;
        d[2 * 8 + 6] = -INF;
        d[5 * 8 + 7] = -INF;
        for (int j = 0; j < 8; j++) {
            d[7 * 8 + j] = NAN;
        }
        d[4 * 8 + 2] = NAN; // row 4: {0, 1, 3, 4, 5, 6, 7}, mean 26/7
        double row4 = 0;
        for (int j : new int[] {0, 1, 3, 4, 5, 6, 7}) {
            row4 += (j - 26.0 / 7) * (j - 26.0 / 7);
        }
        row4 /= 7;
        Spec spec = spec();
        for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
            Chunk data = t == DType.FLOAT64 ? f64(shape, d) : f32(shape, d);
            CubedArray x = Cubed.fromZarr(
                    StoredArrays.blosc(data, new int[] {4, 8}, BloscShuffle.SHUFFLE, 128)
                            .url(),
                    spec);
            List<Chunk> got = Cubed.compute(List.of(
                    Statistical.nanvar(x, ReductionOptions.axis(1)),
                    Statistical.nanstd(x, ReductionOptions.axis(1)),
                    Statistical.nanvar(x, ReductionOptions.axis(0)),
                    Statistical.nanvar(x)));
            double tol = t == DType.FLOAT64 ? 1e-12 : 1e-5;
            double v = 5.25;
            assertValues(t + " stored nanvar axis 1", got.get(0), tol, NAN, v, NAN, v, row4, NAN, v, NAN);
            assertValues(
                    t + " stored nanstd axis 1",
                    got.get(1),
                    tol,
                    NAN,
                    Math.sqrt(v),
                    NAN,
                    Math.sqrt(v),
                    Math.sqrt(row4),
                    NAN,
                    Math.sqrt(v),
                    NAN);
            // Columns 1, 3, 6 and 7 hold an infinity; the others only finite values and NaN.
            double[] col = new double[8];
            for (int j = 0; j < 8; j++) {
                double s = 0;
                int n = 0;
                for (int i = 0; i < 8; i++) {
                    double e = d[i * 8 + j];
                    if (!Double.isNaN(e)) {
                        s += e;
                        n++;
                    }
                }
                double mean = s / n;
                double m2 = 0;
                for (int i = 0; i < 8; i++) {
                    double e = d[i * 8 + j];
                    if (!Double.isNaN(e)) {
                        m2 += (e - mean) * (e - mean);
                    }
                }
                col[j] = m2 / n;
            }
            assertThat(col[1]).isNaN();
            assertThat(col[0]).isEqualTo(0.0);
            assertValues(t + " stored nanvar axis 0", got.get(2), tol, col);
            assertValues(t + " stored nanvar", got.get(3), tol, NAN);
        }
    }
}
