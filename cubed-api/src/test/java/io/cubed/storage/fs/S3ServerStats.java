package io.cubed.storage.fs;

import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link S3TestServer} has served since its counters were last reset: HTTP requests by operation (one request,
 * one count), the same per object key of the server's bucket, and how many requests were in flight (arrived, the
 * response not yet complete): now, at most, and on average over the busy time, the time during which at least one
 * was, and over the stage: from the first chunk request's arrival to the last one's end (a chunk request is a GET or
 * PUT of an object other than Zarr's metadata documents), so that opening the array before a stage does not count.
 *
 * @param counts requests by operation; every operation is present, most with 0
 * @param keyCounts per object key of the server's bucket (the key alone, without the bucket), the requests that named
 *     it, by operation; only keys named at least once, only operations with a count above 0. A request names its
 *     path's key; a bulk delete each key of its body; a copy its destination and its source
 * @param inFlight requests in flight when the snapshot was taken
 * @param maxInFlight the most requests in flight at once
 * @param meanInFlight the time-weighted mean number of requests in flight over the busy time; 0 when never busy
 * @param busyNanos nanoseconds during which at least one request was in flight
 * @param stageMeanInFlight the chunk requests' summed durations over {@code stageNanos}: their mean number in flight
 *     during the stage (Little's law); 0 when there was none
 * @param stageNanos nanoseconds from the first chunk request's arrival to the last one's end; 0 when there was none
 */
public record S3ServerStats(
        Map<S3Operation, Long> counts,
        Map<String, Map<S3Operation, Long>> keyCounts,
        int inFlight,
        int maxInFlight,
        double meanInFlight,
        long busyNanos,
        double stageMeanInFlight,
        long stageNanos) {

    /** Figures of a period without chunk requests: no stage. */
    public S3ServerStats(
            Map<S3Operation, Long> counts,
            Map<String, Map<S3Operation, Long>> keyCounts,
            int inFlight,
            int maxInFlight,
            double meanInFlight,
            long busyNanos) {
        this(counts, keyCounts, inFlight, maxInFlight, meanInFlight, busyNanos, 0, 0);
    }

    public S3ServerStats {
        EnumMap<S3Operation, Long> all = new EnumMap<>(S3Operation.class);
        for (S3Operation op : S3Operation.values()) {
            all.put(op, counts.getOrDefault(op, 0L));
        }
        counts = Collections.unmodifiableMap(all);
        Map<String, Map<S3Operation, Long>> keys = new HashMap<>();
        keyCounts.forEach((k, v) -> keys.put(k, Collections.unmodifiableMap(new EnumMap<>(v))));
        keyCounts = Collections.unmodifiableMap(keys);
    }

    /** Requests of operation {@code op}. */
    public long count(S3Operation op) {
        return counts.get(op);
    }

    /** Requests of every operation. */
    public long total() {
        long sum = 0;
        for (long c : counts.values()) {
            sum += c;
        }
        return sum;
    }

    /** The requests that named {@code key}, by operation; empty when none did. */
    public Map<S3Operation, Long> keyCounts(String key) {
        return keyCounts.getOrDefault(key, Map.of());
    }

    /** Requests of operation {@code op} that named {@code key}. */
    public long keyCount(String key, S3Operation op) {
        return keyCounts(key).getOrDefault(op, 0L);
    }

    /** How many distinct keys requests of operation {@code op} named. */
    public int distinctKeys(S3Operation op) {
        int n = 0;
        for (Map<S3Operation, Long> byOp : keyCounts.values()) {
            if (byOp.containsKey(op)) {
                n++;
            }
        }
        return n;
    }

    /** The most requests of operation {@code op} that named one key; 0 when none named any. */
    public long maxKeyCount(S3Operation op) {
        long max = 0;
        for (Map<S3Operation, Long> byOp : keyCounts.values()) {
            max = Math.max(max, byOp.getOrDefault(op, 0L));
        }
        return max;
    }

    /**
     * This snapshot as one line of JSON, per-key counts summarised as the number of distinct keys and the largest
     * count of one key per operation, times in milliseconds, with {@code latencyMs} the server's current delay:
     * {@code {"requests":3,"counts":{"GET_OBJECT":2,...},"keys":{"GET_OBJECT":{"distinct":2,"max":1},...},
     * "inFlight":0,"maxInFlight":1,"meanInFlight":1.000,"busyMs":4.210,"stageMeanInFlight":1.000,"stageMs":4.210,
     * "latencyMs":30}}.
     */
    public String toJson(int latencyMs) {
        StringBuilder json = new StringBuilder(512).append("{\"requests\":").append(total());
        String separator = ",\"counts\":{";
        for (S3Operation op : S3Operation.values()) {
            json.append(separator).append('"').append(op).append("\":").append(count(op));
            separator = ",";
        }
        separator = "},\"keys\":{";
        for (S3Operation op : S3Operation.values()) {
            json.append(separator)
                    .append('"')
                    .append(op)
                    .append("\":{\"distinct\":")
                    .append(distinctKeys(op));
            json.append(",\"max\":").append(maxKeyCount(op)).append('}');
            separator = ",";
        }
        json.append("},\"inFlight\":")
                .append(inFlight)
                .append(",\"maxInFlight\":")
                .append(maxInFlight);
        json.append(",\"meanInFlight\":").append(String.format(Locale.ROOT, "%.3f", meanInFlight));
        json.append(",\"busyMs\":").append(String.format(Locale.ROOT, "%.3f", busyNanos / 1e6));
        json.append(",\"stageMeanInFlight\":").append(String.format(Locale.ROOT, "%.3f", stageMeanInFlight));
        json.append(",\"stageMs\":").append(String.format(Locale.ROOT, "%.3f", stageNanos / 1e6));
        return json.append(",\"latencyMs\":").append(latencyMs).append('}').toString();
    }
}
