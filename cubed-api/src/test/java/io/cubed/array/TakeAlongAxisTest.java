package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.error.TaskFailedException;
import io.cubed.plan.Computation;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.testing.NumpyFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code take_along_axis}: values against NumPy over random shapes, broadcasting, chunkings (1 to 7 chunks of
 * {@code x} along the axis, uneven last chunks), index types and negative indices; with {@code argsort} it gives
 * {@code sort}; a task reads only the chunks its indices point into; projected memory term by term and its refusal;
 * out-of-range indices fail the computation naming the index; bad arguments are refused at the call.
 */
class TakeAlongAxisTest {
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

    private static final DType[] VALUE_TYPES = {
        DType.FLOAT64, DType.INT32, DType.COMPLEX64, DType.BOOL, DType.UINT16, DType.FLOAT32, DType.INT64
    };
    private static final DType[] INDEX_TYPES = {DType.INT64, DType.INT8, DType.UINT8, DType.INT32, DType.UINT64};

    @Test
    void matchesNumpyOverRandomShapesAndChunkings() throws Exception {
        NumpyFiles.require("take_along_axis cross-check against NumPy");
        Random r = new Random(11);
        Spec spec = spec(50_000_000);
        List<CubedArray> results = new ArrayList<>();
        StringBuilder manifest = new StringBuilder();
        for (int t = 0; t < 70; t++) {
            DType dtype = VALUE_TYPES[t % VALUE_TYPES.length];
            DType itype = INDEX_TYPES[t % INDEX_TYPES.length];
            int nd = 1 + r.nextInt(3);
            int axis = r.nextInt(nd);
            int[] xShape = new int[nd];
            int[] iShape = new int[nd];
            int[] xChunks = new int[nd];
            int[] iChunks = new int[nd];
            for (int d = 0; d < nd; d++) {
                if (d == axis) {
                    int nc = 1 + r.nextInt(7);
                    int c = 1 + r.nextInt(4);
                    xShape[d] = (nc - 1) * c + 1 + r.nextInt(c);
                    xChunks[d] = c;
                    iShape[d] = 1 + r.nextInt(9);
                    iChunks[d] = 1 + r.nextInt(iShape[d]);
                } else {
                    int len = 1 + r.nextInt(4);
                    int kind = r.nextInt(4); // 0, 1: same length; 2: x broadcast; 3: indices broadcast
                    xShape[d] = kind == 2 ? 1 : len;
                    iShape[d] = kind == 3 ? 1 : len;
                    xChunks[d] = 1 + r.nextInt(xShape[d]);
                    iChunks[d] = 1 + r.nextInt(iShape[d]);
                }
            }
            Chunk x = SortingTest.random(dtype, xShape, r);
            Chunk idx = Chunk.allocate(itype, iShape);
            int n = xShape[axis];
            boolean unsigned = itype.kind() == DType.Kind.UNSIGNED;
            for (int k = 0; k < idx.size(); k++) {
                long v = unsigned || r.nextBoolean() ? r.nextInt(n) : r.nextInt(n) - n;
                switch (itype) {
                    case INT8, UINT8 -> idx.bytes()[k] = (byte) v;
                    case INT32 -> idx.ints()[k] = (int) v;
                    default -> idx.longs()[k] = v;
                }
            }
            int given = r.nextBoolean() ? axis - nd : axis;
            CubedArray xa = Cubed.asarray(x, spec, xChunks);
            CubedArray ia = Cubed.asarray(idx, spec, iChunks);
            results.add(
                    nd == 1 && given == -1 ? Indexing.takeAlongAxis(xa, ia) : Indexing.takeAlongAxis(xa, ia, given));
            NumpyFiles.write(x, dir.resolve("x_" + t + ".bin"));
            NumpyFiles.write(idx, dir.resolve("i_" + t + ".bin"));
            manifest.append(String.join(
                            " ",
                            NumpyFiles.numpyType(dtype),
                            csv(xShape),
                            NumpyFiles.numpyType(itype),
                            csv(iShape),
                            Integer.toString(axis)))
                    .append('\n');
        }
        Files.writeString(dir.resolve("cases.txt"), manifest);
        List<Chunk> actual = Cubed.compute(results);
        NumpyFiles.run(dir, SCRIPT);
        List<String> failures = new ArrayList<>();
        for (int t = 0; t < results.size(); t++) {
            byte[] expected = Files.readAllBytes(dir.resolve("out_" + t + ".bin"));
            String[] shape =
                    Files.readString(dir.resolve("shape_" + t + ".txt")).trim().split(",");
            long[] expectedShape = Arrays.stream(shape)
                    .filter(s -> !s.isEmpty())
                    .mapToLong(Long::parseLong)
                    .toArray();
            if (!Arrays.equals(results.get(t).shape(), expectedShape)) {
                failures.add("case " + t + ": shape "
                        + Arrays.toString(results.get(t).shape()) + ", numpy " + Arrays.toString(expectedShape));
            } else if (!Arrays.equals(NumpyFiles.bytes(actual.get(t)), expected)) {
                failures.add("case " + t + ": values differ (" + manifestLine(t) + ")");
            }
        }
        assertThat(failures).isEmpty();
    }

