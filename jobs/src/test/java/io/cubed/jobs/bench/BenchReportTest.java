package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.array.Blockwise;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory report flags an operation whose tasks really hold more than the plan projected: a chunk function that
 * keeps a 40 MB buffer it did not declare, measured by the in-process executor, is caught; an honest one is not.
 */
class BenchReportTest {
    private static final int HIDDEN = 40_000_000;

    /** Where the dishonest function keeps its undeclared buffer (live while the task writes its output chunk). */
    private static volatile byte[] hidden;

    @TempDir
    Path dir;

    @AfterEach
    void release() {
        hidden = null;
    }

    @Test
    void anOperationHoldingMoreThanItsProjectionIsFlagged() {
        LocalExecutor executor = new LocalExecutor(2, 1, 0).withMemoryMeasurement(2);
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("20MB")
                .reservedMem(0)
                .executor(executor)
                .build();
        CubedArray x = io.cubed.array.Creation.ones(new long[] {400, 100}, new int[] {100, 100}, DType.FLOAT64, spec);
        CubedArray honest = Blockwise.mapBlocks((blocks, id) -> negate(blocks[0]), DType.FLOAT64, x);
        CubedArray dishonest = Blockwise.mapBlocks(
                (blocks, id) -> {
                    byte[] b = new byte[HIDDEN];
                    b[b.length - 1] = 1;
                    hidden = b;
                    return negate(blocks[0]);
                },
                DType.FLOAT64,
                x);

        StageRecorder honestStages = new StageRecorder();
        honest.toZarr(dir.resolve("honest.zarr").toString(), honestStages);
        StageRecorder dishonestStages = new StageRecorder();
        dishonest.toZarr(dir.resolve("dishonest.zarr").toString(), dishonestStages);

        List<BenchSuite.Result> results =
                List.of(result("H", honestStages.stages()), result("D", dishonestStages.stages()));
        StageRecorder.StageFigures h = honestStages.stages().get(0);
        StageRecorder.StageFigures d = dishonestStages.stages().get(0);
        // The projection of either: one 80 kB output chunk and its stored bytes, well under the hidden buffer.
        assertThat(d.projectedMemBytes).isLessThan(HIDDEN / 10);
        assertThat(d.measuredTasks).isEqualTo(2);
        assertThat(d.maxMeasuredBytes).isGreaterThanOrEqualTo(HIDDEN);
        assertThat(h.measuredTasks).isEqualTo(2);
        assertThat(h.maxMeasuredBytes).isBetween(0L, h.projectedMemBytes);

        assertThat(BenchReport.within(h, 0)).isEqualTo("yes");
        assertThat(BenchReport.within(d, 0)).isEqualTo("NO");
        assertThat(BenchReport.flagged(results, 0)).containsExactly("D " + d.id + " " + d.name);
        String md = BenchReport.markdown(results, "## test", 0, 1_000_000);
        assertThat(md).contains("**Over the projection:** D " + d.id).doesNotContain("No measured operation exceeded");
        assertThat(BenchReport.memoryCsv(results, 0)).contains(",NO\n").contains(",yes\n");
    }

    /**
     * The resident-memory table puts each workload's peak resident set beside the bound of its plan: the resident
     * baseline + threads × its largest projected task (the projection of the largest stage that ran tasks) × 1.2.
     */
    @Test
    void residentMemoryIsReportedBesideThePlansBound() {
        StageRecorder.StageFigures add = new StageRecorder.StageFigures("op-001", "add", 150_300_000L);
        add.tasks = 200;
        StageRecorder.StageFigures copy = new StageRecorder.StageFigures("op-002", "rechunk", 284_500_000L);
        copy.tasks = 16;
        StageRecorder.StageFigures none = new StageRecorder.StageFigures("op-003", "never ran", 900_000_000L);
        BenchSuite.Result r = new BenchSuite.Result(
                "W3", "W3", 1.0, 320_000, 0, 0, 0, 216, 0.5, List.of(add, copy, none), 700.0, null, Double.NaN, null);
        assertThat(r.largestTaskBytes()).isEqualTo(284_500_000L);
        long baseline = 180_000_000L;
        // 180 MB + 2 × 284.5 MB × 1.2 = 862.8 MB
        assertThat(r.boundMb(baseline, 2)).isCloseTo(180 + 2 * 284.5 * 1.2, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(r.boundMb(-1, 2)).isNaN();
        String md = BenchReport.markdown(List.of(r), "## test", 100_000_000L, 40_000_000L, null, 2, baseline);
        assertThat(md)
                .contains("at rest after the warm-up and a full collection (180.0 MB) + 2 threads × the largest"
                        + " projected task × 1.2")
                .contains("| workload | largest projected task MB | bound MB | our RSS MB | RSS / bound |\n")
                .contains("| W3 | 284.5 | 863 | 700 | 0.81 |\n");
        String csv = BenchReport.csv(List.of(r), 2, baseline);
        assertThat(csv.lines().toList().get(0))
                .endsWith(",rss_mb,peer_seconds,ours_over_peer,peer_rss_mb," + "largest_task_mb,rss_bound_mb,"
                        + "worst_round_ours_over_peer,heap_mb");
        assertThat(csv.lines().toList().get(1)).endsWith(",700.0,,,,284.5,862.8,,");
    }

    /**
     * A workload run in a JVM of its own: its bound starts from that JVM's resident set at rest, and the table gives
     * the heap the JVM was given.
     */
    @Test
    void aWorkloadInItsOwnJvmIsBoundedFromThatJvm() {
        StageRecorder.StageFigures copy = new StageRecorder.StageFigures("op-001", "rechunk", 284_500_000L);
        copy.tasks = 16;
        BenchSuite.Result r = new BenchSuite.Result(
                        "W3", "W3", 1.0, 320_000, 0, 0, 0, 16, 0.5, List.of(copy), 700.0, null, Double.NaN, null)
                .in(new BenchSuite.Result.Jvm(150_000_000L, 725L << 20, true));
        // 150 MB + 2 × 284.5 MB × 1.2 = 832.8 MB, whatever the bench's own JVM held (180 MB here)
        String md = BenchReport.markdown(List.of(r), "## test", 100_000_000L, 40_000_000L, null, 2, 180_000_000L);
        assertThat(md)
                .contains("full collection (its own JVM's, below) + 2 threads × the largest projected task × 1.2."
                        + " Each workload ran in a JVM of its own whose maximum heap (heap MB) its plan set")
                .contains(
                        "| workload | largest projected task MB | heap MB | resident at rest MB | bound MB | our RSS MB"
                                + " | RSS / bound |\n")
                .contains("| W3 | 284.5 | 725 | 150.0 | 833 | 700 | 0.84 |\n");
        assertThat(BenchReport.csv(List.of(r), 2, 180_000_000L).lines().toList().get(1))
                .endsWith(",700.0,,,,284.5,832.8,,725");
    }

    private static Chunk negate(Chunk in) {
        Chunk out = Chunk.allocate(DType.FLOAT64, in.shape());
        double[] a = in.doubles();
        for (int i = 0; i < a.length; i++) {
            out.doubles()[i] = -a[i];
        }
        return out;
    }

    private static BenchSuite.Result result(String id, List<StageRecorder.StageFigures> stages) {
        long tasks = stages.stream().mapToLong(s -> s.tasks).sum();
        long written = stages.stream().mapToLong(s -> s.bytesWritten).sum();
        return new BenchSuite.Result(
                id, id, 1.0, 320_000, 0, written, written, tasks, 0.5, stages, Double.NaN, null, Double.NaN, null);
    }
}
