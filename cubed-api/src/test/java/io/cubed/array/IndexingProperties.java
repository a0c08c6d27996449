package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random keys (integers, slices with any bounds and steps, new axes, an ellipsis, one integer array) on random small
 * arrays and chunkings give exactly the elements a brute-force NumPy-semantics loop over the plain Java array gives.
 */
class IndexingProperties {
    private static Path dir;

    @BeforeContainer
    static void createDir() throws IOException {
        dir = Files.createTempDirectory("indexing-properties");
    }

    @AfterContainer
    static void deleteDir() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The positions a slice selects on an axis of length n, enumerated the way Python defines them. */
    static List<Long> pythonSlice(Long start, Long stop, long step, long n) {
        List<Long> out = new ArrayList<>();
        if (step > 0) {
            long s = start == null ? 0 : (start < 0 ? Math.max(0, start + n) : Math.min(start, n));
            long e = stop == null ? n : (stop < 0 ? Math.max(0, stop + n) : Math.min(stop, n));
            for (long i = s; i < e; i += step) {
                out.add(i);
            }
        } else {
            long s = start == null ? n - 1 : (start < 0 ? Math.max(-1, start + n) : Math.min(start, n - 1));
            long e = stop == null ? -1 : (stop < 0 ? Math.max(-1, stop + n) : Math.min(stop, n - 1));
            for (long i = s; i > e; i += step) {
                out.add(i);
            }
        }
        return out;
    }

    @Property(tries = 300)
    void randomKeysMatchBruteForce(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int seed) {
        Random r = new Random(seed);
        int nd = 1 + r.nextInt(3);
        int[] shape = new int[nd];
        int[] chunks = new int[nd];
        int size = 1;
        for (int a = 0; a < nd; a++) {
            shape[a] = r.nextInt(8);
            chunks[a] = 1 + r.nextInt(5);
            size *= shape[a];
        }
        Chunk data = Chunk.allocate(DType.INT32, shape);
        for (int i = 0; i < size; i++) {
            data.ints()[i] = i * 7 + 1;
        }
        // Per input axis: the selected positions and whether the axis stays.
        List<Index> key = new ArrayList<>();
        List<long[]> picks = new ArrayList<>();
        boolean[] keeps = new boolean[nd];
        boolean takeUsed = false;
        for (int a = 0; a < nd; a++) {
            int kind = r.nextInt(4);
            if (kind == 0 && shape[a] > 0) {
                long i = r.nextInt(shape[a]) - (r.nextBoolean() ? shape[a] : 0);
                key.add(Index.at(i));
                picks.add(new long[] {i < 0 ? i + shape[a] : i});
            } else if (kind == 1 && !takeUsed && shape[a] > 0) {
                takeUsed = true;
                long[] idx = new long[r.nextInt(6)];
                long[] norm = new long[idx.length];
                for (int k = 0; k < idx.length; k++) {
                    idx[k] = r.nextInt(shape[a]) - (r.nextBoolean() ? shape[a] : 0);
                    norm[k] = idx[k] < 0 ? idx[k] + shape[a] : idx[k];
                }
                key.add(Index.take(idx));
                picks.add(norm);
                keeps[a] = true;
            } else {
                Long start = r.nextInt(3) == 0 ? null : (long) (r.nextInt(21) - 10);
                Long stop = r.nextInt(3) == 0 ? null : (long) (r.nextInt(21) - 10);
                long step = (1 + r.nextInt(4)) * (r.nextBoolean() ? 1 : -1);
                key.add(Index.slice(start, stop, step));
                picks.add(pythonSlice(start, stop, step, shape[a]).stream()
                        .mapToLong(Long::longValue)
                        .toArray());
                keeps[a] = true;
            }
        }
        // Expected values and shape (new axes do not change the C-order list of values).
        List<Long> expectedShape = new ArrayList<>();
        for (int a = 0; a < nd; a++) {
            if (keeps[a]) {
                expectedShape.add((long) picks.get(a).length);
            }
        }
        List<Integer> expected = new ArrayList<>();
        collect(data, shape, picks, 0, 0, expected);
        // Randomly insert a new axis and replace a trailing run of whole slices by an ellipsis.
        if (r.nextBoolean()) {
            int pos = r.nextInt(key.size() + 1);
            key.add(pos, Index.newAxis());
            int outPos = 0;
            for (int k = 0; k < pos; k++) {
                if (!(key.get(k) instanceof Index.At)) {
                    outPos++;
                }
            }
            expectedShape.add(outPos, 1L);
        }
        if (r.nextBoolean()) {
            key.add(r.nextInt(key.size() + 1), Index.ellipsis());
        }

        Spec spec = Spec.builder()
                .workDir(dir.resolve("w" + seed).toString())
                .executor(new LocalExecutor(1, 1, 0))
                .build();
        CubedArray x = Cubed.asarray(data, spec, chunks);
        CubedArray y = x.get(key.toArray(new Index[0]));
        String what = Arrays.toString(shape) + " chunks " + Arrays.toString(chunks) + " key " + key;
        assertThat(y.shape())
                .as(what)
                .containsExactly(
                        expectedShape.stream().mapToLong(Long::longValue).toArray());
        int[] got = y.compute().ints();
        assertThat(got)
                .as(what)
                .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
    }

    private static void collect(Chunk data, int[] shape, List<long[]> picks, int axis, int offset, List<Integer> out) {
        if (axis == shape.length) {
            out.add(data.ints()[offset]);
            return;
        }
        int stride = 1;
        for (int a = axis + 1; a < shape.length; a++) {
            stride *= shape[a];
        }
        for (long p : picks.get(axis)) {
            collect(data, shape, picks, axis + 1, offset + (int) p * stride, out);
        }
    }
}
