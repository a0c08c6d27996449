package io.cubed.jobs.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The write part of {@code cubed sql-bench}: one generated DataFrame of {@code rows} rows (dimensions time, lat, lon
 * and two float columns) written as Parquet (snappy) and as Zarr ({@code df.write.format("zarr")}), alternating, in
 * the same session; medians and their ratio. Both copies are then read back and their counts and sums compared.
 */
final class SqlWriteBench {
    /** Latitudes and longitudes of the generated grid: 100,000 cells per time step. */
    static final int NY = 200;

    static final int NX = 500;

    private SqlWriteBench() {}

    /** The DataFrame written: {@code rows} rows in C order of (time, lat, lon), hourly times from 2000-01-01. */
    static Dataset<Row> frame(SparkSession spark, long rows) {
        long perTime = (long) NY * NX;
        return spark.range(rows)
                .selectExpr(
                        "timestamp_seconds(946684800 + (id DIV " + perTime + ") * 3600) AS time_ltz",
                        // Double literals (0.9D): plain 0.9 is a decimal in Spark SQL, whose arithmetic would cost
                        // more than either writer.
                        "89.5D - ((id DIV " + NX + ") % " + NY + ") * 0.9D AS lat",
                        "(id % " + NX + ") * 0.72D AS lon",
                        "CAST(250D + (id % 997) * 0.05D AS FLOAT) AS t2m",
                        "CAST((hash(id) % 2000) / 100D AS FLOAT) AS u10")
                .selectExpr("CAST(time_ltz AS TIMESTAMP_NTZ) AS time", "lat", "lon", "t2m", "u10");
    }

    /** The time steps of a frame of {@code rows} rows (a multiple of the cells per time step is expected). */
    static long times(long rows) {
        return (rows + (long) NY * NX - 1) / ((long) NY * NX);
    }

    static void run(SparkSession spark, Path dir, long rows, int rounds, StringBuilder md, PrintWriter log) {
        String parquet = dir.resolve("write.parquet").toAbsolutePath().toString();
        String zarr = dir.resolve("write.zarr").toAbsolutePath().toString();
        String chunks = "time:10,lat:" + NY + ",lon:" + NX;
        List<Double> pt = new ArrayList<>();
        List<Double> zt = new ArrayList<>();
        List<Double> pc = new ArrayList<>();
        List<Double> zc = new ArrayList<>();
        SqlDecodingBench.TaskCpu cpu = new SqlDecodingBench.TaskCpu();
        spark.sparkContext().addSparkListener(cpu);
        try {
            for (int r = 0; r < rounds + 1; r++) {
                // Round 0 warms both up and is not counted.
                double[] p = timed(spark, cpu, () -> frame(spark, rows)
                        .write()
                        .mode("overwrite")
                        .option("compression", "snappy")
                        .parquet(parquet));
                double[] z = timed(spark, cpu, () -> frame(spark, rows)
                        .write()
                        .format("zarr")
                        .mode("overwrite")
                        .option("dims", "time,lat,lon")
                        .option("chunks", chunks)
                        .save(zarr));
                log.println(String.format(
                        Locale.ROOT,
                        "write round %d: parquet %.2f s (task CPU %.2f s), zarr %.2f s (task CPU %.2f s)",
                        r,
                        p[0],
                        p[1],
                        z[0],
                        z[1]));
                log.flush();
                if (r > 0) {
                    pt.add(p[0]);
                    zt.add(z[0]);
                    pc.add(p[1]);
                    zc.add(z[1]);
                }
            }
        } finally {
            spark.sparkContext().removeSparkListener(cpu);
        }
        String check = "SELECT count(*), count(t2m), sum(CAST(t2m AS DOUBLE)), sum(CAST(u10 AS DOUBLE)),"
                + " count(DISTINCT time), min(time), max(time) FROM t";
        spark.read().parquet(parquet).createOrReplaceTempView("t");
        String p = SqlBench.canonical(spark.sql(check).collectAsList());
        spark.read().format("zarr").load(zarr).createOrReplaceTempView("t");
        String z = SqlBench.canonical(spark.sql(check).collectAsList());
        if (!p.equals(z)) {
            throw new IllegalStateException("write: the Zarr copy reads back " + z + ", the Parquet copy " + p);
        }
        double pm = median(pt);
        double zm = median(zt);
        md.append(String.format(
                        Locale.ROOT,
                        "%n## Writing a DataFrame%n%n%,d rows (time %d x lat %d x lon %d; time timestamp_ntz, lat and lon"
                                + " double, t2m and u10 float, generated with spark.range in C order), written as"
                                + " Parquet (snappy) and as Zarr (`dims` time,lat,lon, `chunks` %s, Blosc-LZ4),"
                                + " alternating, %d rounds after one warm-up round; both copies read back equal"
                                + " (count, sums, times).%n%n",
                        rows,
                        times(rows),
                        NY,
                        NX,
                        chunks,
                        rounds))
                .append(
                        "| write | median s | median task CPU s | rounds s | rounds task CPU s |\n|---|---|---|---|---|\n")
                .append(String.format(
                        Locale.ROOT,
                        "| Parquet (snappy) | %.2f | %.2f | %s | %s |%n",
                        pm,
                        median(pc),
                        BenchReport.list(pt),
                        BenchReport.list(pc)))
                .append(String.format(
                        Locale.ROOT,
                        "| Zarr | %.2f | %.2f | %s | %s |%n",
                        zm,
                        median(zc),
                        BenchReport.list(zt),
                        BenchReport.list(zc)))
                .append(String.format(
                        Locale.ROOT,
                        "%nZarr / Parquet (medians): %.2f wall, %.2f task CPU (Spark's executorCpuTime summed over"
                                + " the write's tasks, which other processes on the machine add little to)%n",
                        zm / pm,
                        median(zc) / median(pc)));
        log.println(String.format(
                Locale.ROOT,
                "write: parquet median %.2f s, zarr median %.2f s, ratio %.2f wall, %.2f task CPU",
                pm,
                zm,
                zm / pm,
                median(zc) / median(pc)));
        log.flush();
    }

    /** Runs {@code write}: its wall time and its tasks' CPU time, in seconds. */
    private static double[] timed(SparkSession spark, SqlDecodingBench.TaskCpu cpu, Runnable write) {
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty();
            cpu.nanos.reset();
            long t0 = System.nanoTime();
            write.run();
            double wall = (System.nanoTime() - t0) / 1e9;
            spark.sparkContext().listenerBus().waitUntilEmpty();
            return new double[] {wall, cpu.nanos.sum() / 1e9};
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("write: Spark's listener bus did not empty", e);
        }
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
