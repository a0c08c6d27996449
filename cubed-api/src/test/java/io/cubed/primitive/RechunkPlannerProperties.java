package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.BufferCopies;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of rechunk plans over random shapes, chunkings and budgets (plans only, no data). */
class RechunkPlannerProperties {
    /** A random rechunk problem. */
    record Problem(long[] shape, int[] source, int[] target, int itemsize, long budget, BufferCopies copies) {
        @Override
        public String toString() {
            return "shape " + Arrays.toString(shape) + " " + Arrays.toString(source) + " -> " + Arrays.toString(target)
                    + " itemsize " + itemsize + " budget " + budget + " " + copies;
        }
    }

    @Provide
    Arbitrary<Problem> problems() {
        return Arbitraries.integers().between(1, 4).flatMap(nd -> {
            Arbitrary<long[]> shape = Arbitraries.longs()
                    .between(0, 60)
                    .array(long[].class)
                    .ofSize(nd)
                    .filter(s -> Arrays.stream(s).filter(x -> x == 0).count() <= (nd > 1 ? 1 : 0));
            Arbitrary<int[]> chunks = Arbitraries.integers()
                    .between(-1, 70)
                    .filter(c -> c != 0)
                    .array(int[].class)
                    .ofSize(nd);
            return Combinators.combine(
                            shape,
                            chunks,
                            chunks,
                            Arbitraries.of(1, 2, 4, 8),
                            Arbitraries.longs().between(0, 200_000),
                            Arbitraries.of(BufferCopies.FILE_SYSTEM, BufferCopies.OBJECT_STORE, new BufferCopies(0, 1)))
                    .as(Problem::new);
        });
    }

    @Property(tries = 400)
    void everyStageFitsTheBudgetOrTheRefusalNamesABudgetThatWorks(@ForAll("problems") Problem p) {
        RechunkPlanner planner = RechunkPlanner.of(p.shape(), p.itemsize(), p.source(), p.target())
                .budget(p.budget(), p.copies());
        RechunkPlan plan;
        try {
            plan = planner.plan();
        } catch (MemoryBudgetExceededException e) {
            long need = planner.minimumTaskBytes();
            assertThat(need).as("refused %s", p).isGreaterThan(p.budget());
            assertThat(e.getMessage()).contains("(" + need + " bytes)");
            plan = RechunkPlanner.of(p.shape(), p.itemsize(), p.source(), p.target())
                    .budget(need, p.copies())
                    .plan();
            assertThat(plan.maxTaskBytes()).isLessThanOrEqualTo(need);
            assertChain(plan, p);
            assertEveryChunkReadAndWrittenOnce(plan, p);
            return;
        }
        for (RechunkStage s : plan.stages()) {
            assertThat(s.taskBytes()).as("%s: %s", p, s).isLessThanOrEqualTo(p.budget());
            assertThat(s.regionBufferBytes()).as("%s: %s", p, s).isLessThanOrEqualTo(p.budget() / planner.copies());
        }
        assertChain(plan, p);
        assertEveryChunkReadAndWrittenOnce(plan, p);
        // The plan taken holds no more per task than the cheapest, for at most 5 % more I/O.
        RechunkPlan cheapest = planner.nearBest(0).plan();
        assertThat(plan.maxTaskBytes()).as("%s", p).isLessThanOrEqualTo(cheapest.maxTaskBytes());
        assertThat((double) ioCost(plan))
                .as("%s", p)
                .isLessThanOrEqualTo(ioCost(cheapest) * (1 + RechunkPlanner.NEAR_BEST));
    }

    private static long ioCost(RechunkPlan plan) {
        long cost = 0;
        for (RechunkStage s : plan.stages()) {
            cost += RechunkPlanner.cost(s);
        }
        return cost;
    }

    /**
     * Each stage's regions tile the array so that every input chunk lies inside exactly one region (read once) and so
     * does every output chunk (written once), checked per axis by brute force (the regions are a product of per-axis
     * intervals); and the stage's counts agree.
     */
    private static void assertEveryChunkReadAndWrittenOnce(RechunkPlan plan, Problem p) {
        long nbytes = p.itemsize();
        for (long n : p.shape()) {
            nbytes *= n;
        }
        for (RechunkStage s : plan.stages()) {
            int[] r = s.regionChunks();
            long tasks = 1;
            long reads = 1;
            long writes = 1;
            for (int a = 0; a < r.length; a++) {
                long n = p.shape()[a];
                long in = Math.min(s.inputChunks()[a], Math.max(1, n));
                long out = s.outputChunks()[a];
                long regions = 0;
                for (long start = 0; start < n; start += r[a]) {
                    regions++;
                }
                long inputs = 0;
                for (long lo = 0; lo < n; lo += in) {
                    assertThat(RechunkPlannerTest.regionsHolding(n, r[a], lo, Math.min(n, lo + in)))
                            .as("%s: %s axis %d input chunk at %d", p, s, a, lo)
                            .isEqualTo(1);
                    inputs++;
                }
                long outputs = 0;
                for (long lo = 0; lo < n; lo += out) {
                    assertThat(RechunkPlannerTest.regionsHolding(n, r[a], lo, Math.min(n, lo + out)))
                            .as("%s: %s axis %d output chunk at %d", p, s, a, lo)
                            .isEqualTo(1);
                    outputs++;
                }
                tasks *= regions;
                reads *= inputs;
                writes *= outputs;
            }
            assertThat(s.tasks()).as("%s: %s", p, s).isEqualTo(tasks);
            assertThat(s.reads()).as("%s: %s", p, s).isEqualTo(reads);
            assertThat(s.writes()).as("%s: %s", p, s).isEqualTo(writes);
            assertThat(s.bytesRead()).as("%s: %s", p, s).isEqualTo(nbytes);
        }
    }

    private static void assertChain(RechunkPlan plan, Problem p) {
        int[] source = RechunkPlanner.normalize(p.shape(), p.source(), "source");
        int[] target = RechunkPlanner.normalize(p.shape(), p.target(), "target");
        List<RechunkStage> stages = plan.stages();
        boolean empty = Arrays.stream(p.shape()).anyMatch(s -> s == 0);
        if (empty || Arrays.equals(source, target)) {
            assertThat(stages).as("%s", p).isEmpty();
            return;
        }
        assertThat(stages).as("%s", p).isNotEmpty().hasSizeLessThanOrEqualTo(RechunkPlanner.DEFAULT_MAX_STAGES);
        assertThat(RechunkPlanner.normalize(p.shape(), stages.get(0).inputChunks(), "first"))
                .containsExactly(source);
        assertThat(stages.get(stages.size() - 1).outputChunks()).containsExactly(target);
        for (int i = 1; i < stages.size(); i++) {
            assertThat(stages.get(i).inputChunks())
                    .containsExactly(stages.get(i - 1).outputChunks());
            assertThat(stages.get(i).inputChunks()).isNotEqualTo(stages.get(i).outputChunks());
        }
    }
}
