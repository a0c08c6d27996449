package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Plan;
import io.cubed.plan.Spec;
import io.cubed.primitive.KeyFunction;
import io.cubed.runtime.LocalExecutor;
import io.cubed.testing.NumpyFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sort} and {@code argsort}: the merge network on its own (every 0-1 sequence of up to 14 chunks), values and
 * exact indices against NumPy's stable sort over random chunkings (1 to 7 chunks along the sorted axis, uneven last
 * chunk), dtypes, duplicates, NaN, signed zeros, descending order, batch axes and axes other than the last; the
 * projected memory of a merge layer term by term, its refusal, and bad arguments.
 */
class SortingTest {
    @TempDir
    Path dir;

    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    @Test
    void theMergeNetworkSortsEveryZeroOneSequence() {
        for (int n = 1; n <= 14; n++) {
            List<long[]> layers = Sorting.layers(n);
            int log = 64 - Long.numberOfLeadingZeros(n - 1);
            int withComparators = 0;
            for (long p = 1; p < n; p *= 2) {
                for (long k = p; k >= 1; k /= 2) {
                    for (long m = 0; m < n; m++) {
                        if (Sorting.partner(m, p, k, n) > m) {
                            withComparators++;
                            break;
                        }
                    }
                }
            }
            assertThat(layers).as("layers for %d", n).hasSize(withComparators);
            assertThat(layers.size()).as("layers for %d", n).isLessThanOrEqualTo(log * (log + 1) / 2);
            for (long[] layer : layers) {
                for (long m = 0; m < n; m++) {
                    long q = Sorting.partner(m, layer[0], layer[1], n);
                    if (q >= 0) {
                        assertThat(q).isLessThan(n);
                        assertThat(Sorting.partner(q, layer[0], layer[1], n)).isEqualTo(m);
                    }
                }
            }
            for (int bits = 0; bits < 1 << n; bits++) {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (bits >> i) & 1;
                }
                for (long[] layer : layers) {
                    for (int m = 0; m < n; m++) {
                        int q = (int) Sorting.partner(m, layer[0], layer[1], n);
                        if (q > m && a[m] > a[q]) {
                            int t = a[m];
                            a[m] = a[q];
                            a[q] = t;
                        }
                    }
                }
                for (int i = 1; i < n; i++) {
                    assertThat(a[i - 1])
                            .as("n=%d input %s", n, Integer.toBinaryString(bits))
                            .isLessThanOrEqualTo(a[i]);
                }
            }
        }
        assertThat(Sorting.layers(1)).isEmpty();
        assertThat(Sorting.layers(8)).hasSize(6);
    }

    private record Case(DType dtype, int[] shape, int axis, boolean descending, CubedArray sorted, CubedArray order) {}

    private static final DType[] TYPES = {
        DType.FLOAT64,
        DType.INT32,
        DType.FLOAT32,
        DType.BOOL,
        DType.COMPLEX128,
        DType.INT8,
        DType.UINT64,
        DType.COMPLEX64,
        DType.UINT8,
        DType.INT64,
        DType.INT16,
        DType.UINT32,
        DType.UINT16
    };

    @Test
    void sortAndArgsortMatchNumpyOverRandomChunkings() throws Exception {
        NumpyFiles.require("sort/argsort cross-check against NumPy");
        Random r = new Random(20261125);
        Spec spec = spec(50_000_000);
        List<Case> cases = new ArrayList<>();
        StringBuilder manifest = new StringBuilder();
        for (int t = 0; t < 130; t++) {
            DType dtype = TYPES[t % TYPES.length];
            int nd = 1 + r.nextInt(3);
            int axis = r.nextInt(nd);
            int[] shape = new int[nd];
            int[] chunks = new int[nd];
            for (int a = 0; a < nd; a++) {
                if (a == axis) {
                    int nc = 1 + r.nextInt(7);
                    int c = 1 + r.nextInt(4);
                    shape[a] = (nc - 1) * c + 1 + r.nextInt(c);
                    chunks[a] = c;
                } else {
                    shape[a] = 1 + r.nextInt(4);
                    chunks[a] = 1 + r.nextInt(shape[a]);
                }
            }
            boolean descending = r.nextBoolean();
            Chunk data = random(dtype, shape, r);
            CubedArray x = Cubed.asarray(data, spec, chunks);
            int given = r.nextBoolean() ? axis - nd : axis;
            SortOptions o = SortOptions.axis(given).descending(descending).stable(r.nextBoolean());
            if (nd == 1 && given == -1 && !descending && r.nextBoolean()) {
                cases.add(new Case(dtype, shape, axis, false, Sorting.sort(x), Sorting.argsort(x)));
            } else {
                cases.add(new Case(dtype, shape, axis, descending, Sorting.sort(x, o), Sorting.argsort(x, o)));
            }
            NumpyFiles.write(data, dir.resolve("in_" + t + ".bin"));
            manifest.append(NumpyFiles.numpyType(dtype))
                    .append(' ')
                    .append(Arrays.toString(shape).replaceAll("[\\[\\] ]", ""))
                    .append(' ')
                    .append(axis)
                    .append(' ')
                    .append(descending ? 1 : 0)
                    .append('\n');
        }
        Files.writeString(dir.resolve("cases.txt"), manifest);
        List<CubedArray> all = new ArrayList<>();
        for (Case c : cases) {
            all.add(c.sorted);
            all.add(c.order);
        }
        List<Chunk> actual = Cubed.compute(all);
        NumpyFiles.run(dir, SORT_SCRIPT);
        List<String> failures = new ArrayList<>();
        for (int t = 0; t < cases.size(); t++) {
            Case c = cases.get(t);
            String label = "case " + t + " " + c.dtype + " " + Arrays.toString(c.shape) + " axis " + c.axis
                    + (c.descending ? " descending" : "") + " chunks " + Arrays.toString(c.sorted.chunkShape());
            byte[] values = Files.readAllBytes(dir.resolve("sorted_" + t + ".bin"));
            byte[] order = Files.readAllBytes(dir.resolve("order_" + t + ".bin"));
            if (!Arrays.equals(NumpyFiles.bytes(actual.get(2 * t)), values)) {
                failures.add(label + ": sort differs");
            }
            if (!Arrays.equals(NumpyFiles.bytes(actual.get(2 * t + 1)), order)) {
                failures.add(label + ": argsort "
                        + Arrays.toString(actual.get(2 * t + 1).longs()));
            }
            assertThat(actual.get(2 * t).dtype()).isEqualTo(c.dtype);
            assertThat(actual.get(2 * t + 1).dtype()).isEqualTo(DType.INT64);
        }
        assertThat(failures).isEmpty();
    }

    private static final String SORT_SCRIPT =
            """
            import os, sys
            import numpy as np

            d = sys.argv[1]
            with open(os.path.join(d, "cases.txt")) as f:
                lines = [l.split() for l in f.read().splitlines() if l]
            for i, (dt, shape, axis, desc) in enumerate(lines):
                shape = tuple(int(s) for s in shape.split(","))
                axis = int(axis)
                x = np.fromfile(os.path.join(d, "in_%d.bin" % i), dtype=dt).reshape(shape)
                if desc == "1":
                    # The array API's reference: a stable sort of the flipped array, flipped back.
                    r = np.flip(np.argsort(np.flip(x, axis=axis), axis=axis, kind="stable"), axis=axis)
                    r = x.shape[axis] - 1 - r
                    s = np.take_along_axis(x, r, axis=axis)
                else:
                    r = np.argsort(x, axis=axis, kind="stable")
                    s = np.sort(x, axis=axis, kind="stable")
                np.ascontiguousarray(r.astype("<i8")).tofile(os.path.join(d, "order_%d.bin" % i))
                np.ascontiguousarray(s).tofile(os.path.join(d, "sorted_%d.bin" % i))
            """;

    /** Random values from small pools: many ties, and for floats NaN, ±0.0 and ±∞. */
    static Chunk random(DType dtype, int[] shape, Random r) {
        Chunk c = Chunk.allocate(dtype, shape);
        int n = c.size();
        double[] pool = {Double.NaN, -0.0, 0.0, 1.5, -2.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 3.0};
        for (int i = 0; i < n; i++) {
            switch (dtype) {
                case BOOL -> c.booleans()[i] = r.nextBoolean();
                case INT8 -> c.bytes()[i] = (byte) (r.nextInt(9) - 4);
                case UINT8 -> c.bytes()[i] = (byte) (r.nextInt(6) * 50);
                case INT16 -> c.shorts()[i] = (short) (r.nextInt(7) - 3);
                case UINT16 -> c.shorts()[i] = (short) (r.nextInt(4) * 20000);
                case UINT32 -> c.ints()[i] = r.nextInt(4) * 1_500_000_000;
                case INT32 -> c.ints()[i] = r.nextInt(9) - 4;
                case INT64 -> c.longs()[i] = r.nextBoolean() ? r.nextInt(5) : Long.MIN_VALUE + r.nextInt(3);
                case UINT64 -> c.longs()[i] = r.nextBoolean() ? r.nextInt(5) : -1L - r.nextInt(3);
                case FLOAT32 -> c.floats()[i] = (float) (r.nextBoolean() ? pool[r.nextInt(pool.length)] : r.nextInt(5));
                case FLOAT64 -> c.doubles()[i] = r.nextBoolean() ? pool[r.nextInt(pool.length)] : r.nextInt(5) - 2;
                case COMPLEX64 -> {
                    c.floats()[2 * i] = (float) pool[r.nextInt(pool.length)];
                    c.floats()[2 * i + 1] = (float) pool[r.nextInt(pool.length)];
                }
                case COMPLEX128 -> {
                    c.doubles()[2 * i] = r.nextInt(4) == 0 ? Double.NaN : r.nextInt(3);
                    c.doubles()[2 * i + 1] = r.nextInt(4) == 0 ? Double.NaN : r.nextInt(3) - 1;
                }
                default -> throw new AssertionError(dtype);
            }
        }
        return c;
    }

    @Test
    void aSingleChunkAxisIsOneOperationAndSevenChunksAMergeNetwork() {
        Spec spec = spec(50_000_000);
        CubedArray one = Creation.ones(new long[] {6, 10}, new int[] {2, 10}, DType.FLOAT64, spec);
        Computation c1 = Computation.prepare(spec, List.of(Sorting.sort(one).node()), Map.of());
        assertThat(c1.plan().ops()).extracting(OpNode::name).containsExactly("sort");
        CubedArray seven = Creation.ones(new long[] {6, 20}, new int[] {2, 3}, DType.FLOAT64, spec);
        Computation c7 =
                Computation.prepare(spec, List.of(Sorting.argsort(seven).node()), Map.of());
        assertThat(c7.plan().ops())
                .extracting(OpNode::name)
                .containsExactly(
                        "argsort chunks",
                        "argsort merge 1/6",
                        "argsort merge 2/6",
                        "argsort merge 3/6",
                        "argsort merge 4/6",
                        "argsort merge 5/6",
                        "argsort merge 6/6");
        assertThat(c7.plan().ops()).allSatisfy(op -> assertThat(op.numTasks()).isEqualTo(21));
    }

    @Test
    void aMergeLayerHoldsTwoChunksOfValuesAndIndices() {
        Spec spec = spec(50_000_000);
        // float64 chunks of 4 x 5: 160 bytes of values, 160 of int64 indices.
        CubedArray x = Creation.ones(new long[] {8, 20}, new int[] {4, 5}, DType.FLOAT64, spec);
        Computation c = Computation.prepare(spec, List.of(Sorting.sort(x).node()), Map.of());
        OpNode first = c.plan().ops().get(0);
        OpNode merge = c.plan().ops().get(1);
        // sort chunks: input 160 (ones() is virtual: no read copy) + extra 16 bytes · lane of 5 + outputs
        // (160 + 160)·(1+1).
        assertThat(c.projectedMemBytes().get(first)).isEqualTo(160 + 16 * 5 + (160 + 160) * 2);
        // merge: values 2·160·(1+1) + indices 2·160·(1+1) + extra keys 8 · 2 lanes of 5 + outputs (160 + 160)·(1+1).
        assertThat(c.projectedMemBytes().get(merge)).isEqualTo(2 * 160 * 2 + 2 * 160 * 2 + 8 * 2 * 5 + 320 * 2);
        CubedArray complex = Creation.ones(new long[] {8, 20}, new int[] {4, 5}, DType.COMPLEX128, spec);
        Computation cc = Computation.prepare(spec, List.of(Sorting.sort(complex).node()), Map.of());
        // complex128 values 320 bytes a chunk; keys 3 words.
        assertThat(cc.projectedMemBytes().get(cc.plan().ops().get(1)))
                .isEqualTo(2 * 320 * 2 + 2 * 160 * 2 + 8 * 3 * 2 * 5 + (320 + 160) * 2);
        long mergeBytes = 2 * 160 * 2 + 2 * 160 * 2 + 8 * 2 * 5 + 320 * 2;
        Spec tight = spec(mergeBytes - 1);
        CubedArray y = Creation.ones(new long[] {8, 20}, new int[] {4, 5}, DType.FLOAT64, tight);
        assertThatThrownBy(() -> Sorting.sort(y).compute())
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem")
                .hasMessageContaining("sort merge 1/3");
    }

    @Test
    void theTaskFunctionsRoundTripThroughJavaSerialization() throws Exception {
        Spec spec = spec(50_000_000);
        CubedArray x = Creation.ones(new long[] {4, 10}, new int[] {2, 3}, DType.FLOAT64, spec);
        CubedArray idx = Creation.zeros(new long[] {4, 3}, new int[] {2, 2}, DType.INT64, spec);
        int ops = 0;
        for (CubedArray a :
                List.of(Sorting.argsort(x, SortOptions.axis(1).descending(true)), Indexing.takeAlongAxis(x, idx))) {
            for (OpNode op : Plan.of(List.of(a.node())).ops()) {
                KeyFunction keys = (KeyFunction) roundTrip(op.keyFunction());
                assertThat(roundTrip(op.function())).as(op.toString()).hasSameClassAs(op.function());
                for (long[] coords : new long[][] {{0, 0}, {1, 1}, {1, 2}}) {
                    assertThat(keys.inputKeys(coords))
                            .as(op.toString())
                            .isDeepEqualTo(op.keyFunction().inputKeys(coords));
                }
                ops++;
            }
        }
        assertThat(ops).isEqualTo(1 + 3 + 1); // 4 chunks along the axis: 3 merge layers
    }

    private static Object roundTrip(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }

    @Test
    void emptyAndSmallArrays() {
        Spec spec = spec(50_000_000);
        CubedArray empty = Creation.zeros(new long[] {3, 0}, new int[] {2, 1}, DType.FLOAT64, spec);
        assertThat(Sorting.sort(empty).shape()).containsExactly(3, 0);
        assertThat(Sorting.argsort(empty, SortOptions.axis(0)).dtype()).isEqualTo(DType.INT64);
        assertThat(Sorting.argsort(empty).compute().size()).isZero();
        CubedArray one = Cubed.asarray(Chunk.wrap(DType.INT32, new int[] {1}, new int[] {5}), spec, 1);
        assertThat(Sorting.sort(one).compute().ints()).containsExactly(5);
        assertThat(Sorting.argsort(one, SortOptions.defaults().descending(true))
                        .compute()
                        .longs())
                .containsExactly(0);
    }

    @Test
    void badArgumentsAreRefusedClearly() {
        Spec spec = spec(50_000_000);
        CubedArray x = Creation.ones(new long[] {4, 5}, new int[] {2, 2}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> Sorting.sort(x, SortOptions.axis(2)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("sort of " + x.name())
                .hasMessageContaining("axis 2 is out of bounds");
        assertThatThrownBy(() -> Sorting.argsort(x, SortOptions.axis(-3)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("argsort of " + x.name())
                .hasMessageContaining("axis -3");
        CubedArray scalar = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[0], new double[] {1}), spec);
        assertThatThrownBy(() -> Sorting.sort(scalar))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("0-d array has no axis");
    }
}
