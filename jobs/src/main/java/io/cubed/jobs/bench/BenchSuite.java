package io.cubed.jobs.bench;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.memory.HeapProbe;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrArray;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs workloads on generated inputs and measures each against the raw limit of the bytes it moved. */
final class BenchSuite {
    private BenchSuite() {}

    /** The figures of one workload run. */
    record Result(
            String id,
            String description,
            double seconds,
            long inputBytes,
            long bytesRead,
            long bytesWritten,
            long outputBytes,
            long tasks,
            double limitSeconds,
            List<StageRecorder.StageFigures> stages,
            double rssMb,
            DaskPeer.Run peer,
            double worstRoundRatio,
            Jvm jvm)
            implements java.io.Serializable {
        /**
         * The JVM a workload ran in: its resident set at rest (after the warm-up and a full collection; -1: unknown),
         * its maximum heap, and whether it was a JVM of its own, started with the heap the workload's plan sets ({@link
         * WorkloadJvm}), rather than the bench's.
         */
        record Jvm(long residentBaselineBytes, long maxHeapBytes, boolean own) implements java.io.Serializable {}

        /** This result as run in {@code jvm}. */
        Result in(Jvm jvm) {
            return new Result(
                    id,
                    description,
                    seconds,
                    inputBytes,
                    bytesRead,
                    bytesWritten,
                    outputBytes,
                    tasks,
                    limitSeconds,
                    stages,
                    rssMb,
                    peer,
                    worstRoundRatio,
                    jvm);
        }

        long intermediateBytes() {
            return Math.max(0, bytesWritten - outputBytes);
        }

        /** Limit time / wall time: 1 means as fast as the raw I/O and codec allow. */
        double efficiency() {
            return limitSeconds / seconds;
        }

        /** The projected memory of the workload's largest task, in bytes (the reserve included; 0: no task). */
        long largestTaskBytes() {
            long max = 0;
            for (StageRecorder.StageFigures s : stages) {
                if (s.tasks > 0) {
                    max = Math.max(max, s.projectedMemBytes);
                }
            }
            return max;
        }

        /**
         * The resident memory the plan bounds the run to, in MB: {@code residentBaselineBytes} + threads × the largest
         * projected task × 1.2 ({@link io.cubed.memory.HeapBound}); NaN when the baseline is unknown.
         */
        double boundMb(long residentBaselineBytes, int threads) {
            return residentBaselineBytes < 0
                    ? Double.NaN
                    : io.cubed.memory.HeapBound.of(residentBaselineBytes, threads, largestTaskBytes())
                                    .bytes()
                            / 1e6;
        }

        /**
         * Our best wall time over the peer's best (below 1: faster than the peer); NaN without a peer. {@link
         * #worstRoundRatio} is the largest ratio of one round, ours over the peer's run right after it.
         */
        double peerRatio() {
            return peer == null ? Double.NaN : seconds / peer.seconds();
        }
    }

