package io.cubed.jobs.bench;

import io.cubed.array.CubedArray;
import io.cubed.memory.HeapBound;
import io.cubed.memory.MemorySize;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Executor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * One workload of {@code cubed bench} in a JVM of its own whose heap its plan sets: the workload is planned here
 * (nothing runs), and a new JVM, started with this one's options, class path and {@code -Xmx} of the plan's heap
 * bound ({@link #heap}: the live heap at rest + threads × (the largest projected task − {@code reservedMem}) × 1.2, as
 * {@link HeapBound} computes it, with G1's rounding of the plan's chunks), runs the workload as the bench would and
 * hands its result back in a file. The collector cannot grow
 * that JVM's heap past what the plan says, whatever the allocation rate: G1 on JDK 17 has no cap it honours below
 * {@code -Xmx} once the JVM runs (docs/benchmarks.md, "Resident memory").
 */
final class WorkloadJvm {
    /** The smallest heap a workload's JVM gets, whatever its plan: the runtime's own objects and a warm-up's. */
    static final long MIN_HEAP_BYTES = 128L << 20;

    private WorkloadJvm() {}

    /** Bytes of a Java array's header (mark word, compressed class pointer, length) before its elements. */
    static final long ARRAY_HEADER_BYTES = 16;

    /**
     * What a workload's plan says of its memory: the projection of its largest task (the reserve included) and the
     * chunk sizes of every array it reads, computes or writes (intermediates included), in bytes.
     */
    record Planned(long largestTaskBytes, long[] chunkBytes) {}

    /** A workload JVM's heap: its maximum size ({@code -Xmx}) and G1's region size, in bytes. */
    record Heap(long bytes, long regionBytes) {}

    /**
     * The plan of {@code w} run with {@code spec} on the inputs under {@code dir}: the workload planned with an executor
     * that runs nothing, as the bench's executor of {@code threads} threads would plan it (a rechunk sizes its stages by
     * the executor's parallelism).
     */
    static Planned plan(Workload w, Spec spec, Path dir, int threads) throws IOException {
        PlanOnly planOnly = new PlanOnly(threads);
        Path scratch = dir.resolve("plan-" + w.id());
        Set<Long> chunkBytes = new TreeSet<>();
        BenchSuite.deleteTree(scratch);
        try {
            Spec planning = spec.toBuilder()
                    .executor(planOnly)
                    .workDir(scratch.resolve("work").toString())
                    .build();
            List<CubedArray> in = new ArrayList<>();
            for (String name : w.inputs()) {
                in.add(io.cubed.Cubed.fromZarr(
                        dir.resolve("inputs").resolve(name + ".zarr").toString(), planning));
            }
            List<CubedArray> outs = w.build(in, planning);
            List<ArrayNode> nodes = new ArrayList<>();
            for (CubedArray a : outs) {
                nodes.add(a.node());
            }
            // Every array of the plan, from the results back to the inputs: a rechunk's intermediates too.
            Set<ArrayNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            while (!nodes.isEmpty()) {
                ArrayNode node = nodes.remove(nodes.size() - 1);
                if (seen.add(node)) {
                    chunkBytes.add(node.chunkBytes());
                    if (node.op() != null) {
                        nodes.addAll(node.op().inputs());
                        nodes.addAll(node.op().outputs());
                    }
                }
            }
            List<String> urls = new ArrayList<>();
            for (int k = 0; k < outs.size(); k++) {
                urls.add(scratch.resolve("result-" + k + ".zarr").toString());
            }
            io.cubed.Cubed.store(outs, urls, w.options());
        } finally {
            BenchSuite.deleteTree(scratch);
        }
        if (planOnly.plans == 0) {
            throw new IllegalStateException("bench: " + w.id() + " planned no computation");
        }
        return new Planned(
                planOnly.largestTaskBytes,
                chunkBytes.stream().mapToLong(Long::longValue).toArray());
    }

    /** How many of the plan's largest chunks each thread gets to spare, for G1's humongous regions ({@link #heap}). */
    static final int SPARE_CHUNKS = 2;

    /**
     * The heap a JVM running tasks of {@code largestTaskBytes} ({@code reservedBytes} included) on {@code threads}
     * threads needs over {@code baselineHeapBytes} of live heap at rest, for a plan whose arrays have chunks of {@code
     * chunkBytes}: {@link HeapBound} of the tasks without their reserve, as G1 holds their chunks ({@link #rounding}),
     * plus each thread's largest chunk {@link #SPARE_CHUNKS} times more as G1 holds it, at least {@link
     * #MIN_HEAP_BYTES}, in whole MiB; with
     * G1's region size for that heap ({@link #g1RegionBytes}) or a smaller one in which the plan's chunks waste less,
     * which the JVM is given ({@link #command}) so that it is the one counted here.
     *
     * <p>Why a chunk more per thread: G1 puts an array larger than half a region (512 kB in the 1 MB regions it picks
     * for heaps under 2 GB) in contiguous regions of its own, which its full collections on JDK 17 do not move. W3's
     * 16.8 MB chunks left a heap of its tasks' bound alone (427 MiB) too fragmented for one more of them, after
     * compacting full collections in every run: one run of about ten ran out of heap in its second round
     * (docs/benchmarks.md, "Resident memory"). Why two: once a rechunk task's projection counted what it holds (an
     * input chunk read straight into the outputs by its stored bytes, not also decoded; the region's output chunks
     * once), W3's heap of one spare chunk per thread, 349 MiB, ran out in one run of three, in a second stage: the
     * first stage's recycled (768, 768) region chunks, garbage once the second stage's tasks start, leave holes of 5
     * regions among arrays of 17. The old projection's surplus, about 2 × 21.5 MB, had been that room.
     *
     * <p>Why the rounding: an array of more than half a region takes whole regions, so a task's chunks take more heap
     * than their bytes (a chunk is its elements and a 16-byte header: 8 MiB chunks take 9 regions of 1 MB, 4.5 MiB
     * ones 5, 2 MiB ones 3). The projections count bytes; every array a task holds is a chunk of one of the plan's
     * arrays or smaller (a chunk's encoded bytes), so the worst ratio of regions to bytes among the plan's chunk sizes
     * bounds how much more. Counting less was not safe: W3 through (768, 768) chunks ran out of a heap whose 20 %
     * headroom was to absorb their 1/9 more, in one run of five, and through (512, 512) chunks (1/2 more) out of one
     * sized without it (docs/benchmarks.md, "Resident memory").
     *
     * <p>Why without the reserve: {@code reservedMem} is what a worker's runtime holds besides its task (Cubed
     * measures a Python worker's), and a projected task counts it once per task. The threads of one JVM share one
     * runtime, whose objects are the live heap at rest (measured, the baseline) and whose other memory (code, classes,
     * the collector's own structures, thread stacks) lies outside the heap. Counted once per thread in the heap, the
     * reserve was room G1 filled: W3's JVM touched nearly all of a 656 MiB heap whose live peak was about 390 MB, and
     * ran no faster than in 416 MiB (docs/benchmarks.md, "Resident memory"). The process's bound that {@code cubed
     * bench} reports still counts the reserve per thread.
     */
    static Heap heap(
            long baselineHeapBytes, int threads, long largestTaskBytes, long reservedBytes, long[] chunkBytes) {
        long tasks = Math.max(0, largestTaskBytes - reservedBytes);
        long largestChunk = 0;
        for (long c : chunkBytes) {
            largestChunk = Math.max(largestChunk, c);
        }
        long plain = HeapBound.of(baselineHeapBytes, threads, tasks).bytes() + SPARE_CHUNKS * threads * largestChunk;
        // G1's region size for the heap, or a smaller one where the chunks waste less of it (W3 at 16 threads: 8 MiB
        // chunks take 10 MiB in the 2 MiB regions of its heap, 9 in regions of 1 MiB).
        long region = g1RegionBytes(Math.max(plain, MIN_HEAP_BYTES));
        double ratio = rounding(chunkBytes, region);
        for (long smaller = region >> 1; smaller >= MIN_REGION_BYTES; smaller >>= 1) {
            double r = rounding(chunkBytes, smaller);
            if (r < ratio) {
                ratio = r;
                region = smaller;
            }
        }
        long held = (long) Math.ceil(tasks * ratio);
        long bound = HeapBound.of(baselineHeapBytes, threads, held).bytes()
                + SPARE_CHUNKS * threads * footprint(largestChunk, region);
        long mib = (Math.max(bound, MIN_HEAP_BYTES) + (1 << 20) - 1) >> 20;
        return new Heap(mib << 20, region);
    }

    /**
     * G1's region size for a maximum heap of {@code heapBytes}, as JDK 17 chooses it when it is not set: a 2048th of
     * the heap rounded up to a power of two, from 1 MiB to 32 MiB (checked with {@code -XX:+PrintFlagsFinal}: 365 MiB
     * 1 MiB, 2100 MiB and 4 GiB 2 MiB, 5 and 8 GiB 4 MiB, 70 GiB 32 MiB).
     */
    static long g1RegionBytes(long heapBytes) {
        long target = Math.max(1, heapBytes / 2048);
        long region = Long.highestOneBit(target);
        if (region < target) {
            region <<= 1;
        }
        return Math.min(32L << 20, Math.max(MIN_REGION_BYTES, region));
    }

    /** G1's smallest region size, 1 MiB. */
    static final long MIN_REGION_BYTES = 1L << 20;

    /**
     * The heap an array of {@code bytes} (its elements) takes in G1 regions of {@code regionBytes}: header and
     * elements, rounded up to 8 bytes, and, when that is more than half a region (a humongous object), whole regions.
     */
    static long footprint(long bytes, long regionBytes) {
        long size = (bytes + ARRAY_HEADER_BYTES + 7) & ~7L;
        if (size * 2 <= regionBytes) {
            return size;
        }
        return (size + regionBytes - 1) / regionBytes * regionBytes;
    }

    /**
     * The largest ratio of {@link #footprint} to bytes among those of {@code chunkBytes} that take whole regions (at
     * least 1). A smaller array's header is a few bytes more whatever its size (a 0-d result's 8 bytes take 24), which
     * is not what this bounds: a task holds a few chunks, not millions.
     */
    static double rounding(long[] chunkBytes, long regionBytes) {
        double worst = 1;
        for (long c : chunkBytes) {
            long f = footprint(c, regionBytes);
            if (f * 2 > regionBytes) {
                worst = Math.max(worst, f / (double) c);
            }
        }
        return worst;
    }

    /**
     * Runs {@code cubed benchArgs} (a bench of one workload, {@code id}, with {@code --result-file}) in a new JVM with
     * {@code heap}, its output relayed line by line to {@code log}, and returns its result.
     */
    static BenchSuite.Result run(String id, Heap heap, List<String> benchArgs, Path resultFile, PrintWriter log)
            throws IOException, InterruptedException {
        Files.deleteIfExists(resultFile);
        List<String> cmd = command(heap);
        cmd.addAll(benchArgs);
        long heapBytes = heap.bytes();
        log.printf(
                Locale.ROOT,
                "%s: in a JVM of its own, -Xmx%dm -XX:G1HeapRegionSize=%dm (the plan's heap: %s)%n",
                id,
                heapBytes >> 20,
                heap.regionBytes() >> 20,
                MemorySize.format(heapBytes));
        log.flush();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        List<String> tail = new ArrayList<>();
        relay(p.getInputStream(), log, tail);
        int code = p.waitFor();
        if (code != 0 || !Files.exists(resultFile)) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "bench: %s in a JVM of its own (-Xmx%dm, its plan's heap) failed with exit code %d%s; its last"
                            + " lines:%n%s%n(--same-jvm runs every workload in the bench's own JVM)",
                    id,
                    heapBytes >> 20,
                    code,
                    code == 0 ? " and no result" : "",
                    String.join(System.lineSeparator(), tail)));
        }
        try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(resultFile))) {
            return (BenchSuite.Result) in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("bench: the result of " + id + " in " + resultFile + " is unreadable", e);
        } finally {
            Files.deleteIfExists(resultFile);
        }
    }

    /** Writes the result of the one workload of a bench run by {@link #run} in its JVM. */
    static void writeResult(BenchSuite.Result r, Path resultFile) throws IOException {
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(resultFile))) {
            out.writeObject(r);
        }
    }

    /**
     * {@code java}, this JVM's options but its heap sizes and G1 region size, {@code -Xmx} and the G1 region size of
     * {@code heap}, its class path and the command line's main class. The region size is the one {@link #heap}
     * counted (G1's own for the heap, or a smaller one in which the plan's chunks waste less): in a heap sized to the
     * plan, an array of more than half a region takes whole regions of its own, and with {@code bin/cubed}'s 32 MB
     * regions W3's 16.8 MB chunks took 32 MB each and its rechunk ran out of heap at the plan's bound, while with 1 MB
     * regions it ran within it.
     */
    static List<String> command(Heap heap) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!replaced(a)) {
                cmd.add(a);
            }
        }
        cmd.add("-Xmx" + (heap.bytes() >> 20) + "m");
        cmd.add("-XX:G1HeapRegionSize=" + (heap.regionBytes() >> 20) + "m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(io.cubed.jobs.CubedCli.class.getName());
        return cmd;
    }

    /** Whether a JVM option sets the heap's size or G1's region size (replaced by the plan's). */
    static boolean replaced(String option) {
        return option.startsWith("-XX:G1HeapRegionSize=")
                || option.startsWith("-Xmx")
                || option.startsWith("-Xms")
                || option.startsWith("-XX:MaxHeapSize=")
                || option.startsWith("-XX:InitialHeapSize=")
                || option.startsWith("-XX:MaxRAMPercentage=")
                || option.startsWith("-XX:InitialRAMPercentage=");
    }

    private static void relay(InputStream in, PrintWriter log, List<String> tail) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                log.println(line);
                log.flush();
                tail.add(line);
                if (tail.size() > 20) {
                    tail.remove(0);
                }
            }
        }
    }

    /** An executor that runs nothing and keeps the largest projected task of the plans it is given. */
    private static final class PlanOnly implements Executor {
        private final int threads;
        long largestTaskBytes;
        int plans;

        PlanOnly(int threads) {
            this.threads = threads;
        }

        @Override
        public String name() {
            return "local(threads=" + threads + ")";
        }

        @Override
        public int parallelism() {
            return threads;
        }

        @Override
        public void execute(ExecutionPlan plan, List<Callback> callbacks) {
            largestTaskBytes = Math.max(largestTaskBytes, plan.largestTaskBytes());
            plans++;
        }
    }
}
