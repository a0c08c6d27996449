package io.cubed.jobs.bench;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.Zarr;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code cubed bench --object-store}: {@code cubed copy} of an array in an S3 server to the local disk, timed as a
 * user runs it (the whole command, JVM start included), against Dask reading the same objects over HTTP, at each
 * per-request latency asked for; every run's requests are counted by the server (by operation and in flight), and
 * every copy is compared value by value with the source.
 *
 * <p>The array is the issue's: {@code side}² float64 in chunks of {@code chunk}² (4096² in 256² by default: 256 chunks
 * of 0.5 MB), Blosc-LZ4 with byte shuffle, written by zarr-python when the interpreter has it (else by Cubed) and
 * uploaded to the server. The server is the project's S3 test server (s3proxy) in a JVM of its own, with anonymous
 * reads for Dask; each latency is the server's delay before it serves a request. With {@link #location} the array goes
 * to another {@link BenchLocation} instead ({@link S3Location}: any {@code s3a://} location, where Cubed's client
 * counts the requests).
 */
final class ObjectStoreBench {
    private final Path dir;
    private final int threads;
    private final int rounds;
    private final List<Integer> latencies;
    private final boolean peer;
    private final int side;
    private final int chunk;
    private final PrintWriter log;
    private final String python;
    private final boolean smoke;
    /** The Spark measurements, or null on the in-process executor. */
    private final ObjectStoreSpark spark;
    /** Values of {@code store.concurrency} of the sweep (the sum of the array in this JVM); empty: no sweep. */
    private final List<Integer> concurrencies;
    /** Store options of the command line ({@code --conf}), on top of the server's. */
    private final Map<String, String> conf;
    /** Whether the sharded v3 copy is summed too ({@link #sharded}). */
    private boolean sharded;
    /** Where the array goes: by default the S3 test server, in a JVM of its own. */
    private BenchLocation.Opener location = () -> S3ServerProcess.start("bench", 0);

    /**
     * One timed command: who ran it, at which latency, its wall seconds and its requests ({@link #NOT_COUNTED} as the
     * most in flight: not counted).
     */
    record Run(
            String who,
            int latencyMillis,
            double seconds,
            long chunks,
            Map<String, Long> requests,
            double meanInFlight,
            long maxInFlight,
            double stageMeanInFlight,
            String check) {}

    ObjectStoreBench(
            Path dir,
            int threads,
            int rounds,
            List<Integer> latencies,
            boolean peer,
            boolean smoke,
            PrintWriter log,
            ObjectStoreSpark spark,
            List<Integer> concurrencies,
            Map<String, String> conf) {
        this.dir = dir.resolve("object-store");
        this.concurrencies = List.copyOf(concurrencies);
        this.conf = Map.copyOf(conf);
        this.smoke = smoke;
        this.spark = spark;
        this.threads = threads;
        this.rounds = rounds;
        this.latencies = List.copyOf(latencies);
        this.peer = peer;
        this.side = smoke ? 512 : 4096;
        this.chunk = smoke ? 128 : 256;
        this.log = log;
        this.python = System.getProperty(
                DaskPeer.PYTHON_PROPERTY, System.getenv().getOrDefault(DaskPeer.PYTHON_ENV, "/usr/bin/python3"));
    }

    /** Also the sums of the array written as sharded Zarr v3, by inner chunks and by shards ({@link #shardedSum}). */
    ObjectStoreBench sharded(boolean on) {
        this.sharded = on;
        return this;
    }

    /** Puts the array at the location {@code opener} opens, instead of the S3 test server. */
    ObjectStoreBench location(BenchLocation.Opener opener) {
        this.location = opener;
        return this;
    }

    long chunks() {
        long per = (side + chunk - 1) / chunk;
        return per * per;
    }

    /** Runs everything and returns the report in Markdown. */
    String run() throws Exception {
        Files.createDirectories(dir);
        Path script = dir.resolve("dask_object_store.py");
        try (InputStream in = ObjectStoreBench.class.getResourceAsStream("dask_object_store.py")) {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        List<Run> runs = new ArrayList<>();
        String where;
        // Opened first: a location that cannot be reached fails before the input is written.
        try (BenchLocation server = location.open()) {
            Path input = dir.resolve("input");
            String writer = writeInput(script, input);
            Path group = dir.resolve("sql-input").resolve("climate-" + ObjectStoreSpark.timeSteps(smoke) + ".zarr");
            if (spark != null && !Files.isDirectory(group)) {
                ObjectStoreSpark.writeGroup(group, smoke);
            }
            StoreOptions options = StoreOptions.of(server.options());
            upload(input.resolve("in.zarr"), server.s3aUrl("in.zarr"), options);
            if (spark != null) {
                upload(group, server.s3aUrl("climate.zarr"), options);
            }
            if (sharded) {
                upload(writeSharded(input), server.s3aUrl("sharded.zarr"), options);
            }
            where = header(server, writer);
            if (peer && server.noPeer() != null) {
                log.println("Dask not run: " + server.noPeer());
            }
            boolean withPeer = peer && server.noPeer() == null;
            ChunkStore source = Zarr.open(input.resolve("in.zarr").toString(), StoreOptions.empty());
            for (int latency : latencies) {
                server.latency(latency);
                log.println(
                        latency == BenchLocation.OWN_LATENCY
                                ? "at " + server.s3aUrl("in.zarr")
                                : String.format(Locale.ROOT, "latency %d ms per request", latency));
                log.flush();
                for (int r = 1; r <= rounds; r++) {
                    runs.add(ours("ours", latency, r, server, source, Map.of()));
                    if (withPeer) {
                        runs.add(dask(latency, r, server, script, source));
                    }
                }
                runs.add(ours(
                        "ours, 1 request in flight per task",
                        latency,
                        1,
                        server,
                        source,
                        Map.of(Store.CONCURRENCY_OPTION, "1")));
                for (int r = 1; r <= rounds && !concurrencies.isEmpty(); r++) {
                    for (int c : concurrencies) {
                        runs.add(sum(latency, c, server, source));
                    }
                }
                for (int r = 1; r <= rounds && sharded; r++) {
                    runs.add(shardedSum(latency, true, server, source));
                    runs.add(shardedSum(latency, false, server, source));
                }
                if (spark != null) {
                    runs.addAll(spark.run(
                            server,
                            latency,
                            rounds,
                            source,
                            server.s3aUrl("in.zarr"),
                            server.s3aUrl("climate.zarr"),
                            smoke));
                }
            }
        }
        return report(runs, where);
    }

    /** Writes the input with zarr-python when the interpreter has it, else with Cubed; says which. */
    private String writeInput(Path script, Path input) throws IOException, InterruptedException {
        Path array = input.resolve("in.zarr");
        String marker = side + "x" + side + "/" + chunk;
        Path written = input.resolve("written-by");
        if (Files.isDirectory(array)
                && Files.exists(written)
                && Files.readString(written).startsWith(marker)) {
            return Files.readString(written).substring(marker.length() + 1).strip();
        }
        deleteTree(input);
        Files.createDirectories(input);
        String by;
        if (exec(List.of(python, script.toString(), "--write", input.toString(), "" + side, "" + chunk), Map.of())
                        .code()
                == 0) {
            by = "zarr-python";
        } else {
            by = "Cubed (no zarr-python for " + python + ")";
            io.cubed.jobs.bench.BenchData.writeNormal(array.toString(), side, chunk, 42);
        }
        Files.writeString(written, marker + " " + by);
        return by;
    }

    /** Uploads every file under {@code local} to {@code url}, keeping their relative paths as keys. */
    private static void upload(Path local, String url, StoreOptions options) throws IOException {
        Store store = Stores.open(url, options);
        List<CompletableFuture<Void>> puts = new ArrayList<>();
        try (Stream<Path> files = Files.walk(local)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                byte[] bytes = Files.readAllBytes(f);
                String key = local.relativize(f).toString().replace('\\', '/');
                puts.add(store.putAsync(key, bytes, bytes.length));
                if (puts.size() >= 32) {
                    puts.remove(0).join();
                }
            }
        }
        try {
            puts.forEach(CompletableFuture::join);
        } catch (java.util.concurrent.CompletionException e) {
            throw new io.cubed.error.StorageException(
                    "bench --object-store: uploading the array to " + url + " failed: "
                            + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    private Run ours(
            String who, int latency, int round, BenchLocation server, ChunkStore source, Map<String, String> extra)
            throws IOException, InterruptedException {
        Path out = dir.resolve("out").resolve("ours-" + latency + "-" + round + ".zarr");
        deleteTree(out);
        Files.createDirectories(out.getParent());
        Path requests = dir.resolve("out").resolve("ours-" + latency + "-" + round + "-requests.json");
        Files.deleteIfExists(requests);
        List<String> cmd = new ArrayList<>(commandLine());
        cmd.addAll(List.of("copy", server.s3aUrl("in.zarr"), out.toString(), "--threads", "" + threads));
        cmd.addAll(List.of("--request-stats", requests.toString()));
        Map<String, String> more = new java.util.TreeMap<>(server.options());
        more.putAll(conf);
        more.putAll(extra);
        for (Map.Entry<String, String> e : more.entrySet()) {
            cmd.addAll(List.of("--conf", e.getKey() + "=" + e.getValue()));
        }
        return timed(who, latency, server, cmd, Map.of("CUBED_NO_BUILD", "1"), out, source, requests);
    }

    /** The reference sum of the source, computed once from the local copy. */
    private Double reference;

    /**
     * The sum of the array on the server, computed in this JVM (warm after the first round) on the in-process executor
     * with {@code store.concurrency} {@code c}: the read-heavy case, where the requests in flight matter most.
     */
    private Run sum(int latency, int c, BenchLocation server, ChunkStore source) throws IOException {
        Map<String, String> extra = Map.of(Store.CONCURRENCY_OPTION, Integer.toString(c));
        return timedSum("sum in this JVM, store.concurrency " + c, "in.zarr", null, extra, latency, server, source);
    }

    /**
     * The sum of the sharded copy on the server ({@link #writeSharded}), in this JVM: read by its inner chunks (the
     * bench's chunks; {@code fromZarr} with them, so each task reads a shard's index and its inner chunk with ranged
     * reads) or by its whole shards (one GET each).
     */
    private Run shardedSum(int latency, boolean byInner, BenchLocation server, ChunkStore source) throws IOException {
        return timedSum(
                byInner ? "sharded v3, sum by inner chunks" : "sharded v3, sum by whole shards",
                "sharded.zarr",
                byInner ? new int[] {chunk, chunk} : null,
                Map.of(),
                latency,
                server,
                source);
    }

    /** Shards of 4 x 4 of the bench's chunks, which are their inner chunks. */
    private int shardSide() {
        return Math.min(side, 4 * chunk);
    }

    /**
     * Writes the input again, locally, as Zarr v3 in shards of 4 x 4 of its chunks, each chunk an inner chunk
     * (zstd level 0, {@code ZarrFormat.v3Sharded}); kept for later runs. No peer reads it: zarr-python 2 has no
     * sharding.
     */
    private Path writeSharded(Path input) {
        Path sharded = input.resolve("sharded-" + shardSide() + "-" + chunk + ".zarr");
        if (Files.exists(sharded.resolve("zarr.json"))) {
            return sharded;
        }
        io.cubed.plan.Spec spec = io.cubed.plan.Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("1GB")
                .reservedMem("100MB")
                .executor(new io.cubed.runtime.LocalExecutor(threads, 3))
                .build();
        io.cubed.Cubed.fromZarr(input.resolve("in.zarr").toString(), spec, shardSide(), shardSide())
                .toZarr(
                        sharded.toString(),
                        io.cubed.array.ComputeOptions.builder()
                                .zarrFormat(io.cubed.storage.zarr.ZarrFormat.v3Sharded(chunk, chunk))
                                .build());
        return sharded;
    }

    /**
     * The sum of the array {@code name} on the server read in {@code chunks} (null: its own), computed in this JVM on
     * the in-process executor with the store options {@code extra} on top of the server's, checked against the source's.
     */
    private Run timedSum(
            String who,
            String name,
            int[] chunks,
            Map<String, String> extra,
            int latency,
            BenchLocation server,
            ChunkStore source)
            throws IOException {
        if (reference == null) {
            double total = 0;
            for (long i = 0; i < source.grid().numChunks(); i++) {
                for (double v : (double[])
                        source.readChunk(source.grid().chunkCoordsOf(i)).data()) {
                    total += v;
                }
            }
            reference = total;
        }
        Map<String, String> options = new java.util.TreeMap<>(server.options());
        options.putAll(conf);
        options.putAll(extra);
        io.cubed.plan.Spec spec = io.cubed.plan.Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("1GB")
                .reservedMem("100MB")
                .executor(new io.cubed.runtime.LocalExecutor(threads, 3))
                .storeOptions(StoreOptions.of(options))
                .build();
        server.reset();
        long start = System.nanoTime();
        String url = server.s3aUrl(name);
        double got = io.cubed.array.Statistical.sum(
                        chunks == null
                                ? io.cubed.Cubed.fromZarr(url, spec)
                                : io.cubed.Cubed.fromZarr(url, spec, chunks))
                .compute()
                .get()
                .doubleValue();
        double seconds = (System.nanoTime() - start) / 1e9;
        String check = Math.abs(got - reference) <= 1e-9 * Math.max(1, Math.abs(reference))
                ? "match"
                : "MISMATCH (" + got + " against " + reference + ")";
        Run run = run(who, latency, seconds, server.jvmCounts(), check);
        print(log, run);
        return run;
    }

    private Run dask(int latency, int round, BenchLocation server, Path script, ChunkStore source)
            throws IOException, InterruptedException {
        Path out = dir.resolve("out").resolve("dask-" + latency + "-" + round + ".zarr");
        deleteTree(out);
        Files.createDirectories(out.getParent());
        List<String> cmd = List.of(python, script.toString(), "--copy", server.httpUrl("in.zarr"), out.toString());
        return timed(
                "Dask",
                latency,
                server,
                cmd,
                Map.of("CUBED_BENCH_THREADS", "" + threads, "OMP_NUM_THREADS", "1"),
                out,
                source,
                null);
    }

    /**
     * Runs {@code cmd} and times it; its requests are those our command wrote to {@code requests}, or the peer's when
     * that is null.
     */
    private Run timed(
            String who,
            int latency,
            BenchLocation server,
            List<String> cmd,
            Map<String, String> env,
            Path out,
            ChunkStore source,
            Path requests)
            throws IOException, InterruptedException {
        server.reset();
        long start = System.nanoTime();
        Output o = exec(cmd, env);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (o.code() != 0) {
            throw new IllegalStateException("bench --object-store: " + String.join(" ", cmd) + " failed with exit code "
                    + o.code() + ": " + o.err().strip());
        }
        BenchLocation.Counts counts = requests != null ? server.commandCounts(requests) : server.peerCounts();
        Run run = run(who, latency, seconds, counts, check(source, out));
        print(log, run);
        return run;
    }

    /** A run with {@code counts}; not counted ({@link #NOT_COUNTED} in flight) when they are null. */
    private Run run(String who, int latency, double seconds, BenchLocation.Counts counts, String check) {
        return counts == null
                ? new Run(who, latency, seconds, chunks(), Map.of(), Double.NaN, NOT_COUNTED, Double.NaN, check)
                : new Run(
                        who,
                        latency,
                        seconds,
                        chunks(),
                        counts.requests(),
                        counts.meanInFlight(),
                        counts.maxInFlight(),
                        counts.stageMeanInFlight(),
                        check);
    }

    /** The most in flight of a run whose requests nobody counted. */
    static final long NOT_COUNTED = -1;

    /**
     * "stage mean; busy mean; max" in flight over the rounds {@code runs}: the medians of the rounds' stage and busy
     * means (one round's figures swing with what else the two cores run), the stage's "-" where the counter does not
     * give it, and the most at once in any round.
     */
    static String inFlight(List<Run> runs) {
        double stage = medianOf(runs.stream().mapToDouble(Run::stageMeanInFlight));
        double busy = medianOf(runs.stream().mapToDouble(Run::meanInFlight));
        long max = runs.stream().mapToLong(Run::maxInFlight).max().orElse(0);
        return String.format(
                Locale.ROOT,
                "%s; %.1f; %d",
                Double.isNaN(stage) ? "-" : String.format(Locale.ROOT, "%.1f", stage),
                busy,
                max);
    }

    /** The median of {@code values}; NaN when there is none or any is NaN. */
    private static double medianOf(java.util.stream.DoubleStream values) {
        double[] v = values.sorted().toArray();
        if (v.length == 0 || Double.isNaN(v[v.length - 1])) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** "stage mean; busy mean; max" in flight of one run. */
    private static String inFlight(Run run) {
        return inFlight(List.of(run));
    }

    static void print(PrintWriter log, Run run) {
        log.printf(
                Locale.ROOT,
                "  %-48s %6.2f s  %s  %s  %s%n",
                run.who(),
                run.seconds(),
                run.maxInFlight() == NOT_COUNTED ? "requests not counted" : run.requests(),
                run.maxInFlight() == NOT_COUNTED ? "" : "in flight (stage mean; busy mean; max): " + inFlight(run),
                run.check());
        log.flush();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Long> counts(Map<String, Object> stats) {
        Map<String, Long> c = new java.util.TreeMap<>();
        Object counts = stats.get("counts");
        if (counts instanceof Map<?, ?> m) {
            ((Map<String, Object>) m).forEach((k, v) -> {
                long n = (long) number(v);
                if (n > 0) {
                    c.put(k, n);
                }
            });
        }
        return c;
    }

    static double number(Object v) {
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** "match" when every chunk of {@code out} equals the source's, else what differs first. */
    static String check(ChunkStore source, Path out) {
        ChunkStore copy;
        try {
            copy = Zarr.open(out.toString(), StoreOptions.empty());
        } catch (RuntimeException e) {
            return "MISMATCH (no array: " + e.getMessage() + ")";
        }
        if (!copy.grid().equals(source.grid()) || copy.dtype() != source.dtype()) {
            return "MISMATCH (" + copy.grid() + " " + copy.dtype() + ")";
        }
        for (long i = 0; i < source.grid().numChunks(); i++) {
            long[] c = source.grid().chunkCoordsOf(i);
            Chunk a = source.readChunk(c);
            Chunk b = copy.readChunk(c);
            if (!Arrays.equals((double[]) a.data(), (double[]) b.data())) {
                return "MISMATCH (chunk " + Arrays.toString(c) + ")";
            }
        }
        return "match";
    }

    /** The command that runs {@code cubed}: bin/cubed of the source tree, else java with the command line's jars. */
    private static List<String> commandLine() {
        Path jar = S3ServerProcess.commandLineJar();
        Path bin = jar.getParent().getParent().getParent().resolve("bin").resolve("cubed");
        if (Files.isExecutable(bin)) {
            return List.of(bin.toString());
        }
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(
                javaBin,
                "--add-modules=jdk.incubator.vector",
                "-cp",
                // bin/cubed's class path when it names Hadoop: the bench's --conf may ask for S3A.
                jar + java.io.File.pathSeparator + jar.getParent().resolve("lib") + "/*" + java.io.File.pathSeparator
                        + jar.getParent().resolve("lib-hadoop") + "/*",
                "io.cubed.jobs.CubedCli");
    }

    /** The report's first paragraph: what was copied from where, the peer, who counted the requests. */
    private String header(BenchLocation server, String writer) {
        String dask = !peer
                ? "Dask not run"
                : server.noPeer() != null
                        ? "Dask not run: " + server.noPeer()
                        : "Dask (threads scheduler, " + threads + " workers) reading the same objects over HTTP";
        return String.format(
                Locale.ROOT,
                "## cubed bench --object-store%n%n`cubed copy` of a %d² float64 array in %d² chunks (%d chunks of %.2f MB,"
                        + " Blosc-LZ4, written by %s) from %s to the local disk, %d threads, %d cores; %s. Times are"
                        + " whole commands (JVM or Python start included), best and median of %d; requests %s. In"
                        + " flight, the medians over the rounds of: the mean over the stage (from the first chunk"
                        + " request's arrival to the last one's end; \"-\" where the counter does not give it), the mean"
                        + " over the time at least one request was in flight (opening the array included); and the most"
                        + " at once in any round.%n%n",
                side,
                chunk,
                chunks(),
                chunk * (double) chunk * 8 / 1e6 / 1.048576,
                writer,
                server.description(),
                threads,
                Runtime.getRuntime().availableProcessors(),
                dask,
                rounds,
                server.countedBy());
    }

    private String report(List<Run> runs, String header) {
        StringBuilder md = new StringBuilder(header);
        md.append("| latency | who | best s | median s | vs Dask (best) | GET per chunk | other requests | in flight"
                + " (stage mean; busy mean; max) | check |\n|---|---|---|---|---|---|---|---|---|\n");
        for (int latency : latencies) {
            List<String> order = new ArrayList<>();
            for (Run r : runs) {
                if (r.latencyMillis() == latency && !order.contains(r.who())) {
                    order.add(r.who());
                }
            }
            double daskBest = best(runs, "Dask", latency);
            for (String who : order) {
                List<Run> mine = runs.stream()
                        .filter(r -> r.latencyMillis() == latency && r.who().equals(who))
                        .toList();
                Run last = mine.get(mine.size() - 1);
                double best = best(runs, who, latency);
                Map<String, Long> other = new java.util.TreeMap<>(last.requests());
                long gets = new BenchLocation.Counts(other, 0, 0).gets();
                other.remove("GET_OBJECT");
                other.remove("GET");
                boolean counted = last.maxInFlight() != NOT_COUNTED;
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %.2f | %.2f | %s | %s | %s | %s | %s |%n",
                        latency == BenchLocation.OWN_LATENCY ? "its own" : latency + " ms",
                        who,
                        best,
                        median(mine),
                        who.equals("Dask") || who.startsWith("sharded") || Double.isNaN(daskBest)
                                ? ""
                                : String.format(Locale.ROOT, "%.2f", best / daskBest),
                        counted ? String.format(Locale.ROOT, "%.2f", gets / (double) last.chunks()) : "not counted",
                        !counted ? "" : other.isEmpty() ? "none" : other.toString(),
                        counted ? inFlight(mine) : "",
                        mine.stream().allMatch(r -> r.check().equals("match")) ? "match" : "MISMATCH"));
            }
        }
        return md.toString();
    }

    private static double best(List<Run> runs, String who, int latency) {
        return runs.stream()
                .filter(r -> r.latencyMillis() == latency && r.who().equals(who))
                .mapToDouble(Run::seconds)
                .min()
                .orElse(Double.NaN);
    }

    private static double median(List<Run> runs) {
        return medianOf(runs.stream().mapToDouble(Run::seconds));
    }

    private record Output(int code, String err) {}

    private static Output exec(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        Path err = Files.createTempFile("cubed-object-store", ".err");
        try {
            pb.redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            if (!p.waitFor(1, TimeUnit.HOURS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish within an hour");
            }
            return new Output(p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(err);
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    /** The latencies of {@code --latency-ms}: whole milliseconds, 0 or more. */
    static List<Integer> parseLatencies(List<Integer> given) {
        List<Integer> l = given == null || given.isEmpty() ? List.of(30, 0) : given;
        for (int v : l) {
            if (v < 0) {
                throw new InvalidArgumentException("bench: --latency-ms must be 0 or more milliseconds, got " + v);
            }
        }
        return l;
    }
}