    /**
     * Runs {@code workloads} with {@code spec} on inputs of {@code size} kept under {@code dir}/inputs (generated when
     * missing or of another size); outputs and scratch arrays are deleted after each workload. When {@code measuring}
     * is not null, each workload runs once more with it (an executor that measures memory) after the timed run, so that
     * the wall time never includes the measurement's garbage collections; the memory figures come from that run. When
     * {@code peer} is not null, each timed run of ours is followed by the peer's run of the same workload on the same
     * inputs, which also checks its results against ours. With {@code rounds} above 1, the timed runs (ours and the
     * peer's, alternating) repeat and the best time of each side counts.
     */
    static List<Result> run(
            List<Workload> workloads,
            Spec spec,
            Spec measuring,
            BenchData.Size size,
            Path dir,
            int threads,
            DaskPeer peer,
            int rounds,
            PrintWriter log)
            throws Exception {
        ensureInputs(workloads, size, dir, threads, log);
        List<Result> results = new ArrayList<>();
        for (Workload w : workloads) {
            List<ZarrArray> raw = new ArrayList<>();
            long inputBytes = 0;
            for (String name : w.inputs()) {
                ZarrArray z = ZarrArray.open(
                        dir.resolve("inputs").resolve(name + ".zarr").toString());
                raw.add(z);
                inputBytes += z.grid().size() * z.dtype().itemSizeBytes();
            }
            Path outDir = dir.resolve("out-" + w.id());
            log.printf(Locale.ROOT, "%s: %s ...%n", w.id(), w.description());
            log.flush();
            StageRecorder rec = null;
            long outputBytes = 0;
            double seconds = Double.POSITIVE_INFINITY;
            long rss = -1;
            DaskPeer.Run peerRun = null;
            double worstRound = Double.NaN;
            for (int round = 0; round < rounds; round++) {
                StageRecorder r = new StageRecorder();
                // Every timed run, ours and the peer's, starts alike: the previous run's output deleted and no dirty
                // pages left to write back (the peer's script deletes its output before its clock starts too).
                deleteTree(outDir);
                settle();
                // Reset again when the run's first computation starts (StageRecorder), once the heap fits its plan.
                boolean rssKnown = PeakRss.reset();
                long jitBefore = jitMillis();
                long start = System.nanoTime();
                outputBytes = runOnce(w, spec, dir, outDir, r);
                double s = (System.nanoTime() - start) / 1e9;
                String jit = jitDuring(jitBefore);
                if (rssKnown) {
                    rss = Math.max(rss, PeakRss.peakBytes());
                }
                if (s < seconds) {
                    seconds = s;
                    rec = r;
                }
                if (peer == null && rounds > 1) {
                    // Every round's time, not only the best: how long the runtime takes to warm up shows here, the
                    // tasks' summed time beside the wall time tells slower tasks from idle threads, and the JIT's
                    // time during the round how much of the cores its compilers took from the tasks.
                    log.printf(
                            Locale.ROOT,
                            "%s: round %d of %d, %.2f s, tasks %.2f s over %d threads%s%n",
                            w.id(),
                            round + 1,
                            rounds,
                            s,
                            r.taskSeconds(),
                            threads,
                            jit);
                    log.flush();
                }
                if (peer != null) {
                    settle();
                    DaskPeer.Run p = peer.run(w.id(), dir, outDir);
                    log.printf(
                            Locale.ROOT,
                            "%s: ours %.3f s, Dask %.3f s (%s)%s%n",
                            w.id(),
                            s,
                            p.seconds(),
                            p.check().equals("match") ? "same results" : "results: " + p.check(),
                            jit);
                    log.flush();
                    if (!p.check().equals("match")) {
                        throw new IllegalStateException("bench --peer dask: " + w.id()
                                + " computed by Dask differs from ours (" + p.check() + ")");
                    }
                    double ratio = s / p.seconds();
                    worstRound = Double.isNaN(worstRound) ? ratio : Math.max(worstRound, ratio);
                    peerRun = peerRun == null
                            ? p
                            : new DaskPeer.Run(
                                    Math.min(p.seconds(), peerRun.seconds()),
                                    Math.max(p.maxRssMb(), peerRun.maxRssMb()),
                                    "match");
                }
            }
            StageRecorder memory = rec;
            if (measuring != null) {
                memory = new StageRecorder();
                runOnce(w, measuring, dir, outDir, memory);
            }
            long read = 0;
            long written = 0;
            long tasks = 0;
            for (StageRecorder.StageFigures s : rec.stages()) {
                read += s.bytesRead;
                written += s.bytesWritten;
                tasks += s.tasks;
            }
            deleteTree(outDir);
            Path scratch = dir.resolve("raw-" + w.id());
            RawLimit.Rates rates = RawLimit.measure(raw, scratch.toString(), threads);
            deleteTree(scratch);
            Result r = new Result(
                    w.id(),
                    w.description(),
                    seconds,
                    inputBytes,
                    read,
                    written,
                    outputBytes,
                    tasks,
                    rates.seconds(read, written),
                    memory.stages(),
                    rss < 0 ? Double.NaN : rss / 1e6,
                    peerRun,
                    worstRound,
                    null);
            log.printf(
                    Locale.ROOT,
                    "%s: %.2f s, limit %.2f s (read %.0f MB/s, write %.0f MB/s), efficiency %.2f%n",
                    w.id(),
                    r.seconds(),
                    r.limitSeconds(),
                    rates.readBytesPerSecond() / 1e6,
                    rates.writeBytesPerSecond() / 1e6,
                    r.efficiency());
            log.flush();
            results.add(r);
        }
        return results;
    }

