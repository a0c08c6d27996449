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
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManipulationTest {
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

    /** A float64 array of {@code ref}'s values in chunks {@code chunks}, stored in Zarr (a real store). */
    private CubedArray stored(Ref ref, int... chunks) {
        return Cubed.fromArray(ref.chunk(DType.FLOAT64), spec(), chunks);
    }

    private CubedArray small(Ref ref, DType dtype, int... chunks) {
        return Cubed.asarray(ref.chunk(dtype), spec(), chunks);
    }

    private static void assertValues(CubedArray a, Ref expected) {
        assertThat(a.shape())
                .containsExactly(Arrays.stream(expected.shape).asLongStream().toArray());
        Chunk c = a.compute();
        assertThat(c.toDoubleArray()).containsExactly(expected.data);
    }

    private static int[] ints(long[] l) {
        return Arrays.stream(l).mapToInt(v -> (int) v).toArray();
    }

    @Test
    void broadcastToGivesChunksOfOneOnNewAndStretchedAxes() {
        Ref x = Ref.iota(3, 1);
        CubedArray a = stored(x, 2, 1);
        CubedArray b = Manipulation.broadcastTo(a, 2, 3, 4);
        assertThat(b.chunkShape()).containsExactly(1, 2, 1);
        assertValues(b, Ref.build(new int[] {2, 3, 4}, i -> x.at(i[1], 0)));
        CubedArray c = Manipulation.broadcastTo(a, new long[] {2, 3, 4}, new int[] {-1, 2, 3});
        assertThat(c.chunkShape()).containsExactly(2, 2, 3);
        assertValues(c, Ref.build(new int[] {2, 3, 4}, i -> x.at(i[1], 0)));
        assertThat(Manipulation.broadcastTo(a, 3, 1)).isSameAs(a);
        assertThatThrownBy(() -> Manipulation.broadcastTo(a, 4, 4))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("broadcast_to")
                .hasMessageContaining(a.name())
                .hasMessageContaining("[4, 4]");
        assertThatThrownBy(() -> Manipulation.broadcastTo(a, 3))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("fewer axes");
    }

    @Test
    void broadcastArraysShareShapeAndChunks() {
        Ref x = Ref.iota(5, 1);
        Ref y = Ref.iotaFrom(100, 4);
        CubedArray a = stored(x, 2, 1);
        CubedArray b = small(y, DType.FLOAT64, 3);
        List<CubedArray> r = Manipulation.broadcastArrays(a, b);
        assertThat(r.get(0).chunkShape()).containsExactly(2, 3);
        assertThat(r.get(1).chunkShape()).containsExactly(2, 3);
        assertValues(r.get(0), Ref.build(new int[] {5, 4}, i -> x.at(i[0], 0)));
        assertValues(r.get(1), Ref.build(new int[] {5, 4}, i -> y.at(i[1])));
        CubedArray c = small(Ref.iota(5), DType.FLOAT64, 2);
        assertThatThrownBy(() -> Manipulation.broadcastArrays(b, c))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("broadcast_arrays")
                .hasMessageContaining(b.name())
                .hasMessageContaining(c.name());
    }

    @Test
    void concatReadsOverlappingChunksAndPromotes() {
        Ref x = Ref.iota(5, 3);
        Ref y = Ref.iotaFrom(100, 4, 3);
        CubedArray a = stored(x, 2, 2);
        CubedArray b = small(y, DType.FLOAT32, 3, 3);
        CubedArray r = Manipulation.concat(List.of(a, b), 0);
        assertThat(r.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(r.chunkShape()).containsExactly(3, 2);
        assertValues(r, Ref.build(new int[] {9, 3}, i -> i[0] < 5 ? x.at(i) : y.at(i[0] - 5, i[1])));

        Ref z = Ref.iotaFrom(50, 5, 2);
        CubedArray c = small(z, DType.FLOAT64, 4, 1);
        CubedArray s = Manipulation.concat(List.of(a, c, a), -1);
        assertThat(s.shape()).containsExactly(5, 8);
        assertThat(s.chunkShape()).containsExactly(2, 2);
        assertValues(
                s,
                Ref.build(
                        new int[] {5, 8},
                        i -> i[1] < 3 ? x.at(i) : i[1] < 5 ? z.at(i[0], i[1] - 3) : x.at(i[0], i[1] - 5)));

        CubedArray f = Manipulation.concatFlattened(List.of(a, b));
        double[] both = new double[27];
        System.arraycopy(x.data, 0, both, 0, 15);
        System.arraycopy(y.data, 0, both, 15, 12);
        assertValues(f, new Ref(new int[] {27}, both));

        assertThatThrownBy(() -> Manipulation.concat(List.of(a, c), 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("concat")
                .hasMessageContaining(c.name())
                .hasMessageContaining("differ on axis 1");
        assertThatThrownBy(() -> Manipulation.concat(List.of(a, b), 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("concat: axis 2 is out of range for " + a.name());
    }

    @Test
    void stackAndUnstack() {
        Ref x = Ref.iota(4, 5);
        Ref y = Ref.iotaFrom(100, 4, 5);
        CubedArray a = stored(x, 3, 2);
        CubedArray b = small(y, DType.FLOAT64, 2, 2);
        CubedArray s = Manipulation.stack(List.of(a, b, a), 1);
        assertThat(s.shape()).containsExactly(4, 3, 5);
        assertThat(s.chunkShape()).containsExactly(2, 1, 2);
        assertValues(s, Ref.build(new int[] {4, 3, 5}, i -> i[1] == 1 ? y.at(i[0], i[2]) : x.at(i[0], i[2])));
        assertThatThrownBy(() -> Manipulation.stack(List.of(a, small(Ref.iota(5, 4), DType.FLOAT64))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("stack")
                .hasMessageContaining("same shape");

        Ref t = Ref.iota(3, 4, 5);
        CubedArray u = stored(t, 2, 3, 2);
        List<CubedArray> parts = Manipulation.unstack(u, 1);
        assertThat(parts).hasSize(4);
        assertThat(parts.get(0).chunkShape()).containsExactly(2, 2);
        assertThat(parts.get(0).explain()).contains("unstack");
        List<Chunk> all = Cubed.compute(parts);
        for (int k = 0; k < 4; k++) {
            int kk = k;
            assertThat(all.get(k).toDoubleArray())
                    .containsExactly(Ref.build(new int[] {3, 5}, i -> t.at(i[0], kk, i[1])).data);
        }
        assertThat(Manipulation.unstack(u, -1)).hasSize(5);
        assertThatThrownBy(() -> Manipulation.unstack(u, 3))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("unstack: axis 3 is out of range for " + u.name());
    }

    @Test
    void expandDimsAndSqueeze() {
        Ref x = Ref.iota(5, 7);
        CubedArray a = stored(x, 2, 3);
        CubedArray e = Manipulation.expandDims(a, 0, -1);
        assertThat(e.shape()).containsExactly(1, 5, 7, 1);
        assertThat(e.chunkShape()).containsExactly(1, 2, 3, 1);
        assertValues(e, new Ref(new int[] {1, 5, 7, 1}, x.data));
        CubedArray s = Manipulation.squeeze(e, 3);
        assertThat(s.shape()).containsExactly(1, 5, 7);
        assertValues(Manipulation.squeeze(e), x);
        assertThatThrownBy(() -> Manipulation.squeeze(e, 1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("squeeze: axis 1 of " + e.name())
                .hasMessageContaining("length 5");
        assertThatThrownBy(() -> Manipulation.expandDims(a, 3))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("expand_dims: axis 3 is out of range for " + a.name());
    }

    @Test
    void flipAlongSomeOrAllAxes() {
        Ref x = Ref.iota(5, 7);
        CubedArray a = stored(x, 2, 3);
        assertValues(Manipulation.flip(a, 0), Ref.build(new int[] {5, 7}, i -> x.at(4 - i[0], i[1])));
        assertValues(Manipulation.flip(a, -1), Ref.build(new int[] {5, 7}, i -> x.at(i[0], 6 - i[1])));
        CubedArray both = Manipulation.flip(a);
        assertThat(both.chunkShape()).containsExactly(2, 3);
        assertValues(both, Ref.build(new int[] {5, 7}, i -> x.at(4 - i[0], 6 - i[1])));
        assertThatThrownBy(() -> Manipulation.flip(a, 0, -2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("flip: axis -2 is repeated");
    }

    @Test
    void permuteDimsAndMoveaxis() {
        Ref x = Ref.iota(2, 3, 4);
        CubedArray a = stored(x, 1, 2, 3);
        CubedArray p = Manipulation.permuteDims(a, 2, 0, 1);
        assertThat(p.shape()).containsExactly(4, 2, 3);
        assertThat(p.chunkShape()).containsExactly(3, 1, 2);
        assertValues(p, Ref.build(new int[] {4, 2, 3}, i -> x.at(i[1], i[2], i[0])));
        CubedArray m = Manipulation.moveaxis(a, 0, -1);
        assertThat(m.shape()).containsExactly(3, 4, 2);
        assertValues(m, Ref.build(new int[] {3, 4, 2}, i -> x.at(i[2], i[0], i[1])));
        CubedArray m2 = Manipulation.moveaxis(a, new int[] {0, 1}, new int[] {2, 0});
        assertThat(m2.shape()).containsExactly(3, 4, 2);
        assertThat(Manipulation.permuteDims(a, 0, 1, 2)).isSameAs(a);
        assertThatThrownBy(() -> Manipulation.permuteDims(a, 0, 1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("permute_dims")
                .hasMessageContaining(a.name());
        assertThatThrownBy(() -> Manipulation.permuteDims(a, 0, 1, 1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("repeated");
    }

    @Test
    void reshapeSplitsAndMergesInCOrder() {
        Ref x = Ref.iota(6, 5, 4);
        CubedArray a = stored(x, 3, 2, 2);
        CubedArray split = Manipulation.reshape(a, 3, 2, 5, 4);
        assertThat(split.chunkShape()).containsExactly(1, 2, 2, 2);
        assertValues(split, new Ref(new int[] {3, 2, 5, 4}, x.data));
        CubedArray merged = Manipulation.reshape(a, 30, -1);
        assertThat(merged.shape()).containsExactly(30, 4);
        assertThat(merged.chunkShape()).containsExactly(5, 2);
        assertValues(merged, new Ref(new int[] {30, 4}, x.data));
        assertValues(Manipulation.reshape(a, -1), new Ref(new int[] {120}, x.data));
        assertValues(Manipulation.reshape(a, 4, 6, 5), new Ref(new int[] {4, 6, 5}, x.data));
        assertValues(Manipulation.reshape(a, 1, 120, 1), new Ref(new int[] {1, 120, 1}, x.data));
        assertThat(Manipulation.reshape(a, 6, 5, 4)).isSameAs(a);

        Ref y = Ref.iota(24);
        CubedArray b = small(y, DType.FLOAT64, 5);
        CubedArray r = Manipulation.reshape(b, 2, 3, 4);
        assertThat(r.chunkShape()).containsExactly(1, 3, 4);
        assertValues(r, new Ref(new int[] {2, 3, 4}, y.data));

        assertThatThrownBy(() -> Manipulation.reshape(a, 7, -1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("reshape: cannot reshape " + a.name());
        assertThatThrownBy(() -> Manipulation.reshape(a, -1, -1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("more than one -1");
    }

    @Test
    void reshapeOfRandomShapesAndChunkingsKeepsCOrder() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 25; trial++) {
            int[] in = randomShape(rnd);
            int size = Chunk.elementCount(in);
            int[] out = factor(size, rnd);
            int[] chunks = new int[in.length];
            for (int i = 0; i < in.length; i++) {
                chunks[i] = 1 + rnd.nextInt(in[i]);
            }
            Ref x = Ref.iota(in);
            CubedArray a = small(x, DType.FLOAT64, chunks);
            CubedArray r =
                    Manipulation.reshape(a, Arrays.stream(out).asLongStream().toArray());
            assertThat(r.shape())
                    .as("trial %d", trial)
                    .containsExactly(Arrays.stream(out).asLongStream().toArray());
            assertThat(r.compute().toDoubleArray())
                    .as("%s chunks %s -> %s", Arrays.toString(in), Arrays.toString(chunks), Arrays.toString(out))
                    .containsExactly(x.data);
        }
    }

    private static int[] randomShape(Random rnd) {
        int nd = 1 + rnd.nextInt(3);
        int[] s = new int[nd];
        for (int i = 0; i < nd; i++) {
            s[i] = 1 + rnd.nextInt(6);
        }
        return s;
    }

    private static int[] factor(int size, Random rnd) {
        java.util.List<Integer> dims = new java.util.ArrayList<>();
        int rest = size;
        while (rest > 1 && dims.size() < 3) {
            java.util.List<Integer> divisors = new java.util.ArrayList<>();
            for (int d = 1; d <= rest; d++) {
                if (rest % d == 0) {
                    divisors.add(d);
                }
            }
            int d = divisors.get(rnd.nextInt(divisors.size()));
            dims.add(d);
            rest /= d;
        }
        dims.add(rest);
        if (rnd.nextBoolean()) {
            dims.add(rnd.nextInt(dims.size() + 1), 1);
        }
        return dims.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void rollAlongAxesAndFlattened() {
        Ref x = Ref.iota(5, 7);
        CubedArray a = stored(x, 2, 3);
        CubedArray r = Manipulation.roll(a, 2, 1);
        assertThat(r.chunkShape()).containsExactly(2, 3);
        assertValues(r, Ref.build(new int[] {5, 7}, i -> x.at(i[0], Math.floorMod(i[1] - 2, 7))));
        assertValues(
                Manipulation.roll(a, new long[] {-3, 9, 1}, new int[] {0, 1, 1}),
                Ref.build(new int[] {5, 7}, i -> x.at(Math.floorMod(i[0] + 3, 5), Math.floorMod(i[1] - 10, 7))));
        assertValues(Manipulation.roll(a, 4), Ref.build(new int[] {5, 7}, i -> x.data[
                Math.floorMod(i[0] * 7 + i[1] - 4, 35)]));
        assertThat(Manipulation.roll(a, 7, 1)).isSameAs(a);
        assertThatThrownBy(() -> Manipulation.roll(a, new long[] {1}, new int[] {0, 1}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("roll")
                .hasMessageContaining(a.name());
    }

    @Test
    void repeatAndTile() {
        Ref x = Ref.iota(5, 3);
        CubedArray a = stored(x, 2, 2);
        CubedArray r = Manipulation.repeat(a, 3, 0);
        assertThat(r.shape()).containsExactly(15, 3);
        assertThat(r.chunkShape()).containsExactly(2, 2);
        assertValues(r, Ref.build(new int[] {15, 3}, i -> x.at(i[0] / 3, i[1])));
        CubedArray f = Manipulation.repeat(a, 2);
        assertThat(f.shape()).containsExactly(30);
        assertValues(f, Ref.build(new int[] {30}, i -> x.data[i[0] / 2]));
        assertThat(Manipulation.repeat(a, 0, 1).shape()).containsExactly(5, 0);
        assertThatThrownBy(() -> Manipulation.repeat(a, -1, 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("repeat: repeats must not be negative, got -1 for " + a.name());

        CubedArray t = Manipulation.tile(a, 2, 3);
        assertThat(t.shape()).containsExactly(10, 9);
        assertThat(t.chunkShape()).containsExactly(2, 2);
        assertValues(t, Ref.build(new int[] {10, 9}, i -> x.at(i[0] % 5, i[1] % 3)));
        CubedArray t3 = Manipulation.tile(a, 2, 1, 2);
        assertThat(t3.shape()).containsExactly(2, 5, 6);
        assertThat(t3.chunkShape()).containsExactly(1, 2, 2);
        assertValues(t3, Ref.build(new int[] {2, 5, 6}, i -> x.at(i[1], i[2] % 3)));
        assertValues(Manipulation.tile(a, 2), Ref.build(new int[] {5, 6}, i -> x.at(i[0], i[1] % 3)));
    }

    /** The input index numpy's symmetric padding reads for padded position {@code j}, by walking and bouncing. */
    private static int symmetricIndex(int j, int before, int n) {
        int k = j - before;
        if (k >= 0 && k < n) {
            return k;
        }
        int steps = k < 0 ? -k : k - n + 1;
        int pos = k < 0 ? 0 : n - 1;
        int dir = k < 0 ? 1 : -1;
        for (int s = 1; s < steps; s++) {
            pos += dir;
            if (pos == n) {
                pos = n - 1;
                dir = -1;
            } else if (pos == -1) {
                pos = 0;
                dir = 1;
            }
        }
        return pos;
    }

    @Test
    void padConstantAndSymmetric() {
        Ref x = Ref.iota(5, 4);
        CubedArray a = small(x, DType.INT32, 2, 3);
        CubedArray c = Manipulation.pad(a, new long[][] {{1, 2}, {3, 0}}, PadMode.CONSTANT, Scalar.ofLong(-7));
        assertThat(c.shape()).containsExactly(8, 7);
        assertThat(c.chunkShape()).containsExactly(2, 3);
        assertThat(c.dtype()).isEqualTo(DType.INT32);
        assertValues(c, Ref.build(new int[] {8, 7}, i -> {
            int r = i[0] - 1;
            int k = i[1] - 3;
            return r >= 0 && r < 5 && k >= 0 && k < 4 ? x.at(r, k) : -7.0;
        }));
        CubedArray s = Manipulation.pad(stored(x, 2, 3), new long[][] {{7, 6}, {2, 1}}, PadMode.SYMMETRIC, null);
        assertThat(s.shape()).containsExactly(18, 7);
        assertValues(
                s, Ref.build(new int[] {18, 7}, i -> x.at(symmetricIndex(i[0], 7, 5), symmetricIndex(i[1], 2, 4))));
        CubedArray all = Manipulation.pad(a, new long[][] {{1, 1}}, PadMode.CONSTANT, null, new int[] {4, 4});
        assertThat(all.shape()).containsExactly(7, 6);
        assertThat(all.chunkShape()).containsExactly(4, 4);
        assertThatThrownBy(() -> Manipulation.pad(a, new long[][] {{1, 1}}, PadMode.CONSTANT, Scalar.ofDouble(0.5)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("pad: constant value 0.5")
                .hasMessageContaining(a.name());
        assertThatThrownBy(() -> Manipulation.pad(a, new long[][] {{1, 1}, {1}, {2, 2}}, PadMode.SYMMETRIC, null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("pad: pad width has 3 entries for " + a.name());
        assertThatThrownBy(() -> Manipulation.pad(a, new long[][] {{1, -1}}, PadMode.SYMMETRIC, null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("non-negative");
    }

    @Test
    void gatherTasksHoldOneInputChunkAtATime() {
        CubedArray a = stored(Ref.iota(6, 6), 2, 2);
        CubedArray t = Manipulation.tile(a, 3, 3);
        // One task reads several chunks of a, but the memory projection counts one input chunk (32 bytes with its
        // read copy), the output chunk and the index lists, not every chunk it reads.
        assertThat(t.node().op().chunksHeld(0)).isEqualTo(1);
        assertThat(t.node().op().extraMemBytes()).isLessThan(1000);
        assertValues(t, Ref.build(new int[] {18, 18}, i -> (double) ((i[0] % 6) * 6 + i[1] % 6)));
        assertThat(ints(t.shape())).containsExactly(18, 18);
    }
}
