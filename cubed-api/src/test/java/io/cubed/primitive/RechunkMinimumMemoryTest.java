package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.memory.BufferCopies;
import io.cubed.memory.ProjectedMemory;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Our rechunk planner needs no more memory than Cubed's use of rechunker's {@code multistage_rechunking_plan} for the
 * same shape, source and target chunks, item size and buffer copies. Both figures are the smallest {@code allowedMem}
 * (reservedMem 0) with which the planner returns a plan: Cubed's from {@link RechunkerReference} (Cubed divides {@code
 * allowed_mem − reserved_mem} by its 5 or 7 copies and hands the quotient to rechunker as {@code max_mem}), ours from
 * {@link RechunkPlanner} with its own projection of every task, keys included. The figure of Cubed's planner is also
 * worked out by hand in each row: rechunker refuses a source or target chunk above {@code max_mem} and otherwise
 * always finds a plan, so it is {@code copies · max(source chunk, target chunk)} bytes. The smallest {@code
 * allowed_mem} with which Cubed also runs the plan (every copy operation within its own memory check) is reported too;
 * it is the same or a few bytes more.
 */
class RechunkMinimumMemoryTest {
    static final BufferCopies LOCAL = BufferCopies.FILE_SYSTEM;
    static final BufferCopies S3 = BufferCopies.OBJECT_STORE;

    /** One row: the rechunk, and the smallest allowed_mem of Cubed's planner worked out by hand. */
    record Row(String name, long[] shape, int[] source, int[] target, int itemsize, BufferCopies copies, long cubed) {
        @Override
        public String toString() {
            return name + ": " + Arrays.toString(shape) + " " + Arrays.toString(source) + " -> "
                    + Arrays.toString(target) + " itemsize " + itemsize + " copies " + copies;
        }
    }

    private static Row row(
            String name, long[] shape, int[] source, int[] target, int itemsize, BufferCopies copies, long cubed) {
        return new Row(name, shape, source, target, itemsize, copies, cubed);
    }

    private static long[] s(long... v) {
        return v;
    }

    private static int[] c(int... v) {
        return v;
    }

