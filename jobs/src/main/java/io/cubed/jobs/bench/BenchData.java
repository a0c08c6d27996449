package io.cubed.jobs.bench;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The generated inputs of the workloads, float64 fields that compress like measured data (smooth waves plus noise):
 * {@code u}, {@code v} of shape {@code (rows, cols)} in row blocks, and {@code s}, a square array in row stripes.
 */
final class BenchData {
    private BenchData() {}

    /** Shape and chunks of each named input for a size. */
    record Layout(long[] shape, int[] chunks) {}

    /** The layout of input {@code name} at {@code size}. */
    static Layout layout(String name, Size size) {
        switch (name) {
            case "u":
            case "v":
                return new Layout(new long[] {size.rows(), size.cols()}, new int[] {size.chunkRows(), size.cols()});
            case "s":
                return new Layout(new long[] {size.side(), size.side()}, new int[] {size.stripe(), (int) size.side()});
            case "m":
            case "n":
                return new Layout(
                        new long[] {size.matrix(), size.matrix()}, new int[] {size.matrixChunk(), size.matrixChunk()});
            default:
                throw new IllegalArgumentException("unknown input " + name);
        }
    }

    /** The sizes of a run: rows and columns of u and v, the side and stripe of s, the side and chunks of m and n. */
    record Size(long rows, int cols, int chunkRows, long side, int stripe, long matrix, int matrixChunk) {
        static Size of(double scale, boolean smoke) {
            if (smoke) {
                return new Size(512, 256, 64, 512, 16, 256, 64);
            }
            // Scale 1: u and v of 1.6 GB each, s of 2.1 GB, m and n of 4096 x 4096 (a few minutes on 2 cores).
            long blocks = Math.max(1, Math.round(200 * scale));
            long side = Math.max(1024, Math.round(16384 * Math.sqrt(scale) / 128) * 128);
            long matrix = Math.max(512, Math.round(4096 * Math.cbrt(scale) / 512) * 512);
            return new Size(blocks * 1024, 1024, 1024, side, 128, matrix, 1024);
        }
    }

    /** Writes input {@code name} at {@code url} (replacing what is there) with {@code threads} threads. */
    static ZarrArray write(String name, String url, Size size, int threads) throws Exception {
        Layout l = layout(name, size);
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(l.shape(), l.chunks(), DType.FLOAT64)
                        .overwrite(true)
                        .build());
        ChunkGrid g = z.grid();
        long seed = name.hashCode();
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                fs.add(pool.submit(() -> {
                    for (long i = next.getAndIncrement(); i < g.numChunks(); i = next.getAndIncrement()) {
                        long[] c = g.chunkCoordsOf(i);
                        z.writeChunk(field(g, c, seed), c);
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
        return z;
    }

    /**
     * Writes a {@code side}² float64 array of standard normal values (seeded) in {@code chunk}² chunks at {@code url},
     * Blosc-LZ4 with byte shuffle: the object-store bench's input when no zarr-python writes it.
     */
    static void writeNormal(String url, int side, int chunk, long seed) {
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {side, side}, new int[] {chunk, chunk}, DType.FLOAT64)
                        .overwrite(true)
                        .build());
        ChunkGrid g = z.grid();
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < g.numChunks(); i++) {
            long[] c = g.chunkCoordsOf(i);
            Chunk ch = Chunk.allocate(DType.FLOAT64, g.chunkShapeAt(c));
            double[] d = ch.doubles();
            for (int k = 0; k < d.length; k++) {
                d[k] = random.nextGaussian();
            }
            z.writeChunk(ch, c);
        }
    }

    /** A chunk of a smooth field plus 1 % noise: element (i, j) depends on its global position and the seed. */
    private static Chunk field(ChunkGrid g, long[] coords, long seed) {
        int[] shape = g.chunkShapeAt(coords);
        long[] off = g.chunkOffset(coords);
        Chunk c = Chunk.allocate(DType.FLOAT64, shape);
        double[] d = c.doubles();
        SplittableRandom noise = new SplittableRandom(seed * 31 + g.numChunks() + coords[0] * 7919 + coords[1]);
        for (int r = 0; r < shape[0]; r++) {
            double y = 2 * Math.PI * (off[0] + r) / 1024.0;
            for (int k = 0; k < shape[1]; k++) {
                double x = 2 * Math.PI * (off[1] + k) / 1024.0;
                d[r * shape[1] + k] = 280 + 10 * Math.sin(x + seed % 7) * Math.cos(y) + 0.1 * noise.nextGaussian();
            }
        }
        return c;
    }
}
