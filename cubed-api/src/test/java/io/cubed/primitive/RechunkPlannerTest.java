package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.BufferCopies;
import java.util.List;
import org.junit.jupiter.api.Test;

class RechunkPlannerTest {
    private static final long GB = 1_000_000_000L;
    private static final long MB = 1_000_000L;

    /** Brute force: for each output chunk along an axis, the input chunks it overlaps and their lengths. */
    private static long[] bruteForceAlong(long n, int p, int q) {
        long reads = 0;
        long elements = 0;
        long maxFanIn = 0;
        for (long start = 0; start < n; start += q) {
            long end = Math.min(n, start + q);
            long fan = 0;
            for (long in = 0; in < n; in += p) {
                long inEnd = Math.min(n, in + p);
                if (in < end && inEnd > start) {
                    reads++;
                    elements += inEnd - in;
                    fan++;
                }
            }
            maxFanIn = Math.max(maxFanIn, fan);
        }
        return new long[] {reads, elements, maxFanIn};
    }

    @Test
    void perAxisCountsMatchABruteForceLoop() {
        for (long n : new long[] {1, 7, 10, 31, 100, 101}) {
            for (int p = 1; p <= 12; p++) {
                for (int q = 1; q <= 12; q++) {
                    long[] b = bruteForceAlong(n, p, q);
                    assertThat(RechunkStage.readsAlong(n, p, q))
                            .as("reads n=%d p=%d q=%d", n, p, q)
                            .isEqualTo(b[0]);
                    assertThat(RechunkStage.elementsReadAlong(n, p, q))
                            .as("elements n=%d p=%d q=%d", n, p, q)
                            .isEqualTo(b[1]);
                    assertThat(RechunkStage.fanInAlong(n, p, q))
                            .as("fan-in bound n=%d p=%d q=%d", n, p, q)
                            .isGreaterThanOrEqualTo(b[2]);
                }
            }
        }
        // A chunk longer than the axis (p = 50 on n = 7) reads the clipped chunk.
        assertThat(RechunkStage.elementsReadAlong(7, 50, 2)).isEqualTo(4 * 7);
    }

    @Test
    void stageMemoryTermByTerm() {
        // float64 (10, 20) -> (20, 5) on (100, 100), local disk: one read copy and one write copy.
        RechunkStage s = new RechunkStage(
                new long[] {100, 100}, 8, new int[] {10, 20}, new int[] {20, 5}, BufferCopies.FILE_SYSTEM);
        long in = 10 * 20 * 8;
        long out = 20 * 5 * 8;
        long fanIn = 2 * 1; // two input chunks along axis 0, one along axis 1
        long keys = 32 + fanIn * (24 + 8 * 2);
        assertThat(s.fanIn()).isEqualTo(fanIn);
        assertThat(s.keyBytes()).isEqualTo(keys);
        assertThat(s.taskBytes()).isEqualTo(in * (1 + 1) + keys + out * (1 + 1));
        RechunkStage objectStore = new RechunkStage(
                new long[] {100, 100}, 8, new int[] {10, 20}, new int[] {20, 5}, new BufferCopies(2, 2));
        assertThat(objectStore.taskBytes()).isEqualTo(in * (1 + 2) + keys + out * (1 + 2));
        assertThat(s.tasks()).isEqualTo(5 * 20);
        assertThat(s.reads()).isEqualTo((10) * (20)); // 5 x 2 pairs on axis 0 ... times 20 x 1 on axis 1
        assertThat(s.bytesRead()).isEqualTo(100L * 100 * 8 * 4); // each input chunk (20 wide) read by 4 outputs
    }

