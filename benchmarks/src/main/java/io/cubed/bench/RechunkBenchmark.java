package io.cubed.bench;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.Plan;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Rechunks a generated float64 Zarr array from row stripes to column stripes on the in-process executor and compares
 * its wall time with a chain of raw passes measured in the same run: pass {@code k} reads the array pass {@code k - 1}
 * wrote (the source for the first) and writes a new copy with {@link ZarrArray} alone (same chunks and compressor,
 * same threads), one pass per rechunk stage. Rounds alternate chain and rechunk, and each phase starts by deleting
 * what the previous phase wrote, so both see the same file system and page cache (a pass that writes into memory the
 * previous pass just freed is faster than one that grows the page cache, as a rechunk stage does; see
 * docs/benchmarks.md). Also reports bytes read and written per stage and the process CPU time of each phase.
 *
 * <p>Usage: {@code java -Xms4g -Xmx4g -cp benchmarks/target/benchmarks.jar io.cubed.bench.RechunkBenchmark
 * [--size-mb 512] [--stripe 128] [--allowed-mem 2GB] [--threads N] [--rounds 3] [--dir DIR]}. Not a JMH benchmark:
 * wall-clock figures of one run.
 */
public final class RechunkBenchmark {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private RechunkBenchmark() {}

    public static void main(String[] args) throws IOException {
        Map<String, String> opt = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opt.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        long sizeMb = Long.parseLong(opt.getOrDefault("size-mb", "512"));
        int stripe = Integer.parseInt(opt.getOrDefault("stripe", "128"));
        int threads = Integer.parseInt(
                opt.getOrDefault("threads", String.valueOf(Runtime.getRuntime().availableProcessors())));
        int rounds = Integer.parseInt(opt.getOrDefault("rounds", "3"));
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
        }
        String allowed = opt.getOrDefault("allowed-mem", "2GB");
        Path dir = Files.createTempDirectory(
                Files.createDirectories(Path.of(opt.getOrDefault("dir", System.getProperty("java.io.tmpdir")))),
                "rechunk-bench");
        int side = (int) Math.sqrt(sizeMb * 1_000_000.0 / Double.BYTES);
        side = Math.max(stripe, side / stripe * stripe);
        try {
            run(dir, side, stripe, threads, allowed, rounds);
        } finally {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One timed chain of raw passes: wall seconds per pass, and the threads' seconds inside read and write calls. */
    private record Chain(double[] passWall, double readSeconds, double writeSeconds, double cpuSeconds) {
        double wall() {
            double w = 0;
            for (double p : passWall) {
                w += p;
            }
            return w;
        }
    }

    /** One timed rechunk: wall seconds, per stage {bytes read, bytes written, nanoseconds}, process CPU seconds. */
    private record RechunkRun(double wall, Map<String, long[]> perStage, double cpuSeconds) {}

    private static void run(Path dir, int side, int stripe, int threads, String allowed, int rounds) {
        String src = dir.resolve("rows.zarr").toString();
        ZarrArray rows = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {side, side}, new int[] {stripe, side}, DType.FLOAT64)
                        .compressor(Compressor.defaultCompressor())
                        .build());
        for (long i = 0; i < rows.grid().numChunks(); i++) {
            long[] c = rows.grid().chunkCoordsOf(i);
            rows.writeChunk(generate(rows.grid(), c), c);
        }
        double nbytes = (double) side * side * Double.BYTES;
        System.out.printf(
                Locale.ROOT,
                "array %d x %d float64 (%.1f MB), rows (%d, %d) -> columns (%d, %d), allowedMem %s, %d threads, "
                        + "%d rounds, heap max %d MB%n",
                side,
                side,
                nbytes / 1e6,
                stripe,
                side,
                side,
                stripe,
                allowed,
                threads,
                rounds,
                Runtime.getRuntime().maxMemory() >> 20);
        CubedArray y = rechunked(src, dir.resolve("work-plan"), allowed, threads, side, stripe);
        System.out.print(y.explain());
        int stages = Plan.of(List.of(y.node())).ops().size();

        // Warm-up, untimed: a chain as long as the rechunk's, so that the JIT has compiled the raw path and the first
        // timed phase, like every later one, starts right after the deletion of what the previous phase wrote.
        deleteTree(chain(rows, stages, dir.resolve("chain"), threads).getValue());
        List<Chain> chains = new ArrayList<>();
        List<RechunkRun> runs = new ArrayList<>();
        String out = null;
        for (int round = 1; round <= rounds; round++) {
            Map.Entry<Chain, Path> c = chain(rows, stages, dir.resolve("chain"), threads);
            chains.add(c.getKey());
            deleteTree(c.getValue());
            Path work = dir.resolve("work-" + round);
            out = dir.resolve("columns-" + round + ".zarr").toString();
            RechunkRun r = rechunk(rechunked(src, work, allowed, threads, side, stripe), out);
            runs.add(r);
            if (r.perStage().size() != stages) {
                throw new IllegalStateException("the plan has " + stages + " operations but "
                        + r.perStage().size() + " stages ran");
            }
            System.out.printf(
                    Locale.ROOT,
                    "round %d: raw chain %s s = %.2f s (CPU %.1f s); rechunk %s s = %.2f s (CPU %.1f s); "
                            + "ratio %.2f%n",
                    round,
                    joined(c.getKey().passWall()),
                    c.getKey().wall(),
                    c.getKey().cpuSeconds(),
                    joined(stageSeconds(r)),
                    r.wall(),
                    r.cpuSeconds(),
                    r.wall() / c.getKey().wall());
            if (round < rounds) {
                deleteTree(work);
                deleteTree(Path.of(out));
            }
        }

