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
import java.util.Comparator;
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
                Path.of(opt.getOrDefault("dir", System.getProperty("java.io.tmpdir"))), "rechunk-bench");
        int side = (int) Math.sqrt(sizeMb * 1_000_000.0 / Double.BYTES);
        side = Math.max(stripe, side / stripe * stripe);
        try {
            run(dir, side, stripe, threads, allowed);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
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
        String copyUrl = dir.resolve("copy.zarr").toString();
        ZarrArray copy = ZarrArray.create(
                copyUrl,
                ZarrCreateOptions.builder(new long[] {side, side}, new int[] {stripe, side}, DType.FLOAT64)
                        .compressor(Compressor.defaultCompressor())
                        .build());
        int chunks = (int) rows.grid().numChunks();
        double readRate = 0;
        double writeRate = 0;
        double rawPass = Double.MAX_VALUE;
        // Best of 3 passes: the first one also warms up the JIT and the page cache, as the rechunk's reads are. Each
        // chunk is read and written by the same thread (nothing held beyond one chunk per thread); the read and write
        // rates come from the time the threads spent in each call.
        for (int pass = 0; pass < 3; pass++) {
            java.util.concurrent.atomic.AtomicLong readNanos = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicLong writeNanos = new java.util.concurrent.atomic.AtomicLong();
            long t0 = System.nanoTime();
            parallel(chunks, threads, i -> {
                long[] c = rows.grid().chunkCoordsOf(i);
                long a = System.nanoTime();
                Chunk chunk = rows.readChunk(c);
                long b = System.nanoTime();
                copy.writeChunk(chunk, c);
                long e = System.nanoTime();
                readNanos.addAndGet(b - a);
                writeNanos.addAndGet(e - b);
            });
            long t1 = System.nanoTime();
            rawPass = Math.min(rawPass, (t1 - t0) / 1e9);
            readRate = Math.max(readRate, nbytes / (readNanos.get() / 1e9 / threads));
            writeRate = Math.max(writeRate, nbytes / (writeNanos.get() / 1e9 / threads));
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
