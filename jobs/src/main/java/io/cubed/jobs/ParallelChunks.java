package io.cubed.jobs;

import io.cubed.error.CubedException;
import io.cubed.grid.ChunkGrid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a task for every chunk of a grid on {@code threads} threads, one chunk per thread at a time, so memory stays at
 * about {@code threads} times what one task holds. The first failure stops the remaining chunks and is rethrown.
 */
final class ParallelChunks {
    private ParallelChunks() {}

    /** The work done for one chunk, given its chunk coordinates. */
    @FunctionalInterface
    interface ChunkTask {
        void run(long[] chunkCoords);
    }

    /** Runs {@code task} for every chunk of {@code grid}; {@code what} names the work in error messages. */
    static void forEach(ChunkGrid grid, int threads, String what, ChunkTask task) {
        forEachIndex(grid.numChunks(), threads, what, i -> task.run(grid.chunkCoordsOf(i)));
    }

    /** Runs {@code task} for every index in {@code [0, n)}, {@code threads} at a time. */
    static void forEachIndex(long n, int threads, String what, java.util.function.LongConsumer task) {
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < Math.max(1, threads); t++) {
                workers.add(pool.submit(() -> {
                    for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        task.accept(i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : workers) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    next.set(n);
                    Throwable cause = e.getCause();
                    if (cause instanceof CubedException) {
                        throw (CubedException) cause;
                    }
                    throw new CubedException(what + " failed: " + cause, cause);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CubedException(what + " interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