        double bestChain = chains.stream().mapToDouble(Chain::wall).min().orElseThrow();
        RechunkRun best =
                runs.stream().min(Comparator.comparingDouble(RechunkRun::wall)).orElseThrow();
        double[] ratios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            ratios[i] = runs.get(i).wall() / chains.get(i).wall();
        }
        double[] sorted = ratios.clone();
        java.util.Arrays.sort(sorted);
        double median = rounds % 2 == 1 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;

        // Raw read and write rates: the best chain's time inside the calls, per thread.
        Chain rates =
                chains.stream().min(Comparator.comparingDouble(Chain::wall)).orElseThrow();
        double readRate = stages * nbytes / (rates.readSeconds() / threads);
        double writeRate = stages * nbytes / (rates.writeSeconds() / threads);
        System.out.printf(
                Locale.ROOT,
                "raw ZarrArray (best chain): read %.0f MB/s, write %.0f MB/s (time inside the calls, per thread)%n",
                readRate / 1e6,
                writeRate / 1e6);
        System.out.printf(
                Locale.ROOT,
                "%-8s %12s %12s %10s %10s   (fastest rechunk)%n",
                "stage",
                "read MB",
                "written MB",
                "time s",
                "limit s");
        double totalRead = 0;
        double totalWritten = 0;
        for (Map.Entry<String, long[]> e : best.perStage().entrySet()) {
            long[] s = e.getValue();
            System.out.printf(
                    Locale.ROOT,
                    "%-8s %12.1f %12.1f %10.2f %10.2f%n",
                    e.getKey(),
                    s[0] / 1e6,
                    s[1] / 1e6,
                    s[2] / 1e9,
                    s[0] / readRate + s[1] / writeRate);
            totalRead += s[0];
            totalWritten += s[1];
        }
        System.out.printf(
                Locale.ROOT,
                "total: read %.1f MB, written %.1f MB (%.2f x and %.2f x the array)%n",
                totalRead / 1e6,
                totalWritten / 1e6,
                totalRead / nbytes,
                totalWritten / nbytes);
        System.out.printf(
                Locale.ROOT,
                "wall / (%d stages x one raw read+write pass): fastest rechunk %.2f s / fastest chain %.2f s = %.2f; "
                        + "per round %s, median %.2f%n",
                stages,
                best.wall(),
                bestChain,
                best.wall() / bestChain,
                joined(ratios, ", "),
                median);

        // For comparison with earlier figures: the fastest single pass, which wrote into page cache the previous
        // phase had just freed (the first pass of a chain), times the number of stages. A stage grows the page cache
        // instead, so this bound is lower than what the same pass costs in a stage's place.
        double fastestPass = chains.stream()
                .flatMapToDouble(c -> java.util.Arrays.stream(c.passWall()))
                .min()
                .orElseThrow();
        System.out.printf(
                Locale.ROOT,
                "(fastest rechunk / (%d x fastest single pass, %.2f s, into freed memory) = %.2f)%n",
                stages,
                fastestPass,
                best.wall() / (stages * fastestPass));
        ZarrArray result = ZarrArray.open(out);
        Chunk col = result.readChunk(0, 1);
        Chunk expectedRows = rows.readChunk(0, 0);
        for (int r = 0; r < stripe; r++) {
            for (int k = 0; k < stripe; k++) {
                if (col.doubles()[r * stripe + k] != expectedRows.doubles()[r * side + stripe + k]) {
                    throw new IllegalStateException("rechunked value differs at (" + r + ", " + (stripe + k) + ")");
                }
            }
        }
        System.out.println("spot check of column chunk 1 against the source: equal");
    }

    /** The rechunk to column stripes of the array at {@code src}, with intermediates kept in {@code work}. */
    private static CubedArray rechunked(String src, Path work, String allowed, int threads, int side, int stripe) {
        Spec spec = Spec.builder()
                .workDir(work.toString())
                .allowedMem(allowed)
                .executor(new LocalExecutor(threads, 1, 0))
                // Deleted with the round, after the timing, as the chain's copies are: not inside the rechunk's time.
                .keepIntermediates(true)
                .build();
        return Manipulation.rechunk(Cubed.fromZarr(src, spec), side, stripe);
    }

    private static RechunkRun rechunk(CubedArray y, String out) {
        Map<String, long[]> perStage = new TreeMap<>();
        AtomicLong start = new AtomicLong();
        Callback stats = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd e) {
                synchronized (perStage) {
                    long[] s = perStage.computeIfAbsent(e.stage().id(), k -> new long[3]);
                    s[0] += e.result().bytesRead();
                    s[1] += e.result().bytesWritten();
                }
            }

            @Override
            public void onOperationStart(OperationStart e) {
                start.set(System.nanoTime());
            }

            @Override
            public void onOperationEnd(OperationEnd e) {
                synchronized (perStage) {
                    perStage.computeIfAbsent(e.stage().id(), k -> new long[3])[2] = System.nanoTime() - start.get();
                }
            }
        };
        long cpu0 = OS.getProcessCpuTime();
        long r0 = System.nanoTime();
        y.toZarr(out, stats);
        double wall = (System.nanoTime() - r0) / 1e9;
        return new RechunkRun(wall, perStage, (OS.getProcessCpuTime() - cpu0) / 1e9);
    }

    /**
     * {@code passes} raw passes, each reading the array the previous one wrote (the source for the first) and writing
     * a new one under {@code base}, kept until the caller deletes {@code base} (as a rechunk keeps each stage's output
     * while the next stage runs).
     */
    private static Map.Entry<Chain, Path> chain(ZarrArray source, int passes, Path base, int threads) {
        double[] wall = new double[passes];
        double read = 0;
        double write = 0;
        long cpu0 = OS.getProcessCpuTime();
        ZarrArray from = source;
        for (int p = 0; p < passes; p++) {
            Path copy = base.resolve("pass-" + p + ".zarr");
            double[] t = copyPass(from, copy, threads);
            wall[p] = t[0];
            read += t[1];
            write += t[2];
            from = ZarrArray.open(copy.toString());
        }
        return Map.entry(new Chain(wall, read, write, (OS.getProcessCpuTime() - cpu0) / 1e9), base);
    }

    private static double[] stageSeconds(RechunkRun r) {
        return r.perStage().values().stream().mapToDouble(s -> s[2] / 1e9).toArray();
    }

    private static String joined(double[] values) {
        return joined(values, " + ");
    }

    private static String joined(double[] values, String separator) {
        StringBuilder b = new StringBuilder();
        for (double v : values) {
            b.append(b.length() == 0 ? "" : separator).append(String.format(Locale.ROOT, "%.2f", v));
        }
        return b.toString();
    }

    private interface IndexTask {
        void run(int index);
    }

    /**
     * Reads every chunk of {@code a} and writes it into a new array at {@code copy} with the same chunks and
     * compressor, on {@code threads} threads (each thread reads a chunk, then writes it, so nothing is held beyond one
     * chunk per thread); the copy is left in place. Returns {wall seconds, seconds the threads spent
     * reading, seconds they spent writing}.
     */
    private static double[] copyPass(ZarrArray a, Path copy, int threads) {
        ChunkGrid grid = a.grid();
        ZarrArray target = ZarrArray.create(
                copy.toString(),
                ZarrCreateOptions.builder(grid.shape(), grid.chunkShape(), a.dtype())
                        .compressor(a.metadata().compressor())
                        .build());
        AtomicLong readNanos = new AtomicLong();
        AtomicLong writeNanos = new AtomicLong();
        long t0 = System.nanoTime();
        parallel((int) grid.numChunks(), threads, i -> {
            long[] c = grid.chunkCoordsOf(i);
            long s = System.nanoTime();
            Chunk chunk = a.readChunk(c);
            long m = System.nanoTime();
            target.writeChunk(chunk, c);
            long e = System.nanoTime();
            readNanos.addAndGet(m - s);
            writeNanos.addAndGet(e - m);
        });
        double wall = (System.nanoTime() - t0) / 1e9;
        return new double[] {wall, readNanos.get() / 1e9, writeNanos.get() / 1e9};
    }

    private static void parallel(int n, int threads, IndexTask task) {
        AtomicLong next = new AtomicLong();
        Thread[] workers = new Thread[threads];
        java.util.concurrent.atomic.AtomicReference<Throwable> failure =
                new java.util.concurrent.atomic.AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                try {
                    for (long i = next.getAndIncrement(); i < n && failure.get() == null; i = next.getAndIncrement()) {
                        task.run((int) i);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UncheckedIOException(new IOException("interrupted", e));
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a benchmark thread failed", failure.get());
        }
    }

    /** Smooth field plus noise, like {@link BenchData}: compresses about as badly as measured float64 data. */
    private static Chunk generate(ChunkGrid g, long[] coords) {
        int[] shape = g.chunkShapeAt(coords);
        long[] off = g.chunkOffset(coords);
        Chunk c = Chunk.allocate(DType.FLOAT64, shape);
        SplittableRandom noise = new SplittableRandom(coords[0] * 1_000_003L + coords[1]);
        double[] d = c.doubles();
        for (int r = 0, i = 0; r < shape[0]; r++) {
            for (int k = 0; k < shape[1]; k++, i++) {
                d[i] = 280
                        + 20 * Math.sin((off[0] + r) / 500.0) * Math.cos((off[1] + k) / 300.0)
                        + noise.nextDouble() * 0.01;
            }
        }
        return c;
    }
}
