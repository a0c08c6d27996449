package io.cubed.storage.fs;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Counts requests by operation and by key, and keeps the in-flight statistics, for {@link S3ServerStats} snapshots;
 * thread-safe. A count is one increment of an atomic array (plus one map look-up per key); the in-flight figures are
 * updated under one short lock, twice per request. A reset starts a new period: requests that arrive while it happens
 * count in the old period or in the new one; requests in flight at a reset stay in flight and count towards the new
 * period's busy time, mean and maximum.
 */
@SuppressWarnings("EnumOrdinal") // an operation's ordinal indexes its counter in an AtomicLongArray
final class S3RequestRecorder {
    private static final int OPERATIONS = S3Operation.values().length;

    /** The counters of one period between resets. */
    private static final class Period {
        final AtomicLongArray counts = new AtomicLongArray(OPERATIONS);
        final ConcurrentHashMap<String, AtomicLongArray> keys = new ConcurrentHashMap<>();
        /**
         * The requests that arrived with none in flight, as {@code "OPERATION key"}, in order: each is a round trip its
         * client began alone, after the last one had ended. Guarded by inFlightLock.
         */
        final java.util.List<String> lone = new java.util.ArrayList<>();
    }

    private final LongSupplier nanoTime;
    private volatile Period period = new Period();

    private final Object inFlightLock = new Object();
    // Guarded by inFlightLock.
    private int inFlight;
    private int maxInFlight;
    private long lastChangeNanos;
    private long busyNanos;
    /** The integral over time of the number of requests in flight, in request-nanoseconds. */
    private long requestNanos;
    // The chunk requests' stage (see isChunk), also guarded by inFlightLock: their summed durations, when the first
    // began and when the last ended; Long.MAX_VALUE and Long.MIN_VALUE while there was none.
    private long chunkNanos;
    private long firstChunkStart = Long.MAX_VALUE;
    private long lastChunkEnd = Long.MIN_VALUE;

    S3RequestRecorder() {
        this(System::nanoTime);
    }

    /** A recorder reading time, in nanoseconds, from {@code nanoTime}. */
    S3RequestRecorder(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.lastChangeNanos = nanoTime.getAsLong();
    }

    /**
     * Counts a request of operation {@code op} (naming {@code key}, or none when {@code null}) that arrives now;
     * returns the time it arrived, for {@link #finishedChunk}.
     */
    long started(S3Operation op, String key) {
        Period p = period;
        p.counts.incrementAndGet(op.ordinal());
        if (key != null) {
            countKey(p, op, key);
        }
        synchronized (inFlightLock) {
            advance();
            if (inFlight == 0) {
                p.lone.add(op + " " + (key == null ? "" : key));
            }
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            return lastChangeNanos;
        }
    }

    /**
     * Whether a request of {@code op} naming {@code key} reads or writes a chunk: a GET or PUT of an object whose name
     * is not one of Zarr's metadata documents. A stage of a computation is made of these; opening an array, listing
     * and deleting are not.
     */
    static boolean isChunk(S3Operation op, String key) {
        if (key == null || (op != S3Operation.GET_OBJECT && op != S3Operation.PUT_OBJECT)) {
            return false;
        }
        String name = key.substring(key.lastIndexOf('/') + 1);
        return switch (name) {
            case ".zarray", ".zattrs", ".zgroup", ".zmetadata", "zarr.json" -> false;
            default -> true;
        };
    }

    /** Counts one more key named by a request of operation {@code op}, one whose count {@link #started} made. */
    void namedKey(S3Operation op, String key) {
        countKey(period, op, key);
    }

    /** Ends a request that {@link #started} began. */
    void finished() {
        synchronized (inFlightLock) {
            advance();
            inFlight--;
        }
    }

    /** Ends a chunk request ({@link #isChunk}) that {@link #started} began at {@code startedAt}. */
    void finishedChunk(long startedAt) {
        synchronized (inFlightLock) {
            advance();
            inFlight--;
            long now = lastChangeNanos;
            chunkNanos += now - startedAt;
            firstChunkStart = Math.min(firstChunkStart, startedAt);
            lastChunkEnd = Math.max(lastChunkEnd, now);
        }
    }

    /**
     * The requests of this period that arrived while none was in flight ({@code "GET_OBJECT a.zarr/.zarray"}), in the
     * order they arrived: the round trips their clients made one after another. Requests asked for at once count once
     * (the first to arrive), as long as each arrives before the others end: with a delay per request far above the
     * clients' own scheduling, the count does not depend on timing.
     */
    java.util.List<String> loneRequests() {
        synchronized (inFlightLock) {
            return java.util.List.copyOf(period.lone);
        }
    }

    S3ServerStats snapshot() {
        Period p = period;
        Map<S3Operation, Long> counts = new EnumMap<>(S3Operation.class);
        for (S3Operation op : S3Operation.values()) {
            counts.put(op, p.counts.get(op.ordinal()));
        }
        Map<String, Map<S3Operation, Long>> keyCounts = new HashMap<>();
        p.keys.forEach((key, byOp) -> {
            Map<S3Operation, Long> m = new EnumMap<>(S3Operation.class);
            for (S3Operation op : S3Operation.values()) {
                long c = byOp.get(op.ordinal());
                if (c > 0) {
                    m.put(op, c);
                }
            }
            keyCounts.put(key, m);
        });
        synchronized (inFlightLock) {
            advance();
            double mean = busyNanos == 0 ? 0 : (double) requestNanos / busyNanos;
            long stage = lastChunkEnd > firstChunkStart ? lastChunkEnd - firstChunkStart : 0;
            double stageMean = stage == 0 ? 0 : (double) chunkNanos / stage;
            return new S3ServerStats(counts, keyCounts, inFlight, maxInFlight, mean, busyNanos, stageMean, stage);
        }
    }

    void reset() {
        synchronized (inFlightLock) {
            period = new Period();
            advance();
            maxInFlight = inFlight;
            busyNanos = 0;
            requestNanos = 0;
            chunkNanos = 0;
            firstChunkStart = Long.MAX_VALUE;
            lastChunkEnd = Long.MIN_VALUE;
        }
    }

    private static void countKey(Period p, S3Operation op, String key) {
        p.keys.computeIfAbsent(key, k -> new AtomicLongArray(OPERATIONS)).incrementAndGet(op.ordinal());
    }

    /** Adds the time since the last change to the busy time and the request time. Holds inFlightLock. */
    private void advance() {
        long now = nanoTime.getAsLong();
        if (inFlight > 0) {
            long elapsed = now - lastChangeNanos;
            busyNanos += elapsed;
            requestNanos += elapsed * inFlight;
        }
        lastChangeNanos = now;
    }
}
