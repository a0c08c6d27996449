package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.memory.BufferCopies;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link RechunkCosts.Through}, which costs the two stages through every candidate intermediate from per-axis factors,
 * gives for each intermediate exactly what building the two {@link RechunkStage}s gives: whether both fit the budget
 * and their summed time. Shapes reach past int chunk products and the budgets past a stage's needs, so that saturated
 * figures and both sides of every fit are met.
 */
class RechunkThroughProperties {
    record Case(
            long[] shape,
            int itemsize,
            int[] left,
            int[] right,
            long[][] candidates,
            long budget,
            int copiesKind,
            int parallelism) {
        @Override
        public String toString() {
            return "shape " + Arrays.toString(shape) + " itemsize " + itemsize + " " + Arrays.toString(left) + " -> "
                    + Arrays.toString(right) + " candidates " + Arrays.deepToString(candidates) + " budget " + budget
                    + " copies " + copiesKind + " parallelism " + parallelism;
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.integers().between(1, 4).flatMap(nd -> {
            Arbitrary<long[]> shape = Arbitraries.oneOf(
                            Arbitraries.longs().between(1, 80),
                            Arbitraries.longs().between(1, 3_000_000_000L))
                    .array(long[].class)
                    .ofSize(nd);
            Arbitrary<int[]> chunks = Arbitraries.oneOf(
                            Arbitraries.integers().between(1, 90),
                            Arbitraries.integers().between(1, Integer.MAX_VALUE - 8))
                    .array(int[].class)
                    .ofSize(nd);
            Arbitrary<long[][]> candidates = Arbitraries.oneOf(
                            Arbitraries.longs().between(1, 90),
                            Arbitraries.longs().between(1, Integer.MAX_VALUE - 8))
                    .array(long[].class)
                    .ofMinSize(1)
                    .ofMaxSize(5)
                    .array(long[][].class)
                    .ofSize(nd);
            return Combinators.combine(
                            shape,
                            Arbitraries.of(1, 2, 4, 8, 16),
                            chunks,
                            chunks,
                            candidates,
                            Arbitraries.oneOf(
                                    Arbitraries.longs().between(0, 1 << 20),
                                    Arbitraries.longs().between(0, Long.MAX_VALUE)),
                            Arbitraries.integers().between(0, 2),
                            Arbitraries.integers().between(1, 8))
                    .as(Case::new);
        });
    }

    @Property(tries = 1500)
    void everyIntermediateCostsWhatItsTwoStagesCost(@ForAll("cases") Case c) {
        BufferCopies copies =
                switch (c.copiesKind()) {
                    case 0 -> BufferCopies.FILE_SYSTEM;
                    case 1 -> BufferCopies.OBJECT_STORE;
                    default -> new BufferCopies(0, 1);
                };
        RechunkCosts costs = new RechunkCosts(c.shape(), c.itemsize(), copies, c.parallelism());
        int nd = c.shape().length;
        // Candidates as the search makes them: within the axis (at most its length, at least 1).
        long[][] candidates = new long[nd][];
        for (int i = 0; i < nd; i++) {
            long n = Math.max(1, Math.min(c.shape()[i], Integer.MAX_VALUE - 8));
            candidates[i] = Arrays.stream(c.candidates()[i])
                    .map(v -> Math.min(v, n))
                    .distinct()
                    .toArray();
        }
        RechunkCosts.Through through = costs.through(c.left(), c.right(), candidates);
        int[] index = new int[nd];
        int[] w = new int[nd];
        while (true) {
            for (int i = 0; i < nd; i++) {
                w[i] = (int) candidates[i][index[i]];
            }
            RechunkStage first = costs.stage(c.left(), w);
            RechunkStage second = costs.stage(w, c.right());
            List<RechunkStage> stages = List.of(first, second);
            long expected = costs.allFit(stages, c.budget()) ? costs.time(stages) : -1;
            assertThat(through.time(index, c.budget()))
                    .as("%s through %s: %s, %s", c, Arrays.toString(w), first, second)
                    .isEqualTo(expected);
            int axis = nd - 1;
            while (axis >= 0 && ++index[axis] == candidates[axis].length) {
                index[axis] = 0;
                axis--;
            }
            if (axis < 0) {
                return;
            }
        }
    }
}
