package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Java re-implementation of rechunker's planner ({@link RechunkerReference}) against the expectations published
 * in rechunker's {@code tests/test_algorithm.py} and Cubed's {@code cubed/tests/test_rechunk.py} and {@code
 * test_core.py}, so that the budgets {@link RechunkMinimumMemoryTest} compares against are rechunker's.
 */
class RechunkerReferenceTest {
    private static long[] limits(Long... v) {
        long[] out = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] == null ? RechunkerReference.NO_LIMIT : v[i];
        }
        return out;
    }

    @Test
    void consolidateChunksAsRechunkersTests() {
        long[] shape = {8, 8};
        int[] chunks = {1, 2};
        // test_consolidate_chunks: (itemsize, max_mem) -> chunks; no limits means the shape.
        Object[][] rows = {
            {4, 8L, new int[] {1, 2}},
            {4, 16L, new int[] {1, 4}},
            {4, 17L, new int[] {1, 4}},
            {4, 64L, new int[] {2, 8}},
            {4, 256L, new int[] {8, 8}},
            {4, 512L, new int[] {8, 8}},
            {8, 256L, new int[] {4, 8}},
        };
        for (Object[] r : rows) {
            assertThat(RechunkerReference.consolidate(shape, chunks, (int) r[0], (long) r[1], limits(8L, 8L)))
                    .as("itemsize %s max_mem %s", r[0], r[1])
                    .containsExactly((int[]) r[2]);
        }
        // test_consolidate_chunks_w_limits, itemsize 4.
        Object[][] limited = {
            {16L, limits(null, -1L), new int[] {1, 4}},
            {16L, limits(-1L, null), new int[] {2, 2}},
            {32L, limits(null, -1L), new int[] {1, 8}},
            {32L, limits(null, 4L), new int[] {1, 4}},
            {32L, limits(8L, 4L), new int[] {2, 4}},
            {32L, limits(8L, null), new int[] {4, 2}},
            {128L, limits(10L, null), new int[] {8, 2}},
        };
        for (Object[] r : limited) {
            assertThat(RechunkerReference.consolidate(shape, chunks, 4, (long) r[0], (long[]) r[1]))
                    .as("max_mem %s", r[0])
                    .containsExactly((int[]) r[2]);
        }
        assertThatThrownBy(() -> RechunkerReference.consolidate(shape, chunks, 4, 7, limits(8L, 8L)))
                .hasMessageContaining("chunk_mem 8 > max_mem 7");
        // test_consolidate_chunks_4D
        long[] shape4 = {1000, 50, 1800, 3600};
        int[] chunks4 = {1, 5, 1800, 3600};
        long[] all4 = {1000, 50, 1800, 3600};
        assertThat(RechunkerReference.consolidate(shape4, chunks4, 4, 1_000_000_000L, all4))
                .containsExactly(1, 35, 1800, 3600);
        assertThat(RechunkerReference.consolidate(shape4, chunks4, 4, 3_000_000_000L, all4))
                .containsExactly(2, 50, 1800, 3600);
    }

    @Test
    void stageChunksAsRechunkersTests() {
        // test_calculate_stage_chunks
        assertThat(RechunkerReference.stageChunks(new int[] {100, 1}, new int[] {1, 100}, 1))
                .isEmpty();
        assertStages(RechunkerReference.stageChunks(new int[] {100, 1}, new int[] {1, 100}, 2), new int[] {10, 10});
        assertStages(
                RechunkerReference.stageChunks(new int[] {100, 1}, new int[] {1, 100}, 3),
                new int[] {21, 4},
                new int[] {4, 21});
        assertStages(
                RechunkerReference.stageChunks(new int[] {1_000_000, 1}, new int[] {1, 1_000_000}, 2),
                new int[] {1000, 1000});
        assertStages(
                RechunkerReference.stageChunks(new int[] {1_000_000, 1}, new int[] {1, 1_000_000}, 3),
                new int[] {10000, 100},
                new int[] {100, 10000});
        assertStages(
                RechunkerReference.stageChunks(new int[] {1_000_000, 1}, new int[] {1, 1_000_000}, 4),
                new int[] {31622, 31},
                new int[] {1000, 1000},
                new int[] {31, 31622});
        assertStages(RechunkerReference.stageChunks(new int[] {10, 10}, new int[] {1, 100}, 2), new int[] {3, 31});
    }

    @Test
    void ioOpsAsRechunkersTests() {
        // test_calculate_single_stage_io_ops: shape, in, out, expected
        long[][] oneD = {
            {6, 1, 6, 6},
            {10, 1, 6, 10},
            {6, 2, 3, 4},
            {24, 2, 3, 16},
            {10, 4, 5, 4},
            {100, 4, 5, 40},
            {100, 43, 100, 3},
            {100, 43, 51, 4},
            {100, 43, 40, 5},
            {100, 43, 10, 12},
            {100, 43, 1, 100}
        };
        for (long[] r : oneD) {
            assertThat(RechunkerReference.singleStageIoOps(
                            new long[] {r[0]}, new int[] {(int) r[1]}, new int[] {(int) r[2]}))
                    .isEqualTo(r[3]);
        }
        assertThat(RechunkerReference.singleStageIoOps(new long[] {100, 100}, new int[] {1, 100}, new int[] {100, 1}))
                .isEqualTo(10_000);
        assertThat(RechunkerReference.singleStageIoOps(new long[] {100, 100}, new int[] {1, 10}, new int[] {10, 1}))
                .isEqualTo(10_000);
        assertThat(RechunkerReference.singleStageIoOps(new long[] {100, 100}, new int[] {20, 20}, new int[] {25, 25}))
                .isEqualTo(64);
        assertThat(RechunkerReference.singleStageIoOps(new long[] {50, 50}, new int[] {20, 20}, new int[] {25, 25}))
                .isEqualTo(16);
        // and by brute force: distinct (i // source, i // target) pairs
        for (int size = 1; size <= 60; size++) {
            for (int sc = 1; sc <= 20; sc++) {
                for (int tc = 1; tc <= 20; tc++) {
                    java.util.Set<Long> pairs = new java.util.HashSet<>();
                    for (int i = 0; i < size; i++) {
                        pairs.add((long) (i / sc) * 1000 + i / tc);
                    }
                    assertThat(RechunkerReference.countIntermediateChunks(sc, tc, size))
                            .as("size %d source %d target %d", size, sc, tc)
                            .isEqualTo(pairs.size());
                }
            }
        }
    }

    @Test
    void plansAsRechunkersTests() {
        // test_rechunking_plan_1D (min_mem = itemsize): (shape, itemsize, source, target, max_mem) -> one stage
        Object[][] oneD = {
            {8L, 4, 1, 1, 4L, new int[] {1, 1, 1}},
            {8L, 4, 1, 1, 8L, new int[] {2, 2, 2}},
            {8L, 4, 1, 2, 8L, new int[] {2, 2, 2}},
            {8L, 4, 1, 2, 16L, new int[] {4, 4, 4}},
            {8L, 4, 1, 2, 17L, new int[] {4, 4, 4}},
            {16L, 4, 3, 7, 32L, new int[] {7, 7, 7}},
        };
        for (Object[] r : oneD) {
            List<RechunkerReference.Stage> plan = RechunkerReference.multistagePlan(
                    new long[] {(long) r[0]},
                    new int[] {(int) r[2]},
                    new int[] {(int) r[3]},
                    (int) r[1],
                    (int) r[1],
                    (long) r[4]);
            int[] e = (int[]) r[5];
            assertThat(plan).hasSize(1);
            assertThat(plan.get(0).read()).containsExactly(e[0]);
            assertThat(plan.get(0).intermediate()).containsExactly(e[1]);
            assertThat(plan.get(0).write()).containsExactly(e[2]);
        }
        // test_rechunking_plan_2d: (8, 8), (1, 8) -> (8, 1), itemsize 4
        Object[][] twoD = {
            {32L, new int[][] {{1, 8}, {1, 1}, {8, 1}}},
            {64L, new int[][] {{2, 8}, {2, 2}, {8, 2}}},
            {256L, new int[][] {{8, 8}, {8, 8}, {8, 8}}},
            {512L, new int[][] {{8, 8}, {8, 8}, {8, 8}}},
        };
        for (Object[] r : twoD) {
            List<RechunkerReference.Stage> plan = RechunkerReference.multistagePlan(
                    new long[] {8, 8}, new int[] {1, 8}, new int[] {8, 1}, 4, 4, (long) r[0]);
            int[][] e = (int[][]) r[1];
            assertThat(plan).hasSize(1);
            assertThat(plan.get(0).read()).containsExactly(e[0]);
            assertThat(plan.get(0).intermediate()).containsExactly(e[1]);
            assertThat(plan.get(0).write()).containsExactly(e[2]);
        }
        // test_multistage_rechunking_plan
        long[] shape = {100, 100};
        int[] source = {100, 1};
        int[] target = {1, 100};
        assertThat(RechunkerReference.multistagePlan(shape, source, target, 1, 1, 100)
                        .toString())
                .isEqualTo("[([100, 1], [1, 1], [1, 100])]");
        assertThat(RechunkerReference.multistagePlan(shape, source, target, 1, 10, 100)
                        .toString())
                .isEqualTo("[([100, 1], [10, 1], [10, 10]), ([10, 10], [1, 10], [1, 100])]");
        // test_multistage_rechunking_plan_warns: the I/O count rose, the previous plan is returned
        assertThat(RechunkerReference.multistagePlan(shape, source, target, 1, 90, 100))
                .isNotEmpty();
        assertThatThrownBy(() -> RechunkerReference.multistagePlan(shape, source, target, 1, 101, 100))
                .hasMessageContaining("cannot be smaller than min_mem");
    }

    @Test
    void cubedPlansAsCubedsTests() {
        // test_rechunk_era5_chunk_sizes: 2.5 GB on a file system (5 copies) and 3.5 GB on S3 (7 copies) give the same
        long[] era5 = {350640, 721, 1440};
        int[] source = {31, 721, 1440};
        int[] target = {350640, 10, 10};
        String expected = "[[93, 721, 1440] -> [93, 173, 396], [1447, 173, 396] -> [1447, 41, 109], "
                + "[22528, 41, 109] -> [22528, 10, 30], [350640, 10, 30] -> [350640, 10, 10]]";
        assertThat(ops(era5, source, target, 4, 2_500_000_000L, 5)).isEqualTo(expected);
        assertThat(ops(era5, source, target, 4, 3_500_000_000L, 7)).isEqualTo(expected);
        // the (1001, 1001) float64 cases of test_rechunk.py at 800 kB
        assertThat(ops(new long[] {1001, 1001}, new int[] {38, 376}, new int[] {5, 146}, 8, 800_000, 5))
                .isEqualTo("[[38, 376] -> [15, 376], [15, 1001] -> [5, 146]]");
        // test_rechunk_intermediate: (5, 5) float64, (1, 5) -> (5, 1) at 5 * 8 * 5 + 8 = 208 bytes: two copy
        // operations, each projected at exactly 208 bytes (the 8 is the block-offsets chunk with its read copy).
        long[] shape = {5, 5};
        List<RechunkerReference.Stage> plan =
                RechunkerReference.cubedPlan(shape, new int[] {1, 5}, new int[] {5, 1}, 8, 208, 0, 5);
        List<int[][]> copyOps = RechunkerReference.cubedCopyOps(plan, new int[] {5, 1});
        assertThat(copyOps).hasSize(2);
        assertThat(RechunkerReference.cubedOpMemory(shape, new int[] {1, 5}, copyOps, 8, 0, 1, 1))
                .containsExactly(208, 208);
    }

    private static String ops(long[] shape, int[] source, int[] target, int itemsize, long allowed, int copies) {
        List<RechunkerReference.Stage> plan =
                RechunkerReference.cubedPlan(shape, source, target, itemsize, allowed, 0, copies);
        List<String> out = new ArrayList<>();
        for (int[][] op : RechunkerReference.cubedCopyOps(plan, target)) {
            out.add(java.util.Arrays.toString(op[0]) + " -> " + java.util.Arrays.toString(op[1]));
        }
        return out.toString();
    }

    private static void assertStages(List<int[]> actual, int[]... expected) {
        assertThat(actual).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual.get(i)).containsExactly(expected[i]);
        }
    }
}