    @Test
    void nothingToDoForSameChunksOrEmptyArrays() {
        RechunkPlan same = RechunkPlanner.of(new long[] {10, 10}, 8, new int[] {5, -1}, new int[] {5, 10})
                .budget(MB, BufferCopies.FILE_SYSTEM)
                .plan();
        assertThat(same.stages()).isEmpty();
        assertThat(same.outcome()).isEqualTo(RechunkPlan.Outcome.NOTHING_TO_DO);
        RechunkPlan larger = RechunkPlanner.of(new long[] {10, 10}, 8, new int[] {50, 10}, new int[] {-1, 99})
                .budget(MB, BufferCopies.FILE_SYSTEM)
                .plan();
        assertThat(larger.stages()).isEmpty();
        RechunkPlan empty = RechunkPlanner.of(new long[] {0, 10}, 8, new int[] {5, 5}, new int[] {1, 10})
                .budget(1, BufferCopies.FILE_SYSTEM)
                .plan();
        assertThat(empty.stages()).isEmpty();
        assertThatThrownBy(() -> RechunkPlanner.of(new long[] {10}, 8, new int[] {0}, new int[] {5}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must be positive");
    }

    @Test
    void aBudgetBelowTheSmallestPlanIsRefusedNamingTheBudgetThatWorks() {
        RechunkPlanner planner = RechunkPlanner.of(new long[] {100, 100}, 8, new int[] {100, 1}, new int[] {1, 100})
                .budget(1000, BufferCopies.FILE_SYSTEM);
        long need = planner.minimumTaskBytes();
        // The source chunk alone with its read copy: 100 x 8 x 2 bytes, plus at least one element written.
        assertThat(need).isGreaterThan(100 * 8 * 2);
        assertThatThrownBy(planner::plan)
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("needs at least")
                .hasMessageContaining("(" + need + " bytes)");
        RechunkPlan works = RechunkPlanner.of(new long[] {100, 100}, 8, new int[] {100, 1}, new int[] {1, 100})
                .budget(need, BufferCopies.FILE_SYSTEM)
                .plan();
        assertThat(works.maxTaskBytes()).isLessThanOrEqualTo(need);
        assertThat(works.stages().size()).isGreaterThanOrEqualTo(2);
    }

    /**
     * ERA5 (rechunker PR 89, Cubed's test_rechunk_era5): (350640, 721, 1440) float32, (31, 721, 1440) -> (350640, 10,
     * 10), allowedMem 2.5 GB with reservedMem 100 MB, local disk.
     */
    @Test
    void era5Plan() {
        long reserved = 100 * MB;
        RechunkPlan plan = RechunkPlanner.of(
                        new long[] {350640, 721, 1440}, 4, new int[] {31, 721, 1440}, new int[] {350640, 10, 10})
                .budget(2_500 * MB - reserved, BufferCopies.FILE_SYSTEM)
                .plan();
        for (RechunkStage s : plan.stages()) {
            assertThat(reserved + s.taskBytes()).isLessThanOrEqualTo(2_500 * MB);
        }
        assertChain(plan, new int[] {31, 721, 1440}, new int[] {350640, 10, 10});
        // Regression table: stage outputs, tasks and reads (rechunker and Cubed: 4 copy ops, each reading and writing
        // the 1.46 TB array once; ours: 6 stages that re-read split input chunks, see docs/rechunk.md).
        int[][] outputs = {
            {372, 320, 480}, {1488, 160, 240}, {5952, 80, 120}, {23808, 40, 40}, {71424, 20, 20}, {350640, 10, 10}
        };
        long[] tasks = {8487, 7080, 7080, 10260, 13320, 10512};
        long[] reads = {101799, 28290, 28320, 40356, 39960, 52560};
        assertThat(plan.stages()).hasSize(6);
        for (int i = 0; i < 6; i++) {
            RechunkStage s = plan.stages().get(i);
            assertThat(s.outputChunks()).as("stage %d", i + 1).containsExactly(outputs[i]);
            assertThat(s.tasks()).as("stage %d", i + 1).isEqualTo(tasks[i]);
            assertThat(s.reads()).as("stage %d", i + 1).isEqualTo(reads[i]);
        }
        assertThat(plan.outcome()).isEqualTo(RechunkPlan.Outcome.IO_INCREASED);
        assertThat(plan.tasks()).isEqualTo(56739);
        assertThat(plan.ioOps()).isEqualTo(348024);
        long nbytes = 350640L * 721 * 1440 * 4;
        assertThat(plan.bytesWritten()).isEqualTo(6 * nbytes);
        // Stage 1 splits 721 x 1440 into 3 x 3 pieces: every source chunk is read by 9 tasks.
        assertThat(plan.stages().get(0).bytesRead()).isEqualTo(9 * nbytes);
        assertThat(plan.bytesRead()).isBetween(30 * nbytes, 31 * nbytes);
        // With minMem 0 and one stage (Cubed: fan-in 3771): each target chunk reads all 11311 source chunks.
        RechunkPlan single = RechunkPlanner.of(
                        new long[] {350640, 721, 1440}, 4, new int[] {31, 721, 1440}, new int[] {350640, 10, 10})
                .budget(2_500 * MB - reserved, BufferCopies.FILE_SYSTEM)
                .maxStages(1)
                .plan();
        assertThat(single.stages()).hasSize(1);
        assertThat(single.stages().get(0).fanIn()).isEqualTo(11311);
        assertThat(single.stages().get(0).tasks()).isEqualTo(73 * 144);
    }

    /** Cubed's hypothesis-found case: (1001, 1001) float64 (38, 376) -> (5, 146) at allowedMem 800 kB, reserved 0. */
    @Test
    void cubedHypothesisCase() {
        RechunkPlan plan = RechunkPlanner.of(new long[] {1001, 1001}, 8, new int[] {38, 376}, new int[] {5, 146})
                .budget(800_000, BufferCopies.FILE_SYSTEM)
                .plan();
        assertChain(plan, new int[] {38, 376}, new int[] {5, 146});
        // Cubed: 2 copy ops, (38, 376) -> (15, 376) -> (5, 146). Ours: one stage, since every stage splits both axes
        // and another stage would only add reads (the cost rule stops at one).
        assertThat(plan.stages()).hasSize(1);
        RechunkStage s = plan.stages().get(0);
        assertThat(s.tasks()).isEqualTo(201 * 7);
        assertThat(s.reads()).isEqualTo(1998);
        // one (38, 376) input chunk (2 copies) + keys for 2 x 2 chunks + one (5, 146) output chunk (2 copies)
        assertThat(s.taskBytes()).isEqualTo(38 * 376 * 8 * 2 + (32 + 4 * (24 + 16)) + 5 * 146 * 8 * 2);
        assertThat(s.taskBytes()).isLessThanOrEqualTo(800_000);
    }

    static void assertChain(RechunkPlan plan, int[] source, int[] target) {
        List<RechunkStage> stages = plan.stages();
        assertThat(stages.get(0).inputChunks()).containsExactly(source);
        assertThat(stages.get(stages.size() - 1).outputChunks()).containsExactly(target);
        for (int i = 1; i < stages.size(); i++) {
            assertThat(stages.get(i).inputChunks())
                    .containsExactly(stages.get(i - 1).outputChunks());
        }
    }
}
