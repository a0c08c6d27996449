package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.jobs.CubedCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** The bench command at its smoke size: every workload runs, and the report's figures add up. */
class BenchCommandTest {
    @TempDir
    Path tmp;

    @Test
    void smokeRunWritesAConsistentReport() throws Exception {
        Run run = bench(
                "--smoke",
                "--same-jvm",
                "--threads",
                "2",
                "--dir",
                tmp.resolve("bench").toString(),
                "--out",
                tmp.resolve("report").toString());
        assertThat(run.code()).as(run.err()).isZero();
        List<String> rows = Files.readAllLines(tmp.resolve("report/results.csv"));
        assertThat(rows.get(0)).startsWith("workload,seconds,");
        assertThat(rows).hasSize(7);
        Map<String, long[]> perWorkload = new HashMap<>();
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            double seconds = Double.parseDouble(f[1]);
            long written = Long.parseLong(f[4]);
            long intermediate = Long.parseLong(f[5]);
            long output = Long.parseLong(f[6]);
            double limit = Double.parseDouble(f[8]);
            double efficiency = Double.parseDouble(f[9]);
            assertThat(seconds).isPositive();
            assertThat(efficiency)
                    .as(row)
                    .isCloseTo(limit / seconds, org.assertj.core.data.Percentage.withPercentage(0.5));
            assertThat(intermediate).as(row).isEqualTo(Math.max(0, written - output));
            perWorkload.put(f[0], new long[] {Long.parseLong(f[3]), written, Long.parseLong(f[7])});
        }
        assertThat(perWorkload).containsOnlyKeys("W1", "W2", "W3", "W4", "W5", "W5u");
        // --same-jvm: every workload ran in this JVM, with its heap.
        for (String row : rows.subList(1, rows.size())) {
            assertThat(row).endsWith("," + (Runtime.getRuntime().maxMemory() >> 20));
        }
        assertThat(run.out()).doesNotContain("in a JVM of its own");
        // Fusion: W5 writes no large intermediate; without fusion, the squared deviations (as large as u) are written.
        long intermediateFused = intermediate(rows, "W5");
        long intermediateUnfused = intermediate(rows, "W5u");
        assertThat(intermediateFused).isLessThan(512L * 256 * 8 / 4);
        assertThat(intermediateUnfused).isGreaterThanOrEqualTo(5L * 512 * 256 * 8);
        // W1 reads u and v whole and writes one array of their size: 512 x 256 float64 each.
        long array = 512L * 256 * 8;
        assertThat(perWorkload.get("W1")).containsExactly(2 * array, array, 8);
        // Per operation, bytes and tasks add up to the workload's figures.
        Map<String, long[]> sums = new HashMap<>();
        List<String> mem = Files.readAllLines(tmp.resolve("report/memory.csv"));
        for (String row : mem.subList(1, mem.size())) {
            String[] f = row.split(",");
            long[] s = sums.computeIfAbsent(f[0], k -> new long[3]);
            s[0] += Long.parseLong(f[3]);
            s[1] += Long.parseLong(f[4]);
            s[2] += Long.parseLong(f[2]);
        }
        for (Map.Entry<String, long[]> e : perWorkload.entrySet()) {
            assertThat(sums.get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
        }
        // Memory: the first 2 tasks of every operation were measured, and none held more than its projection
        // (projected - reserved); the "within" column says so from the printed numbers.
        for (String row : mem.subList(1, mem.size())) {
            String[] f = row.split(",");
            long tasks = Long.parseLong(f[2]);
            long projectedData = Long.parseLong(f[5]) - Long.parseLong(f[6]);
            long measured = Long.parseLong(f[7]);
            assertThat(Long.parseLong(f[8])).as(row).isEqualTo(Math.min(2, tasks));
            assertThat(measured).as(row).isBetween(0L, projectedData);
            assertThat(f[10]).as(row).isEqualTo("yes");
        }
        assertThat(Files.readString(tmp.resolve("report/report.md")))
                .contains("No measured operation exceeded its projection.");
        // W3 rechunks through at least one copy stage, and the projections of every operation are within allowedMem.
        assertThat(mem).anyMatch(r -> r.startsWith("W3,"));
        String md = Files.readString(tmp.resolve("report/report.md"));
        assertThat(md).contains("| W5 | quadratic means").contains("limit / wall");
        Document svg = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(tmp.resolve("report/report.svg").toFile());
        assertThat(svg.getDocumentElement().getNodeName()).isEqualTo("svg");
        int bars = 0;
        for (int i = 0; i < svg.getElementsByTagName("rect").getLength(); i++) {
            if ("bar"
                    .equals(
                            svg.getElementsByTagName("rect")
                                                    .item(i)
                                                    .getAttributes()
                                                    .getNamedItem("class")
                                            == null
                                    ? null
                                    : svg.getElementsByTagName("rect")
                                            .item(i)
                                            .getAttributes()
                                            .getNamedItem("class")
                                            .getNodeValue())) {
                bars++;
            }
        }
        assertThat(bars).isEqualTo(6 + mem.size() - 1);
    }

