package io.cubed.jobs.bench;

import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cubed bench}: runs the workloads W1–W5 on generated data and writes {@code report.md}, {@code results.csv},
 * {@code memory.csv} and {@code report.svg} to the output directory.
 */
@Command(
        name = "bench",
        description = "Benchmark workloads against the raw I/O and codec limit, with measured vs projected memory.")
public final class BenchCommand implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", description = "Where inputs (kept for reuse) and scratch arrays go.")
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "cubed-bench");

    @Option(names = "--out", paramLabel = "DIR", description = "Where the report goes (default: DIR/report).")
    Path out;

    @Option(
            names = "--workloads",
            split = ",",
            paramLabel = "W",
            description = "Subset, e.g. W1,W3 (default: all: W1-W5 and W5u, W5 unfused).")
    List<String> workloads = new ArrayList<>();

    @Option(names = "--scale", description = "Size factor (default 1: about 10 minutes on 2 cores).")
    double scale = 1.0;

    @Option(names = "--smoke", description = "Tiny inputs: checks that everything runs, in seconds.")
    boolean smoke;

    @Option(names = "--threads", description = "Tasks at the same time (default: cores).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--allowed-mem", paramLabel = "SIZE", description = "Memory per task (default: ${DEFAULT-VALUE}).")
    String allowedMem = "1GB";

    @Option(
            names = "--reserved-mem",
            paramLabel = "SIZE",
            description = "Reserved per task (default: ${DEFAULT-VALUE}).")
    String reservedMem = "100MB";

    @Option(
            names = "--executor",
            description = "local (in-process threads) or spark (the spark-submit session, else local[threads]);"
                    + " default: ${DEFAULT-VALUE}.")
    String executor = "local";

    @Option(
            names = "--measure-memory",
            paramLabel = "N",
            description = "Measure the peak live heap of the first N tasks of every operation (each runs alone, with a"
                    + " full GC at every chunk read and write); 0 turns it off (default: 2 on the in-process executor;"
                    + " not available on Spark).")
    Integer measureMemory;

    @Option(
            names = "--store",
            paramLabel = "STORE",
            description = "Run the workloads with their inputs, outputs and work directory on an object store and"
                    + " measure their memory there, where each task slot keeps up to store.concurrency requests in"
                    + " flight (reads ahead, writes behind) and the projections count them; no timed run. STORE: s3,"
                    + " the project's S3 test server in a JVM of its own (objects in files under DIR/s3-server),"
                    + " --latency-ms per request (one value, default 30), the default store.concurrency (32; --conf"
                    + " cubed.store.concurrency=N to change). The first --measure-memory tasks (default 2) of every"
                    + " operation run on one task slot alone, their requests in flight; the report (memory-s3.md,"
                    + " memory-s3.csv) gives their peak live heap against the projection.")
    String store;

    @Option(
            names = "--peer",
            paramLabel = "PEER",
            description = "Also run every workload in a peer on the same inputs, alternating with ours, and report"
                    + " ours / peer: dask (needs python3-dask and python3-zarr for /usr/bin/python3, or"
                    + " CUBED_BENCH_PYTHON).")
    String peer;

    @Option(
            names = "--rounds",
            paramLabel = "N",
            description = "Timed runs per workload (ours and the peer's alternating); the best counts (default:"
                    + " ${DEFAULT-VALUE}).")
    int rounds = 1;

    @Option(
            names = "--no-warmup",
            description = "Time a cold JVM. By default every chosen workload first runs on smoke-size inputs (see"
                    + " --warmup-seconds), so that the timings show a warm JVM, as in a long-lived Spark executor.")
    boolean noWarmup;

    @Option(
            names = "--warmup-seconds",
            paramLabel = "S",
            description = "Repeat the smoke-size warm-up until S seconds have passed (it runs at least once; default: "
                    + DEFAULT_WARMUP_SECONDS
                    + ", 0 with --smoke). One smoke-size run leaves the JIT compiling the reductions' and tiles' loops"
                    + " during the first timed round (W2's took 0.52 s against 0.36-0.46 for the next ones, and 0.43"
                    + " after 3 s of warm-up). On Spark the JIT compiles Spark's own per-task code (task and result"
                    + " serialization, scheduling) only after some tens of seconds of work on a small machine, as it"
                    + " has long before in a long-lived application. On Spark the"
                    + " warm-up runs every stage as a Spark job, also those small enough for the driver.")
    Double warmupSeconds;

    /** The warm-up's length unless --warmup-seconds, --no-warmup or --smoke says otherwise. */
    static final double DEFAULT_WARMUP_SECONDS = 3;

    @Option(
            names = "--settle-seconds",
            paramLabel = "S",
            description = "After the smoke-size warm-up, run each workload at full size, untimed, for S seconds of"
                    + " rounds and on until the JIT's compilers took at most 3 %% of the round's core time in two rounds"
                    + " in a row, for at most 2 S (at least one round; default: "
                    + DEFAULT_SETTLE_SECONDS
                    + ", 0 with --smoke or --no-warmup: none). The smoke-size runs leave the methods called once per"
                    + " chunk to be compiled by C2 in the first full-size rounds (W2's first round: the JIT busy for"
                    + " 0.42 s of 0.77), as their calls cross the JIT's thresholds; a long-lived executor has them"
                    + " compiled. Each timed round's log line gives the JIT's time in it.")
    Double settleSeconds;

    /** The full-size settling's budget per workload unless --settle-seconds, --no-warmup or --smoke says otherwise. */
    static final double DEFAULT_SETTLE_SECONDS = 10;

    /** The settling's budget: {@code given} (--settle-seconds) when there is one, else none cold or at smoke size. */
    static double settleSeconds(Double given, boolean noWarmup, boolean smoke) {
        if (given != null) {
            return given;
        }
        return noWarmup || smoke ? 0 : DEFAULT_SETTLE_SECONDS;
    }

    /** The warm-up's length: {@code given} (--warmup-seconds) when there is one, else none cold or at smoke size. */
    static double warmupSeconds(Double given, boolean noWarmup, boolean smoke) {
        if (given != null) {
            return given;
        }
        return noWarmup || smoke ? 0 : DEFAULT_WARMUP_SECONDS;
    }

    @Option(
            names = "--object-store",
            description = "Instead of W1-W5: cubed copy of an array in an S3 server (the project's S3 test server in"
                    + " a JVM of its own, or any --location) to the local disk, as a whole command, at each"
                    + " --latency-ms, with the server's request counts (at a --location: those of Cubed's S3 client),"
                    + " against Dask reading the same objects over HTTP with --peer dask.")
    boolean objectStore;

    @Option(
            names = "--latency-ms",
            split = ",",
            paramLabel = "MS",
            description = "With --object-store: the S3 test server's delay per request, one or more (default: 30,0);"
                    + " not with --location, which has its own latency; with --store s3, one (default: 30).")
    List<Integer> latencyMs = new ArrayList<>();

    @Option(
            names = "--location",
            paramLabel = "s3a://BUCKET/PREFIX",
            description = "With --object-store: run at this S3 location instead of the test server. The bench uploads"
                    + " its array under a new prefix there, PREFIX/cubed-bench-TIME-ID/, and deletes that prefix when"
                    + " it ends; requests are those Cubed's S3 client counts (cubed copy --request-stats). Endpoint and"
                    + " credentials: --conf fs.s3a.endpoint=... --conf fs.s3a.access.key=... --conf"
                    + " fs.s3a.secret.key=..., or AWS's environment.")
    String location;

    @Option(
            names = "--peer-url",
            paramLabel = "URL",
            description = "With --location and --peer dask: the HTTP(S) URL at which the objects under --location are"
                    + " readable anonymously (e.g. https://BUCKET.s3.REGION.amazonaws.com/PREFIX), where Dask reads"
                    + " them; without it Dask is reported as not run (it would need s3fs for s3a://).")
    String peerUrl;

    @Option(
            names = "--concurrency",
            split = ",",
            paramLabel = "N",
            description = "With --object-store: also the sum of the array in this JVM with each of these"
                    + " store.concurrency values (requests in flight per task), e.g. 4,8,16,32,64.")
    List<Integer> concurrency = new ArrayList<>();

    @Option(
            names = "--sharded",
            description = "With --object-store: also the sum of the array written as sharded Zarr v3 (shards of 4 x 4"
                    + " chunks, the chunks as inner chunks), in this JVM, read by its inner chunks (ranged reads) and"
                    + " by its whole shards; no peer reads sharding here (zarr-python 2).")
    boolean sharded;

    @Option(
            names = "--conf",
            paramLabel = "KEY=VALUE",
            description = "With --object-store or --store s3: a store option for our runs, e.g."
                    + " cubed.store.s3.client=hadoop; with --location also the endpoint and credentials, e.g."
                    + " fs.s3a.endpoint=https://host:9000.")
    java.util.Map<String, String> conf = new java.util.TreeMap<>();

    @Option(
            names = "--same-jvm",
            description = "Run every workload in this JVM. By default, on the in-process executor, each workload is"
                    + " planned here and runs (warm-up, rounds, peer and memory measurement) in a JVM of its own whose"
                    + " heap (-Xmx) its plan sets: the live heap at rest + threads x (the largest projected task -"
                    + " reservedMem) x 1.2 + threads x " + WorkloadJvm.SPARE_CHUNKS
                    + " x the plan's largest chunk, each counted as G1 holds the plan's"
                    + " chunks, in whole regions.")
    boolean sameJvm;

    /** Set by the bench for a workload it runs in a JVM of its own: where that JVM writes its result. */
    @Option(names = "--result-file", hidden = true)
    Path resultFile;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec cli;

    @Override
    public Integer call() throws Exception {
        // The suite shuffles gigabytes: the vector shuffle's warm-up starts now rather than after the first 4 GiB.
        io.cubed.storage.zarr.blosc.BloscCodec.warmUp();
        PrintWriter log = cli.commandLine().getOut();
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new io.cubed.error.InvalidArgumentException("bench: --scale must be a number above 0, got " + scale);
        }
        if (warmupSeconds != null && (!(warmupSeconds >= 0) || Double.isInfinite(warmupSeconds))) {
            throw new io.cubed.error.InvalidArgumentException(
                    "bench: --warmup-seconds must be a number of seconds, 0 or more, got " + warmupSeconds);
        }
        if (noWarmup && warmupSeconds != null && warmupSeconds > 0) {
            throw new io.cubed.error.InvalidArgumentException(
                    "bench: --no-warmup and --warmup-seconds " + warmupSeconds + " contradict each other; give one");
        }
        warmupSeconds = warmupSeconds(warmupSeconds, noWarmup, smoke);
        settleSeconds = settleSeconds(settleSeconds, noWarmup, smoke);
        if (measureMemory != null && measureMemory < 0) {
            throw new io.cubed.error.InvalidArgumentException(
                    "bench: --measure-memory must be 0 (off) or a positive number of tasks, got " + measureMemory);
        }
        if (threads < 1) {
            throw new io.cubed.error.InvalidArgumentException(
                    "bench: --threads must be a positive whole number, got " + threads);
        }
        if (rounds < 1) {
            throw new io.cubed.error.InvalidArgumentException(
                    "bench: --rounds must be a positive whole number, got " + rounds);
        }
        if (peer != null && !peer.equals("dask")) {
            throw new io.cubed.error.InvalidArgumentException("bench: --peer must be dask, got '" + peer + "'");
        }
        if (store != null) {
            return ObjectStoreMemoryBench.command(this, log);
        }
        if (objectStore) {
            if (!workloads.isEmpty()) {
                throw new io.cubed.error.InvalidArgumentException(
                        "bench --object-store runs its own measurements: drop --workloads");
            }
            for (int c : concurrency) {
                if (c < 1) {
                    throw new io.cubed.error.InvalidArgumentException(
                            "bench: --concurrency takes requests in flight per task, 1 or more, got " + c);
                }
            }
            if (location != null && !latencyMs.isEmpty()) {
                throw new io.cubed.error.InvalidArgumentException("bench --object-store --location: --latency-ms sets"
                        + " the delay of the project's S3 test server, which a --location does not use (it has its own"
                        + " latency); drop --latency-ms, or drop --location to run on the test server");
            }
            if (peerUrl != null && (location == null || peer == null)) {
                throw new io.cubed.error.InvalidArgumentException("bench --object-store: --peer-url goes with"
                        + " --location and --peer dask (on the test server, Dask reads from the server's own URL)");
            }
            if (location != null) {
                S3Location.check(location, peerUrl);
            }
            if (location != null && executor.equals("spark")) {
                throw new io.cubed.error.InvalidArgumentException("bench --object-store --location: --executor spark"
                        + " is not supported there (Cubed's client counts requests in each JVM, and Spark's executors"
                        + " may run in others); use --executor local, or the test server");
            }
            SparkBench sparkBench = null;
            if (executor.equals("spark")) {
                try {
                    sparkBench = new SparkBench(threads);
                } catch (NoClassDefFoundError e) {
                    throw new io.cubed.error.InvalidArgumentException(
                            "bench --object-store --executor spark: Spark is not on the classpath (" + e.getMessage()
                                    + "); run it with spark-submit --class io.cubed.jobs.CubedCli"
                                    + " jobs/target/cubed-jobs-spark.jar bench --object-store --executor spark",
                            e);
                }
            } else if (!executor.equals("local")) {
                throw new io.cubed.error.InvalidArgumentException(
                        "bench: --executor must be local or spark, got '" + executor + "'");
            }
            String md;
            try {
                ObjectStoreBench bench = new ObjectStoreBench(
                        dir,
                        threads,
                        rounds,
                        location != null
                                ? List.of(BenchLocation.OWN_LATENCY)
                                : ObjectStoreBench.parseLatencies(latencyMs),
                        peer != null,
                        smoke,
                        log,
                        sparkBench == null ? null : new ObjectStoreSpark(sparkBench, dir.resolve("object-store"), log),
                        concurrency,
                        conf);
                if (location != null) {
                    bench.location(() -> S3Location.open(location, conf, peerUrl));
                }
                bench.sharded(sharded);
                md = bench.run();
            } finally {
                if (sparkBench != null) {
                    sparkBench.close();
                }
            }
            Path report = out != null ? out : dir.resolve("report");
            Files.createDirectories(report);
            Files.writeString(report.resolve("object-store.md"), md, StandardCharsets.UTF_8);
            log.println();
            log.println(md);
            log.println("report: " + report.resolve("object-store.md").toAbsolutePath());
            return 0;
        }
        if (!latencyMs.isEmpty()
                || !concurrency.isEmpty()
                || !conf.isEmpty()
                || location != null
                || peerUrl != null
                || sharded) {
            throw new io.cubed.error.InvalidArgumentException("bench: --latency-ms, --concurrency, --conf, --location,"
                    + " --peer-url and --sharded go with --object-store");
        }
        List<Workload> chosen = new ArrayList<>();
        for (Workload w : Workloads.all()) {
            if (workloads.isEmpty() || workloads.contains(w.id())) {
                chosen.add(w);
            }
        }
        if (chosen.isEmpty()) {
            throw new io.cubed.error.InvalidArgumentException(
                    "bench: no workload among " + workloads + "; choose from W1, W2, W3, W4, W5, W5u");
        }
        Files.createDirectories(dir);
        DaskPeer dask = peer == null ? null : DaskPeer.start(dir.resolve("peer"), threads);
        if (!executor.equals("local") && !executor.equals("spark")) {
            throw new io.cubed.error.InvalidArgumentException(
                    "bench: --executor must be local or spark, got '" + executor + "'");
        }
        SparkBench spark = null;
        if (executor.equals("spark")) {
            try {
                spark = new SparkBench(threads);
            } catch (NoClassDefFoundError e) {
                throw new io.cubed.error.InvalidArgumentException(
                        "bench --executor spark: Spark is not on the classpath (" + e.getMessage() + "); run it with"
                                + " spark-submit --class io.cubed.jobs.CubedCli jobs/target/cubed-jobs-spark.jar bench"
                                + " --executor spark",
                        e);
            }
        }
        try {
            int measured = measureMemory != null ? measureMemory : spark == null ? 2 : 0;
            if (measured < 0) {
                throw new io.cubed.error.InvalidArgumentException(
                        "bench: --measure-memory must be 0 or more tasks per operation, got " + measured);
            }
            if (measured > 0 && spark != null) {
                throw new io.cubed.error.InvalidArgumentException("bench --measure-memory " + measured
                        + ": memory is measured on the in-process executor only (a Spark executor JVM runs several"
                        + " tasks at once); use --executor local, or --measure-memory 0");
            }
            Spec.Builder builder = spark != null
                    ? spark.specBuilder()
                    : Spec.builder().executor(new LocalExecutor(Math.max(1, threads), 3));
            Spec spec = builder.workDir(dir.resolve("work").toString())
                    .allowedMem(allowedMem)
                    .reservedMem(reservedMem)
                    .build();
            // Memory is measured in a run of its own, after the timed one: its full collections must not be timed.
            Spec measuring = measured == 0
                    ? null
                    : spec.toBuilder()
                            .executor(new LocalExecutor(Math.max(1, threads), 3).withMemoryMeasurement(measured))
                            .build();
            Spec warmup = spark == null
                    ? spec
                    : spec.toBuilder().executor(spark.warmupExecutor()).build();
            if (resultFile != null && (spark != null || chosen.size() != 1)) {
                throw new io.cubed.error.InvalidArgumentException(
                        "bench --result-file: one workload on the in-process executor, got " + chosen.size() + " on "
                                + executor);
            }
            boolean ownJvms = spark == null && !sameJvm && resultFile == null;
            return run(
                    chosen,
                    spec,
                    warmup,
                    measuring,
                    dask,
                    log,
                    spark == null ? "in-process executor" : spark.name(),
                    ownJvms);
        } finally {
            if (spark != null) {
                spark.close();
            }
        }
    }

    private int run(
            List<Workload> chosen,
            Spec spec,
            Spec warmup,
            Spec measuring,
            DaskPeer dask,
            PrintWriter log,
            String executorName,
            boolean ownJvms)
            throws Exception {
        BenchData.Size size = BenchData.Size.of(scale, smoke);
        int warmupRuns = 0; // before the timed rounds; 0 with --no-warmup
        List<BenchSuite.Result> results;
        long residentBaseline = -1;
        if (ownJvms) {
            results = inOwnJvms(chosen, spec, size, log);
        } else {
            if (!noWarmup) {
                log.println("warm-up: every workload on smoke-size inputs ...");
                log.flush();
                long start = System.nanoTime();
                do {
                    BenchSuite.run(
                            chosen,
                            warmup,
                            null,
                            BenchData.Size.of(1, true),
                            dir.resolve("warmup"),
                            threads,
                            null,
                            1,
                            new PrintWriter(java.io.Writer.nullWriter()));
                    warmupRuns++;
                } while ((System.nanoTime() - start) / 1e9 < warmupSeconds);
                double runs = (System.nanoTime() - start) / 1e9;
                // The vector kernels' own warm-ups (the byte shuffle's, started with this command) compile and time
                // their code on threads of their own for up to a second: the timed rounds start once they are over,
                // so that the first round is not the one that runs the scalar loops while C2 compiles (W2's first
                // round took 0.74-0.84 s against 0.35-0.46 for the next ones). A one-off command pays that time;
                // the command line's figures against Dask are timed with JVM start included (docs/benchmarks.md).
                boolean compiled = io.cubed.chunk.VectorWarmup.awaitIdle();
                log.printf(
                        Locale.ROOT,
                        "warm-up: %d run%s of every workload in %.1f s, then %.1f s until the vector kernels' warm-ups"
                                + " %s%n",
                        warmupRuns,
                        warmupRuns == 1 ? "" : "s",
                        runs,
                        (System.nanoTime() - start) / 1e9 - runs,
                        compiled ? "were over" : "passed their deadline");
                log.flush();
            }
            // The JVM's resident set at rest, the baseline of the resident-memory bound: after the warm-up (its classes
            // loaded and compiled) and a full collection (its garbage gone, the heap shrunk as the collector shrinks
            // it). Measured before the full-size settling, so that nothing but the settled rounds comes between it and
            // the timed ones.
            System.gc();
            residentBaseline = io.cubed.memory.HeapBound.residentBytes();
            if (settleSeconds > 0) {
                for (BenchSuite.JitSettling st :
                        BenchSuite.untilJitQuiet(chosen, spec, size, dir, threads, settleSeconds)) {
                    log.printf(
                            Locale.ROOT,
                            "settling: %s at full size, %d untimed round%s (%s s), the JIT busy %s s%n",
                            st.workload(),
                            st.roundSeconds().size(),
                            st.roundSeconds().size() == 1 ? "" : "s",
                            BenchReport.list(st.roundSeconds()),
                            BenchReport.list(st.jitSeconds()));
                }
                log.flush();
            }
            BenchSuite.Result.Jvm jvm = new BenchSuite.Result.Jvm(
                    residentBaseline, Runtime.getRuntime().maxMemory(), resultFile != null);
            results = new ArrayList<>();
            for (BenchSuite.Result r : BenchSuite.run(chosen, spec, measuring, size, dir, threads, dask, rounds, log)) {
                results.add(r.in(jvm));
            }
            if (resultFile != null) {
                WorkloadJvm.writeResult(results.get(0), resultFile);
                return 0;
            }
        }
        DaskPeer.Floors floors = null;
        if (dask != null) {
            java.util.Set<String> inputs = new java.util.LinkedHashSet<>();
            for (Workload w : chosen) {
                inputs.addAll(w.inputs());
            }
            floors = dask.floors(dir, List.copyOf(inputs));
        }
        long reserved = spec.reservedMem().bytes();
        long baseline = BenchSuite.measureBaselineHeap();
        String header = String.format(
                Locale.ROOT,
                "## cubed bench, %s%n%n%s, %d threads, allowedMem %s, reservedMem %s, Java %s, %d cores, %s"
                        + ", %s, BLAS %s, LZ4 acceleration %s%s%s%s",
                LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME),
                smoke ? "smoke sizes" : "scale " + scale,
                threads,
                allowedMem,
                reservedMem,
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                ownJvms
                        ? "each workload in a JVM of its own with the heap its plan sets (below)"
                        : String.format(
                                Locale.ROOT,
                                "max heap %.0f MB",
                                Runtime.getRuntime().maxMemory() / 1e6),
                executorName,
                io.cubed.chunk.MatMul.blasImplementation(),
                // classpath, isolated (our lz4-java behind an older one, as under spark-submit) or none
                io.cubed.storage.zarr.codec.Lz4Blocks.accelerationSource().split(" ", 2)[0],
                FreePageReporting.active()
                        ? ", on a VM whose host takes back the memory it frees (virtio-balloon free page reporting:"
                                + " rounds that write gigabytes swing with it"
                                + (dask != null ? ", and each Dask run, a new process, pays for all of its memory" : "")
                                + "; docs/benchmarks.md)"
                        : "",
                rounds > 1 ? ", best of " + rounds + " rounds" : "",
                warmupNote(warmupRuns, ownJvms));
        Path report = out != null ? out : dir.resolve("report");
        Files.createDirectories(report);
        String md = BenchReport.markdown(results, header, reserved, baseline, floors, threads, residentBaseline);
        Files.writeString(report.resolve("report.md"), md, StandardCharsets.UTF_8);
        Files.writeString(
                report.resolve("results.csv"),
                BenchReport.csv(results, threads, residentBaseline),
                StandardCharsets.UTF_8);
        Files.writeString(
                report.resolve("memory.csv"), BenchReport.memoryCsv(results, reserved), StandardCharsets.UTF_8);
        Files.writeString(report.resolve("report.svg"), BenchReport.svg(results, reserved), StandardCharsets.UTF_8);
        log.println();
        log.println(md);
        log.println("report: " + report.toAbsolutePath());
        return 0;
    }

    /** {@code x} as written on the command line: 3, 2.5 (no trailing zeros, no exponent). */
    private static String plain(double x) {
        return java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    }

    /** How the timed runs were warmed up, for the report's header. */
    private String warmupNote(int warmupRuns, boolean ownJvms) {
        if (noWarmup) {
            return ", cold JVM (--no-warmup)";
        }
        String seconds = " (--warmup-seconds " + plain(warmupSeconds) + ")";
        String vector = ", and after the vector kernels' own warm-ups"
                + (settleSeconds > 0
                        ? " and " + plain(settleSeconds) + " s of full-size rounds, then on until the JIT was quiet"
                                + " (--settle-seconds " + plain(settleSeconds) + ")"
                        : "");
        if (ownJvms) {
            return ", after a warm-up on smoke-size inputs in each workload's JVM"
                    + (warmupSeconds > 0 ? seconds : "")
                    + vector;
        }
        return (warmupRuns == 1
                        ? ", after a warm-up run of each workload on smoke-size inputs"
                        : ", after " + warmupRuns + " warm-up runs of each workload on smoke-size inputs" + seconds)
                + vector;
    }

    /**
     * Each workload planned here and run in a JVM of its own whose heap its plan sets ({@link WorkloadJvm}); the inputs
     * are made here first, once.
     */
    private List<BenchSuite.Result> inOwnJvms(List<Workload> chosen, Spec spec, BenchData.Size size, PrintWriter log)
            throws Exception {
        java.util.Set<String> needed = new java.util.LinkedHashSet<>();
        for (Workload w : chosen) {
            needed.addAll(w.inputs());
        }
        for (String name : needed) {
            BenchSuite.ensureInput(name, dir.resolve("inputs").resolve(name + ".zarr"), size, threads, log);
        }
        // The live heap at rest of a JVM that has loaded the planner and the Zarr layer, the baseline of each
        // workload's heap. A warmed-up JVM holds some tens of MB more at rest (buffers kept for the next tasks), which
        // the tasks' 20 % headroom has covered (W3's two tasks of 184.5 MB beyond the reserve ran within -Xmx416m).
        long baselineHeap = BenchSuite.measureBaselineHeap();
        List<BenchSuite.Result> results = new ArrayList<>();
        for (Workload w : chosen) {
            WorkloadJvm.Planned planned = WorkloadJvm.plan(w, spec, dir, threads);
            WorkloadJvm.Heap heap = WorkloadJvm.heap(
                    baselineHeap,
                    threads,
                    planned.largestTaskBytes(),
                    spec.reservedMem().bytes(),
                    planned.chunkBytes());
            Path file = dir.resolve("result-" + w.id() + ".ser");
            results.add(WorkloadJvm.run(w.id(), heap, ownJvmArgs(w, file), file, log));
        }
        return results;
    }

    /** The command line of the bench of workload {@code w} alone, with these options, writing its result to {@code file}. */
    private List<String> ownJvmArgs(Workload w, Path file) {
        List<String> a = new ArrayList<>(List.of(
                "bench",
                "--workloads",
                w.id(),
                "--result-file",
                file.toString(),
                "--dir",
                dir.toString(),
                "--threads",
                Integer.toString(threads),
                "--allowed-mem",
                allowedMem,
                "--reserved-mem",
                reservedMem,
                "--rounds",
                Integer.toString(rounds),
                "--warmup-seconds",
                Double.toString(warmupSeconds),
                "--settle-seconds",
                Double.toString(settleSeconds)));
        if (smoke) {
            a.add("--smoke");
        } else {
            a.addAll(List.of("--scale", Double.toString(scale)));
        }
        if (peer != null) {
            a.addAll(List.of("--peer", peer));
        }
        if (measureMemory != null) {
            a.addAll(List.of("--measure-memory", Integer.toString(measureMemory)));
        }
        if (noWarmup) {
            a.add("--no-warmup");
        }
        return a;
    }
}
