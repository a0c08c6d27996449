package io.cubed.jobs.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/**
 * The part of {@code cubed sql-bench} that measures what CF decoding costs: the same full scan of the Zarr copy with a
 * decoding on (the default) and off, in wall time and in the CPU time of the scan's tasks.
 */
final class SqlDecodingBench {
    private SqlDecodingBench() {}

    /**
     * A full scan of the Zarr copy read with CF decoding as configured by default, or with option {@code onOption} =
     * {@code onValue} when it is not null, against the same scan with option {@code option} = {@code value} (one
     * decoding turned off): what the decoding costs.
     */
    record Decoding(String what, String sql, String onOption, String onValue, String option, String value) {}

    static List<Decoding> decodings() {
        return List.of(
                new Decoding(
                        "t2m_packed: int16 to float32 (scale_factor, add_offset, _FillValue to NULL) vs int16 as stored",
                        "SELECT avg(t2m_packed) FROM t",
                        null,
                        null,
                        "decodeCf",
                        "false"),
                new Decoding(
                        "t2m_packed: the same decoding with the fill value as NaN, a column that cannot be NULL (the"
                                + " decoding without Spark's handling of NULLs) vs int16 as stored",
                        "SELECT avg(t2m_packed) FROM t",
                        "nanAsNull",
                        "false",
                        "decodeCf",
                        "false"),
                new Decoding(
                        "t2m: float32 with NaN as NULL (every value checked) vs NaN as NaN",
                        "SELECT avg(t2m) FROM t",
                        null,
                        null,
                        "nanAsNull",
                        "false"));
    }

    /**
     * Times each {@link #decodings()} full scan of the Zarr copy decoded (the default) and with the decoding off, in
     * alternating rounds after a warm-up, and appends to {@code md} the best wall time and the least CPU time of the
     * scan's tasks (Spark's executorCpuTime, summed over tasks: what other processes on the machine do not add to) of
     * each, and their ratios.
     */
    static void run(SparkSession spark, String zarr, int rounds, StringBuilder md, PrintWriter log)
            throws java.util.concurrent.TimeoutException {
        TaskCpu cpu = new TaskCpu();
        spark.sparkContext().addSparkListener(cpu);
        md.append("\n## Cost of CF decoding\n\n")
                .append(
                        "The same full scan of the Zarr copy with the decoding on (the default, or as the row says) and off, alternating:"
                                + " the best wall time and the least CPU time of the scan's tasks (summed over tasks), in"
                                + " seconds, and every round's wall time.\n\n")
                .append("| scan | decoded s | off s | decoded / off | decoded task CPU s | off task CPU s |"
                        + " CPU decoded / off | rounds decoded | rounds off |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        try {
            for (Decoding d : decodings()) {
                List<Double> on = new ArrayList<>();
                List<Double> off = new ArrayList<>();
                double onCpu = Double.MAX_VALUE;
                double offCpu = Double.MAX_VALUE;
                for (int r = 0; r < rounds + 1; r++) {
                    org.apache.spark.sql.DataFrameReader decoded = spark.read().format("zarr");
                    if (d.onOption() != null) {
                        decoded = decoded.option(d.onOption(), d.onValue());
                    }
                    decoded.load(zarr).createOrReplaceTempView("t");
                    double[] a = timed(spark, d.sql(), cpu);
                    spark.read()
                            .format("zarr")
                            .option(d.option(), d.value())
                            .load(zarr)
                            .createOrReplaceTempView("t");
                    double[] b = timed(spark, d.sql(), cpu);
                    if (r > 0) {
                        on.add(a[0]);
                        off.add(b[0]);
                        onCpu = Math.min(onCpu, a[1]);
                        offCpu = Math.min(offCpu, b[1]);
                    }
                }
                double best = on.stream().mapToDouble(x -> x).min().orElseThrow();
                double bestOff = off.stream().mapToDouble(x -> x).min().orElseThrow();
                md.append(String.format(
                        Locale.ROOT,
                        "| %s (%s`%s=%s` is off) | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %s |%n",
                        d.what(),
                        d.onOption() == null ? "" : "`" + d.onOption() + "=" + d.onValue() + "` is on, ",
                        d.option(),
                        d.value(),
                        best,
                        bestOff,
                        best / bestOff,
                        onCpu,
                        offCpu,
                        onCpu / offCpu,
                        BenchReport.list(on),
                        BenchReport.list(off)));
                log.println("decoding " + d.option() + (d.onOption() == null ? "" : " against " + d.onOption())
                        + ": on " + BenchReport.list(on) + " s (task CPU " + onCpu + " s), off "
                        + BenchReport.list(off) + " s (task CPU " + offCpu + " s)");
                log.flush();
            }
        } finally {
            spark.sparkContext().removeSparkListener(cpu);
        }
    }

    /** Runs {@code sql}: its wall time and its tasks' CPU time, in seconds. */
    private static double[] timed(SparkSession spark, String sql, TaskCpu cpu)
            throws java.util.concurrent.TimeoutException {
        spark.sparkContext().listenerBus().waitUntilEmpty();
        cpu.nanos.reset();
        long t0 = System.nanoTime();
        spark.sql(sql).collectAsList();
        double wall = (System.nanoTime() - t0) / 1e9;
        spark.sparkContext().listenerBus().waitUntilEmpty();
        return new double[] {wall, cpu.nanos.sum() / 1e9};
    }

    /** Sums the CPU time of the tasks that end (Spark's executorCpuTime, nanoseconds). */
    static final class TaskCpu extends org.apache.spark.scheduler.SparkListener {
        final java.util.concurrent.atomic.LongAdder nanos = new java.util.concurrent.atomic.LongAdder();

        @Override
        public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
            if (end.taskMetrics() != null) {
                nanos.add(end.taskMetrics().executorCpuTime());
            }
        }
    }
}
