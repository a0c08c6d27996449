package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cubed.dtype.DType;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A thread reuses the layout of its last pair of chunks while the letters and shapes stay the same: pairs one after
 * another on one thread whose shapes, letters or output order change (each of which a reused layout would get wrong)
 * against einsum written as a loop over every assignment of the letters.
 */
class ContractionLayoutTest {
    private static final SplittableRandom RANDOM = new SplittableRandom(43);

    private static Chunk random(int... shape) {
        double[] d = new double[Chunk.elementCount(shape)];
        for (int i = 0; i < d.length; i++) {
            d[i] = RANDOM.nextDouble(-1, 1);
        }
        return Chunk.wrap(DType.FLOAT64, shape, d);
    }

    /** Einsum by the definition: every assignment of the letters, the product added at the output's element. */
    private static double[] reference(Chunk a, String ia, Chunk b, String ib, String out) {
        Map<Character, Integer> length = new HashMap<>();
        for (int i = 0; i < ia.length(); i++) {
            length.put(ia.charAt(i), a.shape(i));
        }
        for (int i = 0; i < ib.length(); i++) {
            length.merge(ib.charAt(i), b.shape(i), Math::max); // a batch of length 1 broadcasts
        }
        char[] letters = new char[length.size()];
        int n = 0;
        for (char c : length.keySet()) {
            letters[n++] = c;
        }
        int outSize = 1;
        for (char c : out.toCharArray()) {
            outSize *= length.get(c);
        }
        double[] r = new double[outSize];
        int[] at = new int[letters.length];
        while (true) {
            Map<Character, Integer> v = new HashMap<>();
            for (int l = 0; l < letters.length; l++) {
                v.put(letters[l], at[l]);
            }
            r[flat(out, v, length, null)] += a.doubles()[flat(ia, v, length, a)] * b.doubles()[flat(ib, v, length, b)];
            int l = letters.length - 1;
            while (l >= 0 && ++at[l] == length.get(letters[l])) {
                at[l--] = 0;
            }
            if (l < 0) {
                return r;
            }
        }
    }

    /** The flat index in {@code x} (the output where null) of the letters' values; x's axes of length 1 broadcast. */
    private static int flat(String letters, Map<Character, Integer> v, Map<Character, Integer> length, Chunk x) {
        int f = 0;
        for (int i = 0; i < letters.length(); i++) {
            char c = letters.charAt(i);
            int len = x == null ? length.get(c) : x.shape(i);
            f = f * len + (len == 1 ? 0 : v.get(c));
        }
        return f;
    }

    private static void check(Chunk a, String ia, Chunk b, String ib, String out, int... shape) {
        Chunk r = Contraction.contract(a, ia, b, ib, out, DType.FLOAT64);
        assertThat(r.shape()).as("%s,%s->%s", ia, ib, out).containsExactly(shape);
        double[] expected = reference(a, ia, b, ib, out);
        double[] got = r.doubles();
        assertThat(got).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(got[i]).as("%s,%s->%s element %d", ia, ib, out, i).isCloseTo(expected[i], within(1e-12));
        }
    }

    @Test
    void pairsWhoseShapesLettersOrOutputChangeOnOneThread() {
        // Large enough for BLAS (more than 4096 multiply-adds), where the layout decides the operands' offsets.
        Chunk a = random(24, 20);
        Chunk b = random(20, 30);
        check(a, "ik", b, "kj", "ij", 24, 30);
        check(a, "ik", b, "kj", "ij", 24, 30); // the same pair again: the kept layout
        check(a, "ik", b, "kj", "ji", 30, 24); // the output transposed
        check(a, "ik", random(20, 17), "kj", "ij", 24, 17); // the second chunk's shape
        check(random(9, 20), "ik", b, "kj", "ij", 9, 30); // the first chunk's shape
        check(random(20, 24), "ki", b, "kj", "ij", 24, 30); // the first chunk's letters: its transpose
        check(a, "ik", random(30, 20), "jk", "ij", 24, 30); // the second chunk's letters
        check(random(3, 24, 20), "bik", random(3, 20, 30), "bkj", "bij", 3, 24, 30); // batches
        check(random(1, 24, 20), "bik", random(3, 20, 30), "bkj", "bij", 3, 24, 30); // a broadcast batch
        check(a, "ik", b, "kj", "ij", 24, 30); // back to the first
    }

    @Test
    void runningSumsAcrossChangingPairs() {
        Chunk a1 = random(16, 40);
        Chunk b1 = random(40, 12);
        Chunk a2 = random(16, 8);
        Chunk b2 = random(8, 12);
        Chunk sum = Contraction.contractAdd(null, a1, "ik", b1, "kj", "ij", DType.FLOAT64, false);
        sum = Contraction.contractAdd(sum, a2, "ik", b2, "kj", "ij", DType.FLOAT64, false);
        sum = Contraction.contractAdd(sum, a1, "ik", b1, "kj", "ij", DType.FLOAT64, false);
        double[] r1 = reference(a1, "ik", b1, "kj", "ij");
        double[] r2 = reference(a2, "ik", b2, "kj", "ij");
        for (int i = 0; i < r1.length; i++) {
            assertThat(sum.doubles()[i]).isCloseTo(2 * r1[i] + r2[i], within(1e-12));
        }
    }

    @Test
    void aLayoutTooLargeToKeepBetweenKeptOnes() {
        // A contraction of more offsets than a thread keeps (vecdot-like: one contracted letter of 70,000).
        int k = Contraction.CACHED_LAYOUT_MAX_OFFSETS + 4464;
        Chunk a = random(2, 24);
        Chunk b = random(24, 3);
        check(a, "ik", b, "kj", "ij", 2, 3);
        check(random(k), "k", random(k), "k", "", new int[0]);
        check(random(2, k), "ik", random(k, 2), "kj", "ij", 2, 2);
        check(a, "ik", b, "kj", "ij", 2, 3);
    }
}
