package io.cubed.storage;

import io.cubed.error.StorageException;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * A {@link Store} that retries operations failing with a transient error — throttling (HTTP 503, "SlowDown", 429),
 * timeouts, connection resets — with exponential backoff and jitter; permanent errors (not found, access denied,
 * malformed data) fail at once. Every operation of a store is safe to repeat: reads have no effect and {@link #put}
 * is atomic. After the last attempt the error says how many were made. A value written in pieces as they come
 * ({@link #put(String, ValueWriter)} on a store that {@linkplain Store#putsInPieces does so}) is written once.
 *
 * <p>Settings ({@link StoreOptions}): {@value #ATTEMPTS} (total attempts, default 4; 1 turns retrying off) and
 * {@value #BASE_DELAY_MS} (first delay in milliseconds, default 200; each later one doubles, up to 10 s).
 */
public final class RetryingStore implements Store {
    /** Option: total attempts per operation. */
    public static final String ATTEMPTS = "cubed.store.retry.attempts";
    /** Option: the first delay between attempts, in milliseconds. */
    public static final String BASE_DELAY_MS = "cubed.store.retry.base-delay-ms";

    private static final long MAX_DELAY_MS = 10_000;

    private final Store store;
    private final int attempts;
    private final long baseDelayMs;

    private RetryingStore(Store store, int attempts, long baseDelayMs) {
        this.store = store;
        this.attempts = attempts;
        this.baseDelayMs = baseDelayMs;
    }

    /** {@code store} with retries as {@code options} say (default 4 attempts from 200 ms). */
    public static Store wrap(Store store, StoreOptions options) {
        int attempts = intOption(options, ATTEMPTS, 4);
        long delay = intOption(options, BASE_DELAY_MS, 200);
        if (attempts < 1 || delay < 0) {
            throw new io.cubed.error.InvalidArgumentException(ATTEMPTS + " must be at least 1 and " + BASE_DELAY_MS
                    + " at least 0, got " + attempts + " and " + delay);
        }
        return wrap(store, attempts, delay);
    }

    /** {@code store} with {@code attempts} attempts per operation, the first retry after {@code baseDelayMs}. */
    public static Store wrap(Store store, int attempts, long baseDelayMs) {
        return attempts <= 1 ? store : new RetryingStore(store, attempts, baseDelayMs);
    }

    private static int intOption(StoreOptions options, String key, int fallback) {
        String v = options.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new io.cubed.error.InvalidArgumentException(key + " must be an integer, got '" + v + "'", e);
        }
    }

    /** True when {@code e} (or a cause) is an error that the same request may not meet again. */
    public static boolean isTransient(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TransientFailure f) {
                return f.isTransient();
            }
            if (t instanceof FileNotFoundException
                    || t instanceof NoSuchFileException
                    || t instanceof AccessDeniedException
                    || t instanceof EOFException) {
                return false;
            }
            if (t instanceof InterruptedIOException || t instanceof SocketException) {
                return true; // timeouts (SocketTimeoutException is one), resets, refused connections
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (m.contains("503")
                    || m.contains("slow down")
                    || m.contains("slowdown")
                    || m.contains("throttl")
                    || m.contains("429")
                    || m.contains("too many requests")
                    || m.contains("connection reset")
                    || m.contains("timed out")
                    || m.contains("service unavailable")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private <T> T retry(String what, Supplier<T> op) {
        for (int attempt = 1; ; attempt++) {
            try {
                return op.get();
            } catch (StorageException e) {
                if (attempt >= attempts || !isTransient(e)) {
                    if (attempt > 1) {
                        throw new StorageException(
                                what.strip() + " on " + store.uri() + " failed after " + attempt + " attempts: "
                                        + e.getMessage(),
                                e);
                    }
                    throw e;
                }
                sleep(attempt);
            }
        }
    }

    /**
     * {@link #retry} for an asynchronous operation: a transient failure starts the operation again after the backoff,
     * without holding a thread while it waits.
     */
    private <T> java.util.concurrent.CompletableFuture<T> retryAsync(
            String what, Supplier<java.util.concurrent.CompletableFuture<T>> op) {
        java.util.concurrent.CompletableFuture<T> result = new java.util.concurrent.CompletableFuture<>();
        attemptAsync(what, op, 1, result);
        return result;
    }

    private <T> void attemptAsync(
            String what,
            Supplier<java.util.concurrent.CompletableFuture<T>> op,
            int attempt,
            java.util.concurrent.CompletableFuture<T> result) {
        java.util.concurrent.CompletableFuture<T> f;
        try {
            f = op.get();
        } catch (RuntimeException e) {
            f = java.util.concurrent.CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, e) -> {
            if (e == null) {
                result.complete(v);
                return;
            }
            Throwable c =
                    e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            if (attempt >= attempts || !isTransient(c)) {
                result.completeExceptionally(
                        attempt > 1
                                ? new StorageException(
                                        what.strip() + " on " + store.uri() + " failed after " + attempt + " attempts: "
                                                + c.getMessage(),
                                        c)
                                : c);
                return;
            }
            java.util.concurrent.CompletableFuture.delayedExecutor(
                            delayMillis(attempt), java.util.concurrent.TimeUnit.MILLISECONDS)
                    .execute(() -> attemptAsync(what, op, attempt + 1, result));
        });
    }

    /** The wait before attempt {@code attempt + 1}: exponential from the base delay, capped, with jitter. */
    private long delayMillis(int attempt) {
        long delay = Math.min(MAX_DELAY_MS, baseDelayMs << Math.min(20, attempt - 1));
        return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    }

    private void sleep(int attempt) {
        long jittered = delayMillis(attempt);
        try {
            Thread.sleep(jittered);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted while waiting to retry on " + store.uri(), e);
        }
    }

    @Override
    public String uri() {
        return store.uri();
    }

    @Override
    public byte[] get(String key) {
        return retry("reading " + key, () -> store.get(key));
    }

    @Override
    public byte[] getTransient(String key) {
        return retry("reading " + key, () -> store.getTransient(key));
    }

    @Override
    public Bytes getTransient(String key, int capacity) {
        return retry("reading " + key, () -> store.getTransient(key, capacity));
    }

    @Override
    public java.util.concurrent.CompletableFuture<Bytes> getAsync(String key) {
        return retryAsync("reading " + key, () -> store.getAsync(key));
    }

    @Override
    public java.util.concurrent.CompletableFuture<Void> putAsync(String key, byte[] value, int length) {
        return retryAsync("writing " + key, () -> store.putAsync(key, value, length));
    }

    @Override
    public int concurrency() {
        return store.concurrency();
    }

    @Override
    public int requestOverheadBytes() {
        return store.requestOverheadBytes();
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        return retry("reading " + key, () -> store.getRange(key, offset, length));
    }

    @Override
    public Part getTail(String key, int length) {
        return retry("reading " + key, () -> store.getTail(key, length));
    }

    @Override
    public Part getHead(String key, int length) {
        return retry("reading " + key, () -> store.getHead(key, length));
    }

    @Override
    public java.util.concurrent.CompletableFuture<byte[]> getRangeAsync(String key, long offset, int length) {
        return retryAsync("reading " + key, () -> store.getRangeAsync(key, offset, length));
    }

    @Override
    public long size(String key) {
        return retry("reading the size of " + key, () -> store.size(key));
    }

    @Override
    public long sizeBelow(String prefix) {
        return retry("reading the sizes below " + prefix, () -> store.sizeBelow(prefix));
    }

    @Override
    public void put(String key, byte[] value) {
        retry("writing " + key, () -> {
            store.put(key, value);
            return null;
        });
    }

    /** The store's own answer: whether it writes a value's pieces as they come. */
    @Override
    public boolean putsInPieces() {
        return store.putsInPieces();
    }

    /**
     * On a store that writes pieces as they come, one attempt: the pieces cannot be made again (a chunk compressed as
     * its elements are decoded), so a failure goes to the caller, whose task is what runs again. On the others the
     * pieces are gathered once and their put retried as {@link #put(String, byte[])} is.
     */
    @Override
    public void put(String key, ValueWriter value) {
        if (store.putsInPieces()) {
            store.put(key, value);
        } else {
            Store.super.put(key, value);
        }
    }

    @Override
    public void put(String key, byte[] value, int length) {
        retry("writing " + key, () -> {
            store.put(key, value, length);
            return null;
        });
    }

    @Override
    public boolean exists(String key) {
        return retry("checking " + key, () -> store.exists(key));
    }

    @Override
    public void delete(String key) {
        retry("deleting " + key, () -> {
            store.delete(key);
            return null;
        });
    }

    @Override
    public void deletePrefix(String prefix) {
        retry("deleting " + prefix, () -> {
            store.deletePrefix(prefix);
            return null;
        });
    }

    @Override
    public List<String> list(String prefix) {
        return retry("listing " + prefix, () -> store.list(prefix));
    }

    @Override
    public List<String> listChildren(String prefix) {
        return retry("listing " + prefix, () -> store.listChildren(prefix));
    }

    @Override
    public boolean holdsAnyBelow(String prefix) {
        return retry("listing " + prefix, () -> store.holdsAnyBelow(prefix));
    }

    @Override
    public boolean isObjectStore() {
        return store.isObjectStore();
    }

    @Override
    public Store resolve(String path) {
        return new RetryingStore(store.resolve(path), attempts, baseDelayMs);
    }

    @Override
    public void close() {
        store.close();
    }

    /** The store this one wraps. */
    public Store unwrap() {
        return store;
    }

    /** {@code store} without any retrying wrapper. */
    public static Store unwrapAll(Store store) {
        Store s = store;
        while (s instanceof RetryingStore r) {
            s = r.store;
        }
        return s;
    }
}
