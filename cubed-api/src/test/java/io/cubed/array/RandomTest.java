package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.math.BigInteger;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RandomTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** Vigna's SplitMix64, written out sequentially: the reference stream. */
    private static final class SplitMix64 {
        private long state;

        SplitMix64(long seed) {
            this.state = seed;
        }

        long next() {
            long z = (state += 0x9e3779b97f4a7c15L);
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }
    }

    private static long key(long seed, long stream) {
        return new SplitMix64((seed ^ stream) - 0x9e3779b97f4a7c15L).next();
    }

    @Test
    void uniformIsOneSplitMixSequenceInCOrderWhateverTheChunks() {
        Spec spec = spec();
        CubedArray a = Cubed.random(new long[] {7, 9}, new int[] {3, 4}, 42, spec);
        CubedArray b = Creation.random(new long[] {7, 9}, new int[] {7, 2}, 42, spec);
        assertThat(a.dtype()).isEqualTo(DType.FLOAT64);
        double[] x = a.compute().toDoubleArray();
        assertThat(b.compute().toDoubleArray()).containsExactly(x);
        assertThat(a.compute().toDoubleArray()).containsExactly(x);
        SplitMix64 ref = new SplitMix64(key(42, 0x5555555555555555L));
        for (double v : x) {
            assertThat(v).isEqualTo((ref.next() >>> 11) * 0x1.0p-53);
        }
        assertThat(Creation.random(new long[] {7, 9}, new int[] {3, 4}, 43, spec)
                        .compute()
                        .toDoubleArray())
                .isNotEqualTo(x);
        Chunk f = Creation.random(new long[] {5}, new int[] {2}, DType.FLOAT32, 1, spec)
                .compute();
        assertThat(f.dtype()).isEqualTo(DType.FLOAT32);
    }

    @Test
    void randomArraysSerializeWithTheirKey() throws Exception {
        io.cubed.storage.RandomArray r = io.cubed.storage.RandomArray.uniform(
                io.cubed.grid.ChunkGrid.of(new long[] {10}, new int[] {4}), DType.FLOAT64, 5);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(r);
        }
        Object copy;
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            copy = in.readObject();
        }
        assertThat(((io.cubed.storage.RandomArray) copy).readChunk(2).contentEquals(r.readChunk(2)))
                .isTrue();
    }

    @Test
    void uniformLooksUniform() {
        double[] x = Creation.random(new long[] {200, 500}, new int[] {64, 100}, 7, spec())
                .compute()
                .toDoubleArray();
        double sum = 0;
        double sq = 0;
        int[] buckets = new int[10];
        for (double v : x) {
            assertThat(v).isGreaterThanOrEqualTo(0).isLessThan(1);
            sum += v;
            sq += v * v;
            buckets[(int) (v * 10)]++;
        }
        double mean = sum / x.length;
        assertThat(mean).isCloseTo(0.5, within(0.005));
        assertThat(sq / x.length - mean * mean).isCloseTo(1.0 / 12, within(0.003));
        double chi2 = 0;
        for (int b : buckets) {
            chi2 += Math.pow(b - x.length / 10.0, 2) / (x.length / 10.0);
        }
        assertThat(chi2).isLessThan(30); // 9 degrees of freedom: p < 0.001 above 27.9
    }

    @Test
    void integersAreUnbiasedInRangeAndIndependentOfChunks() {
        Spec spec = spec();
        CubedArray a = Cubed.randomIntegers(new long[] {100, 60}, new int[] {33, 7}, -3, 4, DType.INT8, 9, spec);
        CubedArray b = Creation.randomIntegers(new long[] {100, 60}, new int[] {100, 60}, -3, 4, DType.INT8, 9, spec);
        long[] x = a.compute().toLongArray();
        assertThat(b.compute().toLongArray()).containsExactly(x);
        int[] counts = new int[7];
        SplitMix64 ref = new SplitMix64(key(9, 0x3333333333333333L));
        BigInteger two64 = BigInteger.ONE.shiftLeft(64);
        for (long v : x) {
            assertThat(v).isBetween(-3L, 3L);
            counts[(int) v + 3]++;
            // Lemire: the high 64 bits of r·7 (no rejection is possible to observe at this range in 6000 draws).
            BigInteger r = new BigInteger(Long.toUnsignedString(ref.next()));
            assertThat(v)
                    .isEqualTo(
                            -3 + r.multiply(BigInteger.valueOf(7)).divide(two64).longValue());
        }
        for (int c : counts) {
            assertThat(c).isBetween(700, 1015);
        }
        long[] wide = Creation.randomIntegers(
                        new long[] {1000}, new int[] {128}, Long.MIN_VALUE, Long.MAX_VALUE, DType.INT64, 1, spec)
                .compute()
                .toLongArray();
        assertThat(java.util.Arrays.stream(wide).anyMatch(v -> v < 0)).isTrue();
        assertThat(java.util.Arrays.stream(wide).anyMatch(v -> v > 0)).isTrue();
        assertThatThrownBy(() -> Creation.randomIntegers(new long[] {3}, new int[] {1}, 0, 300, DType.UINT8, 1, spec))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("[0, 300) does not fit uint8");
        assertThatThrownBy(() -> Creation.randomIntegers(new long[] {3}, new int[] {1}, 5, 5, DType.INT32, 1, spec))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("low 5 must be below high 5");
        assertThatThrownBy(() -> Creation.random(new long[] {3}, new int[] {1}, DType.INT32, 1, spec))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("float32 or float64");
    }
}
