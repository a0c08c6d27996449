package io.cubed.jobs.bench;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.HeapProbe;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.runtime.TaskResult;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.Zarr;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * {@code cubed bench --store s3}: the memory of the workloads' operations measured on an object store, where each task
 * slot keeps store requests in flight ({@link io.cubed.storage.ChunkIo}: reads of the next tasks' chunks started
 * ahead, writes of the last tasks' chunks finishing behind, on the store client's threads) and the stages' projections
 * count them.
 *
 * <p>Inputs, outputs and the work directory are in the bucket of the project's S3 test server (s3proxy in a JVM of its
 * own, objects in files under the bench's directory, a delay before every request so that reads ahead are really in
 * flight), reached at the default {@code store.concurrency} (32) unless {@code --conf} says otherwise. The in-process
 * executor measures the first tasks of every operation ({@link LocalExecutor#withMemoryMeasurement}): one slot runs
 * them alone, with its requests in flight as it always has them, from the live heap before the slot's first request.
 * The report gives, per operation, the measured peak against the projection, the in-flight term of that projection,
 * what the slot's requests held at the peak and at most, and the most requests in flight, as the slot and as the server
 * counted them. There is no timed run: the bench's timings stay on the local disk and in {@code --object-store}.
 */
final class ObjectStoreMemoryBench {
    static final String BUCKET = "bench";

    private final Path dir;
    private final List<Workload> workloads;
    private final BenchData.Size size;
    private final double scale;
    private final boolean smoke;
    private final int threads;
    private final String allowedMem;
    private final String reservedMem;
    private final int measured;
    private final int latencyMillis;
    private final Map<String, String> conf;
    private final PrintWriter log;

    /** One operation's figures: the stage as planned, its measured tasks, and the requests the server saw. */
    static final class StageRow {
        final String workload;
        final String id;
        final String name;
        final long projectedBytes;
        final long ioBytes;
        long tasks;
        long measuredTasks;
        /** The largest measured peak of a task, and what its slot's requests held at that peak (-1: none). */
        long peakBytes = -1;

        long heldAtPeakBytes = -1;
        /** Over the measured tasks: the most requests the slot had in flight, the most bytes they held. */
        int slotMaxInFlight = -1;

        long slotMaxHeldBytes = -1;
        long serverMaxInFlight = -1;
        Map<String, Long> serverRequests = Map.of();

        StageRow(String workload, String id, String name, long projectedBytes, long ioBytes) {
            this.workload = workload;
            this.id = id;
            this.name = name;
            this.projectedBytes = projectedBytes;
            this.ioBytes = ioBytes;
        }

        /** "yes" when the measured peak is within the projection minus the reserve, "NO" above, "n/a" unmeasured. */
        String within(long reserved) {
            if (peakBytes < 0) {
                return "n/a";
            }
            return peakBytes <= projectedBytes - reserved ? "yes" : "NO";
        }
    }

    ObjectStoreMemoryBench(
            Path dir,
            List<Workload> workloads,
            double scale,
            boolean smoke,
            int threads,
            String allowedMem,
            String reservedMem,
            int measured,
            int latencyMillis,
            Map<String, String> conf,
            PrintWriter log) {
        this.dir = dir;
        this.workloads = List.copyOf(workloads);
        this.size = BenchData.Size.of(scale, smoke);
        this.scale = scale;
        this.smoke = smoke;
        this.threads = threads;
        this.allowedMem = allowedMem;
        this.reservedMem = reservedMem;
        this.measured = measured;
        this.latencyMillis = latencyMillis;
        this.conf = Map.copyOf(conf);
        this.log = log;
    }

    /** Runs every workload measured on the server; returns the report in Markdown and writes the CSV to {@code csv}. */
    String run(Path csv) throws Exception {
        Set<String> needed = new LinkedHashSet<>();
        for (Workload w : workloads) {
            needed.addAll(w.inputs());
        }
        for (String name : needed) {
            BenchSuite.ensureInput(name, localInput(name), size, threads, log);
        }
        List<StageRow> rows = new ArrayList<>();
        Spec spec;
        try (S3ServerProcess server = S3ServerProcess.start(BUCKET, 0, dir.resolve("s3-server"))) {
            Map<String, String> options = new TreeMap<>(server.options());
            options.putAll(conf);
            StoreOptions storeOptions = StoreOptions.of(options);
            spec = Spec.builder()
                    .executor(new LocalExecutor(Math.max(1, threads), 3).withMemoryMeasurement(measured))
                    .workDir(server.s3aUrl("work"))
                    .allowedMem(allowedMem)
                    .reservedMem(reservedMem)
                    .storeOptions(storeOptions)
                    .build();
            Store bucket = Stores.open("s3a://" + BUCKET, storeOptions);
            for (int k = 0; k < workloads.size(); k++) {
                Workload w = workloads.get(k);
                for (String name : w.inputs()) {
                    ensureUploaded(name, server, storeOptions);
                }
                // What a run stopped midway left behind.
                bucket.deletePrefix("out-" + w.id());
                bucket.deletePrefix("work");
                server.latency(latencyMillis);
                log.printf(Locale.ROOT, "%s: %s, on the S3 server, measuring memory ...%n", w.id(), w.description());
                log.flush();
                rows.addAll(runOnce(w, spec, server));
                server.latency(0);
                bucket.deletePrefix("out-" + w.id());
                bucket.deletePrefix("work");
                Set<String> later = new LinkedHashSet<>();
                for (Workload next : workloads.subList(k + 1, workloads.size())) {
                    later.addAll(next.inputs());
                }
                for (String name : w.inputs()) {
                    if (!later.contains(name) && !smoke) {
                        // Gigabytes each at scale 1: the server's directory keeps only what is still to be read.
                        bucket.deletePrefix("inputs/" + name + ".zarr");
                    }
                }
            }
        }
        long reserved = spec.reservedMem().bytes();
        Files.writeString(csv, csv(rows, reserved));
        return markdown(rows, reserved, HeapProbe.liveHeap());
    }

    private Path localInput(String name) {
        return dir.resolve("inputs").resolve(name + ".zarr");
    }

    private static String inputKey(String name) {
        return "inputs/" + name + ".zarr";
    }

    /** Uploads input {@code name} unless the server already has it whole, with the local copy's chunks. */
    private void ensureUploaded(String name, S3ServerProcess server, StoreOptions options) throws IOException {
        String url = server.s3aUrl(inputKey(name));
        ChunkStore local = Zarr.open(localInput(name).toString(), StoreOptions.empty());
        try {
            ChunkStore there = Zarr.open(url, options);
            if (there.grid().equals(local.grid())
                    && there.dtype() == local.dtype()
                    && Stores.open(url, options).list("").size()
                            == Stores.open(localInput(name).toString()).list("").size()) {
                return;
            }
        } catch (RuntimeException e) {
            // Not there, or not whole: upload it.
        }
        log.printf(Locale.ROOT, "uploading %s to the S3 server ...%n", name);
        log.flush();
        Store store = Stores.open(url, options);
        store.deletePrefix("");
        List<CompletableFuture<Void>> puts = new ArrayList<>();
        Path root = localInput(name);
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                byte[] bytes = Files.readAllBytes(f);
                String key = root.relativize(f).toString().replace('\\', '/');
                puts.add(store.putAsync(key, bytes, bytes.length));
                if (puts.size() >= 32) {
                    puts.remove(0).join();
                }
            }
        }
        puts.forEach(CompletableFuture::join);
    }

    /** Computes workload {@code w} from and to the server with the measuring spec; returns its operations' figures. */
    private List<StageRow> runOnce(Workload w, Spec spec, S3ServerProcess server) {
        List<CubedArray> in = new ArrayList<>();
        for (String name : w.inputs()) {
            in.add(Cubed.fromZarr(server.s3aUrl(inputKey(name)), spec));
        }
        List<CubedArray> outs = w.build(in, spec);
        List<String> urls = new ArrayList<>();
        for (int k = 0; k < outs.size(); k++) {
            urls.add(server.s3aUrl("out-" + w.id() + "/result-" + k + ".zarr"));
        }
        Recorder rec = new Recorder(w.id(), server);
        Cubed.store(outs, urls, w.options(), rec);
        return rec.rows();
    }

    /** Collects each operation's figures from the executor's events and the server's counters around each stage. */
    private static final class Recorder implements Callback {
        private final String workload;
        private final S3ServerProcess server;
        private final Map<String, StageRow> rows = new LinkedHashMap<>();

        Recorder(String workload, S3ServerProcess server) {
            this.workload = workload;
            this.server = server;
        }

        @Override
        public synchronized void onOperationStart(OperationStart event) {
            row(event.stage());
            try {
                server.reset(); // stages run one after another in-process: the server's counters are this one's
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private StageRow row(io.cubed.runtime.Stage s) {
            return rows.computeIfAbsent(
                    s.id(), id -> new StageRow(workload, id, s.description(), s.projectedMemBytes(), s.ioBytes()));
        }

        @Override
        public synchronized void onTaskEnd(TaskEnd event) {
            StageRow row = row(event.stage());
            TaskResult r = event.result();
            row.tasks++;
            if (!r.memoryMeasured()) {
                return;
            }
            row.measuredTasks++;
            TaskResult.SlotRequests q = r.requests();
            if (r.peakLiveBytes() > row.peakBytes) {
                row.peakBytes = r.peakLiveBytes();
                row.heldAtPeakBytes = q == null ? -1 : q.heldAtPeakBytes();
            }
            if (q != null) {
                row.slotMaxInFlight = Math.max(row.slotMaxInFlight, q.maxInFlight());
                row.slotMaxHeldBytes = Math.max(row.slotMaxHeldBytes, q.maxHeldBytes());
            }
        }

        @Override
        public synchronized void onOperationEnd(OperationEnd event) {
            StageRow row = row(event.stage());
            try {
                Map<String, Object> stats = server.stats();
                row.serverMaxInFlight = stats.get("maxInFlight") instanceof Number n ? n.longValue() : -1;
                Map<String, Long> counts = new TreeMap<>();
                if (stats.get("counts") instanceof Map<?, ?> m) {
                    m.forEach((k, v) -> counts.put(String.valueOf(k), v instanceof Number n ? n.longValue() : 0L));
                }
                row.serverRequests = counts;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        synchronized List<StageRow> rows() {
            return new ArrayList<>(rows.values());
        }
    }

    private static String mb(long bytes) {
        return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", bytes / 1e6);
    }

    private String markdown(List<StageRow> rows, long reserved, long baselineHeap) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(
                Locale.ROOT,
                "## cubed bench --store s3, %s%n%n%s on the S3 test server (s3proxy in its own JVM on 127.0.0.1,"
                        + " objects in files, %d ms before every request): inputs, outputs and the work directory in its"
                        + " bucket, store.concurrency %s; in-process executor, %d threads, allowedMem %s, reservedMem"
                        + " %s, Java %s, %d cores, max heap %.0f MB. Baseline heap of this JVM at rest: %s MB.%n%n",
                LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME),
                smoke ? "Smoke sizes" : "Scale " + scale,
                latencyMillis,
                conf.getOrDefault(Store.CONCURRENCY_OPTION, "32 (the default on object stores)"),
                threads,
                allowedMem,
                reservedMem,
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() / 1e6,
                mb(baselineHeap)));
        md.append("Per operation: its projection per task (reservedMem and the in-flight term included: what a task"
                + " slot may hold in store requests, `Stage.ioBytes`), and the measured peak live heap of its first "
                + measured
                + " tasks, run on one slot alone with its reads ahead and writes behind in flight, above the live heap"
                + " before the slot's first request (HeapProbe: a full collection and HotSpot's class histogram at"
                + " every chunk read and write, every thread's objects counted); the bytes the slot's requests held at"
                + " that peak and at most; the most requests in flight, as the slot counted them during its measured"
                + " tasks and as the server counted them over the whole operation. \"NO\" flags a measured peak above"
                + " the projection minus reservedMem.\n\n");
        md.append(
                "| workload | operation | tasks | projected MB | in-flight term MB | projected − reserved MB | measured"
                        + " peak MB (tasks) | requests' MB at the peak | slot: most in flight; most MB held | server: most in"
                        + " flight | within |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        List<String> flagged = new ArrayList<>();
        for (StageRow r : rows) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.workload,
                    r.id,
                    r.name.replace("|", "/"),
                    r.tasks,
                    mb(r.projectedBytes),
                    mb(r.ioBytes),
                    mb(r.projectedBytes - reserved),
                    r.peakBytes < 0 ? "n/a" : mb(r.peakBytes) + " (" + r.measuredTasks + ")",
                    mb(r.heldAtPeakBytes),
                    r.slotMaxInFlight < 0 ? "n/a" : r.slotMaxInFlight + "; " + mb(r.slotMaxHeldBytes),
                    r.serverMaxInFlight < 0 ? "n/a" : Long.toString(r.serverMaxInFlight),
                    r.within(reserved)));
            if (r.within(reserved).equals("NO")) {
                flagged.add(r.workload + " " + r.id + " " + r.name);
            }
        }
        md.append(
                flagged.isEmpty()
                        ? "\nNo measured operation exceeded its projection.\n"
                        : "\n**Over the projection:** " + String.join("; ", flagged) + "\n");
        return md.toString();
    }

    static String csv(List<StageRow> rows, long reserved) {
        StringBuilder sb = new StringBuilder("workload,stage,tasks,projected_bytes,io_bytes,reserved_bytes,"
                + "max_measured_bytes,measured_tasks,request_bytes_at_peak,slot_max_in_flight,slot_max_held_bytes,"
                + "server_max_in_flight,server_gets,server_puts,within\n");
        for (StageRow r : rows) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s%n",
                    r.workload,
                    r.id,
                    r.tasks,
                    r.projectedBytes,
                    r.ioBytes,
                    reserved,
                    r.peakBytes,
                    r.measuredTasks,
                    r.heldAtPeakBytes,
                    r.slotMaxInFlight,
                    r.slotMaxHeldBytes,
                    r.serverMaxInFlight,
                    r.serverRequests.getOrDefault("GET_OBJECT", 0L),
                    r.serverRequests.getOrDefault("PUT_OBJECT", 0L),
                    r.within(reserved)));
        }
        return sb.toString();
    }

    /**
     * {@code cubed bench --store s3} with the command line's options: checks them, runs, writes {@code memory-s3.md}
     * and {@code memory-s3.csv} to the report directory and prints the report; returns the exit code (0).
     */
    static int command(BenchCommand c, PrintWriter log) throws Exception {
        if (!c.store.equals("s3")) {
            throw new InvalidArgumentException(
                    "bench: --store must be s3 (the S3 test server in a JVM of its own), got '" + c.store + "'");
        }
        if (c.objectStore) {
            throw new InvalidArgumentException(
                    "bench: --store s3 and --object-store are two different benchmarks; give one");
        }
        if (!c.executor.equals("local")) {
            throw new InvalidArgumentException("bench --store s3 measures memory on the in-process executor only (a"
                    + " Spark executor JVM runs several tasks at once); drop --executor " + c.executor);
        }
        if (c.peer != null || c.rounds != 1) {
            throw new InvalidArgumentException(
                    "bench --store s3 measures memory only, with no timed run: drop --peer and --rounds");
        }
        if (!c.concurrency.isEmpty()) {
            throw new InvalidArgumentException("bench --store s3 runs at one store.concurrency: give it with --conf "
                    + Store.CONCURRENCY_OPTION + "=N instead of --concurrency");
        }
        int measured = c.measureMemory == null ? 2 : c.measureMemory;
        if (measured < 1) {
            throw new InvalidArgumentException(
                    "bench --store s3 measures memory: --measure-memory must be 1 or more tasks, got " + measured);
        }
        if (c.latencyMs.size() > 1) {
            throw new InvalidArgumentException(
                    "bench --store s3 runs at one latency: give --latency-ms one value, got " + c.latencyMs);
        }
        List<Integer> latency = ObjectStoreBench.parseLatencies(c.latencyMs.isEmpty() ? List.of(30) : c.latencyMs);
        List<Workload> chosen = new ArrayList<>();
        for (Workload w : Workloads.all()) {
            if (c.workloads.isEmpty() || c.workloads.contains(w.id())) {
                chosen.add(w);
            }
        }
        if (chosen.isEmpty()) {
            throw new InvalidArgumentException(
                    "bench: no workload among " + c.workloads + "; choose from W1, W2, W3, W4, W5, W5u");
        }
        Files.createDirectories(c.dir);
        Path report = c.out != null ? c.out : c.dir.resolve("report");
        Files.createDirectories(report);
        ObjectStoreMemoryBench bench = new ObjectStoreMemoryBench(
                c.dir,
                chosen,
                c.scale,
                c.smoke,
                c.threads,
                c.allowedMem,
                c.reservedMem,
                measured,
                latency.get(0),
                c.conf,
                log);
        String md = bench.run(report.resolve("memory-s3.csv"));
        Files.writeString(report.resolve("memory-s3.md"), md);
        log.println();
        log.println(md);
        log.println("report: " + report.resolve("memory-s3.md").toAbsolutePath());
        return 0;
    }
}
