package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.grid.ChunkGrid;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of tree-reduction rounds over random chunk counts, reduced axes and splits (keys only, no data). */
class ReductionKeyFunctionProperties {
    /** Chunks per axis, which axes are reduced, and the split per reduced axis. */
    record Round(long[] chunks, boolean[] reduced, int split) {
        @Override
        public String toString() {
            return Arrays.toString(chunks) + " reduced " + Arrays.toString(reduced) + " split " + split;
        }
    }

    @Provide
    Arbitrary<Round> rounds() {
        return Arbitraries.integers().between(1, 3).flatMap(nd -> Combinators.combine(
                        Arbitraries.longs().between(0, 30).array(long[].class).ofSize(nd),
                        Arbitraries.of(true, false).list().ofSize(nd),
                        Arbitraries.integers().between(2, 6))
                .as((c, r, s) -> {
                    boolean[] red = new boolean[nd];
                    for (int a = 0; a < nd; a++) {
                        red[a] = r.get(a);
                    }
                    return new Round(c, red, s);
                }));
    }

    /** Every input chunk is read by exactly one task of a round, and every task reads at most split^k chunks. */
    @Property(tries = 300)
    void aRoundReadsEveryInputChunkExactlyOnce(@ForAll("rounds") Round r) {
        int nd = r.chunks().length;
        int[] split = new int[nd];
        long[] outChunks = new long[nd];
        int[] outputAxis = new int[nd];
        long maxPerTask = 1;
        for (int a = 0; a < nd; a++) {
            split[a] = r.reduced()[a] ? r.split() : 1;
            outChunks[a] = r.reduced()[a] ? Math.max(1, (r.chunks()[a] + r.split() - 1) / r.split()) : r.chunks()[a];
            outputAxis[a] = a;
            maxPerTask *= split[a];
        }
        ReductionKeyFunction f = new ReductionKeyFunction(r.chunks(), split, outputAxis, new int[][] {null});
        ChunkGrid out = ChunkGrid.of(outChunks, ones(nd));
        Set<List<Long>> seen = new HashSet<>();
        long reads = 0;
        for (long t = 0; t < out.numChunks(); t++) {
            long[][] keys = f.inputKeys(out.chunkCoordsOf(t))[0];
            assertThat((long) keys.length).as("%s task %d", r, t).isLessThanOrEqualTo(maxPerTask);
            for (long[] k : keys) {
                for (int a = 0; a < nd; a++) {
                    assertThat(k[a]).as("%s key %s", r, Arrays.toString(k)).isBetween(0L, r.chunks()[a] - 1);
                }
                List<Long> key = new ArrayList<>();
                for (long v : k) {
                    key.add(v);
                }
                assertThat(seen.add(key)).as("%s reads %s twice", r, key).isTrue();
                reads++;
            }
        }
        long all = 1;
        for (long c : r.chunks()) {
            all *= c;
        }
        assertThat(reads).as("%s", r).isEqualTo(all);
    }

    private static int[] ones(int n) {
        int[] o = new int[n];
        Arrays.fill(o, 1);
        return o;
    }
}
