package io.cubed.storage.fs;

import io.cubed.storage.StoreOptions;
import java.io.PrintStream;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;

/**
 * An S3-compatible server (s3proxy, in-memory blobs or files in a directory, objects replaced atomically as on S3 with per-key locks: {@link
 * AtomicObjectsBlobStore}) in this JVM on 127.0.0.1, with one bucket, for tests and benchmarks: it can hold every
 * request for a latency before serving it (as S3's first-byte latency, overlapping between concurrent requests), serve
 * unsigned reads, and counts what it serves ({@link #stats()}).
 *
 * <p>Counting is done per HTTP request, in a Jetty handler in front of s3proxy ({@link MeteringHandler}), because
 * s3proxy's blob-store calls do not map one to one to requests: in s3proxy 4.1.0 an anonymous GET or HEAD also reads
 * the object's ACL ({@code getBlobAccess}), a copy reads the source's metadata ({@code blobMetadataIfPresent}) besides
 * {@code copyBlob}, a GET with {@code partNumber} or a conditional PUT ({@code If-Match}, {@code If-None-Match}) reads
 * metadata first, a bulk delete calls {@code removeBlob} once per key on threads of its own, a multipart completion
 * lists the parts, and a request refused before reaching the store (a bad signature, a forbidden anonymous write) calls
 * nothing. Jetty calls the handler exactly once per request it parses, so the counts are exact: one request, one count,
 * under the {@link S3Operation} its method, path and query name; only requests Jetty itself rejects as malformed HTTP
 * are not seen. Per-key counts cover the server's bucket: a request counts for the key of its path, a bulk delete for
 * each key of its XML body, a copy for its destination and its source. A request is in flight from the moment the
 * handler sees it until Jetty completes its response.
 *
 * <p>Run as a program ({@link #main}) it serves until told to stop, for benchmarks in another process.
 */
public final class S3TestServer implements AutoCloseable {
    public static final String ACCESS_KEY = "cubed-test-access";
    public static final String SECRET_KEY = "cubed-test-secret";
    /**
     * Threads of s3proxy's Jetty: a few accept connections and select, every other one serves a request (or holds it
     * for the latency), so that some 250 requests can be in flight at once.
     */
    public static final int JETTY_MAX_THREADS = 256;

    private final S3Proxy proxy;
    private final MeteringHandler metering;
    private final S3RequestRecorder recorder;
    private final String bucket;
    private final String accessKey;
    private final String secretKey;

    private S3TestServer(S3Proxy proxy, MeteringHandler metering, S3RequestRecorder recorder, Builder b) {
        this.proxy = proxy;
        this.metering = metering;
        this.recorder = recorder;
        this.bucket = b.bucket;
        this.accessKey = b.accessKey;
        this.secretKey = b.secretKey;
    }

    /** Starts a server with bucket {@code bucket} on a free port of 127.0.0.1 and waits until it serves. */
    public static S3TestServer start(String bucket) throws Exception {
        return builder().bucket(bucket).start();
    }

    /** As {@link #start(String)}, accepting the credentials {@code accessKey} and {@code secretKey}. */
    public static S3TestServer start(String bucket, String accessKey, String secretKey) throws Exception {
        return builder().bucket(bucket).credentials(accessKey, secretKey).start();
    }

    /** A builder of a server: bucket {@code cubed-test}, the test credentials, no latency, signed reads only. */
    public static Builder builder() {
        return new Builder();
    }

    /** Options of a server to start. */
    public static final class Builder {
        private String bucket = "cubed-test";
        private String accessKey = ACCESS_KEY;
        private String secretKey = SECRET_KEY;
        private int latencyMillis;
        private boolean anonymousReads;
        private int port;
        private java.nio.file.Path directory;
        private UnaryOperator<BlobStore> storeWrapper = UnaryOperator.identity();

        private Builder() {}

        /** The server's one bucket (3 to 63 characters: lower-case letters, digits, dots and dashes). */
        public Builder bucket(String name) {
            this.bucket = name;
            return this;
        }

        /** The credentials a signed request must be signed with. */
        public Builder credentials(String access, String secret) {
            this.accessKey = access;
            this.secretKey = secret;
            return this;
        }

        /** The delay, in milliseconds, before every request is served; 0 for none. */
        public Builder latencyMillis(int millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("latency must be at least 0 ms, not " + millis);
            }
            this.latencyMillis = millis;
            return this;
        }

        /**
         * Whether unsigned GET and HEAD requests (no Authorization header, no presigned query), such as a plain HTTP
         * client's {@code GET http://127.0.0.1:PORT/BUCKET/key}, read objects and list the bucket; writes still need
         * a signature.
         */
        public Builder anonymousReads(boolean allowed) {
            this.anonymousReads = allowed;
            return this;
        }

        /** The port on 127.0.0.1; 0 (the default) for a free one. */
        public Builder port(int number) {
            this.port = number;
            return this;
        }

