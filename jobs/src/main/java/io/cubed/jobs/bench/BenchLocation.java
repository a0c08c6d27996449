package io.cubed.jobs.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where {@code cubed bench --object-store} keeps its array, and who counts the requests of each timed run: the
 * project's S3 test server in a JVM of its own ({@link S3ServerProcess}: the server counts every request it serves), or
 * any {@code s3a://} location ({@link S3Location}: Cubed's S3 client counts the requests it makes, in the JVM that
 * makes them).
 */
interface BenchLocation extends AutoCloseable {
    /** The per-request latency of a location that has its own (any but the test server's): no {@code --latency-ms}. */
    int OWN_LATENCY = -1;

    /** Opens the location when the bench starts. */
    @FunctionalInterface
    interface Opener {
        BenchLocation open() throws IOException;
    }

    /**
     * The requests of one run: by operation (the counter's names: the server's {@code GET_OBJECT}, the client's
     * {@code GET}), the mean in flight (over the time at least one was), the most in flight at once, and the mean in
     * flight over the stage (from the first chunk request to the end of the last; NaN where the counter does not say:
     * the client's counts).
     */
    record Counts(Map<String, Long> requests, double meanInFlight, long maxInFlight, double stageMeanInFlight) {
        public Counts {
            requests = Map.copyOf(requests);
        }

        /** Counts without a stage figure. */
        Counts(Map<String, Long> requests, double meanInFlight, long maxInFlight) {
            this(requests, meanInFlight, maxInFlight, Double.NaN);
        }

        /** The counts in the JSON object of the test server's {@code stats} and of {@code --request-stats}. */
        static Counts of(Map<String, Object> json) {
            Object stage = json.get("stageMeanInFlight");
            return new Counts(
                    ObjectStoreBench.counts(json),
                    ObjectStoreBench.number(json.get("meanInFlight")),
                    (long) ObjectStoreBench.number(json.get("maxInFlight")),
                    stage == null ? Double.NaN : ObjectStoreBench.number(stage));
        }

        /** The GETs of objects: {@code GET_OBJECT} as the server counts them, {@code GET} as the client does. */
        long gets() {
            return requests.getOrDefault("GET_OBJECT", 0L) + requests.getOrDefault("GET", 0L);
        }
    }

    /** {@code s3a://BUCKET/PATH/name}: where the bench puts {@code name}. */
    String s3aUrl(String name);

    /** The store options of our runs there (endpoint, credentials), before the command line's {@code --conf}. */
    Map<String, String> options();

    /** The HTTP(S) URL at which Dask reads {@code name} anonymously; null when there is none ({@link #noPeer}). */
    String httpUrl(String name);

    /** Why Dask cannot read the array here; null when it can. */
    String noPeer();

    /** What the report calls the location, e.g. "the S3 test server (...)". */
    String description();

    /** How the requests were counted, as the report's words after "requests", e.g. "as the server counted them". */
    String countedBy();

    /** Sets the delay before every request, in milliseconds; only the test server has one to set. */
    void latency(int millis) throws IOException;

    /** Starts counting the next run. */
    void reset() throws IOException;

    /**
     * The requests since {@link #reset} of a {@code cubed} command run with {@code --request-stats clientStats}; null
     * when they were not counted.
     */
    Counts commandCounts(Path clientStats) throws IOException;

    /** The requests since {@link #reset} of work in this JVM; null when they were not counted. */
    Counts jvmCounts() throws IOException;

    /** The requests since {@link #reset} of the Dask peer; null when they were not counted. */
    Counts peerCounts() throws IOException;

    @Override
    void close() throws IOException;
}
