package io.cubed.jobs.bench;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.spark.sql.ZarrScanMetrics;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrGroup;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** The Spark side of {@code cubed sql-bench}, apart so that the command line loads without Spark. */
final class SqlBench {
    /** One query, as SQL over the view {@code t}. */
    record Query(String id, String what, String sql) {}

    private SqlBench() {}

    static List<Query> queries(int nt) {
        int oneTime = nt / 2;
        return List.of(
                new Query("Q1", "full scan, one aggregate", "SELECT avg(t2m) FROM t"),
                new Query(
                        "Q2",
                        "tropics, mean per time",
                        "SELECT time, avg(t2m) FROM t WHERE lat BETWEEN -23.5 AND 23.5 GROUP BY time"),
                new Query(
                        "Q3",
                        "one time step (1/" + nt + " of time)",
                        "SELECT avg(t2m), max(t2m) FROM t WHERE time = TIMESTAMP_NTZ '" + day(oneTime) + "'"),
                new Query("Q4", "one grid column, all times", "SELECT time, t2m FROM t WHERE lat = 45.0 AND lon = 7.0"),
                new Query("Q5", "full scan of the packed int16 copy, decoded", "SELECT avg(t2m_packed) FROM t"));
    }

    /** The label of time step {@code t}: {@code "days since 2000-01-01"}, as SQL shows the decoded time. */
    static String day(int t) {
        return java.time.LocalDate.of(2000, 1, 1).plusDays(t) + " 00:00:00";
    }

    /**
     * Runs the queries (when {@code queries}) and the write measurement of {@code writeRows} rows (none when 0), and
     * writes {@code sql-report.md} in {@code dir}.
     */
    static void run(Path dir, double scale, int rounds, int threads, boolean queries, long writeRows, PrintWriter log)
            throws Exception {
        boolean exists = SparkSession.getActiveSession().isDefined() || System.getProperty("spark.master") != null;
        SparkSession.Builder b = SparkSession.builder().appName("cubed-sql-bench");
        if (!exists) {
            b = b.master("local[" + threads + "]").config("spark.ui.enabled", "false");
        }
        boolean created = SparkSession.getActiveSession().isEmpty();
        SparkSession spark = b.getOrCreate();
        try {
            Files.createDirectories(dir);
            StringBuilder md = new StringBuilder();
            if (queries) {
                runQueries(spark, dir, scale, rounds, threads, md, log);
            } else {
                md.append("# cubed sql-bench\n");
            }
            if (writeRows > 0) {
                SqlWriteBench.run(spark, dir, writeRows, rounds, md, log);
            }
            Files.writeString(dir.resolve("sql-report.md"), md.toString(), StandardCharsets.UTF_8);
            log.println();
            log.print(md);
            log.flush();
        } finally {
            if (created) {
                spark.stop();
            }
        }
    }

