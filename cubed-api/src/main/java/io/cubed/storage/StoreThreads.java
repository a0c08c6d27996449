package io.cubed.storage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The threads on which stores whose clients block (local files, Hadoop file systems) serve {@link Store#getAsync} and
 * {@link Store#putAsync}: one JVM-wide pool of daemon threads, made as requests need them and dropped after 30 s idle.
 * It has no bound of its own: callers bound what they keep in flight ({@link ChunkIo}), and a thread serves one
 * request at a time.
 */
public final class StoreThreads {
    private static final AtomicInteger NUMBER = new AtomicInteger();
    private static final ExecutorService POOL =
            new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "cubed-store-" + NUMBER.incrementAndGet());
                t.setDaemon(true);
                return t;
            });

    private StoreThreads() {}

    /** Runs {@code request} on a pool thread; the future completes with its value or its failure. */
    public static <T> CompletableFuture<T> supply(Supplier<T> request) {
        return CompletableFuture.supplyAsync(request, POOL);
    }

    /**
     * Waits for {@code f} and returns its value; its failure is rethrown as the request threw it (a {@code
     * StorageException}, say), not wrapped in a {@link java.util.concurrent.CompletionException}.
     */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Runs {@code request} on a pool thread. */
    public static CompletableFuture<Void> run(Runnable request) {
        return CompletableFuture.runAsync(request, POOL);
    }
}