    static final List<Row> ROWS = List.of(
            // Cubed's test_rechunk_intermediate: chunks of 5 float64 = 40 bytes; 5 x 40.
            row("rows to columns, 5 x 5", s(5, 5), c(1, 5), c(5, 1), 8, LOCAL, 5 * 40),
            // 64 float64 = 512 bytes each way; 5 x 512.
            row("rows to columns, 64 x 64", s(64, 64), c(1, 64), c(64, 1), 8, LOCAL, 5 * 512),
            // ERA5: source 31 x 721 x 1440 x 4 = 128 741 760, target 350640 x 100 x 4 = 140 256 000 bytes.
            row("ERA5", s(350640, 721, 1440), c(31, 721, 1440), c(350640, 10, 10), 4, LOCAL, 5 * 140_256_000L),
            // The same on an object store: 7 copies.
            row(
                    "ERA5, object store",
                    s(350640, 721, 1440),
                    c(31, 721, 1440),
                    c(350640, 10, 10),
                    4,
                    S3,
                    7 * 140_256_000L),
            // Cubed's hypothesis case: 38 x 376 x 8 = 114 304 > 5 x 146 x 8 = 5 840.
            row("(1001, 1001)", s(1001, 1001), c(38, 376), c(5, 146), 8, LOCAL, 5 * 114_304),
            // Rows to columns of 503.8 MB: 128 x 7936 x 8 = 8 126 464 each way.
            row("rows to columns, 7936 x 7936", s(7936, 7936), c(128, 7936), c(7936, 128), 8, LOCAL, 5 * 8_126_464),
            // Cubed's test_rechunk_and_store: source 24 x 778 x 706 x 4 = 52 729 728 > 43800 x 25 x 4 = 4 380 000.
            row("(394488, 778, 706)", s(394488, 778, 706), c(24, 778, 706), c(43800, 5, 5), 4, LOCAL, 5 * 52_729_728L),
            // rechunker's test_intermediate_to_target_memory: 24 x 721 x 1440 x 4 = 99 671 040 > 21915 x 103 x 10 x 4
            // = 90 289 800.
            row(
                    "(175320, 721, 1440)",
                    s(175320, 721, 1440),
                    c(24, 721, 1440),
                    c(21915, 103, 10),
                    4,
                    LOCAL,
                    5 * 99_671_040L),
            // 1-d, lengths with no common divisor: 9 x 8 = 72 > 56.
            row("1-d, 7 -> 9", s(100), c(7), c(9), 8, LOCAL, 5 * 72),
            // 1-d to a prime length: 100 x 8 = 800 > 776; the pieces between them are single elements.
            row("1-d, 100 -> 97", s(1000), c(100), c(97), 8, LOCAL, 5 * 800),
            row("1-d, 1000 -> 997", s(10000), c(1000), c(997), 8, S3, 7 * 8000),
            // Primes: 7 x 89 x 4 = 2 492 > 97 x 3 x 4 = 1 164.
            row("primes", s(97, 89), c(7, 89), c(97, 3), 4, LOCAL, 5 * 2492),
            // 3-d, one axis traded for another: source 30 x 50 x 4 = 6 000 < target 40 x 50 x 4 = 8 000.
            row("3-d", s(30, 40, 50), c(30, 1, 50), c(1, 40, 50), 4, LOCAL, 5 * 8000),
            // Growing every axis: 100 x 100 x 8 = 80 000.
            row("grow", s(1000, 1000), c(10, 10), c(100, 100), 8, LOCAL, 5 * 80_000),
            // Shrinking every axis: the source's 80 000.
            row("shrink", s(1000, 1000), c(100, 100), c(10, 10), 8, LOCAL, 5 * 80_000),
            // Bytes: 4000 x 7 = 28 000 > 9 x 3000 = 27 000.
            row("uint8", s(4000, 3000), c(4000, 7), c(9, 3000), 1, LOCAL, 5 * 28_000),
            // float16, whole axes (-1) to squares: 300 x 200 x 2 = 120 000 > 64 x 64 x 2 = 8 192.
            row("float16, whole axes", s(300, 200), c(-1, -1), c(64, 64), 2, LOCAL, 5 * 120_000),
            // 4-d, one axis unchanged: 1 x 5 x 180 x 360 x 4 = 1 296 000 > 100 x 50 x 6 x 6 x 4 = 720 000.
            row("4-d", s(1000, 50, 180, 360), c(1, 5, 180, 360), c(100, 50, 6, 6), 4, LOCAL, 5 * 1_296_000),
            // An object store (7 copies), days of hours to years of points: source 24 x 180 x 360 x 4 = 6 220 800 >
            // target 8760 x 6 x 6 x 4 = 1 261 440.
            row("object store", s(8760, 180, 360), c(24, 180, 360), c(8760, 6, 6), 4, S3, 7 * 6_220_800));

    @Test
    void oursNeedsNoMoreThanCubedsOnEveryRow() {
        StringBuilder table = new StringBuilder(
                String.format("%-32s %16s %16s %16s %7s%n", "case", "Cubed plans", "Cubed runs", "ours", "ratio"));
        for (Row r : ROWS) {
            int copies = ProjectedMemory.rechunkCopies(r.copies());
            long cubed = smallest(
                    a -> RechunkerReference.cubedPlans(r.shape(), r.source(), r.target(), r.itemsize(), a, 0, copies));
            long cubedRuns = smallest(a -> RechunkerReference.cubedRuns(
                    r.shape(),
                    r.source(),
                    r.target(),
                    r.itemsize(),
                    a,
                    0,
                    r.copies().read(),
                    r.copies().write()));
            assertThat(cubed).as("Cubed's planner, %s", r).isEqualTo(r.cubed());
            assertThat(cubedRuns).as("Cubed's run, %s", r).isGreaterThanOrEqualTo(cubed);

            RechunkPlanner planner = RechunkPlanner.of(r.shape(), r.itemsize(), r.source(), r.target())
                    .budget(cubed, r.copies());
            long ours = planner.minimumTaskBytes();
            table.append(String.format(
                    "%-32s %16d %16d %16d %7.3f%n", r.name(), cubed, cubedRuns, ours, (double) ours / cubed));
            assertThat(ours).as("ours against Cubed's, %s", r).isLessThanOrEqualTo(cubed);
            // Our plans at both figures: every stage within the budget and its region buffer within a copy's share.
            assertFits(r, ours);
            assertFits(r, cubed);
        }
        System.out.print(table);
    }

