package io.cubed.storage.zarr.blosc;

import io.cubed.error.CubedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Blosc blocks of one chunk encoded and decoded on several threads, as c-blosc's {@code nthreads} does: for work that
 * has fewer chunks than threads (a copy of a few large chunks), so that no thread sits idle. A caller asks for it
 * around its own code ({@link #with}); the blocks then run on a shared pool of daemon threads, the caller's thread
 * taking a share. Without it, or for frames of one block, everything runs on the calling thread, as before.
 */
public final class BloscThreads {
    private static final ThreadLocal<Integer> THREADS = ThreadLocal.withInitial(() -> 1);
    private static final ForkJoinPool POOL = new ForkJoinPool(
            Math.max(2, Runtime.getRuntime().availableProcessors()),
            pool -> {
                var t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                t.setDaemon(true);
                t.setName("cubed-blosc-" + t.getPoolIndex());
                return t;
            },
            null,
            false);

    private BloscThreads() {}

    /** Runs {@code work} with its Blosc encoding and decoding spread over up to {@code threads} threads. */
    public static <T> T with(int threads, Supplier<T> work) {
        int before = THREADS.get();
        THREADS.set(Math.max(1, threads));
        try {
            return work.get();
        } finally {
            THREADS.set(before);
        }
    }

    /** The threads the calling code may use for one frame's blocks. */
    static int current() {
        return THREADS.get();
    }

    /**
     * Runs {@code block} for every block index in {@code [0, nblocks)}: on the calling thread alone, or in contiguous
     * ranges on {@code threads} threads; the first failure is rethrown once all ranges have ended.
     */
    static void forEachBlock(int nblocks, int threads, IntConsumer block) {
        forEachRange(nblocks, threads, (from, to) -> {
            for (int j = from; j < to; j++) {
                block.accept(j);
            }
        });
    }

    /** Receives a range {@code [from, to)} of block indexes. */
    @FunctionalInterface
    interface BlockRange {
        void run(int from, int to);
    }

    /**
     * Runs {@code range} on contiguous ranges covering {@code [0, nblocks)}: one range on the calling thread, or one
     * per thread on {@code threads} threads (so that each range can set up what it needs once, e.g. a compressor).
     */
    static void forEachRange(int nblocks, int threads, BlockRange range) {
        int t = Math.min(threads, nblocks);
        if (t <= 1) {
            range.run(0, nblocks);
            return;
        }
        List<Future<?>> others = new ArrayList<>();
        for (int k = 1; k < t; k++) {
            int from = nblocks * k / t;
            int to = nblocks * (k + 1) / t;
            others.add(POOL.submit(() -> range.run(from, to)));
        }
        RuntimeException first = null;
        try {
            range.run(0, nblocks / t);
        } catch (RuntimeException e) {
            first = e;
        }
        for (Future<?> f : others) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause() instanceof RuntimeException r
                            ? r
                            : new CubedException("blosc block failed: " + e.getCause(), e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (first == null) {
                    first = new CubedException("interrupted while coding blosc blocks", e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
