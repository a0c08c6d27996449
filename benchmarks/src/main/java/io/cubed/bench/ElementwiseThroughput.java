package io.cubed.bench;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BinaryOperator;
import java.util.stream.Stream;

/**
 * Issue 3's throughput target: {@code c = a + b} on two float64 Zarr arrays in 8 MiB chunks, computed by Cubed with
 * the in-process executor, against a plain loop in one JVM that reads, decodes, adds, encodes and writes the same
 * chunks with the same codec and number of threads (the raw I/O + codec limit). Both run twice, alternating; the
 * better of each is reported, with the ratio Cubed throughput / plain throughput.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.cubed.bench.ElementwiseThroughput [SIZE_MB [THREADS [DIR]]]}, default
 * 1600 MB per input, 2 threads, a temporary directory.
 */
public final class ElementwiseThroughput {
    private ElementwiseThroughput() {}

    public static void main(String[] args) throws Exception {
        long sizeMb = args.length > 0 ? Long.parseLong(args[0]) : 1600;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("cubed-elementwise-");
        long chunks = Math.max(1, sizeMb * 1_000_000 / BenchData.CHUNK_BYTES);
        long rows = chunks * BenchData.ROWS;
        long[] shape = {rows, BenchData.COLS};
        int[] chunkShape = {BenchData.ROWS, BenchData.COLS};
        try {
            ZarrArray a = create(dir.resolve("a.zarr"), shape, chunkShape);
            ZarrArray b = create(dir.resolve("b.zarr"), shape, chunkShape);
            forEachChunk(a.grid(), threads, i -> {
                a.writeChunk(Chunk.wrap(DType.FLOAT64, chunkShape, BenchData.field(i)), i, 0);
                b.writeChunk(Chunk.wrap(DType.FLOAT64, chunkShape, BenchData.field(i + 7919)), i, 0);
            });
            double inputBytes = 2.0 * rows * BenchData.COLS * 8;
            System.out.printf(
                    Locale.ROOT,
                    "inputs: 2 x %d x %d float64 (%.1f MB each), %d chunks of 8 MiB, %s, %d threads%n",
                    rows,
                    BenchData.COLS,
                    inputBytes / 2e6,
                    chunks,
                    Compressor.defaultCompressor().toJson(),
                    threads);
            long bestPlain = Long.MAX_VALUE;
            long bestCubed = Long.MAX_VALUE;
            for (int round = 0; round < 2; round++) {
                bestPlain = Math.min(bestPlain, plain(a, b, dir.resolve("plain-" + round + ".zarr"), threads));
                bestCubed = Math.min(bestCubed, cubed(a, b, dir, round, threads));
            }
            double plainRate = inputBytes / (bestPlain / 1e9);
            double cubedRate = inputBytes / (bestCubed / 1e9);
            System.out.printf(
                    Locale.ROOT,
                    "plain loop (read+decode+add+encode+write): %.2f s, %.1f MB/s of input%n",
                    bestPlain / 1e9,
                    plainRate / 1e6);
            System.out.printf(
                    Locale.ROOT,
                    "cubed add (LocalExecutor, %d threads):       %.2f s, %.1f MB/s of input%n",
                    threads,
                    bestCubed / 1e9,
                    cubedRate / 1e6);
            System.out.printf(
                    Locale.ROOT, "ratio cubed / plain throughput: %.3f (target >= 0.8)%n", cubedRate / plainRate);
        } finally {
            deleteTree(dir);
        }
    }

    private static ZarrArray create(Path path, long[] shape, int[] chunks) {
        return ZarrArray.create(
                path.toString(),
                ZarrCreateOptions.builder(shape, chunks, DType.FLOAT64)
                        .overwrite(true)
                        .build());
    }

    /** The plain loop: per chunk read a and b, add, write c; returns nanoseconds. */
    private static long plain(ZarrArray a, ZarrArray b, Path out, int threads) throws Exception {
        ZarrArray c = create(out, a.grid().shape(), a.grid().chunkShape());
        long start = System.nanoTime();
        forEachChunk(a.grid(), threads, i -> {
            double[] x = a.readChunk(i, 0).doubles();
            double[] y = b.readChunk(i, 0).doubles();
            double[] z = new double[x.length];
            for (int k = 0; k < z.length; k++) {
                z[k] = x[k] + y[k];
            }
            c.writeChunk(Chunk.wrap(DType.FLOAT64, a.grid().chunkShapeAt(i, 0), z), i, 0);
        });
        return System.nanoTime() - start;
    }

    /** Cubed: fromZarr a and b, add, toZarr; returns nanoseconds including planning. */
    private static long cubed(ZarrArray a, ZarrArray b, Path dir, int round, int threads) {
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .executor(new LocalExecutor(threads, 3))
                .build();
        long start = System.nanoTime();
        CubedArray x = Cubed.fromZarr(a.url(), spec);
        CubedArray y = Cubed.fromZarr(b.url(), spec);
        ADD.apply(x, y).toZarr(dir.resolve("cubed-" + round + ".zarr").toString());
        return System.nanoTime() - start;
    }

    /** The elementwise addition under test. */
    static final BinaryOperator<CubedArray> ADD = io.cubed.array.Elementwise::add;

    private interface ChunkRow {
        void run(long row) throws Exception;
    }

    private static void forEachChunk(ChunkGrid grid, int threads, ChunkRow task) throws Exception {
        AtomicLong next = new AtomicLong();
        long n = grid.chunksPerAxis(0);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                fs.add(pool.submit(() -> {
                    for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        task.run(i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
