package io.cubed.jobs.bench;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Spec;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * The Spark side of {@code cubed bench --object-store --executor spark}, in the bench's own Spark session: a Cubed
 * computation on the Spark executor reading the S3 array (times 1, to the local disk: one blockwise stage) and a Spark
 * SQL full scan of a climate-like group on S3 ({@code count(*)}, {@code avg(t2m)}), each with the store's default
 * requests in flight per task and with one ({@code cubed.store.concurrency=1}), results checked. Kept apart so that
 * the in-process bench never loads Spark classes.
 */
final class ObjectStoreSpark {
    private final SparkBench spark;
    private final Path dir;
    private final PrintWriter log;
    private boolean warm;

    ObjectStoreSpark(SparkBench spark, Path dir, PrintWriter log) {
        this.spark = spark;
        this.dir = dir;
        this.log = log;
    }

    String name() {
        return spark.name();
    }

    /** Time steps of the SQL group: 4 chunks of 1 x 181 x 360 float32 each. */
    static int timeSteps(boolean smoke) {
        return smoke ? 8 : 64;
    }

    /** Writes the SQL group locally, for the bench to upload. */
    static void writeGroup(Path local, boolean smoke) throws Exception {
        SqlBench.writeZarr(local.toString(), timeSteps(smoke), 2);
    }

    /** The answer of the scan, computed from the formula. */
    private static double[] expectedScan(int nt) {
        double sum = 0;
        for (int t = 0; t < nt; t++) {
            for (int y = 0; y < SqlBench.NY; y++) {
                for (int x = 0; x < SqlBench.NX; x++) {
                    sum += SqlBench.t2m(t, y, x);
                }
            }
        }
        long n = (long) nt * SqlBench.NY * SqlBench.NX;
        return new double[] {n, sum / n};
    }

    /** Runs both measurements at the server's current latency, with each concurrency, {@code rounds} times. */
    List<ObjectStoreBench.Run> run(
            BenchLocation server,
            int latency,
            int rounds,
            ChunkStore source,
            String arrayUrl,
            String groupUrl,
            boolean smoke)
            throws IOException {
        Map<String, String> s3 = server.options();
        double[] expected = expectedScan(timeSteps(smoke));
        if (!warm) {
            // Spark's and the reader's code compiled once before anything is timed, as in a long-lived session.
            warm = true;
            run(server, latency, 1, source, arrayUrl, groupUrl, smoke);
        }
        List<ObjectStoreBench.Run> runs = new ArrayList<>();
        for (String concurrency : List.of("auto", "1")) {
            String suffix = concurrency.equals("auto") ? "" : ", 1 request in flight per task";
            for (int r = 1; r <= rounds; r++) {
                Path out = dir.resolve("out").resolve("spark-" + latency + "-" + concurrency + "-" + r + ".zarr");
                ObjectStoreBench.deleteTree(out);
                Spec spec = spark.specBuilder()
                        .workDir(dir.resolve("work").toString())
                        .storeOptions(StoreOptions.of(s3).with(Store.CONCURRENCY_OPTION, concurrency))
                        .allowedMem("1GB")
                        .reservedMem("100MB")
                        .build();
                server.reset();
                long start = System.nanoTime();
                CubedArray x = Cubed.fromZarr(arrayUrl, spec);
                Elementwise.multiply(x, Scalar.ofDouble(1)).toZarr(out.toString());
                double seconds = (System.nanoTime() - start) / 1e9;
                runs.add(record(
                        "Spark: times 1 to local disk" + suffix,
                        latency,
                        seconds,
                        source.grid().numChunks(),
                        server,
                        ObjectStoreBench.check(source, out)));

                server.reset();
                start = System.nanoTime();
                List<Row> rows = spark.session()
                        .read()
                        .format("zarr")
                        .options(s3)
                        .option("cubed.store.concurrency", concurrency)
                        .option("chunksPerPartition", "16")
                        .load(groupUrl)
                        .selectExpr("count(*)", "avg(t2m)")
                        .collectAsList();
                seconds = (System.nanoTime() - start) / 1e9;
                long n = rows.get(0).getLong(0);
                double mean = rows.get(0).getDouble(1);
                String check = n == (long) expected[0] && Math.abs(mean - expected[1]) < 1e-4 * Math.abs(expected[1])
                        ? "match"
                        : String.format(
                                Locale.ROOT,
                                "MISMATCH (%d rows, mean %.6f; expected %.0f, %.6f)",
                                n,
                                mean,
                                expected[0],
                                expected[1]);
                runs.add(record(
                        "Spark SQL: full scan of t2m" + suffix,
                        latency,
                        seconds,
                        4L * timeSteps(smoke),
                        server,
                        check));
            }
        }
        return runs;
    }

    private ObjectStoreBench.Run record(
            String who, int latency, double seconds, long chunks, BenchLocation server, String check)
            throws IOException {
        BenchLocation.Counts counts = server.jvmCounts();
        ObjectStoreBench.Run run = new ObjectStoreBench.Run(
                who,
                latency,
                seconds,
                chunks,
                counts.requests(),
                counts.meanInFlight(),
                counts.maxInFlight(),
                counts.stageMeanInFlight(),
                check);
        ObjectStoreBench.print(log, run);
        return run;
    }
}