    /**
     * Random rechunks whose larger chunk is at least {@link TaskKeys#boxBytes} (the keys a copy task holds): our planner
     * finds a plan at Cubed's smallest allowed_mem. Our two stages through the per-axis greatest common divisor of the
     * source and target chunks need no region buffer and hold at most {@code (2 + read + write) · max chunk + keys},
     * within {@code (3 + read + write) · max chunk} when the larger chunk is at least the keys.
     */
    @Property(tries = 150)
    void oursPlansAtCubedsMinimum(@ForAll("rechunks") Row r) {
        int copies = ProjectedMemory.rechunkCopies(r.copies());
        long cubed = smallest(
                a -> RechunkerReference.cubedPlans(r.shape(), r.source(), r.target(), r.itemsize(), a, 0, copies));
        long maxChunk = r.itemsize()
                * Math.max(
                        RechunkerReference.product(RechunkerReference.clip(r.shape(), r.source())),
                        RechunkerReference.product(RechunkerReference.clip(r.shape(), r.target())));
        assertThat(cubed).as("%s", r).isEqualTo(copies * maxChunk);
        assertFits(r, cubed);
    }

    @Provide
    Arbitrary<Row> rechunks() {
        return Arbitraries.integers().between(1, 3).flatMap(nd -> {
            Arbitrary<long[]> shape =
                    Arbitraries.longs().between(1, 80).array(long[].class).ofSize(nd);
            Arbitrary<int[]> chunks =
                    Arbitraries.integers().between(1, 80).array(int[].class).ofSize(nd);
            return Combinators.combine(shape, chunks, chunks, Arbitraries.of(1, 2, 4, 8), Arbitraries.of(LOCAL, S3))
                    .as((sh, sc, tc, item, copies) -> row(
                            "random",
                            sh,
                            RechunkerReference.clip(sh, sc),
                            RechunkerReference.clip(sh, tc),
                            item,
                            copies,
                            -1))
                    .filter(r -> !Arrays.equals(
                                    RechunkerReference.clip(r.shape(), r.source()),
                                    RechunkerReference.clip(r.shape(), r.target()))
                            && r.itemsize()
                                            * Math.max(
                                                    RechunkerReference.product(
                                                            RechunkerReference.clip(r.shape(), r.source())),
                                                    RechunkerReference.product(
                                                            RechunkerReference.clip(r.shape(), r.target())))
                                    >= TaskKeys.boxBytes(r.shape().length));
        });
    }

    private static void assertFits(Row r, long budget) {
        RechunkPlanner planner = RechunkPlanner.of(r.shape(), r.itemsize(), r.source(), r.target())
                .budget(budget, r.copies());
        RechunkPlan plan = planner.plan();
        assertThat(plan.stages()).as("%s at %d", r, budget).isNotEmpty();
        int[] from = plan.stages().get(0).inputChunks();
        assertThat(RechunkPlanner.normalize(r.shape(), from, "source"))
                .containsExactly(RechunkPlanner.normalize(r.shape(), r.source(), "source"));
        for (RechunkStage st : plan.stages()) {
            assertThat(st.inputChunks()).as("%s at %d: stages chain", r, budget).containsExactly(from);
            assertThat(st.taskBytes()).as("%s at %d: %s", r, budget, st).isLessThanOrEqualTo(budget);
            assertThat(st.regionBufferBytes())
                    .as("%s at %d: %s", r, budget, st)
                    .isLessThanOrEqualTo(budget / planner.copies());
            from = st.outputChunks();
        }
        assertThat(RechunkPlanner.normalize(r.shape(), from, "target"))
                .containsExactly(RechunkPlanner.normalize(r.shape(), r.target(), "target"));
    }

    /** The smallest budget that {@code works} accepts, by doubling then bisection (it must accept every larger one). */
    static long smallest(LongPredicate works) {
        long hi = 1;
        while (!works.test(hi)) {
            hi *= 2;
        }
        long lo = hi / 2;
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (works.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        if (lo > 0) {
            assertThat(works.test(lo)).isFalse();
        }
        return hi;
    }
}
