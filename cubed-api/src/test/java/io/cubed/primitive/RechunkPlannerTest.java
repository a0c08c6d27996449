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

    /**
     * Brute force along one axis of {@code n} elements: the shortest region length that is a multiple of both {@code
     * p} and {@code q} (found by counting up), or {@code n} when none is shorter than the axis.
     */
    private static long bruteForceRegion(long n, int p, int q) {
        long pc = Math.min(p, n);
        long qc = Math.min(q, n);
        for (long r = Math.max(pc, qc); r < n; r++) {
            if (r % pc == 0 && r % qc == 0) {
                return r;
            }
        }
        return n;
    }

    /** How many regions of length {@code r} tiling {@code [0, n)} overlap {@code [lo, hi)}; -1 if one only partly. */
    static long regionsHolding(long n, long r, long lo, long hi) {
        long count = 0;
        for (long start = 0; start < n; start += r) {
            long end = Math.min(n, start + r);
            if (start < hi && end > lo) {
                if (lo < start || hi > end) {
                    return -1;
                }
                count++;
            }
        }
        return count;
    }

    @Test
    void regionsHoldWholeChunksAndEveryChunkBelongsToOneRegion() {
        for (long n : new long[] {1, 7, 10, 31, 100, 101}) {
            for (int p = 1; p <= 12; p++) {
                for (int q = 1; q <= 12; q++) {
                    long r = RechunkStage.regionAlong(n, Math.min(p, n), Math.min(q, n));
                    assertThat(r).as("region n=%d p=%d q=%d", n, p, q).isEqualTo(bruteForceRegion(n, p, q));
                    for (long lo = 0; lo < n; lo += p) {
                        assertThat(regionsHolding(n, r, lo, Math.min(n, lo + p)))
                                .as("input chunk at %d, n=%d p=%d q=%d", lo, n, p, q)
                                .isEqualTo(1);
                    }
                    for (long lo = 0; lo < n; lo += q) {
                        assertThat(regionsHolding(n, r, lo, Math.min(n, lo + q)))
                                .as("output chunk at %d, n=%d p=%d q=%d", lo, n, p, q)
                                .isEqualTo(1);
                    }
                }
            }
        }
        // A chunk longer than the axis (p = 50 on n = 7) is the whole axis: the region is the whole axis.
        assertThat(new RechunkStage(new long[] {7}, 8, new int[] {50}, new int[] {2}, BufferCopies.FILE_SYSTEM)
                        .regionChunks())
                .containsExactly(7);
    }

    @Test
    void stageFiguresAndMemoryTermByTerm() {
        // float64 (10, 20) -> (20, 5) on (100, 100), local disk. Region: lcm(10, 20) = 20 by lcm(20, 5) = 20.
        RechunkStage s = new RechunkStage(
                new long[] {100, 100}, 8, new int[] {10, 20}, new int[] {20, 5}, BufferCopies.FILE_SYSTEM);
        assertThat(s.regionChunks()).containsExactly(20, 20);
        long in = 10 * 20 * 8;
        long out = 20 * 5 * 8;
        long region = 20 * 20 * 8;
        long fanIn = 2 * 1; // a region holds 2 x 1 input chunks
        long fanOut = 1 * 4; // and 1 x 4 output chunks: several of each, so the task needs the region buffer
        // The keys are a box of input chunk coordinates, whatever the fan-in: the box object (16-byte header, one
        // 8-byte reference), its bounds (16-byte header, 2 x 2 longs) and the key being read (16-byte header, 2 longs).
        long keys = (16 + 8) + (16 + 2 * 2 * 8) + (16 + 2 * 8);
        assertThat(s.fanIn()).isEqualTo(fanIn);
        assertThat(s.fanOut()).isEqualTo(fanOut);
        assertThat(s.outputChunksPerTask()).containsExactly(1, 4);
        assertThat(s.keyBytes()).isEqualTo(keys);
        assertThat(s.regionBuffered()).isTrue();
        // The region buffer is the output chunks themselves: an output chunk adds its write copy only.
        assertThat(s.readsInputsInto()).isTrue();
        assertThat(s.taskBytes()).isEqualTo(in * (1 + 1) + region + keys + out);
        assertThat(s.extraMemBytes()).isEqualTo(region - out + keys);
        RechunkStage objectStore = new RechunkStage(
                new long[] {100, 100}, 8, new int[] {10, 20}, new int[] {20, 5}, new BufferCopies(2, 2));
        assertThat(objectStore.taskBytes()).isEqualTo(in * (1 + 2) + region + keys + out * 2);
        // Input chunks read straight into the outputs with no decoded chunk (Zarr v2 in C order): their read copy only.
        RechunkStage into = new RechunkStage(
                new long[] {100, 100},
                8,
                new int[] {10, 20},
                new int[] {20, 5},
                BufferCopies.FILE_SYSTEM.readingInto(true));
        assertThat(into.taskBytes()).isEqualTo(in + region + keys + out);
        assertThat(s.tasks()).isEqualTo((100 / 20) * (100 / 20));
        assertThat(s.reads()).isEqualTo((100 / 10) * (100 / 20)); // every input chunk once
        assertThat(s.writes()).isEqualTo((100 / 20) * (100 / 5)); // every output chunk once
        assertThat(s.bytesRead()).isEqualTo(100L * 100 * 8);
        assertThat(s.bytesWritten()).isEqualTo(100L * 100 * 8);

        // Pure split (10, 100) -> (10, 25): the region is the input chunk, outputs are cut from it, no buffer.
        RechunkStage split = new RechunkStage(
                new long[] {100, 100}, 8, new int[] {10, 100}, new int[] {10, 25}, BufferCopies.FILE_SYSTEM);
        assertThat(split.regionChunks()).containsExactly(10, 100);
        assertThat(split.fanIn()).isEqualTo(1);
        assertThat(split.fanOut()).isEqualTo(4);
        assertThat(split.regionBufferBytes()).isZero();
        assertThat(split.taskBytes()).isEqualTo(8000 * 2 + keys + 2000 * 2);
        // The outputs are cut from the decoded input chunk, whatever the array's reads into other chunks.
        assertThat(split.readsInputsInto()).isFalse();
        assertThat(new RechunkStage(
                                new long[] {100, 100},
                                8,
                                new int[] {10, 100},
                                new int[] {10, 25},
                                BufferCopies.FILE_SYSTEM.readingInto(true))
                        .taskBytes())
                .isEqualTo(8000 * 2 + keys + 2000 * 2);
        // Pure merge (10, 25) -> (20, 100): the region is the output chunk, inputs are copied into it, no buffer.
        RechunkStage merge = new RechunkStage(
                new long[] {100, 100}, 8, new int[] {10, 25}, new int[] {20, 100}, BufferCopies.FILE_SYSTEM);
        assertThat(merge.regionChunks()).containsExactly(20, 100);
        assertThat(merge.fanIn()).isEqualTo(2 * 4);
        assertThat(merge.fanOut()).isEqualTo(1);
        assertThat(merge.taskBytes()).isEqualTo(2000 * 2 + keys + 16000 * 2);
        assertThat(merge.readsInputsInto()).isTrue();
        assertThat(new RechunkStage(
                                new long[] {100, 100},
                                8,
                                new int[] {10, 25},
                                new int[] {20, 100},
                                BufferCopies.FILE_SYSTEM.readingInto(true))
                        .taskBytes())
                .isEqualTo(2000 + keys + 16000 * 2);
        // Edge regions: 101 elements, chunks 10 -> 4: region lcm = 20, 6 tasks (the last holds one element).
        RechunkStage edge =
                new RechunkStage(new long[] {101}, 4, new int[] {10}, new int[] {4}, BufferCopies.FILE_SYSTEM);
        assertThat(edge.regionChunks()).containsExactly(20);
        assertThat(edge.tasks()).isEqualTo(6);
        assertThat(edge.reads()).isEqualTo(11);
        assertThat(edge.writes()).isEqualTo(26);
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
     * 10), allowedMem 2.5 GB with reservedMem 100 MB, local disk: 5 copies, region buffers up to 2.4 GB / 5 = 480 MB.
     */
    @Test
    void era5Plan() {
        long reserved = 100 * MB;
        long budget = 2_500 * MB - reserved;
        long cap = budget / 5;
        long[] shape = {350640, 721, 1440};
        long nbytes = 350640L * 721 * 1440 * 4;
        RechunkPlan plan = RechunkPlanner.of(shape, 4, new int[] {31, 721, 1440}, new int[] {350640, 10, 10})
                .budget(budget, BufferCopies.FILE_SYSTEM)
                .nearBest(0)
                .plan();
        assertChain(plan, new int[] {31, 721, 1440}, new int[] {350640, 10, 10});
        // One stage is impossible: lcm(31, 350640) exceeds the axis, so its region is the whole 1.46 TB array.
        RechunkStage direct = new RechunkStage(
                shape, 4, new int[] {31, 721, 1440}, new int[] {350640, 10, 10}, BufferCopies.FILE_SYSTEM);
        assertThat(direct.regionChunks()).containsExactly(350640, 721, 1440);
        assertThat(direct.tasks()).isEqualTo(1);
        assertThat(direct.fanIn()).isEqualTo(11311); // ceil(350640 / 31)
        assertThat(direct.fanOut()).isEqualTo(73 * 144);
        assertThat(direct.regionBytes()).isEqualTo(nbytes).isGreaterThan(cap);
        // Regression table (Cubed's regular planner: 3 stages too). Stage 1 may not grow axis 0 beyond 93 = 3 x 31:
        // its region spans whole source rows (721 x 1440 x 4 bytes = 4.15 MB per element of axis 0), 93 x 4.15 MB =
        // 386 MB <= 480 MB. Stage 3's region spans the whole time axis: 350640 x 10 x 20 x 4 = 280 MB. Stage 2 shrinks
        // axes 1 and 2 the rest of the way and grows axis 0 to 6789 = 73 x 93 within the cap.
        int[][] chunks = {{31, 721, 1440}, {93, 110, 160}, {6789, 10, 20}, {350640, 10, 10}};
        int[][] regions = {{93, 721, 1440}, {6789, 110, 160}, {350640, 10, 20}};
        assertThat(plan.stages()).hasSize(3);
        long reads = 0;
        long writes = 0;
        for (int i = 0; i < 3; i++) {
            RechunkStage s = plan.stages().get(i);
            int[] p = chunks[i];
            int[] q = chunks[i + 1];
            int[] r = regions[i];
            assertThat(s.outputChunks()).as("stage %d", i + 1).containsExactly(q);
            assertThat(s.regionChunks()).as("stage %d", i + 1).containsExactly(r);
            long tasks = 1;
            long stageReads = 1;
            long stageWrites = 1;
            long fanIn = 1;
            long fanOut = 1;
            for (int a = 0; a < 3; a++) {
                // every region length is a common multiple of p and q, or the whole axis
                assertThat(r[a] == shape[a] || (r[a] % p[a] == 0 && r[a] % q[a] == 0))
                        .as("stage %d axis %d", i + 1, a)
                        .isTrue();
                tasks *= (shape[a] + r[a] - 1) / r[a];
                stageReads *= (shape[a] + p[a] - 1) / p[a];
                stageWrites *= (shape[a] + q[a] - 1) / q[a];
                fanIn *= (r[a] + p[a] - 1) / p[a];
                fanOut *= (r[a] + q[a] - 1) / q[a];
            }
            assertThat(s.tasks()).as("stage %d", i + 1).isEqualTo(tasks);
            assertThat(s.reads()).as("stage %d", i + 1).isEqualTo(stageReads);
            assertThat(s.writes()).as("stage %d", i + 1).isEqualTo(stageWrites);
            assertThat(s.bytesRead()).isEqualTo(nbytes);
            long in = 4L * p[0] * p[1] * p[2];
            long out = 4L * q[0] * q[1] * q[2];
            long region = fanIn > 1 && fanOut > 1 ? 4L * r[0] * r[1] * r[2] : 0;
            long keys = (16 + 8) + (16 + 2 * 3 * 8) + (16 + 3 * 8); // a box of keys, 3 axes
            assertThat(s.taskBytes())
                    .as("stage %d", i + 1)
                    .isEqualTo(in * 2 + region + keys + out * (region > 0 ? 1 : 2));
            assertThat(reserved + s.taskBytes()).isLessThanOrEqualTo(2_500 * MB);
            assertThat(region).isLessThanOrEqualTo(cap);
            reads += stageReads;
            writes += stageWrites;
        }
        assertThat(plan.stages().get(0).tasks()).isEqualTo(3771); // ceil(350640 / 93)
        assertThat(plan.stages().get(0).writes()).isEqualTo(3771L * 7 * 9); // 721 / 110 -> 7, 1440 / 160 = 9
        assertThat(plan.stages().get(1).tasks()).isEqualTo(52L * 7 * 9); // ceil(350640 / 6789) = 52
        assertThat(plan.stages().get(2).tasks()).isEqualTo(73L * 72); // ceil(721 / 10) x 1440 / 20
        assertThat(plan.tasks()).isEqualTo(3771 + 3276 + 5256);
        assertThat(plan.ioOps()).isEqualTo(reads + writes).isEqualTo(1_043_593);
        // Every stage reads and writes the array once: 3 x 1.46 TB each way (the previous planner read 31 x).
        assertThat(plan.bytesRead()).isEqualTo(3 * nbytes);
        assertThat(plan.bytesWritten()).isEqualTo(3 * nbytes);
        // With one stage allowed, the planner refuses and names the single stage's need: its region, 5 times.
        RechunkPlanner single = RechunkPlanner.of(shape, 4, new int[] {31, 721, 1440}, new int[] {350640, 10, 10})
                .budget(budget, BufferCopies.FILE_SYSTEM)
                .maxStages(1);
        assertThatThrownBy(single::plan).isInstanceOf(MemoryBudgetExceededException.class);
        assertThat(single.minimumTaskBytes()).isLessThanOrEqualTo(5 * nbytes).isGreaterThan(4 * nbytes);
    }

    /** Cubed's hypothesis-found case: (1001, 1001) float64 (38, 376) -> (5, 146) at allowedMem 800 kB, reserved 0. */
    @Test
    void cubedHypothesisCase() {
        RechunkPlan plan = RechunkPlanner.of(new long[] {1001, 1001}, 8, new int[] {38, 376}, new int[] {5, 146})
                .budget(800_000, BufferCopies.FILE_SYSTEM)
                .plan();
        assertChain(plan, new int[] {38, 376}, new int[] {5, 146});
        // One stage is impossible: its region is lcm(38, 5) = 190 by min(1001, lcm(376, 146) = 27448) = 1001, a
        // 1.5 MB buffer above 800 kB / 5 = 160 kB. Cubed: (38, 376) -> (15, 376) -> (5, 146). Ours: (38, 376) -> (2,
        // 376) -> (5, 146): stage 1 cuts each source chunk into 19 pieces (2 divides 38; no buffer), stage 2 copies
        // regions of lcm(2, 5) = 10 rows by the whole 1001 columns (80 kB) into 2 x 7 target chunks.
        assertThat(new RechunkStage(
                                new long[] {1001, 1001},
                                8,
                                new int[] {38, 376},
                                new int[] {5, 146},
                                BufferCopies.FILE_SYSTEM)
                        .regionBytes())
                .isEqualTo(190L * 1001 * 8);
        assertThat(plan.stages()).hasSize(2);
        RechunkStage s1 = plan.stages().get(0);
        RechunkStage s2 = plan.stages().get(1);
        assertThat(s1.outputChunks()).containsExactly(2, 376);
        assertThat(s1.regionChunks()).containsExactly(38, 376);
        assertThat(s1.tasks()).isEqualTo(27 * 3); // ceil(1001 / 38) x ceil(1001 / 376)
        assertThat(s1.reads()).isEqualTo(27 * 3);
        assertThat(s1.writes()).isEqualTo(501 * 3); // ceil(1001 / 2) x 3
        // one (38, 376) input chunk (2 copies) + the box of keys + one (2, 376) output chunk (2 copies)
        long keys = (16 + 8) + (16 + 2 * 2 * 8) + (16 + 2 * 8);
        assertThat(s1.taskBytes()).isEqualTo(38 * 376 * 8 * 2 + keys + 2 * 376 * 8 * 2);
        assertThat(s2.regionChunks()).containsExactly(10, 1001);
        assertThat(s2.tasks()).isEqualTo(101); // ceil(1001 / 10)
        assertThat(s2.reads()).isEqualTo(501 * 3);
        assertThat(s2.writes()).isEqualTo(201 * 7); // ceil(1001 / 5) x ceil(1001 / 146)
        // one (2, 376) chunk (2 copies) + the (10, 1001) region of output chunks + the box of keys (5 x 3 chunks) + a
        // (5, 146) chunk's write copy
        assertThat(s2.fanIn()).isEqualTo(15);
        assertThat(s2.taskBytes())
                .isEqualTo(2 * 376 * 8 * 2 + 10 * 1001 * 8 + keys + 5 * 146 * 8)
                .isLessThanOrEqualTo(800_000);
        assertThat(plan.bytesRead()).isEqualTo(2 * 1001L * 1001 * 8);
    }

    /**
     * Row stripes to column stripes, the benchmark's case: 7936 x 7936 float64 (503.8 MB), (128, 7936) -> (7936,
     * 128), allowedMem 1 GB, reservedMem 100 MB: region buffers up to 900 MB / 5 = 180 MB.
     */
    @Test
    void rowsToColumnsReadTheArrayOncePerStage() {
        long n = 7936;
        long nbytes = n * n * 8;
        RechunkPlan plan = RechunkPlanner.of(new long[] {n, n}, 8, new int[] {128, 7936}, new int[] {7936, 128})
                .budget(900 * MB, BufferCopies.FILE_SYSTEM)
                .nearBest(0)
                .plan();
        // One stage would copy the whole array as one region (504 MB > 180 MB). Two stages: any intermediate (a, b)
        // with a a multiple of 128 has regions (a, 7936) and (7936, lcm(b, 128)); a = b = 2816 = 22 x 128 gives
        // 2816 x 7936 x 8 = 178.8 MB <= 180 MB, the largest, so the fewest chunk reads and writes.
        assertThat(plan.stages()).hasSize(2);
        assertThat(plan.stages().get(0).outputChunks()).containsExactly(2816, 2816);
        assertThat(plan.stages().get(0).regionChunks()).containsExactly(2816, 7936);
        assertThat(plan.stages().get(1).regionChunks()).containsExactly(7936, 2816);
        assertThat(plan.stages().get(0).tasks()).isEqualTo(3); // ceil(7936 / 2816)
        assertThat(plan.stages().get(0).regionBufferBytes()).isEqualTo(2816L * 7936 * 8);
        assertThat(plan.bytesRead()).isEqualTo(2 * nbytes); // was 6.5 GB = 12.8 x the array
        assertThat(plan.bytesWritten()).isEqualTo(2 * nbytes);
        assertThat(plan.ioOps()).isEqualTo(62 + 9 + 9 + 62);
    }

    @Test
    void stagesFillWholeWavesOfTheExecutorsSlots() {
        // cubed bench's W3: 16384^2 float64 from row stripes of 128 rows to column stripes of 128 columns, 900 MB per
        // task; the cheapest plans (nearBest 0, the lean ones are below). One slot: the largest regions, 10 stripes
        // (1280 rows), are the cheapest I/O: 13 tasks per stage.
        RechunkPlanner planner = w3Planner().nearBest(0);
        RechunkPlan one = planner.plan();
        assertThat(one.stages()).hasSize(2);
        assertThat(one.stages().get(0).outputChunks()).containsExactly(1280, 1280);
        assertThat(one.stages().get(0).tasks()).isEqualTo(13);
        // Two threads: 13 tasks leave one thread idle while the 13th runs (7 waves of 2 for 13 tasks' work); regions
        // of 8 stripes give 16 tasks, 8 full waves, each task 1/16 of the stage. The slowest thread's share,
        // ceil(T / 2) / T: 7/13 = 0.538 of a stage against 8/16 = 0.5, which outweighs the extra chunk requests
        // (768 against 594 at 1 MB each, about 4 % of the 4.3 GB moved).
        RechunkPlan two = planner.parallelism(2).plan();
        assertThat(two.stages()).hasSize(2);
        assertThat(two.stages().get(0).outputChunks()).containsExactly(1024, 1024);
        for (RechunkStage s : two.stages()) {
            assertThat(s.tasks()).isEqualTo(16);
            assertThat(s.taskBytes()).isLessThanOrEqualTo(900 * MB);
        }
        assertThat(two.bytesRead()).isEqualTo(one.bytesRead());
        assertChain(two, new int[] {128, 16384}, new int[] {16384, 128});
        // 64 slots: every stage keeps all of them busy (64 tasks each), even at the price of a third stage.
        RechunkPlan many = planner.parallelism(64).plan();
        for (RechunkStage s : many.stages()) {
            assertThat(s.tasks()).isGreaterThanOrEqualTo(64);
            assertThat(s.taskBytes()).isLessThanOrEqualTo(900 * MB);
        }
        assertChain(many, new int[] {128, 16384}, new int[] {16384, 128});
        // The number of stages follows the I/O: a 2 MB array copied in one stage by one task stays so on two threads
        // (two stages of two tasks would halve each thread's requests but read and write the array twice).
        RechunkPlan tiny = RechunkPlanner.of(new long[] {512, 512}, 8, new int[] {16, 512}, new int[] {512, 16})
                .budget(900 * MB, BufferCopies.FILE_SYSTEM)
                .parallelism(2)
                .plan();
        assertThat(tiny.stages()).hasSize(1);
        assertThat(tiny.stages().get(0).tasks()).isEqualTo(1);
        assertThatThrownBy(() -> planner.parallelism(0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("parallelism must be at least 1, got 0");
    }

    @Test
    void aPlanWithinAFewPercentOfTheCheapestIsTakenForLessMemoryPerTask() {
        // cubed bench's W3, 2 slots: the cheapest plan copies through (1024, 1024) chunks in regions of 8 stripes,
        // 134 MB, with 768 chunk reads and writes in all; regions of 6 stripes through (768, 768) chunks make 1224 (the
        // last region 4 stripes), 4.9 % more I/O cost at 1 MB a request on the 8.6 GB both move, in 22 tasks a stage
        // where the cheapest has 16: the plan taken. (512, 512) chunks (2304) would cost 16 % more.
        long n = 16384;
        RechunkPlanner planner = w3Planner().parallelism(2);
        RechunkPlan cheapest = planner.nearBest(0).plan();
        RechunkPlan lean = planner.nearBest(RechunkPlanner.NEAR_BEST).plan();
        assertThat(cheapest.stages().get(0).outputChunks()).containsExactly(1024, 1024);
        assertThat(cheapest.stages().get(0).regionBufferBytes()).isEqualTo(1024L * n * 8);
        assertThat(lean.stages()).hasSize(2);
        assertThat(lean.stages().get(0).outputChunks()).containsExactly(768, 768);
        for (RechunkStage s : lean.stages()) {
            assertThat(s.regionBufferBytes()).isEqualTo(768L * n * 8);
            assertThat(s.tasks()).isEqualTo(22);
        }
        // A task: its region of intermediate chunks, a stripe with its one buffer copy, an intermediate chunk's write
        // copy, and its chunk keys (138.9 MB, not 176.2). Regions of 7 stripes (896, 896) make 19 tasks a stage,
        // whose uneven waves on 2 slots cost more than 5 %: the planner walks past them (not by bisection).
        long keys = lean.stages().get(0).keyBytes();
        assertThat(lean.maxTaskBytes()).isEqualTo(768L * n * 8 + 2 * 128L * n * 8 + 768L * 768 * 8 + keys);
        assertThat(cheapest.maxTaskBytes()).isEqualTo(1024L * n * 8 + 2 * 128L * n * 8 + 1024L * 1024 * 8 + keys);
        // W3 as it runs, from a stored Zarr v2 array with intermediates in the work directory: each stripe or
        // intermediate chunk is read straight into the region's output chunks, its stored bytes alone (122.2 MB).
        RechunkPlan stored = RechunkPlanner.of(new long[] {n, n}, 8, new int[] {128, 16384}, new int[] {16384, 128})
                .budget(900 * MB, BufferCopies.FILE_SYSTEM.readingInto(true))
                .parallelism(2)
                .plan();
        assertThat(stored.stages()).extracting(s -> s.outputChunks()[0]).containsExactly(768, 16384);
        assertThat(stored.maxTaskBytes()).isEqualTo(768L * n * 8 + 128L * n * 8 + 768L * 768 * 8 + keys);
        assertThat(ioCost(lean)).isGreaterThan(ioCost(cheapest)).isLessThanOrEqualTo((long)
                (ioCost(cheapest) * (1 + RechunkPlanner.NEAR_BEST)));
        assertChain(lean, new int[] {128, 16384}, new int[] {16384, 128});
        // Allowed no extra cost at all, it keeps the cheapest plan.
        assertThat(planner.nearBest(0).plan().maxTaskBytes()).isEqualTo(cheapest.maxTaskBytes());
        assertThatThrownBy(() -> planner.nearBest(-0.1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("nearBest must be a fraction from 0 to 1, got -0.1");
        assertThatThrownBy(() -> planner.nearBest(Double.NaN))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("got NaN");
    }

    /** cubed bench's W3: 16384² float64 from row stripes of 128 rows to column stripes of 128 columns, 900 MB a task. */
    private static RechunkPlanner w3Planner() {
        long n = 16384;
        return RechunkPlanner.of(new long[] {n, n}, 8, new int[] {128, 16384}, new int[] {16384, 128})
                .budget(900 * MB, BufferCopies.FILE_SYSTEM);
    }

    private static long ioCost(RechunkPlan plan) {
        long cost = 0;
        for (RechunkStage s : plan.stages()) {
            cost += RechunkPlanner.cost(s);
        }
        return cost;
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