    private static long intermediate(List<String> rows, String workload) {
        for (String row : rows) {
            String[] f = row.split(",");
            if (f[0].equals(workload)) {
                return Long.parseLong(f[5]);
            }
        }
        throw new AssertionError("no row for " + workload);
    }

    /**
     * With --peer dask, every workload also runs in Dask on the same inputs; its results match ours (the run fails
     * otherwise), and the report gives ours / Dask, both resident sets and the floors. Dask must be installed in CI.
     */
    @Test
    void thePeerRunsEveryWorkloadInDaskAndTheReportComparesThem() throws Exception {
        boolean dask = python("/usr/bin/python3", "import dask.array, zarr, numcodecs") == 0;
        if (System.getenv("CI") != null) {
            assertThat(dask).as("CI installs python3-dask and python3-zarr").isTrue();
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(
                dask, "/usr/bin/python3 cannot import dask and zarr (apt-get install python3-dask python3-zarr)");
        Run run = bench(
                "--smoke",
                "--peer",
                "dask",
                "--rounds",
                "2",
                "--no-warmup",
                "--measure-memory",
                "0",
                "--threads",
                "2",
                "--reserved-mem",
                "100MB",
                "--workloads",
                "W2,W4,W5",
                "--dir",
                tmp.resolve("peer-bench").toString(),
                "--out",
                tmp.resolve("peer-report").toString());
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("W2: ours ").contains("(same results)").doesNotContain("results: ");
        List<String> rows = Files.readAllLines(tmp.resolve("peer-report/results.csv"));
        assertThat(rows.get(0))
                .endsWith(",rss_mb,peer_seconds,ours_over_peer,peer_rss_mb,largest_task_mb,rss_bound_mb,"
                        + "worst_round_ours_over_peer,heap_mb");
        assertThat(rows).hasSize(4);
        // Each round's pair, as the log gives it (to the millisecond): the worst round's ratio is the largest of
        // them, within what the rounding of the logged times allows.
        java.util.Map<String, Double> worst = new java.util.HashMap<>();
        java.util.Map<String, Double> worstHigh = new java.util.HashMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(W\\d): ours ([0-9.]+) s, Dask ([0-9.]+) s")
                .matcher(run.out());
        while (m.find()) {
            double ours = Double.parseDouble(m.group(2));
            double theirs = Double.parseDouble(m.group(3));
            worst.merge(m.group(1), (ours - 0.0005) / (theirs + 0.0005), Math::max);
            worstHigh.merge(m.group(1), (ours + 0.0005) / Math.max(1e-9, theirs - 0.0005), Math::max);
        }
        assertThat(worst).containsOnlyKeys("W2", "W4", "W5");
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",", -1);
            double seconds = Double.parseDouble(f[1]);
            double peer = Double.parseDouble(f[11]);
            assertThat(peer).as(row).isPositive();
            assertThat(Double.parseDouble(f[12]))
                    .as(row)
                    .isCloseTo(seconds / peer, org.assertj.core.data.Percentage.withPercentage(1));
            // Resident sets: a JVM and a Python process with NumPy hold tens of MB at the least.
            assertThat(Double.parseDouble(f[10])).as(row).isGreaterThan(20);
            assertThat(Double.parseDouble(f[13])).as(row).isGreaterThan(20);
            // The bound: the JVM's resident set at rest (tens of MB at the least) + 2 threads × the largest task × 1.2.
            assertThat(Double.parseDouble(f[15])).as(row).isGreaterThan(20 + 2 * Double.parseDouble(f[14]) * 1.2);
            // Each workload ran in a JVM of its own whose maximum heap its plan set: the live heap at rest (tens of MB)
            // + 2 threads × (the largest task − the 100 MB reserve) × 1.2, at least 128 MiB; not this JVM's heap.
            double tasksMib = 2 * Math.max(0, Double.parseDouble(f[14]) - 100) * 1.2 * 1e6 / (1 << 20);
            long heapMib = Long.parseLong(f[17]);
            assertThat(heapMib).as(row).isBetween((long) Math.max(128, tasksMib), (long) Math.max(128, tasksMib) + 256);
            assertThat(heapMib).as(row).isNotEqualTo(Runtime.getRuntime().maxMemory() >> 20);
            assertThat(run.out()).contains(f[0] + ": in a JVM of its own, -Xmx");
            // No round's ratio is below best over best: in the round of the peer's best time, ours took at least our
            // best.
            assertThat(Double.parseDouble(f[16]))
                    .as(row)
                    .isBetween(worst.get(f[0]) - 1e-4, worstHigh.get(f[0]) + 1e-4)
                    .isGreaterThanOrEqualTo(Double.parseDouble(f[12]) - 1e-4);
        }
        String md = Files.readString(tmp.resolve("peer-report/report.md"));
        assertThat(md)
                .contains(
                        "| Dask s | ours / Dask | ours / Dask, worst round | our RSS MB | Dask RSS MB | Blosc floor s |")
                .contains(
                        "| workload | largest projected task MB | heap MB | resident at rest MB | bound MB | our RSS MB"
                                + " | RSS / bound | Dask RSS MB | our RSS / Dask's |")
                .contains("best of 2 rounds")
                .contains("cold JVM (--no-warmup)")
                .contains("each workload in a JVM of its own with the heap its plan sets")
                .containsPattern("read from the page cache at \\d+ MB/s")
                .containsPattern("decodes their frames at \\d+ MB/s and encodes at \\d+ MB/s");
    }

    @Test
    void aWarmUpOfNegativeOrContradictorySecondsIsAUsageError() throws Exception {
        Run negative = bench(
                "--smoke",
                "--warmup-seconds",
                "-1",
                "--dir",
                tmp.resolve("w-neg").toString());
        assertThat(negative.code()).isEqualTo(2);
        assertThat(negative.err()).contains("--warmup-seconds").contains("-1.0");
        Run both = bench(
                "--smoke",
                "--no-warmup",
                "--warmup-seconds",
                "5",
                "--dir",
                tmp.resolve("w-both").toString());
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--no-warmup").contains("--warmup-seconds 5.0");
        // Refused before anything was generated.
        assertThat(tmp.resolve("w-neg")).doesNotExist();
        assertThat(tmp.resolve("w-both")).doesNotExist();
    }

    @Test
    void anObjectStoreLocationRefusesWhatDoesNotApplyThereBeforeAnythingRuns() {
        String dir = tmp.resolve("loc").toString();
        Run latency = bench("--object-store", "--smoke", "--location", "s3a://b/p", "--latency-ms", "5", "--dir", dir);
        assertThat(latency.code()).isEqualTo(2);
        assertThat(latency.err())
                .contains("--latency-ms")
                .contains("test server")
                .contains("has its own latency");
        Run scheme = bench("--object-store", "--smoke", "--location", "s3://b/p", "--dir", dir);
        assertThat(scheme.code()).isEqualTo(2);
        assertThat(scheme.err()).contains("--location must be an s3a:// URL").contains("'s3://b/p'");
        Run peerUrl = bench(
                "--object-store", "--smoke", "--location", "s3a://b/p", "--peer-url", "http://h/b/p", "--dir", dir);
        assertThat(peerUrl.code()).isEqualTo(2);
        assertThat(peerUrl.err()).contains("--peer-url goes with --location and --peer dask");
        Run notHttp = bench(
                "--object-store",
                "--smoke",
                "--location",
                "s3a://b/p",
                "--peer",
                "dask",
                "--peer-url",
                "s3a://b/p",
                "--dir",
                dir);
        assertThat(notHttp.code()).isEqualTo(2);
        assertThat(notHttp.err()).contains("--peer-url must be an http:// or https:// URL");
        Run spark = bench("--object-store", "--smoke", "--location", "s3a://b/p", "--executor", "spark", "--dir", dir);
        assertThat(spark.code()).isEqualTo(2);
        assertThat(spark.err()).contains("--executor spark is not supported there");
        Run workloads = bench("--smoke", "--location", "s3a://b/p", "--dir", dir);
        assertThat(workloads.code()).isEqualTo(2);
        assertThat(workloads.err()).contains("--peer-url and --sharded go with --object-store");
        Run shardedAlone = bench("--smoke", "--sharded", "--dir", dir);
        assertThat(shardedAlone.code()).isEqualTo(2);
        assertThat(shardedAlone.err()).contains("--peer-url and --sharded go with --object-store");
        assertThat(tmp.resolve("loc")).doesNotExist();
    }

    @Test
    void aPeerThatCannotRunIsAUsageErrorNamingThePackages() throws Exception {
        String before = System.getProperty(DaskPeer.PYTHON_PROPERTY);
        System.setProperty(
                DaskPeer.PYTHON_PROPERTY, tmp.resolve("no-such-python").toString());
        try {
            Run run = bench(
                    "--smoke", "--peer", "dask", "--dir", tmp.resolve("nopeer").toString());
            assertThat(run.code()).isEqualTo(2);
            assertThat(run.err())
                    .contains("bench --peer dask")
                    .contains("no-such-python")
                    .contains("python3-dask");
            // Refused before anything was generated.
            assertThat(tmp.resolve("nopeer/inputs")).doesNotExist();
            run = bench("--smoke", "--peer", "numpy", "--dir", "x");
            assertThat(run.code()).isEqualTo(2);
            assertThat(run.err()).contains("--peer must be dask, got 'numpy'");
        } finally {
            if (before == null) {
                System.clearProperty(DaskPeer.PYTHON_PROPERTY);
            } else {
                System.setProperty(DaskPeer.PYTHON_PROPERTY, before);
            }
        }
    }

    /** What a run of the command line gave: its exit code and everything it printed. */
    record Run(int code, String out, String err) {}

    /** Runs {@code cubed bench args}. */
    static Run bench(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "bench";
        System.arraycopy(args, 0, all, 1, args.length);
        int code = CubedCli.run(new PrintWriter(out), new PrintWriter(err), all);
        return new Run(code, out.toString(), err.toString());
    }

    /** The exit code of {@code python -c code} (-1 when it cannot start). */
    static int python(String python, String code) throws Exception {
        try {
            Process p = new ProcessBuilder(python, "-c", code)
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor();
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    @Test
    void theWarmUpLastsThreeSecondsUnlessToldOtherwiseColdOrAtSmokeSize() {
        assertThat(BenchCommand.warmupSeconds(null, false, false)).isEqualTo(3.0);
        assertThat(BenchCommand.warmupSeconds(null, false, true)).isZero();
        assertThat(BenchCommand.warmupSeconds(null, true, false)).isZero();
        assertThat(BenchCommand.warmupSeconds(0.5, false, false)).isEqualTo(0.5);
        assertThat(BenchCommand.warmupSeconds(10.0, false, true)).isEqualTo(10.0);
    }
}
