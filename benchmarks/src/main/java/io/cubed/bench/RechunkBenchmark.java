package io.cubed.bench;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * Rechunks a generated float64 Zarr array from row stripes to column stripes on the in-process executor and reports
 * wall time and bytes read and written per stage, against the raw limit measured in the same run: reading and writing
 * the same numbers of bytes with {@link ZarrArray} (default compressor, same threads) and nothing else.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar io.cubed.bench.RechunkBenchmark [--size-mb 512]
 * [--stripe 128] [--allowed-mem 2GB] [--threads N] [--dir DIR]}. Not a JMH benchmark: one run, wall-clock figures.
 */
public final class RechunkBenchmark {
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
        String allowed = opt.getOrDefault("allowed-mem", "2GB");
        Path dir = Files.createTempDirectory(
                Files.createDirectories(Path.of(opt.getOrDefault("dir", System.getProperty("java.io.tmpdir")))),
                "rechunk-bench");
        int side = (int) Math.sqrt(sizeMb * 1_000_000.0 / Double.BYTES);
        side = Math.max(stripe, side / stripe * stripe);
        try {
            run(dir, side, stripe, threads, allowed);
        } finally {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void run(Path dir, int side, int stripe, int threads, String allowed) {
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
                "array %d x %d float64 (%.1f MB), rows (%d, %d) -> columns (%d, %d), allowedMem %s, %d threads%n",
                side,
                side,
                nbytes / 1e6,
                stripe,
                side,
                side,
                stripe,
                allowed,
                threads);

        // The raw limit: read every chunk of the source and write it again, with ZarrArray only, same threads.
        double readRate = 0;
        double writeRate = 0;
        double rawPass = Double.MAX_VALUE;
        // Best of 3 passes: the first one also warms up the JIT and the page cache, as the rechunk's reads are. Each
        // chunk is read and written by the same thread (nothing held beyond one chunk per thread); the read and write
        // rates come from the time the threads spent in each call.
        for (int pass = 0; pass < 3; pass++) {
            // Each pass writes a new array, as every rechunk stage does: overwriting the previous pass's files would
            // be a different workload for the file system (the replaced files' pages are dropped, never written back).
            double[] p = copyPass(rows, dir.resolve("copy-" + pass + ".zarr"), threads);
            rawPass = Math.min(rawPass, p[0]);
            readRate = Math.max(readRate, nbytes / (p[1] / threads));
            writeRate = Math.max(writeRate, nbytes / (p[2] / threads));
        }
        System.out.printf(
                Locale.ROOT,
                "raw ZarrArray (best of 3 passes): read %.0f MB/s, write %.0f MB/s, one read+write pass %.2f s%n",
                readRate / 1e6,
                writeRate / 1e6,
                rawPass);

        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem(allowed)
                .executor(new LocalExecutor(threads, 1, 0))
                .keepIntermediates(true) // for the per-layout limit below
                .build();
        CubedArray x = Cubed.fromZarr(src, spec);
        CubedArray y = Manipulation.rechunk(x, side, stripe);
        System.out.print(y.explain());
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
        long r0 = System.nanoTime();
        y.toZarr(dir.resolve("columns.zarr").toString(), stats);
        long wall = System.nanoTime() - r0;
        double totalRead = 0;
        double totalWritten = 0;
        System.out.printf(
                Locale.ROOT, "%-8s %12s %12s %10s %10s%n", "stage", "read MB", "written MB", "time s", "limit s");
        for (Map.Entry<String, long[]> e : perStage.entrySet()) {
            long[] s = e.getValue();
            double limit = s[0] / readRate + s[1] / writeRate;
            System.out.printf(
                    Locale.ROOT,
                    "%-8s %12.1f %12.1f %10.2f %10.2f%n",
                    e.getKey(),
                    s[0] / 1e6,
                    s[1] / 1e6,
                    s[2] / 1e9,
                    limit);
            totalRead += s[0];
            totalWritten += s[1];
        }
        double limit = totalRead / readRate + totalWritten / writeRate;
        System.out.printf(
                Locale.ROOT,
                "total: %.2f s wall, read %.1f MB, written %.1f MB; raw limit %.2f s; ratio %.2f%n",
                wall / 1e9,
                totalRead / 1e6,
                totalWritten / 1e6,
                limit,
                wall / 1e9 / limit);
        int stages = perStage.size();
        System.out.printf(
                Locale.ROOT,
                "wall / (%d stages x one raw read+write pass of %.2f s) = %.2f%n",
                stages,
                rawPass,
                wall / 1e9 / (stages * rawPass));
        // The same bytes in the same layouts: each stage reads its input array and writes its output array, whose
        // chunk shapes (and so compressed sizes and codec speed) differ from the source's. Time a plain read of every
        // array of the plan and a plain write of its chunks into a new array of the same chunks, on the same threads;
        // a stage's limit is then its input array's read time plus its output array's write time.
        List<ZarrArray> layouts = new ArrayList<>();
        layouts.add(rows);
        try (Stream<Path> found = Files.walk(dir.resolve("work"))) {
            found.filter(p -> p.getFileName().toString().equals(".zarray"))
                    .map(p -> p.getParent().toString())
                    .sorted()
                    .forEach(url -> layouts.add(ZarrArray.open(url)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        layouts.add(ZarrArray.open(dir.resolve("columns.zarr").toString()));
        if (layouts.size() == stages + 1) {
            double[][] pass = new double[layouts.size()][];
            for (int a = 0; a < layouts.size(); a++) {
                pass[a] = layoutPass(layouts.get(a), dir.resolve("layout-" + a + ".zarr"), threads);
            }
            double layoutLimit = 0;
            for (int st = 0; st < stages; st++) {
                double stageLimit = pass[st][0] + pass[st + 1][1];
                layoutLimit += stageLimit;
                System.out.printf(
                        Locale.ROOT,
                        "stage %d: read %s in %.2f s + write %s in %.2f s = %.2f s%n",
                        st + 1,
                        java.util.Arrays.toString(layouts.get(st).grid().chunkShape()),
                        pass[st][0],
                        java.util.Arrays.toString(layouts.get(st + 1).grid().chunkShape()),
                        pass[st + 1][1],
                        stageLimit);
            }
            System.out.printf(
                    Locale.ROOT,
                    "wall / (raw read of each stage's input + raw write of its output, same layouts, %.2f s) = %.2f%n",
                    layoutLimit,
                    wall / 1e9 / layoutLimit);
        } else {
            System.out.printf(
                    Locale.ROOT, "per-layout limit skipped: found %d arrays for %d stages%n", layouts.size(), stages);
        }
        ZarrArray out = ZarrArray.open(dir.resolve("columns.zarr").toString());
        Chunk col = out.readChunk(0, 1);
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

    private interface IndexTask {
        void run(int index);
    }

    /**
     * Reads every chunk of {@code a} and writes it into a new array at {@code copy} with the same chunks and
     * compressor, on {@code threads} threads (each thread reads a chunk, then writes it, so nothing is held beyond one
     * chunk per thread), then deletes the copy outside the timing. Returns {wall seconds, seconds the threads spent
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
        deleteTree(copy);
        return new double[] {wall, readNanos.get() / 1e9, writeNanos.get() / 1e9};
    }

    /** The wall time of a {@link #copyPass} of {@code a}, split in proportion to the time spent reading and writing. */
    private static double[] layoutPass(ZarrArray a, Path copy, int threads) {
        double[] p = copyPass(a, copy, threads);
        double readShare = p[1] / (p[1] + p[2]);
        return new double[] {p[0] * readShare, p[0] * (1 - readShare)};
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
