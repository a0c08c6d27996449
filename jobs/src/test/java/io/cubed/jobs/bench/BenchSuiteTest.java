package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The full-size rounds that let the JIT settle before the timed ones ({@link BenchSuite#untilJitQuiet}). */
class BenchSuiteTest {
    @TempDir
    Path dir;

    private Spec spec() {
        return Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("1GB")
                .executor(new LocalExecutor(2, 1))
                .build();
    }

    private static List<Workload> w1AndW2() {
        return Workloads.all().stream()
                .filter(w -> w.id().equals("W1") || w.id().equals("W2"))
                .toList();
    }

    @Test
    void withNoBudgetEachWorkloadRunsOnceAndLeavesNoOutput() throws Exception {
        BenchData.Size size = BenchData.Size.of(1, true);
        List<BenchSuite.JitSettling> settled = BenchSuite.untilJitQuiet(w1AndW2(), spec(), size, dir, 2, 0);
        assertThat(settled).extracting(BenchSuite.JitSettling::workload).containsExactly("W1", "W2");
        for (BenchSuite.JitSettling s : settled) {
            assertThat(s.roundSeconds()).hasSize(1);
            assertThat(s.jitSeconds()).hasSize(1);
            assertThat(s.roundSeconds().get(0)).isPositive();
            assertThat(s.jitSeconds().get(0)).isGreaterThanOrEqualTo(0);
            assertThat(dir.resolve("out-" + s.workload())).doesNotExist();
        }
        // The inputs are made at the size asked for, as for the timed rounds.
        assertThat(dir.resolve("inputs/u.zarr/.zarray")).exists();
        assertThat(Files.readString(dir.resolve("inputs/u.zarr/.zarray"))).contains("512", "256");
    }

    @Test
    void roundsFillTheBudgetThenGoOnUntilTwoInARowAreQuietForAtMostTwice() throws Exception {
        BenchData.Size size = BenchData.Size.of(1, true);
        double budget = 1.5;
        for (BenchSuite.JitSettling s : BenchSuite.untilJitQuiet(w1AndW2(), spec(), size, dir, 2, budget)) {
            List<Double> rounds = s.roundSeconds();
            List<Double> jit = s.jitSeconds();
            assertThat(jit).hasSameSizeAs(rounds);
            int n = rounds.size();
            double beforeLast = rounds.subList(0, n - 1).stream()
                    .mapToDouble(Double::doubleValue)
                    .sum();
            double all = beforeLast + rounds.get(n - 1);
            // It ran for the whole budget, not stopping on quiet rounds before (smoke-size rounds take well under it).
            assertThat(all).as("%s: rounds %s", s.workload(), rounds).isGreaterThanOrEqualTo(budget);
            assertThat(n).isGreaterThanOrEqualTo(2);
            // It stopped for one of the two reasons: the last two rounds quiet, or twice the budget spent with the
            // last.
            boolean lastTwoQuiet = quiet(jit, rounds, n - 1) && quiet(jit, rounds, n - 2);
            assertThat(lastTwoQuiet || all >= 2 * budget)
                    .as("%s: rounds %s, JIT %s", s.workload(), rounds, jit)
                    .isTrue();
            // And not earlier: past the budget, no two quiet rounds in a row before the last; twice the budget not
            // spent before the last.
            double spent = 0;
            for (int k = 0; k < n - 1; k++) {
                spent += rounds.get(k);
                if (spent >= budget && k >= 1) {
                    assertThat(quiet(jit, rounds, k) && quiet(jit, rounds, k - 1))
                            .as("%s stopped late: %s, JIT %s", s.workload(), rounds, jit)
                            .isFalse();
                }
            }
            assertThat(beforeLast).isLessThan(2 * budget);
            assertThat(dir.resolve("out-" + s.workload())).doesNotExist();
        }
    }

    /** Whether the JIT counted as quiet in round {@code k} (on the test's 2 threads). */
    private static boolean quiet(List<Double> jit, List<Double> rounds, int k) {
        return jit.get(k) <= BenchSuite.QUIET_JIT_SHARE * rounds.get(k) * 2;
    }
}
