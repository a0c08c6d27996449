package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** cumulativeSum, cumulativeProd and diff against plain loops, on chunkings from one chunk to one element per chunk. */
class ScanAndDiffTest {
    private static final int[] SHAPE = {7, 5, 6};
    private static final int[][] CHUNKINGS = {{7, 5, 6}, {3, 2, 4}, {2, 1, 1}, {1, 5, 2}};

    /**
     * Intermediates in memory: these cases check values, and their thousands of tiny chunk files took minutes (up to
     * 126 s for this class in CI) on a disk busy with the rest of the suite, against seconds in memory.
     */
    private Spec spec() {
        return Spec.builder()
                .workDir("memory://" + getClass().getSimpleName() + "-" + java.util.UUID.randomUUID() + "/work")
                .allowedMem(50_000_000)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** The running sum or product along {@code axis} in a plain loop, as longs or doubles. */
    private static Chunk referenceScan(Chunk x, int axis, boolean prod, DType rt) {
        int[] s = x.shape();
        int[] stride = Chunk.strides(s);
        Chunk out = Chunk.allocate(rt, s);
        for (int i = 0; i < x.size(); i++) {
            int pos = (i / stride[axis]) % s[axis];
            int start = i - pos * stride[axis];
            if (rt.isFloating()) {
                double acc = prod ? 1 : 0;
                for (int k = 0; k <= pos; k++) {
                    double v = x.getDouble(start + k * stride[axis]);
                    acc = prod ? acc * v : acc + v;
                }
                out.doubles()[i] = acc;
            } else {
                long acc = prod ? 1 : 0;
                for (int k = 0; k <= pos; k++) {
                    long v = x.getLong(start + k * stride[axis]);
                    acc = prod ? acc * v : acc + v;
                }
                out.longs()[i] = acc;
            }
        }
        return out;
    }

    @Test
    void cumulativeSumAndProdMatchPlainLoopsOnEveryAxisAndChunking() {
        Spec spec = spec();
        List<String> failures = new ArrayList<>();
        Object[][] cases = {
            {DType.FLOAT64, DType.FLOAT64},
            {DType.INT32, DType.INT64},
            {DType.UINT8, DType.UINT64},
            {DType.BOOL, DType.INT64}
        };
        long seed = 1;
        for (Object[] c : cases) {
            Chunk data = ReferenceReductions.random((DType) c[0], SHAPE, seed++, 0);
            for (int[] chunks : CHUNKINGS) {
                CubedArray x = Cubed.asarray(data, spec, chunks);
                List<CubedArray> results = new ArrayList<>();
                List<Chunk> expected = new ArrayList<>();
                List<String> labels = new ArrayList<>();
                for (int axis = -1; axis < 3; axis++) {
                    for (boolean prod : new boolean[] {false, true}) {
                        ReductionOptions o = ReductionOptions.axis(axis);
                        results.add(prod ? Statistical.cumulativeProd(x, o) : Statistical.cumulativeSum(x, o));
                        expected.add(referenceScan(data, axis < 0 ? axis + 3 : axis, prod, (DType) c[1]));
                        labels.add((prod ? "cumulative_prod " : "cumulative_sum ") + c[0] + " chunks "
                                + Arrays.toString(chunks) + " axis " + axis);
                    }
                }
                List<Chunk> actual = Cubed.compute(results);
                for (int i = 0; i < actual.size(); i++) {
                    String d = ReferenceReductions.compare(expected.get(i), actual.get(i), 1e-12);
                    if (d != null) {
                        failures.add(labels.get(i) + ": " + d);
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void aLongOneDimensionalScanRecursesOverTheChunkTotals() {
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 1000, 1, 3, DType.INT64, spec);
        long[] r = Statistical.cumulativeSum(x).compute().longs();
        for (int i = 0; i < 1000; i++) {
            assertThat(r[i]).isEqualTo((long) i * (i + 1) / 2);
        }
        CubedArray ones = Creation.ones(new long[] {100}, new int[] {1}, DType.FLOAT32, spec);
        float[] f = Statistical.cumulativeSum(ones).compute().floats();
        assertThat(f[99]).isEqualTo(100f);
        assertThat(Statistical.cumulativeSum(ones).explain()).contains("cumulative_sum offsets");
        assertThat(Statistical.cumulativeSum(x, ReductionOptions.all().dtype(DType.FLOAT64))
                        .dtype())
                .isEqualTo(DType.FLOAT64);
    }

    @Test
    void includeInitialPrependsTheIdentityOnEveryChunking() {
        Spec spec = spec();
        Chunk data = ReferenceReductions.random(DType.INT32, new int[] {6, 5}, 3, 0);
        List<String> failures = new ArrayList<>();
        for (int[] chunks : new int[][] {{6, 5}, {3, 5}, {4, 2}, {1, 1}}) {
            CubedArray x = Cubed.asarray(data, spec, chunks);
            for (int axis = 0; axis < 2; axis++) {
                for (boolean prod : new boolean[] {false, true}) {
                    ReductionOptions o = ReductionOptions.axis(axis).includeInitial(true);
                    Chunk actual =
                            (prod ? Statistical.cumulativeProd(x, o) : Statistical.cumulativeSum(x, o)).compute();
                    Chunk scan = referenceScan(data, axis, prod, DType.INT64);
                    int[] shape = data.shape();
                    shape[axis]++;
                    Chunk expected = Chunk.full(DType.INT64, io.cubed.dtype.Scalar.ofLong(prod ? 1 : 0), shape);
                    int[] dst = new int[2];
                    dst[axis] = 1;
                    Chunk.copyRegion(scan, new int[2], expected, dst, data.shape());
                    String d = ReferenceReductions.compare(expected, actual, 0);
                    if (d != null) {
                        failures.add(
                                "chunks " + Arrays.toString(chunks) + " axis " + axis + " prod " + prod + ": " + d);
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        CubedArray empty = Creation.ones(new long[] {0, 3}, new int[] {2, 2}, DType.FLOAT64, spec);
        Chunk e = Statistical.cumulativeProd(empty, ReductionOptions.axis(0).includeInitial(true))
                .compute();
        assertThat(e.shape()).containsExactly(1, 3);
        assertThat(e.doubles()).containsExactly(1, 1, 1);
    }

    @Test
    void scanErrorsNameTheOperationAndArray() {
        Spec spec = spec();
        CubedArray x = Creation.ones(new long[] {3, 4}, new int[] {2, 2}, DType.INT32, spec);
        assertThatThrownBy(() -> Statistical.cumulativeSum(x))
                .hasMessageContaining("cumulative_sum of " + x.name() + ": axis is required for an array of rank 2");
        assertThatThrownBy(() -> Statistical.cumulativeProd(x, ReductionOptions.axis(5)))
                .hasMessageContaining("cumulative_prod of " + x.name() + ": axis 5 is out of bounds");
    }

    /** The n-th difference along {@code axis} in plain loops over doubles (or longs, wrapped to the type). */
    private static Chunk referenceDiff(Chunk x, int axis, int n) {
        Chunk cur = x;
        for (int r = 0; r < n; r++) {
            int[] s = cur.shape();
            int[] os = s.clone();
            os[axis] = Math.max(0, s[axis] - 1);
            Chunk out = Chunk.allocate(cur.dtype(), os);
            int[] is = Chunk.strides(s);
            int[] ost = Chunk.strides(os);
            for (int o = 0; o < out.size(); o++) {
                int src = 0;
                int rest = o;
                for (int a = 0; a < os.length; a++) {
                    int c = (rest / ost[a]) % os[a];
                    src += c * is[a];
                }
                if (cur.dtype().isFloating()) {
                    out.doubles()[o] = cur.getDouble(src + is[axis]) - cur.getDouble(src);
                } else {
                    long v = cur.getLong(src + is[axis]) - cur.getLong(src);
                    Chunk one = Chunk.full(cur.dtype(), io.cubed.dtype.Scalar.ofLong(v), 1);
                    Chunk.copyRegion(one, new int[1], flat(out), new int[] {o}, new int[] {1});
                }
            }
            cur = out;
        }
        return cur;
    }

    private static Chunk flat(Chunk c) {
        return Chunk.wrap(c.dtype(), new int[] {c.size()}, c.data());
    }

    @Test
    void diffMatchesPlainLoops() {
        Spec spec = spec();
        List<String> failures = new ArrayList<>();
        for (DType t : new DType[] {DType.FLOAT64, DType.INT8}) {
            Chunk data = ReferenceReductions.random(t, SHAPE, 5, 0);
            for (int[] chunks : CHUNKINGS) {
                CubedArray x = Cubed.asarray(data, spec, chunks);
                List<CubedArray> results = new ArrayList<>();
                List<Chunk> expected = new ArrayList<>();
                List<String> labels = new ArrayList<>();
                for (int axis = 0; axis < 3; axis++) {
                    for (int n = 0; n <= 3; n++) {
                        results.add(Utility.diff(x, axis, n));
                        expected.add(referenceDiff(data, axis, n));
                        labels.add("diff " + t + " chunks " + Arrays.toString(chunks) + " axis " + axis + " n " + n);
                    }
                }
                results.add(Utility.diff(x, 1, 7)); // longer than the axis: empty
                expected.add(referenceDiff(data, 1, 5));
                labels.add("diff n past the length");
                List<Chunk> actual = Cubed.compute(results);
                for (int i = 0; i < actual.size(); i++) {
                    String d = ReferenceReductions.compare(expected.get(i), actual.get(i), 1e-12);
                    if (d != null) {
                        failures.add(labels.get(i) + ": " + d);
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        CubedArray b = Creation.ones(new long[] {3}, new int[] {2}, DType.BOOL, spec);
        assertThatThrownBy(() -> Utility.diff(b)).hasMessageContaining("diff of " + b.name() + ": data type bool");
        assertThatThrownBy(() -> Utility.diff(b, 0, -1)).hasMessageContaining("n must be >= 0, got -1");
    }
}
