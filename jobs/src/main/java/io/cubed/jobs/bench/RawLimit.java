package io.cubed.jobs.bench;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The raw I/O and codec limit: how fast plain {@link ZarrArray} calls read (decode) and write (encode) the chunks of
 * the inputs, with the same codec and threads, and no planning, tasks or computing. Each thread decodes into one
 * reused chunk, with the codec's buffers recycled as in a task: a new chunk per read would allocate gigabytes a
 * second, and the heap the collector grows for that would stay with the workloads measured after it. A workload moving {@code r} bytes
 * in and {@code w} bytes out cannot beat {@code r / readRate + w / writeRate}.
 */
final class RawLimit {
    private RawLimit() {}

    /** Uncompressed bytes per second of reading and of writing. */
    record Rates(double readBytesPerSecond, double writeBytesPerSecond) {
        /** The least time, in seconds, to read {@code read} and write {@code written} bytes. */
        double seconds(long read, long written) {
            return read / readBytesPerSecond + written / writeBytesPerSecond;
        }
    }

    /**
     * Reads every chunk of {@code inputs} (one timed pass), then reads and writes every chunk to scratch copies under
     * {@code scratchDir} (a second timed pass); the write time is the second pass minus the first.
     */
    static Rates measure(List<ZarrArray> inputs, String scratchDir, int threads) throws Exception {
        long bytes = 0;
        for (ZarrArray z : inputs) {
            bytes += z.grid().size() * z.dtype().itemSizeBytes();
        }
        // Warm-up read, so that both passes find the same page cache and JIT state.
        pass(inputs, null, threads);
        long read = pass(inputs, null, threads);
        List<ZarrArray> copies = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            ZarrArray z = inputs.get(i);
            copies.add(ZarrArray.create(
                    scratchDir + "/raw-" + i + ".zarr",
                    ZarrCreateOptions.builder(z.grid().shape(), z.grid().chunkShape(), z.dtype())
                            .overwrite(true)
                            .build()));
        }
        long readWrite = pass(inputs, copies, threads);
        long write = Math.max(readWrite - read, 1);
        return new Rates(bytes / (read / 1e9), bytes / (write / 1e9));
    }

    /** Reads every chunk (and writes it to {@code copies} when given); returns nanoseconds. */
    private static long pass(List<ZarrArray> inputs, List<ZarrArray> copies, int threads) throws Exception {
        long start = System.nanoTime();
        for (int a = 0; a < inputs.size(); a++) {
            ZarrArray in = inputs.get(a);
            ZarrArray out = copies == null ? null : copies.get(a);
            ChunkGrid g = in.grid();
            AtomicLong next = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    fs.add(pool.submit(() -> {
                        // As a task reads: into one array per thread, the codec's buffers handed from chunk to chunk.
                        long budget = 4L * g.chunkSize() * in.dtype().itemSizeBytes();
                        try (ArrayRecycler.Scope scope = ArrayRecycler.open("raw-limit", budget)) {
                            Chunk chunk = null;
                            for (long i = next.getAndIncrement(); i < g.numChunks(); i = next.getAndIncrement()) {
                                long[] c = g.chunkCoordsOf(i);
                                int[] shape = g.chunkShapeAt(c);
                                if (chunk == null || !java.util.Arrays.equals(chunk.shape(), shape)) {
                                    chunk = Chunk.allocate(in.dtype(), shape);
                                }
                                in.readChunkInto(c, new Chunk[] {chunk}, new long[][] {g.chunkOffset(c)});
                                if (out != null) {
                                    out.writeChunk(chunk, c);
                                }
                            }
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
        return System.nanoTime() - start;
    }
}