    private static void runQueries(
            SparkSession spark, Path dir, double scale, int rounds, int threads, StringBuilder md, PrintWriter log)
            throws Exception {
        int nt = Math.max(2, (int) Math.round(96 * scale));
        Path zarr = dir.resolve("climate-cf-" + nt + ".zarr").toAbsolutePath();
        Path parquet = dir.resolve("climate-cf-" + nt + ".parquet").toAbsolutePath();
        Files.createDirectories(dir);
        if (!Files.exists(zarr.resolve(".zgroup")) || !Files.exists(zarr.resolve("t2m_packed/.zarray"))) {
            log.println("writing " + zarr + " ...");
            log.flush();
            writeZarr(zarr.toString(), nt, threads);
        }
        if (!Files.exists(parquet.resolve("_SUCCESS"))) {
            log.println("writing " + parquet + " (Spark, snappy) ...");
            log.flush();
            spark.read()
                    .format("zarr")
                    .load(zarr.toString())
                    .write()
                    .mode("overwrite")
                    .option("compression", "snappy")
                    .parquet(parquet.toString());
        }
        long zarrBytes = sizeOf(zarr);
        long parquetBytes = sizeOf(parquet);
        long totalChunks = ZarrArray.open(zarr.resolve("t2m").toString()).grid().numChunks();
        md.append("# cubed sql-bench\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "%s, %d x %d x %d float32 (%,d rows), and the same field packed as int16"
                                + " (t2m_packed: scale_factor, add_offset, _FillValue), Zarr %s (Blosc-LZ4, chunks"
                                + " 1 x 181 x 360: %d per variable) vs Parquet %s (Spark, snappy, the decoded"
                                + " values); %d rounds each, alternating; %s.%n%n",
                        spark.sparkContext().master(),
                        nt,
                        NY,
                        NX,
                        (long) nt * NY * NX,
                        mb(zarrBytes),
                        totalChunks,
                        mb(parquetBytes),
                        rounds,
                        "best and every round in seconds"))
                .append("| query | what | zarr s | parquet s | zarr / parquet | zarr chunks read | rounds zarr |"
                        + " rounds parquet |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (Query q : queries(nt)) {
            List<Double> zt = new ArrayList<>();
            List<Double> pt = new ArrayList<>();
            long chunks = 0;
            String zAnswer = null;
            String pAnswer = null;
            for (int r = 0; r < rounds + 1; r++) {
                // Round 0 warms both up and is not counted.
                spark.read().format("zarr").load(zarr.toString()).createOrReplaceTempView("t");
                long t0 = System.nanoTime();
                Dataset<Row> zdf = spark.sql(q.sql());
                List<Row> zr = zdf.collectAsList();
                double zs = (System.nanoTime() - t0) / 1e9;
                chunks = ZarrScanMetrics.chunksRead(zdf);
                spark.read().parquet(parquet.toString()).createOrReplaceTempView("t");
                t0 = System.nanoTime();
                List<Row> pr = spark.sql(q.sql()).collectAsList();
                double ps = (System.nanoTime() - t0) / 1e9;
                zAnswer = canonical(zr);
                pAnswer = canonical(pr);
                if (r > 0) {
                    zt.add(zs);
                    pt.add(ps);
                }
            }
            if (!zAnswer.equals(pAnswer)) {
                throw new IllegalStateException(q.id() + ": the answers differ between Zarr and Parquet:\n"
                        + abbreviate(zAnswer) + "\nvs\n" + abbreviate(pAnswer));
            }
            double zb = zt.stream().mapToDouble(x -> x).min().orElseThrow();
            double pb = pt.stream().mapToDouble(x -> x).min().orElseThrow();
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %.2f | %.2f | %.2f | %d of %d | %s | %s |%n",
                    q.id(),
                    q.what(),
                    zb,
                    pb,
                    zb / pb,
                    chunks,
                    totalChunks,
                    BenchReport.list(zt),
                    BenchReport.list(pt)));
            log.println(q.id() + " zarr " + BenchReport.list(zt) + " s, parquet " + BenchReport.list(pt) + " s, chunks "
                    + chunks);
            log.flush();
        }
        md.append("\nQueries (over the view `t`):\n\n");
        for (Query q : queries(nt)) {
            md.append("- ").append(q.id()).append(": `").append(q.sql()).append("`\n");
        }
        md.append("\nAnswers checked equal between the two formats (rounded to 6 significant digits).\n");
        SqlDecodingBench.run(spark, zarr.toString(), rounds, md, log);
    }

    static final int NY = 361;
    static final int NX = 720;

    /** Latitude of row y: 90 down to -90 in half degrees. */
    static double lat(int y) {
        return 90.0 - 0.5 * y;
    }

    static double lon(int x) {
        return 0.5 * x;
    }

    /** A smooth field with a seasonal cycle and a little deterministic noise, as 2 m temperature looks. */
    static float t2m(int t, int y, int x) {
        double la = Math.toRadians(lat(y));
        double lo = Math.toRadians(lon(x));
        int h = (t * 73856093) ^ (y * 19349663) ^ (x * 83492791);
        double noise = ((h >>> 8) & 0xffff) / 65536.0 - 0.5;
        return (float) (258.0
                + 35.0 * Math.cos(la)
                + 8.0 * Math.sin(2 * Math.PI * t / 365.0) * Math.sin(la)
                + 2.0 * Math.sin(3 * lo)
                + noise);
    }

    /** The packing of {@code t2m_packed}: stored = round((t2m - OFFSET) / SCALE), -32767 for missing values. */
    static final double SCALE = 0.002;

    static final double OFFSET = 260.0;

    /**
     * Writes the group as xarray writes one: coordinates time (int64 "days since 2000-01-01", no fill value), lat, lon
     * (float64, fill NaN), t2m (float32, fill NaN) and t2m_packed (the same field packed as int16 with scale_factor,
     * add_offset and _FillValue), chunks of 1 x 181 x 360.
     */
    static void writeZarr(String url, int nt, int threads) throws Exception {
        StoreOptions options = StoreOptions.empty();
        if (Zarr.arrayExists(url + "/t2m", options)) {
            io.cubed.storage.fs.Stores.open(url).deletePrefix("");
        }
        ZarrGroup g = ZarrGroup.create(url, options);
        ZarrArray time = g.createArray(
                "time",
                ZarrCreateOptions.builder(new long[] {nt}, new int[] {nt}, DType.INT64)
                        .fillValue(null)
                        .overwrite(true)
                        .build());
        long[] tv = new long[nt];
        for (int t = 0; t < nt; t++) {
            tv[t] = t;
        }
        time.writeChunk(Chunk.wrap(DType.INT64, new int[] {nt}, tv), 0);
        time.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("time"), "units", "days since 2000-01-01"));
        ZarrArray lat = g.createArray(
                "lat",
                ZarrCreateOptions.builder(new long[] {NY}, new int[] {NY}, DType.FLOAT64)
                        .fillValue(io.cubed.dtype.Scalar.ofDouble(Double.NaN))
                        .overwrite(true)
                        .build());
        double[] yv = new double[NY];
        for (int y = 0; y < NY; y++) {
            yv[y] = lat(y);
        }
        lat.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {NY}, yv), 0);
        lat.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("lat")));
        ZarrArray lon = g.createArray(
                "lon",
                ZarrCreateOptions.builder(new long[] {NX}, new int[] {NX}, DType.FLOAT64)
                        .fillValue(io.cubed.dtype.Scalar.ofDouble(Double.NaN))
                        .overwrite(true)
                        .build());
        double[] xv = new double[NX];
        for (int x = 0; x < NX; x++) {
            xv[x] = lon(x);
        }
        lon.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {NX}, xv), 0);
        lon.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("lon")));
        ZarrArray t2m = g.createArray(
                "t2m",
                ZarrCreateOptions.builder(new long[] {nt, NY, NX}, new int[] {1, 181, 360}, DType.FLOAT32)
                        .fillValue(io.cubed.dtype.Scalar.ofDouble(Double.NaN))
                        .overwrite(true)
                        .build());
        t2m.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("time", "lat", "lon"), "units", "K"));
        ZarrArray packed = g.createArray(
                "t2m_packed",
                ZarrCreateOptions.builder(new long[] {nt, NY, NX}, new int[] {1, 181, 360}, DType.INT16)
                        .fillValue(io.cubed.dtype.Scalar.ofLong(-32767))
                        .overwrite(true)
                        .build());
        packed.writeAttributes(Map.of(
                "_ARRAY_DIMENSIONS",
                List.of("time", "lat", "lon"),
                "units",
                "K",
                "scale_factor",
                SCALE,
                "add_offset",
                OFFSET));
        ChunkGrid grid = t2m.grid();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (long i = 0; i < grid.numChunks(); i++) {
                long[] counts = grid.chunksPerAxis();
                long[] c = new long[counts.length];
                long rest = i;
                for (int a = counts.length - 1; a >= 0; a--) {
                    c[a] = rest % counts[a];
                    rest /= counts[a];
                }
                done.add(pool.submit(() -> {
                    int[] shape = grid.chunkShapeAt(c);
                    long[] off = grid.chunkOffset(c);
                    float[] v = new float[shape[0] * shape[1] * shape[2]];
                    short[] p = new short[v.length];
                    int k = 0;
                    for (int t = 0; t < shape[0]; t++) {
                        for (int y = 0; y < shape[1]; y++) {
                            for (int x = 0; x < shape[2]; x++) {
                                v[k] = t2m((int) off[0] + t, (int) off[1] + y, (int) off[2] + x);
                                p[k] = (short) Math.round((v[k] - OFFSET) / SCALE);
                                k++;
                            }
                        }
                    }
                    t2m.writeChunk(Chunk.wrap(DType.FLOAT32, shape, v), c);
                    packed.writeChunk(Chunk.wrap(DType.INT16, shape, p), c);
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** The rows sorted, numbers to 6 significant digits: float sums differ in the last bits between readers. */
    static String canonical(List<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Row r : rows) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < r.length(); i++) {
                Object v = r.get(i);
                s.append(i == 0 ? "" : ",")
                        .append(
                                v instanceof Double || v instanceof Float
                                        ? String.format(Locale.ROOT, "%.6g", ((Number) v).doubleValue())
                                        : String.valueOf(v));
            }
            out.add(s.toString());
        }
        java.util.Collections.sort(out);
        return String.join("\n", out);
    }

    private static String abbreviate(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) + " ..." : s;
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }

    private static long sizeOf(Path p) throws java.io.IOException {
        try (var s = Files.walk(p)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }
}
