package io.cubed.array;

import static io.cubed.array.Index.all;
import static io.cubed.array.Index.at;
import static io.cubed.array.Index.newAxis;
import static io.cubed.array.Index.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output chunks of stepped slices, as Cubed's {@code index} gives them ({@code cubed/core/indexing.py}): a slice of
 * step {@code s} on an axis of chunk length {@code c} first selects chunks of {@code max(c // |s|, 1)} elements, then
 * {@code merge_chunks} joins them into chunks of {@code (c // |s|) · |s|} elements, or {@code c} when {@code |s| > c};
 * a negative step is the positive slice flipped, and {@code flip} keeps the chunks; {@code normalize_chunks} clips a
 * chunk to the output's length (at least 1); an empty result keeps the input's chunk lengths. Every expected chunk
 * below is worked out by hand from that rule (the working is in the comment of each row), and every value is checked
 * against a plain loop over the source array.
 */
class IndexSteppedChunksTest {
    @TempDir
    Path tmp;

    /** One case: the array's shape and chunks, the key, and the result's shape and chunks worked out by hand. */
    record Row(long[] shape, int[] chunks, Index[] key, long[] expectedShape, int[] expectedChunks) {
        @Override
        public String toString() {
            return Arrays.toString(shape) + " chunks " + Arrays.toString(chunks) + " key " + Arrays.toString(key);
        }
    }

    private static Row row(long[] shape, int[] chunks, Index[] key, long[] expectedShape, int[] expectedChunks) {
        return new Row(shape, chunks, key, expectedShape, expectedChunks);
    }

    private static long[] s(long... v) {
        return v;
    }

    private static int[] c(int... v) {
        return v;
    }

    private static Index[] k(Index... v) {
        return v;
    }

    static final List<Row> ROWS = List.of(
            // c=4, s=2: 4 // 2 = 2 per chunk, merged to 2·2 = 4; 3, 5, ..., 13 is 6 elements.
            row(s(20), c(4), k(slice(3L, 14L, 2)), s(6), c(4)),
            // c=10, s=9: 10 // 9 = 1, merged to 9; 0, 9, ..., 99 is 12 elements (Cubed: chunks (9, 3)).
            row(s(100), c(10), k(slice(null, null, 9)), s(12), c(9)),
            // c=10, s=3: 10 // 3 = 3, merged to 9; 34 elements.
            row(s(100), c(10), k(slice(null, null, 3)), s(34), c(9)),
            // c=10, s=10: 1 per chunk, merged to 10; 10 elements.
            row(s(100), c(10), k(slice(null, null, 10)), s(10), c(10)),
            // c=10, s=11 > c: chunks of 1, merged back to c = 10; 0, 11, ..., 99 is 10 elements.
            row(s(100), c(10), k(slice(null, null, 11)), s(10), c(10)),
            // c=10, s=25 > c: c = 10, clipped to the 4 elements 0, 25, 50, 75.
            row(s(100), c(10), k(slice(null, null, 25)), s(4), c(4)),
            // c=10, s=4: 10 // 4 = 2, merged to 8; 5, 9, ..., 93 is ceil(90 / 4) = 23 elements.
            row(s(100), c(10), k(slice(5L, 95L, 4)), s(23), c(8)),
            // s=-1: |s| = 1 keeps c = 10.
            row(s(100), c(10), k(slice(null, null, -1)), s(100), c(10)),
            // s=-3: as s=3, 9; 99, 96, ..., 0 is 34 elements.
            row(s(100), c(10), k(slice(null, null, -3)), s(34), c(9)),
            // s=-7: 10 // 7 = 1, merged to 7; 90, 83, ..., 6 is ceil(85 / 7) = 13 elements.
            row(s(100), c(10), k(slice(90L, 5L, -7)), s(13), c(7)),
            // s=-12 > c: c = 10; -1 is 99: 99, 87, ..., 3 is 9 elements.
            row(s(100), c(10), k(slice(-1L, null, -12)), s(9), c(9)),
            // c=7, s=2: 7 // 2 = 3, merged to 6; 50 elements.
            row(s(100), c(7), k(slice(null, null, 2)), s(50), c(6)),
            // c=7, s=-2 from 1: the elements 1 only; 6 clipped to 1.
            row(s(100), c(7), k(slice(1L, null, -2)), s(1), c(1)),
            // c=3, s=2: 3 // 2 = 1, merged to 2; 0, 2, ..., 8 is 5 elements.
            row(s(10), c(3), k(slice(null, null, 2)), s(5), c(2)),
            // c=1, s=3 > c: c = 1; 0, 3, 6, 9.
            row(s(10), c(1), k(slice(null, null, 3)), s(4), c(1)),
            // c=64, s=5: 64 // 5 = 12, merged to 60; 200 elements.
            row(s(1000), c(64), k(slice(null, null, 5)), s(200), c(60)),
            // c=64, s=-5 from -3 (997) to 10: 997, 992, ..., 12 is ceil(987 / 5) = 198 elements; 60.
            row(s(1000), c(64), k(slice(-3L, 10L, -5)), s(198), c(60)),
            // Two axes: c=7, s=2 gives 6 (15 elements); c=9, s=-4 gives 9 // 4 · 4 = 8 (39, 35, ..., 3: 10 elements).
            row(s(30, 40), c(7, 9), k(slice(null, null, 2), slice(null, null, -4)), s(15, 10), c(6, 8)),
            // An integer drops axis 0; a new axis is (1); c=6, s=5 gives 5 (0, 5, ..., 35: 8 elements); c=4, s=3
            // gives 3 (0, 3, 6).
            row(
                    s(12, 40, 9),
                    c(5, 6, 4),
                    k(at(3), newAxis(), slice(null, null, 5), slice(null, null, 3)),
                    s(1, 8, 3),
                    c(1, 5, 3)),
            // An axis of length 1 keeps its one element; c=4, s=2 gives 4 (5 elements).
            row(s(1, 10), c(1, 4), k(slice(null, null, 2), slice(null, null, 2)), s(1, 5), c(1, 4)),
            // Steps on one axis, a whole other axis: c=8, s=3 gives 6 (0, 3, ..., 18: 7 elements); axis 1 keeps 5.
            row(s(20, 12), c(8, 5), k(slice(null, null, 3), all()), s(7, 12), c(6, 5)),
            // Empty results keep the input's chunk lengths (Cubed's empty()), not the stepped ones: axis 0 keeps 10
            // (not 9), axis 1 has no element (chunk 1).
            row(s(100, 10), c(10, 5), k(slice(null, null, 3), slice(5L, 5L)), s(34, 0), c(10, 1)),
            row(s(100), c(10), k(slice(5L, 5L, 3)), s(0), c(1)));

    @Test
    void steppedSlicesGetCubedsChunksAndTheRightValues() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
        for (Row r : ROWS) {
            int n = 1;
            for (long len : r.shape()) {
                n *= (int) len;
            }
            Chunk data = Chunk.allocate(
                    DType.INT64, Arrays.stream(r.shape()).mapToInt(v -> (int) v).toArray());
            for (int i = 0; i < n; i++) {
                data.longs()[i] = 1000 + i; // element value = 1000 + its C-order position
            }
            CubedArray x = Cubed.asarray(data, spec, r.chunks());
            CubedArray y = x.get(r.key());
            assertThat(y.shape()).as("shape of %s", r).containsExactly(r.expectedShape());
            assertThat(y.chunkShape()).as("chunks of %s", r).containsExactly(r.expectedChunks());

            long[] expected = expectedValues(r.shape(), r.key());
            assertThat(y.compute().toLongArray()).as("values of %s", r).containsExactly(expected);
        }
    }

    @Test
    void steppedChunkLengthRule() {
        // c, |s| -> chunk before clipping, by hand.
        long[][] table = {
            {10, 1, 10},
            {10, 2, 10},
            {10, 3, 9},
            {10, 4, 8},
            {10, 5, 10},
            {10, 6, 6},
            {10, 9, 9},
            {10, 10, 10},
            {10, 11, 10},
            {10, 1000, 10},
            {1, 2, 1},
            {7, 3, 6},
            {64, 5, 60},
            {64, 7, 63},
            {64, 65, 64}
        };
        for (long[] t : table) {
            assertThat(Indexing.steppedChunkLength((int) t[0], t[1]))
                    .as("c=%d step=%d", t[0], t[1])
                    .isEqualTo(t[2]);
        }
    }

    /**
     * The selected values by brute force: per axis the positions Python's slice visits (walked one step at a time from
     * its normalized start), then every combination in C order, read from the source's C-order values.
     */
    private static long[] expectedValues(long[] shape, Index[] key) {
        List<long[]> perAxis = new ArrayList<>();
        int axis = 0;
        for (Index item : key) {
            if (item instanceof Index.NewAxis) {
                continue;
            }
            long n = shape[axis];
            if (item instanceof Index.At at) {
                perAxis.add(new long[] {at.index() < 0 ? at.index() + n : at.index()});
            } else {
                perAxis.add(walk((Index.Slice) item, n));
            }
            axis++;
        }
        for (; axis < shape.length; axis++) {
            perAxis.add(walk((Index.Slice) all(), shape[axis]));
        }
        long total = 1;
        for (long[] p : perAxis) {
            total *= p.length;
        }
        long[] out = new long[(int) total];
        int[] idx = new int[shape.length];
        for (int o = 0; o < total; o++) {
            long flat = 0;
            for (int a = 0; a < shape.length; a++) {
                flat = flat * shape[a] + perAxis.get(a)[idx[a]];
            }
            out[o] = 1000 + flat;
            for (int a = shape.length - 1; a >= 0; a--) {
                if (++idx[a] < perAxis.get(a).length) {
                    break;
                }
                idx[a] = 0;
            }
        }
        return out;
    }

    /** The positions {@code start:stop:step} visits on an axis of {@code n}, stepping from the normalized start. */
    private static long[] walk(Index.Slice s, long n) {
        long step = s.step();
        List<Long> out = new ArrayList<>();
        if (step > 0) {
            long start = s.start() == null ? 0 : s.start() < 0 ? Math.max(0, s.start() + n) : Math.min(s.start(), n);
            long stop = s.stop() == null ? n : s.stop() < 0 ? Math.max(0, s.stop() + n) : Math.min(s.stop(), n);
            for (long i = start; i < stop; i += step) {
                out.add(i);
            }
        } else {
            long start = s.start() == null
                    ? n - 1
                    : s.start() < 0 ? Math.max(-1, s.start() + n) : Math.min(s.start(), n - 1);
            long stop = s.stop() == null ? -1 : s.stop() < 0 ? Math.max(-1, s.stop() + n) : Math.min(s.stop(), n - 1);
            for (long i = start; i > stop; i += step) {
                out.add(i);
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
