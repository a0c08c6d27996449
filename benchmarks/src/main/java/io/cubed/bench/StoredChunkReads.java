package io.cubed.bench;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.Store;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.ZarrArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongUnaryOperator;

/**
 * How fast the chunks of a stored Zarr array come off the page cache and into a reduction, pass by pass over every
 * chunk on {@code --threads} threads (each thread one contiguous share of the chunks, as tasks take them):
 *
 * <ul>
 *   <li>{@code stored, new arrays}: each chunk's stored bytes read into a new array of their length ({@code
 *       Store.get});
 *   <li>{@code stored, one recycled array}: into one array per thread of up to a chunk's raw size, reused from chunk to
 *       chunk ({@code Store.getTransient(key, capacity)}, what {@code ZarrArray} does for Blosc);
 *   <li>{@code sum, whole chunks}: each chunk decoded into a new typed array, then summed ({@code readChunk});
 *   <li>{@code sum, block by block}: each chunk handed over box by box as its Blosc blocks are decoded, each summed
 *       while in cache ({@code readChunkInBoxes}, what {@code sum} and {@code mean} do in their first round).
 * </ul>
 *
 * Rates are of the chunks' raw (decoded) bytes, except for the two {@code stored} rows (stored bytes). Float64 arrays.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.cubed.bench.StoredChunkReads --array /tmp/b1/inputs/u.zarr \
 *     [--threads 2] [--rounds 3]
 * </pre>
 */
public final class StoredChunkReads {
    private StoredChunkReads() {}

    public static void main(String[] args) throws Exception {
        String array = null;
        int threads = 2;
        int rounds = 3;
        for (int i = 0; i < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--array" -> array = v;
                case "--threads" -> threads = Integer.parseInt(v);
                case "--rounds" -> rounds = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (array == null) {
            throw new IllegalArgumentException("--array <path of a float64 Zarr v2 array> is required");
        }
        ZarrArray z = ZarrArray.open(array);
        Store store = Stores.open(array);
        ChunkGrid grid = z.grid();
        long n = grid.numChunks();
        int rawChunk = Math.toIntExact(grid.chunkSize() * z.dtype().itemSizeBytes());
        long rawBytes = n * rawChunk;
        long storedBytes = 0;
        List<String> keys = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            long[] c = grid.chunkCoordsOf(i);
            StringBuilder key = new StringBuilder();
            for (int a = 0; a < c.length; a++) {
                key.append(a == 0 ? "" : ".").append(c[a]);
            }
            keys.add(key.toString());
            byte[] v = store.get(key.toString());
            if (v == null) {
                throw new IllegalArgumentException("no chunk '" + key + "' in " + array
                        + ": every chunk must be written, with '.' between the chunk coordinates");
            }
            storedBytes += v.length;
        }
        System.out.printf(
                Locale.ROOT,
                "%s: %d chunks, %.1f MB stored, %.1f MB raw, %d threads%n",
                array,
                n,
                storedBytes / 1e6,
                rawBytes / 1e6,
                threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int r = 1; r <= rounds; r++) {
                report(r, "stored, new arrays", storedBytes, pass(pool, threads, n, i -> {
                    byte[] v = store.get(keys.get((int) i));
                    return v == null ? 0 : v[v.length / 2];
                }));
                report(r, "stored, one recycled array", storedBytes, pass(pool, threads, n, i -> {
                    Store.Bytes b = store.getTransient(keys.get((int) i), rawChunk);
                    if (b == null) {
                        return 0;
                    }
                    ArrayRecycler.giveBack(b.array());
                    return b.array()[b.length() / 2];
                }));
                report(r, "sum, whole chunks", rawBytes, pass(pool, threads, n, i -> {
                    Chunk c = z.readChunk(grid.chunkCoordsOf(i));
                    return (long) sum(c.doubles(), c.size());
                }));
                report(r, "sum, block by block", rawBytes, pass(pool, threads, n, i -> {
                    double[] total = new double[1];
                    z.readChunkInBoxes(
                            grid.chunkCoordsOf(i), (offset, box) -> total[0] += sum(box.doubles(), box.size()));
                    return (long) total[0];
                }));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static double sum(double[] v, int n) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < n; j += 4) {
            s0 += v[j];
            s1 += v[j + 1];
            s2 += v[j + 2];
            s3 += v[j + 3];
        }
        for (; j < n; j++) {
            s0 += v[j];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** Seconds for one pass: each thread takes a contiguous share of the chunks in one recycling scope. */
    private static double pass(ExecutorService pool, int threads, long n, LongUnaryOperator perChunk) throws Exception {
        long start = System.nanoTime();
        List<Future<Long>> parts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long from = n * t / threads;
            long to = n * (t + 1) / threads;
            parts.add(pool.submit(() -> {
                long x = 0;
                try (ArrayRecycler.Scope s = ArrayRecycler.open("stored-chunk-reads", 1L << 30)) {
                    for (long i = from; i < to; i++) {
                        x += perChunk.applyAsLong(i);
                    }
                }
                return x;
            }));
        }
        long sink = 0;
        for (Future<Long> f : parts) {
            sink += f.get();
        }
        if (sink == 42) {
            System.out.print("");
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static void report(int round, String what, long bytes, double seconds) {
        System.out.printf(
                Locale.ROOT, "round %d  %-28s %6.3f s  %6.2f GB/s%n", round, what, seconds, bytes / seconds / 1e9);
    }
}
