package io.cubed.bench;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.LinearAlgebra;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.MatMul;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.Spec;
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
 * Reductions and matmul on the in-process executor, against limits measured in the same run: {@code mean(a, axis=0)}
 * and {@code sum(a)} of a generated float64 Zarr array (default compressor) against the raw rate of reading and
 * decoding every chunk with {@link ZarrArray} on the same threads; the GFLOP/s of the chunk matmul kernel on
 * 1000 × 1000 float64 chunks; and {@code matmul} of two N × N arrays in 1000 × 1000 chunks end to end.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar io.cubed.bench.ReductionBenchmark [--size-mb 3200]
 * [--chunk 1024] [--matmul-n 4000] [--threads N] [--allowed-mem 2GB] [--dir DIR]}. Not a JMH benchmark: wall-clock
 * figures of single runs (best of 3 for the rates).
 */
public final class ReductionBenchmark {
    private ReductionBenchmark() {}

    public static void main(String[] args) throws IOException {
        Map<String, String> opt = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opt.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        long sizeMb = Long.parseLong(opt.getOrDefault("size-mb", "3200"));
        int chunk = Integer.parseInt(opt.getOrDefault("chunk", "1024"));
        int matmulN = Integer.parseInt(opt.getOrDefault("matmul-n", "4000"));
        int threads = Integer.parseInt(
                opt.getOrDefault("threads", String.valueOf(Runtime.getRuntime().availableProcessors())));
        String allowed = opt.getOrDefault("allowed-mem", "2GB");
        Path dir = Files.createTempDirectory(
                Files.createDirectories(Path.of(opt.getOrDefault("dir", System.getProperty("java.io.tmpdir")))),
                "reduction-bench");
        try {
            Spec spec = Spec.builder()
                    .workDir(dir.resolve("work").toString())
                    .allowedMem(allowed)
                    .executor(new LocalExecutor(threads, 1, 0))
                    .build();
            reductions(dir, spec, sizeMb, chunk, threads);
            kernel();
            if (matmulN > 0) {
                matmul(dir, spec, matmulN);
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void reductions(Path dir, Spec spec, long sizeMb, int chunk, int threads) {
        long rows = Math.max(chunk, sizeMb * 1_000_000L / Double.BYTES / (4L * chunk) / chunk * chunk);
        long cols = 4L * chunk;
        String url = dir.resolve("a.zarr").toString();
        ZarrArray a = write(url, rows, cols, chunk);
        double nbytes = (double) rows * cols * Double.BYTES;
        System.out.printf(
                Locale.ROOT,
                "array %d x %d float64 (%.1f MB) in %d x %d chunks, %d threads, allowedMem %s%n",
                rows,
                cols,
                nbytes / 1e6,
                chunk,
                chunk,
                threads,
                spec.allowedMem());
        int n = (int) a.grid().numChunks();
        double rawRate = 0;
        for (int pass = 0; pass < 3; pass++) {
            AtomicLong sink = new AtomicLong();
            long t0 = System.nanoTime();
            parallel(
                    n,
                    threads,
                    i -> sink.addAndGet(a.readChunk(a.grid().chunkCoordsOf(i)).doubles().length));
            rawRate = Math.max(rawRate, nbytes / ((System.nanoTime() - t0) / 1e9));
        }
        System.out.printf(Locale.ROOT, "raw ZarrArray read + decode (best of 3): %.0f MB/s%n", rawRate / 1e6);
        CubedArray x = Cubed.fromZarr(url, spec);
        for (String what : new String[] {"mean(a, axis=0)", "sum(a)"}) {
            double best = 0;
            double check = 0;
            for (int pass = 0; pass < 3; pass++) {
                CubedArray r =
                        what.startsWith("mean") ? Statistical.mean(x, ReductionOptions.axis(0)) : Statistical.sum(x);
                long t0 = System.nanoTime();
                Chunk c = r.compute();
                double rate = nbytes / ((System.nanoTime() - t0) / 1e9);
                best = Math.max(best, rate);
                check = c.doubles()[0];
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-16s %8.0f MB/s (best of 3) = %.2f x the raw read rate; first value %.6f%n",
                    what,
                    best / 1e6,
                    best / rawRate,
                    check);
        }
    }

    private static void kernel() {
        int n = 1000;
        SplittableRandom r = new SplittableRandom(1);
        double[] a = new double[n * n];
        double[] b = new double[n * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextDouble();
            b[i] = r.nextDouble();
        }
        double best = 0;
        for (int rep = 0; rep < 5; rep++) {
            double[] c = new double[n * n];
            long t0 = System.nanoTime();
            MatMul.multiply(a, 0, b, 0, c, 0, n, n, n);
            best = Math.max(best, 2.0 * n * n * n / ((System.nanoTime() - t0) / 1e9));
        }
        System.out.printf(
                Locale.ROOT,
                "chunk kernel MatMul 1000 x 1000 x 1000 (one thread, best of 5): %.2f GFLOP/s%n",
                best / 1e9);
    }

    private static void matmul(Path dir, Spec spec, int n) {
        CubedArray a = Cubed.fromZarr(
                write(dir.resolve("ma.zarr").toString(), n, n, 1000).url(), spec);
        CubedArray b = Cubed.fromZarr(
                write(dir.resolve("mb.zarr").toString(), n, n, 1000).url(), spec);
        CubedArray c = LinearAlgebra.matmul(a, b);
        System.out.print(c.explain());
        long t0 = System.nanoTime();
        c.toZarr(dir.resolve("mc.zarr").toString());
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "matmul %d x %d float64 in 1000 x 1000 chunks, end to end: %.2f s, %.2f GFLOP/s%n",
                n,
                n,
                s,
                2.0 * n * n * n / s / 1e9);
    }

    private static ZarrArray write(String url, long rows, long cols, int chunk) {
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {rows, cols}, new int[] {chunk, chunk}, DType.FLOAT64)
                        .compressor(Compressor.defaultCompressor())
                        .build());
        parallel((int) z.grid().numChunks(), Runtime.getRuntime().availableProcessors(), i -> {
            long[] c = z.grid().chunkCoordsOf(i);
            z.writeChunk(generate(z.grid(), c), c);
        });
        return z;
    }

    private interface IndexTask {
        void run(int index);
    }

    private static void parallel(int n, int threads, IndexTask task) {
        AtomicLong next = new AtomicLong();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    task.run((int) i);
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
    }

    /** Smooth field plus noise, as the other benchmarks: compresses about as badly as measured float64 data. */
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