    private String manifestLine(int t) throws java.io.IOException {
        return Files.readAllLines(dir.resolve("cases.txt")).get(t);
    }

    private static String csv(int[] shape) {
        return Arrays.toString(shape).replaceAll("[\\[\\] ]", "");
    }

    private static final String SCRIPT =
            """
            import os, sys
            import numpy as np

            d = sys.argv[1]
            with open(os.path.join(d, "cases.txt")) as f:
                lines = [l.split() for l in f.read().splitlines() if l]
            for t, (xt, xs, it, ish, axis) in enumerate(lines):
                x = np.fromfile(os.path.join(d, "x_%d.bin" % t), dtype=xt).reshape(tuple(int(s) for s in xs.split(",")))
                i = np.fromfile(os.path.join(d, "i_%d.bin" % t), dtype=it).reshape(tuple(int(s) for s in ish.split(",")))
                r = np.take_along_axis(x, i.astype(np.int64), axis=int(axis))
                np.ascontiguousarray(r).tofile(os.path.join(d, "out_%d.bin" % t))
                with open(os.path.join(d, "shape_%d.txt" % t), "w") as f:
                    f.write(",".join(str(s) for s in r.shape))
            """;

    @Test
    void theIndicesOfArgsortTakeTheSortedValues() {
        Spec spec = spec(50_000_000);
        Random r = new Random(3);
        Chunk data = SortingTest.random(DType.FLOAT64, new int[] {5, 23}, r);
        CubedArray x = Cubed.asarray(data, spec, 2, 4);
        for (int axis : new int[] {0, 1}) {
            for (boolean descending : new boolean[] {false, true}) {
                SortOptions o = SortOptions.axis(axis).descending(descending);
                Chunk taken =
                        Indexing.takeAlongAxis(x, Sorting.argsort(x, o), axis).compute();
                Chunk sorted = Sorting.sort(x, o).compute();
                assertThat(NumpyFiles.bytes(taken)).isEqualTo(NumpyFiles.bytes(sorted));
            }
        }
    }

