package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Computation;
import io.cubed.plan.FusionOptions;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sibling operations that read the same input chunks in the same order run as one stage and read them once: the first
 * rounds of {@code sum(u)} and {@code mean(u, axis=0)} (the bench's W2), within the memory bound.
 */
class SiblingReadsTest {
    private static final int ROWS = 64;
    private static final int COLS = 8;

    @TempDir
    Path tmp;

    /** Bytes read per stage, by the stage's description. */
    static final class Reads implements Callback {
        final Map<String, AtomicLong> byStage = new ConcurrentHashMap<>();
        final AtomicLong stages = new AtomicLong();

        @Override
        public void onOperationStart(OperationStart event) {
            stages.incrementAndGet();
        }

        @Override
        public void onTaskEnd(TaskEnd event) {
            byStage.computeIfAbsent(event.stage().description(), k -> new AtomicLong())
                    .addAndGet(event.result().bytesRead());
        }

        long total() {
            return byStage.values().stream().mapToLong(AtomicLong::get).sum();
        }
    }

    private Spec spec(String allowedMem) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .allowedMem(allowedMem)
                .reservedMem("0B")
                .build();
    }

    /** u[i, j] = i * 0.5 - j * j, stored in 8 chunks of 8 x 8 along axis 0. */
    private CubedArray storedU(Spec spec) {
        Chunk c = Chunk.allocate(DType.FLOAT64, ROWS, COLS);
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < COLS; j++) {
                c.doubles()[i * COLS + j] = i * 0.5 - j * j;
            }
        }
        String url = tmp.resolve("u.zarr").toString();
        Cubed.asarray(c, spec, 8, COLS).toZarr(url);
        return Cubed.fromZarr(url, spec);
    }

    private static double u(int i, int j) {
        return i * 0.5 - j * j;
    }

    @Test
    void sumAndMeanOverTheSameInputReadItOnce() {
        Spec spec = spec("1GB");
        CubedArray u = storedU(spec);
        CubedArray total = Statistical.sum(u);
        CubedArray colMean = Statistical.mean(u, ReductionOptions.axis(0));

        Reads shared = new Reads();
        List<Chunk> got = Cubed.compute(
                List.of(total, colMean), ComputeOptions.builder().optimize(true).build(), shared);
        Reads apart = new Reads();
        List<Chunk> unshared = Cubed.compute(
                List.of(total, colMean),
                ComputeOptions.builder().optimize(false).build(),
                apart);

        // Reference: plain loops.
        double sum = 0;
        double[] mean = new double[COLS];
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < COLS; j++) {
                sum += u(i, j);
                mean[j] += u(i, j) / ROWS;
            }
        }
        assertThat(got.get(0).doubles()[0]).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(got.get(1).doubles()).containsExactly(mean, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(unshared.get(0).doubles()).containsExactly(got.get(0).doubles());
        assertThat(unshared.get(1).doubles()).containsExactly(got.get(1).doubles());

        // u is 64 x 8 float64 = 4096 bytes. Together, the first rounds read it once, in one stage; apart, twice.
        long uBytes = ROWS * COLS * 8L;
        String firstRounds = shared.byStage.keySet().stream()
                .filter(d -> d.contains("reads") && d.contains("once"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no shared stage among " + shared.byStage.keySet()));
        assertThat(firstRounds).contains("sum round 1/").contains("mean round 1/");
        assertThat(shared.byStage.get(firstRounds).get()).isEqualTo(uBytes);
        long apartFirstRounds = apart.byStage.entrySet().stream()
                .filter(e -> e.getKey().contains("round 1/"))
                .mapToLong(e -> e.getValue().get())
                .sum();
        assertThat(apartFirstRounds).isEqualTo(2 * uBytes);
        assertThat(apart.total() - shared.total()).isEqualTo(uBytes);
        assertThat(shared.stages.get()).isEqualTo(apart.stages.get() - 1);

        Computation comp =
                Computation.prepare(spec, List.of(total.node(), colMean.node()), Map.of(), FusionOptions.defaults());
        assertThat(comp.fusionDecisions())
                .anyMatch(s -> s.startsWith("runs op-") && s.contains("mean round 1/") && s.contains("once"));
        // The plan's figures count the shared stage once: one operation fewer, u's bytes read once.
        io.cubed.plan.PlanStatistics with = comp.statistics();
        io.cubed.plan.PlanStatistics without = comp.unoptimizedStatistics();
        assertThat(with.operations()).isEqualTo(without.operations() - 1);
        assertThat(without.bytesRead() - with.bytesRead()).isEqualTo(uBytes);
        assertThat(with.bytesWritten()).isEqualTo(without.bytesWritten());
        assertThat(comp.explain())
                .containsPattern("op-\\d+ sum round 1/2 and op-\\d+ mean round 1/2 run as one stage"
                        + " of 2 tasks reading array-\\d+ once, .* per task");
    }

    @Test
    void siblingsThatDoNotFitTogetherReadApart() {
        // Each first round alone: one 512-byte input chunk and its state; together they would hold both states. With
        // an allowedMem that fits one operation's task but not both, they run apart, and the values are the same.
        Spec roomy = spec("1GB");
        CubedArray u0 = storedU(roomy);
        Computation wide = Computation.prepare(
                roomy,
                List.of(
                        Statistical.sum(u0).node(),
                        Statistical.mean(u0, ReductionOptions.axis(0)).node()),
                Map.of(),
                FusionOptions.defaults());
        long largestAlone = wide.projectedMemBytes().values().stream()
                .mapToLong(Long::longValue)
                .max()
                .orElseThrow();
        Spec tight = spec(largestAlone + "B");
        CubedArray u = Cubed.fromZarr(tmp.resolve("u.zarr").toString(), tight);
        CubedArray total = Statistical.sum(u);
        CubedArray colMean = Statistical.mean(u, ReductionOptions.axis(0));
        Computation comp =
                Computation.prepare(tight, List.of(total.node(), colMean.node()), Map.of(), FusionOptions.defaults());
        assertThat(comp.fusionDecisions()).anyMatch(s -> s.contains("apart from") && s.contains("over allowedMem"));
        Reads reads = new Reads();
        List<Chunk> got = Cubed.compute(
                List.of(total, colMean), ComputeOptions.builder().optimize(true).build(), reads);
        assertThat(reads.byStage.keySet()).noneMatch(d -> d.contains("once"));
        double sum = 0;
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < COLS; j++) {
                sum += u(i, j);
            }
        }
        assertThat(got.get(0).doubles()[0]).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aReductionOverEveryAxisSpendsItsSplitOnAxesWithSeveralChunks() {
        // 8 chunks along axis 0, one along axis 1: the sum over both axes combines 4 chunks per task (splitEvery 4),
        // as the mean over axis 0 does, not 2 x 2 of which one axis has nothing to combine.
        Spec spec = spec("1GB");
        CubedArray u = storedU(spec);
        assertThat(Reduction.splits("sum", u, new boolean[] {true, true}, ReductionOptions.all()))
                .containsExactly(4, 1);
        assertThat(Reduction.splits("mean", u, new boolean[] {true, false}, ReductionOptions.all()))
                .containsExactly(4, 1);
        // Several chunks on both axes: splitEvery spreads over both, as Cubed does.
        CubedArray square = Creation.ones(new long[] {16, 16}, new int[] {4, 4}, DType.FLOAT64, spec);
        assertThat(Reduction.splits("sum", square, new boolean[] {true, true}, ReductionOptions.all()))
                .containsExactly(2, 2);
    }
}
