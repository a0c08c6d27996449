package io.cubed.jobs.bench;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.RequestStats;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.fs.s3.S3Store;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Any {@code s3a://} location as the place of {@code cubed bench --object-store --location}: the bench works under a
 * prefix of its own there, {@code LOCATION/cubed-bench-TIME-ID/}, which {@link #close} deletes. Opening it writes a
 * marker object there, so that an endpoint that cannot be reached, credentials that are refused or a missing bucket
 * fail at once, naming the location; with a peer URL, the marker is also read from there anonymously.
 *
 * <p>Cubed's S3 client counts the requests: a {@code cubed} command writes its own with {@code --request-stats}, the
 * runs in this JVM are read from {@link S3Store#requestStatsOfThisJvm}. Nothing counts Dask's requests, nor those
 * through S3A ({@code cubed.store.s3.client=hadoop}).
 */
final class S3Location implements BenchLocation {
    /** The marker object that {@link #open} writes: a small text saying what the prefix is. */
    static final String MARKER = "cubed-bench.txt";

    private final String location;
    private final String root;
    private final String peerRoot;
    private final String noPeer;
    private final Map<String, String> options;
    private final boolean counted;
    private final Store store;
    private RequestStats.Snapshot before;

    private S3Location(
            String location,
            String root,
            String peerRoot,
            String noPeer,
            Map<String, String> options,
            boolean counted,
            Store store) {
        this.location = location;
        this.root = root;
        this.peerRoot = peerRoot;
        this.noPeer = noPeer;
        this.options = options;
        this.counted = counted;
        this.store = store;
    }

    /**
     * Opens {@code location} ({@code s3a://BUCKET[/PREFIX]}) with the store options {@code conf}, makes the bench's
     * prefix there and writes its marker; with {@code peerUrl} (the HTTP(S) URL of the same location, readable
     * anonymously) Dask reads there, which the marker's anonymous GET checks first.
     *
     * @throws InvalidArgumentException when {@code location} or {@code peerUrl} is not a URL of the kind needed
     * @throws StorageException naming the location when it cannot be written, or {@code peerUrl} does not serve it
     */
    static S3Location open(String location, Map<String, String> conf, String peerUrl) {
        check(location, peerUrl);
        String base = trimSlashes(location);
        String run = "cubed-bench-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT))
                + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        String root = base + "/" + run;
        Map<String, String> options = Map.copyOf(conf);
        String client = options.getOrDefault(Stores.S3_CLIENT_OPTION, "cubed").trim();
        boolean counted = !client.equalsIgnoreCase("hadoop");
        Store store = Stores.open(root, StoreOptions.of(options));
        byte[] marker = ("written by cubed bench --object-store at " + LocalDateTime.now()
                        + "; deleted when it ends, else delete " + root + "/ by hand\n")
                .getBytes(StandardCharsets.UTF_8);
        try {
            store.put(MARKER, marker);
        } catch (RuntimeException e) {
            store.close();
            throw new StorageException(
                    "bench --object-store: cannot write to --location " + location + " (" + e.getMessage()
                            + "); check that the endpoint (fs.s3a.endpoint" + shown(options, "fs.s3a.endpoint")
                            + ") answers, that the credentials (fs.s3a.access.key and fs.s3a.secret.key, the"
                            + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY environment, or the instance's role) may"
                            + " write there, and that the bucket exists",
                    e);
        }
        String peerRoot = peerUrl == null ? null : trimSlashes(peerUrl) + "/" + run;
        S3Location opened = new S3Location(
                location,
                root,
                peerRoot,
                peerUrl != null
                        ? null
                        : "no --peer-url: Dask reads s3a:// only through s3fs, which the bench does not use; give"
                                + " --peer-url, the HTTP(S) URL at which the objects under --location are readable"
                                + " anonymously",
                options,
                counted,
                store);
        if (peerRoot != null) {
            opened.checkPeer(marker);
        }
        return opened;
    }

    /**
     * Refuses a {@code location} that is not {@code s3a://BUCKET[/PREFIX]} and a {@code peerUrl} (null: none) that is
     * not an HTTP(S) URL, before anything runs.
     */
    static void check(String location, String peerUrl) {
        String base = trimSlashes(location);
        if (!base.startsWith("s3a://") || base.length() == "s3a://".length()) {
            throw new InvalidArgumentException(
                    "bench --object-store: --location must be an s3a:// URL, s3a://BUCKET or s3a://BUCKET/PREFIX, got '"
                            + location + "'");
        }
        if (peerUrl != null && !peerUrl.startsWith("http://") && !peerUrl.startsWith("https://")) {
            throw new InvalidArgumentException("bench --object-store: --peer-url must be an http:// or https:// URL"
                    + " (where the objects under --location are readable anonymously), got '" + peerUrl + "'");
        }
    }

    /** Reads the marker anonymously from the peer URL; fails saying what it got, after deleting the prefix. */
    private void checkPeer(byte[] marker) {
        String url = httpUrl(MARKER);
        String problem;
        try {
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(30))
                    .build();
            HttpResponse<byte[]> r = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(60))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            problem = r.statusCode() != 200
                    ? "HTTP " + r.statusCode()
                    : java.util.Arrays.equals(r.body(), marker) ? null : "another object than the one written there";
        } catch (IOException | IllegalArgumentException e) {
            problem = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problem = "interrupted";
        }
        if (problem != null) {
            try {
                close();
            } catch (IOException | RuntimeException e) {
                // The message below says where the prefix is.
            }
            throw new StorageException("bench --object-store: --peer-url does not serve the objects under --location "
                    + location + " anonymously: GET " + url + " gave " + problem + " for " + root + "/" + MARKER);
        }
    }

    private static String trimSlashes(String url) {
        String u = url.strip();
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        return u;
    }

    private static String shown(Map<String, String> options, String key) {
        String v = options.get(key);
        return v == null ? ": not set, so AWS's" : " " + v;
    }

    @Override
    public String s3aUrl(String name) {
        return root + "/" + name;
    }

    @Override
    public Map<String, String> options() {
        return options;
    }

    @Override
    public String httpUrl(String name) {
        return peerRoot == null ? null : peerRoot + "/" + name;
    }

    @Override
    public String noPeer() {
        return noPeer;
    }

    @Override
    public String description() {
        return root + "/ (--location " + location + "; the bench's own prefix, deleted at the end"
                + (peerRoot == null ? "" : "; over HTTP at " + peerRoot + "/") + ")";
    }

    @Override
    public String countedBy() {
        return counted
                ? "as Cubed's S3 client counted them in the JVM that made them (`cubed copy --request-stats FILE`, and"
                        + " this JVM for the sums)"
                : "not counted: S3A's client (" + Stores.S3_CLIENT_OPTION + "=hadoop) does not count them";
    }

    /** Does nothing: a real location has its own latency. */
    @Override
    public void latency(int millis) {}

    @Override
    public void reset() {
        RequestStats jvm = S3Store.requestStatsOfThisJvm();
        jvm.resetMax();
        before = jvm.snapshot();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Counts commandCounts(Path clientStats) throws IOException {
        if (!counted) {
            return null;
        }
        if (!Files.exists(clientStats)) {
            throw new IOException("bench --object-store: the command wrote no --request-stats " + clientStats);
        }
        return Counts.of((Map<String, Object>)
                io.cubed.storage.zarr.Json.parse(Files.readString(clientStats, StandardCharsets.UTF_8)));
    }

    @Override
    public Counts jvmCounts() {
        if (!counted) {
            return null;
        }
        RequestStats.Snapshot s = S3Store.requestStatsOfThisJvm().snapshot().minus(before);
        return new Counts(s.counts(), s.meanInFlight(), s.maxInFlight());
    }

    @Override
    public Counts peerCounts() {
        return null;
    }

    /** Deletes the bench's prefix and everything under it. */
    @Override
    public void close() throws IOException {
        try {
            store.deletePrefix("");
        } catch (RuntimeException e) {
            throw new IOException(
                    "bench --object-store: could not delete " + root + "/ (" + e.getMessage() + "); delete it by hand",
                    e);
        } finally {
            store.close();
        }
    }
}
