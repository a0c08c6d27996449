package io.cubed.storage;

import io.cubed.error.StorageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/** The default implementations of {@link Store#getAll} and {@link Store#listChildren}. */
final class StoreReads {
    private StoreReads() {}

    /**
     * {@link Store#getAll}: {@code min(concurrency, keys)} chains of reads, each starting the next key as its last read
     * ends, so that at most the store's concurrency is in flight; one after another on this thread at concurrency 1.
     */
    static List<byte[]> getAll(Store store, List<String> keys) {
        int n = keys.size();
        byte[][] values = new byte[n][];
        int lanes = Math.min(store.concurrency(), n);
        if (lanes <= 1) {
            for (int i = 0; i < n; i++) {
                values[i] = store.get(keys.get(i));
            }
            return Arrays.asList(values);
        }
        AtomicInteger next = new AtomicInteger();
        inLanes(store, lanes, () -> chain(store, keys, values, next), n + " values of " + store.uri());
        return Arrays.asList(values);
    }

    /** Reads the next key not yet taken, then the next, until none is left; stops at the first failure. */
    private static CompletableFuture<Void> chain(Store store, List<String> keys, byte[][] values, AtomicInteger next) {
        int i = next.getAndIncrement();
        if (i >= keys.size()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Store.Bytes> read;
        try {
            read = store.getAsync(keys.get(i));
        } catch (RuntimeException e) {
            read = CompletableFuture.failedFuture(e);
        }
        return read.thenCompose(b -> {
            values[i] = b == null
                    ? null
                    : b.length() == b.array().length ? b.array() : Arrays.copyOf(b.array(), b.length());
            return chain(store, keys, values, next);
        });
    }

    /**
     * {@link Store#getRanges}: as {@link #getAll}, {@code min(concurrency, ranges)} chains of ranged reads; null when
     * any read finds no value (the value was deleted, or never was).
     */
    static List<byte[]> getRanges(Store store, String key, List<Store.Range> ranges) {
        int n = ranges.size();
        byte[][] values = new byte[n][];
        boolean[] missing = new boolean[1];
        int lanes = Math.min(store.concurrency(), n);
        if (lanes <= 1) {
            for (int i = 0; i < n; i++) {
                Store.Range r = ranges.get(i);
                values[i] = store.getRange(key, r.offset(), r.length());
                if (values[i] == null) {
                    return null;
                }
            }
            return Arrays.asList(values);
        }
        AtomicInteger next = new AtomicInteger();
        inLanes(
                store,
                lanes,
                () -> rangeChain(store, key, ranges, values, missing, next),
                n + " ranges of '" + key + "' in " + store.uri());
        synchronized (missing) {
            return missing[0] ? null : Arrays.asList(values);
        }
    }

    /** Reads the next range not yet taken, then the next, until none is left; stops at a failure or a missing value. */
    private static CompletableFuture<Void> rangeChain(
            Store store, String key, List<Store.Range> ranges, byte[][] values, boolean[] missing, AtomicInteger next) {
        int i = next.getAndIncrement();
        if (i >= ranges.size()) {
            return CompletableFuture.completedFuture(null);
        }
        Store.Range r = ranges.get(i);
        CompletableFuture<byte[]> read;
        try {
            read = store.getRangeAsync(key, r.offset(), r.length());
        } catch (RuntimeException e) {
            read = CompletableFuture.failedFuture(e);
        }
        return read.thenCompose(b -> {
            if (b == null) {
                synchronized (missing) {
                    missing[0] = true;
                }
                return CompletableFuture.completedFuture(null);
            }
            values[i] = b;
            return rangeChain(store, key, ranges, values, missing, next);
        });
    }

    /**
     * Starts {@code lanes} chains of reads made by {@code lane} and waits for them all; then throws the first failure,
     * if any. {@code what} names the reads in the error of an interrupted wait.
     */
    private static void inLanes(
            Store store, int lanes, java.util.function.Supplier<CompletableFuture<Void>> lane, String what) {
        List<CompletableFuture<Void>> chains = new ArrayList<>(lanes);
        for (int l = 0; l < lanes; l++) {
            chains.add(lane.get());
        }
        StorageException failure = null;
        for (CompletableFuture<Void> c : chains) {
            try {
                c.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException("interrupted while reading " + what, e);
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = failure(store, e.getCause());
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static StorageException failure(Store store, Throwable cause) {
        Throwable c = cause instanceof CompletionException && cause.getCause() != null ? cause.getCause() : cause;
        return c instanceof StorageException s
                ? s
                : new StorageException("cannot read from " + store.uri() + ": " + c, c);
    }

    /**
     * {@link Store#listChildren}: the names one level below {@code prefix} of {@code keys}, the keys at or below it
     * ({@link Store#list}).
     */
    static List<String> children(String prefix, List<String> keys) {
        String base = prefix.isEmpty() ? "" : prefix + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String k : keys) {
            if (!k.startsWith(base) || k.length() == base.length()) {
                continue;
            }
            String rest = k.substring(base.length());
            int slash = rest.indexOf('/');
            names.add(slash < 0 ? rest : rest.substring(0, slash));
        }
        return new ArrayList<>(names);
    }
}
