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
    void roundsGoOnUntilTwoInARowAreQuietOrTheBudgetIsSpent() throws Exception {
        BenchData.Size size = BenchData.Size.of(1, true);
        double budget = 2;
        for (BenchSuite.JitSettling s : BenchSuite.untilJitQuiet(w1AndW2(), spec(), size, dir, 2, budget)) {
            List<Double> rounds = s.roundSeconds();
            List<Double> jit = s.jitSeconds();
            assertThat(jit).hasSameSizeAs(rounds);
            int n = rounds.size();
            double beforeLast = rounds.subList(0, n - 1).stream()
                    .mapToDouble(Double::doubleValue)
                    .sum();
            double all = beforeLast + rounds.get(n - 1);
            // It stopped for one of the two reasons: the last two rounds quiet, or the budget spent with the last.
            boolean lastTwoQuiet = n >= 2
                    && jit.get(n - 1) <= BenchSuite.QUIET_JIT_SHARE * rounds.get(n - 1) * 2
                    && jit.get(n - 2) <= BenchSuite.QUIET_JIT_SHARE * rounds.get(n - 2) * 2;
            assertThat(lastTwoQuiet || all >= budget)
                    .as("%s: rounds %s, JIT %s", s.workload(), rounds, jit)
                    .isTrue();
            // And not earlier: no two quiet rounds in a row before the last, and the budget not spent before it.
            for (int k = 1; k < n - 1; k++) {
                boolean quietPair = jit.get(k) <= BenchSuite.QUIET_JIT_SHARE * rounds.get(k) * 2
                        && jit.get(k - 1) <= BenchSuite.QUIET_JIT_SHARE * rounds.get(k - 1) * 2;
                assertThat(quietPair)
                        .as("%s stopped late: %s, JIT %s", s.workload(), rounds, jit)
                        .isFalse();
            }
            if (n > 1) {
                assertThat(beforeLast).isLessThan(budget);
            }
            assertThat(dir.resolve("out-" + s.workload())).doesNotExist();
        }
    }
}