    @Test
    void aTaskReadsOnlyTheChunksItsIndicesPointInto() {
        Spec spec = spec(50_000_000);
        double[] v = new double[40];
        for (int i = 0; i < v.length; i++) {
            v[i] = 10 * i;
        }
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {40}, v), spec, 4); // 10 chunks
        CubedArray idx = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {4}, new long[] {5, -33, 4, 6}), spec, 4);
        CubedArray y = Indexing.takeAlongAxis(x, idx, 0);
        AtomicLong read = new AtomicLong();
        Callback bytes = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                read.addAndGet(event.result().bytesRead());
            }
        };
        assertThat(y.compute(bytes).doubles()).containsExactly(50, 70, 40, 60);
        // The chunk of 4 indices (32 bytes) and chunk 1 of x (elements 4..7, 32 bytes); the 9 others are not read.
        assertThat(read.get()).isEqualTo(32 + 32);
    }

    @Test
    void projectedMemoryHoldsOneChunkOfEachInput() {
        Spec spec = spec(50_000_000);
        CubedArray x = Creation.ones(new long[] {6, 40}, new int[] {3, 8}, DType.FLOAT64, spec);
        CubedArray idx = Creation.zeros(new long[] {6, 10}, new int[] {3, 5}, DType.INT32, spec);
        CubedArray y = Indexing.takeAlongAxis(x, idx, 1);
        assertThat(y.shape()).containsExactly(6, 10);
        assertThat(y.chunkShape()).containsExactly(3, 5);
        Computation c = Computation.prepare(spec, List.of(y.node()), Map.of());
        // Virtual inputs (no read copy): indices 15 · 4 bytes, x 24 · 8 bytes; extra 12 bytes · 15 output elements and
        // 4 bytes · (5 chunks of x along the axis + 1); output 15 · 8 bytes · (1 + 1).
        long expected = 60 + 192 + 12 * 15 + 4 * 6 + 120 * 2;
        assertThat(c.projectedMemBytes().get(y.node().op())).isEqualTo(expected);
        Spec tight = spec(expected - 1);
        CubedArray xt = Creation.ones(new long[] {6, 40}, new int[] {3, 8}, DType.FLOAT64, tight);
        CubedArray it = Creation.zeros(new long[] {6, 10}, new int[] {3, 5}, DType.INT32, tight);
        assertThatThrownBy(() -> Indexing.takeAlongAxis(xt, it, 1).compute())
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("take_along_axis");
    }

    @Test
    void anIndexOutOfRangeFailsTheComputationNamingIt() {
        Spec spec = spec(50_000_000);
        long[] tens = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {2, 5}, tens), spec, 1, 3);
        long[][] bad = {{0, 5}, {-6, 1}};
        for (long[] values : bad) {
            CubedArray idx = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {1, 2}, values), spec, 1, 1);
            long wrong = values[0] == 0 ? 5 : -6;
            assertThatThrownBy(() -> Indexing.takeAlongAxis(x, idx, 1).compute())
                    .isInstanceOf(TaskFailedException.class)
                    .hasMessageContaining("take_along_axis: index " + wrong + " in " + idx.name())
                    .hasMessageContaining("out of bounds for axis 1 of " + x.name() + " (length 5)");
        }
        CubedArray huge = Cubed.asarray(Chunk.wrap(DType.UINT64, new int[] {1, 1}, new long[] {-1L}), spec, 1, 1);
        assertThatThrownBy(() -> Indexing.takeAlongAxis(x, huge).compute())
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("index 18446744073709551615 in " + huge.name());
        CubedArray ok = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {1, 2}, new long[] {-5, 4}), spec, 1, 1);
        assertThat(Indexing.takeAlongAxis(x, ok).compute().longs()).containsExactly(0, 4, 5, 9);
    }

    @Test
    void badArgumentsAreRefusedAtTheCall() {
        Spec spec = spec(50_000_000);
        CubedArray x = Creation.ones(new long[] {4, 5}, new int[] {2, 2}, DType.FLOAT64, spec);
        CubedArray floats = Creation.zeros(new long[] {4, 2}, new int[] {2, 2}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> Indexing.takeAlongAxis(x, floats))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("take_along_axis: the indices " + floats.name())
                .hasMessageContaining("integer data type");
        CubedArray flat = Creation.zeros(new long[] {4}, new int[] {2}, DType.INT64, spec);
        assertThatThrownBy(() -> Indexing.takeAlongAxis(x, flat))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("same rank");
        CubedArray wide = Creation.zeros(new long[] {3, 2}, new int[] {2, 2}, DType.INT64, spec);
        assertThatThrownBy(() -> Indexing.takeAlongAxis(x, wide, 1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cannot be broadcast together on axis 0");
        CubedArray idx = Creation.zeros(new long[] {4, 2}, new int[] {2, 2}, DType.INT64, spec);
        assertThatThrownBy(() -> Indexing.takeAlongAxis(x, idx, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("take_along_axis of " + x.name())
                .hasMessageContaining("axis 2 is out of bounds");
        CubedArray noRows = Creation.ones(new long[] {4, 0}, new int[] {2, 1}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> Indexing.takeAlongAxis(noRows, idx, 1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("which has length 0");
        CubedArray none = Creation.zeros(new long[] {4, 0}, new int[] {2, 1}, DType.INT64, spec);
        assertThat(Indexing.takeAlongAxis(x, none, 1).shape()).containsExactly(4, 0);
    }
}
