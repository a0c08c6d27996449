package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The in-process executor's heap bound from the plan, and the heap it returns before a smaller plan runs. */
class HeapFitTest {
    private static final long MB = 1_000_000L;

    static Stage stage(String id, long tasks, long projectedBytes, List<String> dependsOn) {
        return new Stage(id, id, tasks, i -> TaskIo.NONE, projectedBytes, dependsOn);
    }

    @Test
    void theLargestTaskIsTheLargestProjectionOfAStageWithTasks() {
        ExecutionPlan plan = new ExecutionPlan(
                "c",
                List.of(
                        stage("op-001", 200, 150_300_000L, List.of()),
                        stage("op-002", 16, 284_500_000L, List.of("op-001")),
                        stage("op-003", 0, 1_000 * MB, List.of("op-002"))));
        assertThat(plan.largestTaskBytes()).isEqualTo(284_500_000L);
        assertThat(new ExecutionPlan("e", List.of()).largestTaskBytes()).isZero();
    }

    @Test
    void theExecutorsBoundIsTheHeapAfterCollectionsPlusThreadsTimesTheLargestTask() {
        ExecutionPlan plan = new ExecutionPlan(
                "c",
                List.of(stage("op-001", 200, 150_300_000L, List.of()), stage("op-002", 16, 284_500_000L, List.of())));
        LocalExecutor two = new LocalExecutor(2, 1);
        long before = HeapFit.heapAfterCollections();
        io.cubed.memory.HeapBound b = two.heapBound(plan);
        long after = HeapFit.heapAfterCollections();
        assertThat(b.threads()).isEqualTo(2);
        assertThat(b.largestTaskBytes()).isEqualTo(284_500_000L);
        assertThat(b.tasksBytes()).isEqualTo(2 * 284_500_000L * 12 / 10);
        // the baseline: the heap pools' usage after their last collections, read when the bound was made
        assertThat(b.baselineBytes()).isPositive().isBetween(Math.min(before, after), Math.max(before, after));
        assertThat(new LocalExecutor(16, 1).heapBound(plan).tasksBytes()).isEqualTo(16 * 284_500_000L * 12 / 10);
    }

    /**
     * In a JVM of its own with G1, as bin/cubed starts it: a computation grows the heap to hold 400 MB at once; before
     * the next plan, whose tasks need 10 MB each, the executor returns the heap (G1 shrinks it to {@code
     * MaxHeapFreeRatio} of the little left live, not to the plan's bound), and the process's resident set falls with it.
     */
    @Test
    void beforeASmallerPlanTheExecutorReturnsTheHeapAnEarlierOneGrew() throws Exception {
        long[] f = fork("-XX:G1HeapRegionSize=32m");
        assertThat(f[0]).isGreaterThan(400 * MB);
        assertThat(f[2]).isLessThan(f[0]);
        // most of the 400 MB the first plan held comes back
        assertThat(f[0] - f[1]).isGreaterThan(300 * MB);
        assertThat(f[3] - f[4]).isGreaterThan(200 * MB);
    }

    /**
     * The same with the serial collector, which shrinks its heap in one full collection only with {@code
     * -XX:-ShrinkHeapInSteps}: to within the plan's bound.
     */
    @Test
    void theSerialCollectorReturnsTheHeapToThePlansBound() throws Exception {
        long[] f = fork("-XX:+UseSerialGC", "-XX:-ShrinkHeapInSteps");
        assertThat(f[0]).isGreaterThan(400 * MB);
        assertThat(f[1]).isLessThanOrEqualTo(f[2]);
        assertThat(f[3] - f[4]).isGreaterThan(200 * MB);
    }

    /**
     * In a JVM holding 300 MB live besides the plans (G1 keeps up to {@code MaxHeapFreeRatio} of a heap free, so no
     * collection brings it down to a 1 MB plan's bound): the first computation collects once, and the 19 after it,
     * finding a heap no larger than that collection left, do not collect again.
     */
    @Test
    void aHeapThatACollectionCannotShrinkIsNotCollectedBeforeEveryComputation() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-Xms32m",
                        "-Xmx2g",
                        "-cp",
                        System.getProperty("java.class.path"),
                        HeapFitMain.class.getName(),
                        "repeat")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        String[] f = out.lines()
                .filter(l -> l.startsWith("full "))
                .findFirst()
                .orElseThrow()
                .split(" ");
        // the 300 MB are still live, so the heap is well above the plans' bound of a few MB over the baseline
        assertThat(Long.parseLong(f[2])).as(out).isGreaterThan(300 * MB);
        assertThat(Long.parseLong(f[1])).as(out).isEqualTo(1);
    }

    /**
     * Runs {@link HeapFitMain} with {@code -Xms32m -Xmx1g} and {@code gcOptions}; returns the committed heap before
     * and after the second plan, its bound, and the resident set before and after it, in bytes.
     */
    private static long[] fork(String... gcOptions) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(List.of(gcOptions));
        cmd.addAll(List.of(
                "-Xms32m", "-Xmx1g", "-cp", System.getProperty("java.class.path"), HeapFitMain.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        String[] f = out.lines()
                .filter(l -> l.startsWith("heap "))
                .findFirst()
                .orElseThrow()
                .split(" ");
        long[] v = new long[5];
        for (int i = 0; i < 5; i++) {
            v[i] = Long.parseLong(f[i + 1]);
        }
        return v;
    }
}
