package io.cubed.jobs.bench;

import io.cubed.error.InvalidArgumentException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cubed sql-bench}: Spark SQL over the same climate-like values stored as Zarr (read with the {@code zarr}
 * data source) and as Parquet (written by Spark, snappy), the same queries in the same run, alternating; writes {@code
 * sql-report.md}; and the same DataFrame written as Parquet and as Zarr ({@link SqlWriteBench}). Needs Spark on the classpath (spark-submit, or {@code bin/cubed}, which adds it).
 */
@Command(
        name = "sql-bench",
        description = "Spark SQL over Zarr (format zarr) against the same values in Parquet: scans, aggregates,"
                + " a 1%% selection, and the chunks each reads.")
public final class SqlBenchCommand implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", description = "Where the data (kept for reuse) and the report go.")
    Path dir = Path.of("sql-bench");

    @Option(
            names = "--scale",
            description = "Size factor: scale 1 is 96 x 361 x 720 float32 values (25 M rows, 100 MB of values).")
    double scale = 1;

    @Option(names = "--rounds", description = "Timed rounds of each query on each format (default: ${DEFAULT-VALUE}).")
    int rounds = 3;

    @Option(
            names = "--write-rows",
            paramLabel = "N",
            description = "Rows of the DataFrame written as Parquet and as Zarr (default: 10^7 x --scale; 0: no write"
                    + " measurement).")
    Long writeRows;

    @Option(
            names = "--part",
            description = "What to measure: all (default), queries (the queries and the decoding cost), write (the"
                    + " DataFrame written as Parquet and as Zarr).")
    String part = "all";

    @Option(names = "--threads", description = "Spark task slots of local[N] when not under spark-submit.")
    int threads = Runtime.getRuntime().availableProcessors();

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec cli;

    @Override
    public Integer call() throws Exception {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new InvalidArgumentException("sql-bench: --scale must be a number above 0, got " + scale);
        }
        if (rounds < 1) {
            throw new InvalidArgumentException("sql-bench: --rounds must be a positive whole number, got " + rounds);
        }
        if (threads < 1) {
            throw new InvalidArgumentException("sql-bench: --threads must be a positive whole number, got " + threads);
        }
        if (!part.equals("all") && !part.equals("queries") && !part.equals("write")) {
            throw new InvalidArgumentException("sql-bench: --part is all, queries or write, got " + part);
        }
        long rows = writeRows != null ? writeRows : Math.round(10_000_000 * scale);
        if (rows < 0) {
            throw new InvalidArgumentException("sql-bench: --write-rows must be 0 or more, got " + rows);
        }
        PrintWriter log = cli.commandLine().getOut();
        try {
            Class.forName("org.apache.spark.sql.SparkSession");
        } catch (ClassNotFoundException e) {
            throw new InvalidArgumentException("sql-bench: Spark is not on the classpath; run it with bin/cubed"
                    + " (which adds the build's Spark jars, or $SPARK_HOME's), or spark-submit --class"
                    + " io.cubed.jobs.CubedCli jobs/target/cubed-jobs-spark.jar sql-bench");
        }
        // The scans decode gigabytes, in this JVM on local[N]: the vector kernels' warm-ups (Blosc's shuffle, CF
        // decoding) start now rather than after their thresholds, so that the rounds measure a warm JVM.
        io.cubed.storage.zarr.blosc.BloscCodec.warmUp();
        io.cubed.storage.zarr.cf.CfDecoding.warmUp();
        SqlBench.run(dir, scale, rounds, threads, !part.equals("write"), part.equals("queries") ? 0 : rows, log);
        return 0;
    }
}