    /**
     * Computes workload {@code w} with {@code spec} into fresh arrays under {@code outDir}, reporting to {@code rec};
     * returns the bytes of its outputs.
     */
    private static long runOnce(Workload w, Spec spec, Path dir, Path outDir, StageRecorder rec) throws Exception {
        List<CubedArray> in = new ArrayList<>();
        for (String name : w.inputs()) {
            in.add(Cubed.fromZarr(dir.resolve("inputs").resolve(name + ".zarr").toString(), spec));
        }
        List<CubedArray> outs = w.build(in, spec);
        deleteTree(outDir); // already gone for a timed run (see run)
        List<String> urls = new ArrayList<>();
        long outputBytes = 0;
        for (int k = 0; k < outs.size(); k++) {
            urls.add(outDir.resolve("result-" + k + ".zarr").toString());
            outputBytes += outs.get(k).nbytes();
        }
        Cubed.store(outs, urls, w.options(), rec);
        return outputBytes;
    }

    /**
     * Flushes the dirty pages of the file system ({@code sync}) so that a timed run neither pays for writing back the
     * output of the run before it nor leaves its own for the next one: on Linux, pages beyond {@code
     * vm.dirty_background_ratio} are written to disk while the next run writes its own (docs/core.md, "A local work
     * directory and the kernel's writeback"). Untimed; skipped where there is no {@code sync} command.
     */
    static void settle() {
        try {
            Process p = new ProcessBuilder("sync").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(10, TimeUnit.MINUTES);
        } catch (IOException e) {
            // No sync command (Windows): nothing to flush with.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The live heap of this JVM at rest, in bytes: the baseline a task's memory comes on top of (the JVM's counterpart
     * of Cubed's {@code measure_reserved_mem}; see docs/benchmarks.md). Measured as {@link HeapProbe#liveHeap()} does
     * for each measured task, so the two are comparable.
     */
    static long measureBaselineHeap() {
        return HeapProbe.liveHeap();
    }

    /** What {@link #untilJitQuiet} did for one workload: its full-size rounds and the JIT's time in each, in seconds. */
    record JitSettling(String workload, List<Double> roundSeconds, List<Double> jitSeconds) {}

    /**
     * A JIT counts as quiet in a round when its compilers spent at most this share of the round's core time (its wall
     * time times the threads) compiling. A tenth let W4 start its timed rounds with C2 still to compile methods called
     * once per chunk or per pair of chunks (0.45-0.7 s in one timed round of four on 2 cores, 2026-11-29).
     */
    static final double QUIET_JIT_SHARE = 0.03;

    /**
     * Runs each workload at full size, untimed, for {@code budgetSeconds} of rounds and then on until the JIT's
     * compilers spent at most {@link #QUIET_JIT_SHARE} of the round's core time in two rounds in a row, for at most
     * twice the budget (at least one round); its output is deleted after each. The smoke-size warm-up compiles the loops
     * over elements, but not the methods called once per chunk (reading a chunk's file, handing a box to a reduction,
     * opening and closing a file), which reach C2 one after another over the first full-size rounds: without these
     * rounds they compiled during the timed ones (W2 at 0.6 s a round: the JIT busy 0.47, 0.21, 0.19, 0.07, 0.14, 0.39,
     * 0.15, 0.21 s in its first eight, {@code LocalStore.read} reaching C2 in the fourth). Two quiet rounds are not
     * enough on their own: these methods reach C2 when their calls cross the JIT's thresholds, not when the rounds
     * before were busy, and W4 stopped after two to four rounds and then compiled for 0.1-0.5 s in one of its first two
     * timed rounds in about half of its runs ({@code ZarrArray.readChunkInto} 0.33-0.53 s, {@code Json.value}, {@code
     * BloscThreads.forEachRange} 0.10 s; 2026-11-30, docs/benchmarks.md).
     */
    static List<JitSettling> untilJitQuiet(
            List<Workload> workloads, Spec spec, BenchData.Size size, Path dir, int threads, double budgetSeconds)
            throws Exception {
        ensureInputs(workloads, size, dir, threads, new PrintWriter(java.io.Writer.nullWriter()));
        List<JitSettling> settled = new ArrayList<>();
        for (Workload w : workloads) {
            Path outDir = dir.resolve("out-" + w.id());
            List<Double> rounds = new ArrayList<>();
            List<Double> jits = new ArrayList<>();
            double spent = 0;
            int quiet = 0;
            while (rounds.isEmpty() || (spent < 2 * budgetSeconds && (spent < budgetSeconds || quiet < 2))) {
                deleteTree(outDir);
                settle();
                long before = jitMillis();
                long start = System.nanoTime();
                runOnce(w, spec, dir, outDir, new StageRecorder());
                double s = (System.nanoTime() - start) / 1e9;
                double jit = jitSecondsSince(before);
                rounds.add(s);
                jits.add(Math.max(0, jit));
                spent += s;
                if (jit < 0) {
                    quiet = 2; // the JVM does not measure its JIT: quiet as far as anyone can tell
                } else {
                    quiet = jit <= QUIET_JIT_SHARE * s * threads ? quiet + 1 : 0;
                }
            }
            deleteTree(outDir);
            settled.add(new JitSettling(w.id(), List.copyOf(rounds), List.copyOf(jits)));
        }
        return settled;
    }

    /**
     * The time this JVM's JIT compilers have spent compiling so far, in milliseconds (summed over its compiler
     * threads), or -1 where the JVM does not measure it.
     */
    static long jitMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /** Seconds the JIT's compilers spent since {@code before} ({@link #jitMillis()}); -1 where it is not measured. */
    static double jitSecondsSince(long before) {
        long now = jitMillis();
        return before < 0 || now < 0 ? -1 : (now - before) / 1e3;
    }

    /**
     * ", JIT S s": the time the JIT's compilers spent since {@code before} ({@link #jitMillis()}), which they took
     * from the tasks' cores (W2's first round: 0.42 s of 0.77, then 0.22, 0.24, 0.56, 0.06, 0.09 in the next five, the
     * methods called once per chunk reaching C2 only after some hundred chunks); empty where the JVM does not measure
     * it.
     */
    static String jitDuring(long before) {
        double jit = jitSecondsSince(before);
        return jit < 0 ? "" : String.format(Locale.ROOT, ", JIT %.2f s", jit);
    }

    /** Makes (or keeps) every input the workloads read, each once, at {@code size} under {@code dir}. */
    private static void ensureInputs(
            List<Workload> workloads, BenchData.Size size, Path dir, int threads, PrintWriter log) throws Exception {
        Set<String> needed = new LinkedHashSet<>();
        for (Workload w : workloads) {
            needed.addAll(w.inputs());
        }
        for (String name : needed) {
            ensureInput(name, dir.resolve("inputs").resolve(name + ".zarr"), size, threads, log);
        }
    }

    static void ensureInput(String name, Path path, BenchData.Size size, int threads, PrintWriter log)
            throws Exception {
        BenchData.Layout l = BenchData.layout(name, size);
        if (Files.exists(path.resolve(".zarray"))) {
            ZarrArray z = ZarrArray.open(path.toString());
            if (Arrays.equals(z.grid().shape(), l.shape())
                    && Arrays.equals(z.grid().chunkShape(), l.chunks())
                    && z.writtenChunkCount() == z.grid().numChunks()) {
                return;
            }
        }
        log.printf(
                Locale.ROOT,
                "generating %s %s in chunks %s ...%n",
                name,
                Arrays.toString(l.shape()),
                Arrays.toString(l.chunks()));
        log.flush();
        deleteTree(path);
        BenchData.write(name, path.toString(), size, threads);
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
