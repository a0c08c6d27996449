package io.cubed.storage;

import io.cubed.error.StorageException;
import io.cubed.storage.fs.InMemoryStore;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A test store in memory whose every request waits {@code latencyMillis} before it is served, as an object store's
 * requests wait for the network: the blocking calls sleep, the asynchronous ones ({@link #getAsync}, {@link
 * #putAsync}) complete later on a timer without holding a thread. It counts requests by operation and how many are in
 * flight ({@link RequestStats}), and fails the puts of keys listed in {@link #failPuts}.
 */
public final class LatencyStore implements Store {
    private static final ScheduledExecutorService TIMER = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "latency-store-timer");
        t.setDaemon(true);
        return t;
    });

    private final Store store;
    private final long latencyMillis;
    private final int concurrency;
    public final RequestStats stats;
    public final Set<String> failPuts;
    /** Keys whose next put fails, once each. */
    public final Set<String> failPutsOnce;

    private int requestOverheadBytes;

    private LatencyStore(
            Store store,
            long latencyMillis,
            int concurrency,
            RequestStats stats,
            Set<String> failPuts,
            Set<String> failPutsOnce) {
        this.store = store;
        this.latencyMillis = latencyMillis;
        this.concurrency = concurrency;
        this.stats = stats;
        this.failPuts = failPuts;
        this.failPutsOnce = failPutsOnce;
    }

    /** The same values, counters and failures, with another latency. */
    public LatencyStore withLatency(long millis) {
        LatencyStore s = new LatencyStore(store, millis, concurrency, stats, failPuts, failPutsOnce);
        s.requestOverheadBytes = requestOverheadBytes;
        return s;
    }

    /** The same store, saying that each request in flight holds {@code bytes} besides its value (default 0). */
    public LatencyStore withRequestOverhead(int bytes) {
        LatencyStore s = withLatency(latencyMillis);
        s.requestOverheadBytes = bytes;
        return s;
    }

    /** None by default: a store in memory has no connections. */
    @Override
    public int requestOverheadBytes() {
        return requestOverheadBytes;
    }

    /** A fresh store in memory with this latency and concurrency. */
    public static LatencyStore create(long latencyMillis, int concurrency) {
        return new LatencyStore(
                InMemoryStore.named("latency-" + java.util.UUID.randomUUID()),
                latencyMillis,
                concurrency,
                new RequestStats(),
                ConcurrentHashMap.newKeySet(),
                ConcurrentHashMap.newKeySet());
    }

    private void pause() {
        try {
            Thread.sleep(latencyMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted", e);
        }
    }

    private <T> T blocking(String op, java.util.function.Supplier<T> request) {
        stats.start(op);
        try {
            pause();
            return request.get();
        } finally {
            stats.end();
        }
    }

    private <T> CompletableFuture<T> later(String op, java.util.function.Supplier<T> request) {
        stats.start(op);
        CompletableFuture<T> f = new CompletableFuture<>();
        TIMER.schedule(
                () -> {
                    try {
                        T v = request.get();
                        stats.end();
                        f.complete(v);
                    } catch (RuntimeException e) {
                        stats.end();
                        f.completeExceptionally(e);
                    }
                },
                latencyMillis,
                TimeUnit.MILLISECONDS);
        return f;
    }

    @Override
    public String uri() {
        return store.uri();
    }

    @Override
    public int concurrency() {
        return concurrency;
    }

    @Override
    public boolean isObjectStore() {
        return true;
    }

    @Override
    public byte[] get(String key) {
        return blocking("GET", () -> store.get(key));
    }

    @Override
    public CompletableFuture<Bytes> getAsync(String key) {
        return later("GET", () -> {
            byte[] v = store.get(key);
            return v == null ? null : new Bytes(v, v.length);
        });
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        return blocking("GET", () -> store.getRange(key, offset, length));
    }

    @Override
    public void put(String key, byte[] value) {
        put(key, value, value.length);
    }

    @Override
    public void put(String key, byte[] value, int length) {
        blocking("PUT", () -> {
            checkPut(key);
            store.put(key, value, length);
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> putAsync(String key, byte[] value, int length) {
        byte[] copy = java.util.Arrays.copyOf(value, length);
        return later("PUT", () -> {
            checkPut(key);
            store.put(key, copy);
            return null;
        });
    }

    private void checkPut(String key) {
        if (failPuts.contains(key) || failPutsOnce.remove(key)) {
            throw new StorageException("cannot write '" + key + "' in " + uri() + ": refused by the test");
        }
    }

    @Override
    public boolean exists(String key) {
        return blocking("HEAD", () -> store.exists(key));
    }

    @Override
    public void delete(String key) {
        blocking("DELETE", () -> {
            store.delete(key);
            return null;
        });
    }

    @Override
    public void deletePrefix(String prefix) {
        store.deletePrefix(prefix);
    }

    @Override
    public List<String> list(String prefix) {
        return blocking("LIST", () -> store.list(prefix));
    }

    @Override
    public Store resolve(String path) {
        LatencyStore s =
                new LatencyStore(store.resolve(path), latencyMillis, concurrency, stats, failPuts, failPutsOnce);
        s.requestOverheadBytes = requestOverheadBytes;
        return s;
    }
}
