package io.cubed.storage;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the requests a store client makes, by operation ({@code GET}, {@code HEAD}, {@code PUT}, {@code LIST},
 * {@code DELETE}, …), and how many are in flight together: the largest number and the mean over the time at least
 * one is (the busy time), which tells whether a workload keeps the store as busy as it allows. Thread-safe; a start
 * or an end costs a short critical section.
 */
public final class RequestStats {
    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();
    private int inFlight;
    private int maxInFlight;
    private long last = System.nanoTime();
    private long busyNanos;
    /** The sum over time of the requests in flight, in request-nanoseconds. */
    private long weightedNanos;

    /** What the counters said at one moment. */
    public record Snapshot(Map<String, Long> counts, int maxInFlight, long busyNanos, long weightedNanos) {
        /** Requests of every operation. */
        public long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Requests of {@code operation}. */
        public long count(String operation) {
            return counts.getOrDefault(operation, 0L);
        }

        /** The mean number of requests in flight while at least one was; 0 when none was made. */
        public double meanInFlight() {
            return busyNanos == 0 ? 0 : (double) weightedNanos / busyNanos;
        }

        /** What happened between {@code earlier} and this snapshot (the maximum in flight is this one's). */
        public Snapshot minus(Snapshot earlier) {
            Map<String, Long> d = new TreeMap<>(counts);
            earlier.counts.forEach((k, v) -> d.merge(k, -v, Long::sum));
            d.values().removeIf(v -> v == 0);
            return new Snapshot(d, maxInFlight, busyNanos - earlier.busyNanos, weightedNanos - earlier.weightedNanos);
        }
    }

    /** A request of {@code operation} starts. */
    public void start(String operation) {
        counts.computeIfAbsent(operation, k -> new LongAdder()).increment();
        synchronized (this) {
            advance();
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
        }
    }

    /** A request that {@link #start} counted has ended, whichever way. */
    public synchronized void end() {
        advance();
        inFlight--;
    }

    private void advance() {
        long now = System.nanoTime();
        if (inFlight > 0) {
            busyNanos += now - last;
            weightedNanos += inFlight * (now - last);
        }
        last = now;
    }

    /** The counters now. */
    public synchronized Snapshot snapshot() {
        advance();
        Map<String, Long> c = new TreeMap<>();
        counts.forEach((k, v) -> c.put(k, v.sum()));
        return new Snapshot(c, maxInFlight, busyNanos, weightedNanos);
    }

    /** Forgets the largest number in flight so far, so that the next snapshots give the largest from now on. */
    public synchronized void resetMax() {
        maxInFlight = inFlight;
    }
}
