package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.jobs.bench.BenchCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed bench --executor spark}: the suite, and its warm-up as Spark jobs. The in-process runs, whose memory is
 * measured in a JVM of their own, are in BenchCommandTest.
 */
class BenchOnSparkTest {
    @TempDir
    Path tmp;

    @Test
    void theSuiteRunsOnSparkToo() throws Exception {
        Run run = bench(
                "--smoke",
                "--executor",
                "spark",
                "--threads",
                "2",
                "--rounds",
                "2",
                "--warmup-seconds",
                "3",
                "--workloads",
                "W1,W2",
                "--dir",
                tmp.resolve("spark-bench").toString(),
                "--out",
                tmp.resolve("spark-report").toString());
        assertThat(run.code()).as(run.err()).isZero();
        // The smoke-size warm-up repeats until 3 s have passed; the report says how many runs it took.
        java.util.regex.Matcher warm = java.util.regex.Pattern.compile(
                        "warm-up: (\\d+) runs? of every workload in (\\d+\\.\\d) s")
                .matcher(run.out());
        assertThat(warm.find()).as(run.out()).isTrue();
        assertThat(Double.parseDouble(warm.group(2))).isGreaterThanOrEqualTo(3.0);
        int warmups = Integer.parseInt(warm.group(1));
        assertThat(Files.readString(tmp.resolve("spark-report/report.md")))
                .contains(
                        warmups == 1
                                ? "after a warm-up run of each workload on smoke-size inputs"
                                : "after " + warmups
                                        + " warm-up runs of each workload on smoke-size inputs (--warmup-seconds 3)");
        // Every round is logged with the tasks' summed time beside its wall time and the JIT compilers' time during
        // it (warm-up shows; the best counts).
        for (String w : List.of("W1", "W2")) {
            for (int round = 1; round <= 2; round++) {
                assertThat(run.out())
                        .containsPattern(w + ": round " + round
                                + " of 2, \\d+\\.\\d\\d s, tasks \\d+\\.\\d\\d s over 2 threads, JIT \\d+\\.\\d\\d s");
            }
        }
        String md = Files.readString(tmp.resolve("spark-report/report.md"));
        assertThat(md)
                .contains("spark(local[2])")
                .contains("| W1 |")
                .contains("| W2 |")
                .contains("Peak memory was not measured in this run");
        List<String> rows = Files.readAllLines(tmp.resolve("spark-report/results.csv"));
        assertThat(rows).hasSize(3);
        // W1 on Spark moves the same bytes as in-process: u and v read, one array written.
        String[] w1 = rows.get(1).split(",");
        long array = 512L * 256 * 8;
        assertThat(Long.parseLong(w1[3])).isEqualTo(2 * array);
        assertThat(Long.parseLong(w1[4])).isEqualTo(array);
    }

    /**
     * On Spark the warm-up runs every stage as a Spark job, also the smoke-size stages that the executor would run on
     * the driver, so that Spark's task path is warm for the timed rounds: a bench with the warm-up starts one Spark job
     * per stage of the workload more than the same bench without it.
     */
    @Test
    void onSparkTheWarmUpRunsEveryStageAsASparkJob() throws Exception {
        org.apache.spark.sql.SparkSession session = org.apache.spark.sql.SparkSession.builder()
                .master("local[2]")
                .appName("bench-warmup")
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        try {
            java.util.concurrent.atomic.AtomicInteger jobs = new java.util.concurrent.atomic.AtomicInteger();
            session.sparkContext().addSparkListener(new org.apache.spark.scheduler.SparkListener() {
                @Override
                public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart event) {
                    jobs.incrementAndGet();
                }
            });
            List<String> common = List.of(
                    "--smoke",
                    "--executor",
                    "spark",
                    "--threads",
                    "2",
                    "--measure-memory",
                    "0",
                    "--workloads",
                    "W2",
                    "--dir",
                    tmp.resolve("warm-jobs").toString());
            java.util.List<String> cold = new java.util.ArrayList<>(common);
            cold.addAll(
                    List.of("--no-warmup", "--out", tmp.resolve("cold-report").toString()));
            Run coldRun = bench(cold.toArray(new String[0]));
            assertThat(coldRun.code()).as(coldRun.err()).isZero();
            session.sparkContext().listenerBus().waitUntilEmpty();
            int coldJobs = jobs.getAndSet(0);
            java.util.List<String> warm = new java.util.ArrayList<>(common);
            warm.addAll(List.of("--out", tmp.resolve("warm-report").toString()));
            Run warmRun = bench(warm.toArray(new String[0]));
            assertThat(warmRun.code()).as(warmRun.err()).isZero();
            session.sparkContext().listenerBus().waitUntilEmpty();
            // The workload's stages, one line each in memory.csv (after its header).
            long stages =
                    Files.readAllLines(tmp.resolve("warm-report/memory.csv")).size() - 1;
            assertThat(stages).isGreaterThan(1);
            assertThat(jobs.get()).isEqualTo(coldJobs + (int) stages);
        } finally {
            session.stop();
        }
    }

    private static Run bench(String... args) {
        return BenchCommandTest.bench(args);
    }
}
