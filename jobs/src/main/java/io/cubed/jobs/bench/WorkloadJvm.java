package io.cubed.jobs.bench;

import io.cubed.array.CubedArray;
import io.cubed.memory.HeapBound;
import io.cubed.memory.MemorySize;
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
import java.util.List;
import java.util.Locale;

/**
 * One workload of {@code cubed bench} in a JVM of its own whose heap its plan sets: the workload is planned here
 * (nothing runs), and a new JVM, started with this one's options, class path and {@code -Xmx} of the plan's heap
 * bound ({@link #heapBytes}: the live heap at rest + threads × (the largest projected task − {@code reservedMem}) ×
 * 1.2, as {@link HeapBound} computes it), runs the workload as the bench would and hands its result back in a file. The collector cannot grow
 * that JVM's heap past what the plan says, whatever the allocation rate: G1 on JDK 17 has no cap it honours below
 * {@code -Xmx} once the JVM runs (docs/benchmarks.md, "Resident memory").
 */
final class WorkloadJvm {
    /** The smallest heap a workload's JVM gets, whatever its plan: the runtime's own objects and a warm-up's. */
    static final long MIN_HEAP_BYTES = 128L << 20;

    private WorkloadJvm() {}

    /**
     * What a workload's plan says of its memory: the projection of its largest task (the reserve included) and the
     * largest chunk of its inputs and results, in bytes.
     */
    record Planned(long largestTaskBytes, long largestChunkBytes) {}

    /**
     * The plan of {@code w} run with {@code spec} on the inputs under {@code dir}: the workload planned with an executor
     * that runs nothing, as the bench's executor of {@code threads} threads would plan it (a rechunk sizes its stages by
     * the executor's parallelism).
     */
    static Planned plan(Workload w, Spec spec, Path dir, int threads) throws IOException {
        PlanOnly planOnly = new PlanOnly(threads);
        Path scratch = dir.resolve("plan-" + w.id());
        long largestChunk = 0;
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
            for (List<CubedArray> arrays : List.of(in, outs)) {
                for (CubedArray a : arrays) {
                    largestChunk = Math.max(largestChunk, a.node().chunkBytes());
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
        return new Planned(planOnly.largestTaskBytes, largestChunk);
    }

    /**
     * The heap a JVM running tasks of {@code largestTaskBytes} ({@code reservedBytes} included) on {@code threads}
     * threads needs over {@code baselineHeapBytes} of live heap at rest: {@link HeapBound} of the tasks without their
     * reserve, plus each thread's {@code largestChunkBytes} once more, at least {@link #MIN_HEAP_BYTES}, in whole MiB.
     *
     * <p>Why a chunk more per thread: G1 puts an array larger than half a region (512 kB in the 1 MB regions it picks
     * for heaps under 2 GB) in contiguous regions of its own, which its full collections on JDK 17 do not move. W3's
     * 16.8 MB chunks left a heap of its tasks' bound alone (427 MiB) too fragmented for one more of them, after
     * compacting full collections in every run: one run of about ten ran out of heap in its second round
     * (docs/benchmarks.md, "Resident memory").
     *
     * <p>Why without the reserve: {@code reservedMem} is what a worker's runtime holds besides its task (Cubed
     * measures a Python worker's), and a projected task counts it once per task. The threads of one JVM share one
     * runtime, whose objects are the live heap at rest (measured, the baseline) and whose other memory (code, classes,
     * the collector's own structures, thread stacks) lies outside the heap. Counted once per thread in the heap, the
     * reserve was room G1 filled: W3's JVM touched nearly all of a 656 MiB heap whose live peak was about 390 MB, and
     * ran no faster than in 416 MiB (docs/benchmarks.md, "Resident memory"). The process's bound that {@code cubed
     * bench} reports still counts the reserve per thread.
     */
    static long heapBytes(
            long baselineHeapBytes, int threads, long largestTaskBytes, long reservedBytes, long largestChunkBytes) {
        long tasks = Math.max(0, largestTaskBytes - reservedBytes);
        long bound = HeapBound.of(baselineHeapBytes, threads, tasks).bytes() + threads * largestChunkBytes;
        long mib = (Math.max(bound, MIN_HEAP_BYTES) + (1 << 20) - 1) >> 20;
        return mib << 20;
    }

    /**
     * Runs {@code cubed benchArgs} (a bench of one workload, {@code id}, with {@code --result-file}) in a new JVM with
     * {@code -Xmx} of {@code heapBytes}, its output relayed line by line to {@code log}, and returns its result.
     */
    static BenchSuite.Result run(String id, long heapBytes, List<String> benchArgs, Path resultFile, PrintWriter log)
            throws IOException, InterruptedException {
        Files.deleteIfExists(resultFile);
        List<String> cmd = command(heapBytes);
        cmd.addAll(benchArgs);
        log.printf(
                Locale.ROOT,
                "%s: in a JVM of its own, -Xmx%dm (the plan's heap: %s)%n",
                id,
                heapBytes >> 20,
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
     * {@code java}, this JVM's options but its heap sizes and G1 region size, {@code -Xmx} of {@code heapBytes}, its
     * class path and the command line's main class. The region size is left to G1, which sizes regions for the heap
     * (2048 of them at most, of 1 MB or more): in a heap sized to the plan, an array of more than half a region takes
     * whole regions of its own, and with {@code bin/cubed}'s 32 MB regions W3's 16.8 MB chunks took 32 MB each and its
     * rechunk ran out of heap at the plan's bound, while with 1 MB regions it ran within it.
     */
    static List<String> command(long heapBytes) {
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
        cmd.add("-Xmx" + (heapBytes >> 20) + "m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(io.cubed.jobs.CubedCli.class.getName());
        return cmd;
    }

    /** Whether a JVM option sets the heap's size (replaced by the plan's) or G1's region size (left to G1). */
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