        /**
         * Keeps the objects in files under {@code dir} (which must exist) instead of in memory: for data larger than
         * the server's heap. Null (the default): in memory.
         */
        public Builder directory(java.nio.file.Path dir) {
            this.directory = dir;
            return this;
        }

        /**
         * Wraps the blob store (in memory or in files), under the per-key locks, with {@code wrapper}: tests of the
         * locking, and of failures the server answers (a wrapper that throws s3proxy's {@code S3Exceptions}).
         */
        public Builder wrapStore(UnaryOperator<BlobStore> wrapper) {
            this.storeWrapper = wrapper;
            return this;
        }

        /** Starts the server and waits until it serves. */
        public S3TestServer start() throws Exception {
            BlobStore memory = directory == null
                    ? new TransientNio2BlobStore()
                    : new FilesystemNio2BlobStore(directory.toString());
            BlobStore inner = storeWrapper.apply(anonymousReads ? new PublicReadBlobStore(memory) : memory);
            BlobStore blobs = new AtomicObjectsBlobStore(inner);
            if (!blobs.containerExists(bucket)) { // a directory of an earlier run has it already
                blobs.createContainer(bucket);
            }
            if (anonymousReads) {
                blobs.setContainerAccess(bucket, BucketCannedACL.PUBLIC_READ);
            }
            S3Proxy proxy = S3Proxy.builder()
                    .blobStore(blobs)
                    .endpoint(URI.create("http://127.0.0.1:" + port))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                    .jettyMaxThreads(JETTY_MAX_THREADS)
                    // Stop at once: a graceful stop waits about a second for each idle keep-alive connection.
                    .stopTimeout(0)
                    .build();
            S3RequestRecorder recorder = new S3RequestRecorder();
            MeteringHandler metering = MeteringHandler.install(proxy, bucket, recorder, latencyMillis);
            proxy.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!"STARTED".equals(proxy.getState())) {
                if (System.nanoTime() > deadline) {
                    proxy.stop();
                    throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
                }
                Thread.sleep(10);
            }
            return new S3TestServer(proxy, metering, recorder, this);
        }
    }

    public int port() {
        return proxy.getPort();
    }

    public String bucket() {
        return bucket;
    }

    /** {@code s3a://BUCKET/path}. */
    public String url(String path) {
        return "s3a://" + bucket + "/" + path;
    }

    /** {@code http://127.0.0.1:PORT/BUCKET/path}: the path-style URL of key {@code path}, for plain HTTP clients. */
    public String httpUrl(String path) {
        return "http://127.0.0.1:" + port() + "/" + bucket + "/" + path;
    }

    /** s3a options for this server (path-style access, test credentials, small retry limits). */
    public StoreOptions options() {
        return options(port()).with("fs.s3a.access.key", accessKey).with("fs.s3a.secret.key", secretKey);
    }

    /**
     * s3a options for a server with the test credentials on port {@code port} of 127.0.0.1, as {@link #options()}:
     * for a client of a server in another process ({@link #main}).
     */
    public static StoreOptions options(int port) {
        return S3StoreIT.s3Options(port);
    }

    /** The delay, in milliseconds, before every request is served. */
    public int latencyMillis() {
        return metering.latencyMillis();
    }

    /** Sets the delay, in milliseconds, before every request that arrives from now on is served. */
    public void setLatencyMillis(int millis) {
        metering.setLatencyMillis(millis);
    }

    /** What the server has served since it started or since the last {@link #resetStats()}. */
    public S3ServerStats stats() {
        return recorder.snapshot();
    }

    /** Starts counting anew: zero counts, no keys, busy time 0, the maximum in flight the number now in flight. */
    /**
     * The requests since the counters were last reset that arrived with none in flight, as {@code "OPERATION key"}
     * (operations named as in {@link S3Operation}, keys without the bucket), in order: the round trips clients waited
     * for one after another, which at a cloud store's latency are the time of a command's set-up and ending.
     */
    public java.util.List<String> loneRequests() {
        return recorder.loneRequests();
    }

    public void resetStats() {
        recorder.reset();
    }

    /** Stops the server at once, cutting off any request in flight. */
    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("stopping the S3 test server on port " + port(), e);
        }
    }

    /**
     * Serves until told to stop: {@code --bucket B} (default {@code cubed-test}), {@code --latency-ms N}, {@code
     * --anonymous-reads}, {@code --port P}, {@code --access-key A}, {@code --secret-key S}, {@code --dir D} (objects in
     * files under D, else in memory); prints {@code PORT n} once
     * it serves, then answers commands read from standard input, one per line (see {@link S3TestServerMain}).
     */
    public static void main(String[] args) throws Exception {
        // Standard output carries the protocol only: anything else printing there (a logger) goes to standard error.
        PrintStream protocol = System.out;
        System.setOut(System.err);
        System.exit(S3TestServerMain.run(args, System.in, protocol));
    }
}
