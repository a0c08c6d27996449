package io.cubed.storage.fs.s3;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.RequestStats;
import io.cubed.storage.TransientFailure;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A small S3 client: one HTTP request per operation (GET, ranged GET, HEAD, PUT, DELETE, ListObjectsV2,
 * DeleteObjects), signed with {@link SigV4}, sent on kept-alive HTTP/1.1 connections ({@link Http1}). A request made
 * through a blocking method runs on the caller's thread; one started through a future runs on a thread of the client's
 * pool, one thread per request in flight (callers bound how many: {@link io.cubed.storage.ChunkIo}). Settings come
 * from S3A's options ({@link S3Settings}); a bucket in another region than the one configured is found from S3's
 * answer ({@code x-amz-bucket-region}) on AWS endpoints and the request made again there.
 *
 * <p>Failures: an answer of S3 other than the expected one is an {@link S3Failure} with the status, S3's error code and
 * message, transient for 500, 502, 503, 504 and 429 (SlowDown, InternalError); a broken connection or a timeout is
 * transient too. Every operation is idempotent, so retrying any transient failure is safe ({@link
 * io.cubed.storage.RetryingStore} does it). Thread-safe.
 */
final class S3Client {
    /** One debug line per request: operation, bucket, key, status and milliseconds (the logger {@code io.cubed.s3}). */
    private static final org.slf4j.Logger REQUESTS_LOG = org.slf4j.LoggerFactory.getLogger("io.cubed.s3");

    private final S3Settings settings;
    private final CredentialSource credentials;
    private final Http1 http;
    private final SigV4 signer = new SigV4("s3");
    private final boolean awsEndpoint;
    private final Duration timeout;
    private final boolean signPayload;
    /** Headers of every request (requester pays, SSE-C keys), and of PUTs only (SSE, ACL). */
    private final Map<String, String> everyRequest;

    private final Map<String, String> putsOnly;
    private final String userAgent;
    private final RequestStats stats = new RequestStats();
    /** The requests of every client in this JVM together ({@link S3Store#requestStatsOfThisJvm}). */
    static final RequestStats JVM_STATS = new RequestStats();

    private volatile Target target;

    /** Where requests go: the region they are signed for, the endpoint and the addressing style. */
    private record Target(String region, URI endpoint, boolean pathStyle) {
        /** The request URI of {@code key} (empty: the bucket) with the encoded query {@code query}. */
        URI uri(String bucket, String key, String query) {
            String path = path(bucket, key);
            String host = pathStyle ? endpoint.getRawAuthority() : bucket + "." + endpoint.getRawAuthority();
            return URI.create(endpoint.getScheme() + "://" + host + path + (query.isEmpty() ? "" : "?" + query));
        }

        /** The encoded path, as sent and as signed. */
        String path(String bucket, String key) {
            String k = SigV4.encodePath(key);
            return pathStyle ? "/" + bucket + (key.isEmpty() ? "" : "/" + k) : "/" + k;
        }
    }

    /** An answer of S3 that was not the one expected: the status, S3's error code and message. */
    static final class S3Failure extends IOException implements TransientFailure {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final String code;

        S3Failure(int status, String code, String message) {
            super("HTTP " + status + (code == null ? "" : " " + code)
                    + (message != null ? ": " + message : code == null ? reason(status) : ""));
            this.status = status;
            this.code = code;
        }

        /**
         * What a status says when the answer carries no S3 error (a HEAD's answer has no body): for 403, what S3 means
         * by it, since that is all the user learns.
         */
        private static String reason(int status) {
            return switch (status) {
                case 400 -> " Bad Request";
                case 403 -> " Forbidden: access denied (the credentials are wrong, or lack permission for this bucket"
                        + " or key)";
                case 404 -> " Not Found";
                case 405 -> " Method Not Allowed";
                case 500 -> " Internal Server Error";
                case 501 -> " Not Implemented";
                case 502 -> " Bad Gateway";
                case 503 -> " Service Unavailable";
                case 504 -> " Gateway Timeout";
                default -> "";
            };
        }

        int status() {
            return status;
        }

        String code() {
            return code;
        }

        @Override
        public boolean isTransient() {
            return status >= 500 || status == 429 || "SlowDown".equals(code) || "RequestTimeout".equals(code);
        }
    }

    /** A request that broke before S3 answered it (connection reset or refused, timeout): worth making again. */
    static final class TransportFailure extends IOException implements TransientFailure {
        private static final long serialVersionUID = 1L;

        TransportFailure(Throwable cause) {
            super(cause.toString(), cause);
        }

        @Override
        public boolean isTransient() {
            return true;
        }
    }

    /** An answer: the status, the headers and the whole body (empty for HEAD). */
    record Response(int status, Http1.Response http, byte[] body) {
        long contentLength() {
            return http.contentLength();
        }

        String header(String name) {
            return http.header(name);
        }
    }

    /** The threads of requests started through futures: one per request in flight, daemon, dropped after 30 s idle. */
    private static final java.util.concurrent.ExecutorService REQUESTS = new java.util.concurrent.ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            30,
            java.util.concurrent.TimeUnit.SECONDS,
            new java.util.concurrent.SynchronousQueue<>(),
            new java.util.concurrent.ThreadFactory() {
                private final java.util.concurrent.atomic.AtomicInteger n =
                        new java.util.concurrent.atomic.AtomicInteger();

                @Override
                public Thread newThread(Runnable r) {
                    Thread t = new Thread(r, "cubed-s3-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }
            });

    /** Threads of the request pool now, busy or idle (for tests). */
    static int requestThreads() {
        return ((java.util.concurrent.ThreadPoolExecutor) REQUESTS).getPoolSize();
    }

    S3Client(S3Settings settings) {
        this.settings = settings;
        this.credentials = CredentialSource.of(settings, settings.environment());
        String region = settings.region();
        URI endpoint = normalize(settings.endpoint(region));
        this.target = new Target(region, endpoint, settings.pathStyle(endpoint));
        this.awsEndpoint = settings.awsEndpoint();
        this.timeout = settings.millis("connection.timeout", 200_000);
        this.signPayload = endpoint.getScheme().equals("http");
        InetSocketAddress proxy = null;
        String proxyHost = settings.get("proxy.host");
        if (proxyHost != null && !proxyHost.isEmpty()) {
            String port = settings.get("proxy.port");
            int p = port == null || port.isEmpty()
                    ? (endpoint.getScheme().equals("https") ? 443 : 80)
                    : parsePort(port);
            proxy = InetSocketAddress.createUnresolved(proxyHost, p);
        }
        // S3A's names and defaults (Hadoop 3.3.4): a request has no time limit of its own unless one is set, and a
        // request timeout without a unit is in seconds.
        this.http = new Http1(
                settings.millis("connection.establish.timeout", 50_000),
                timeout,
                settings.seconds("connection.request.timeout", 0),
                proxy);
        this.everyRequest = new LinkedHashMap<>();
        this.putsOnly = new LinkedHashMap<>();
        encryptionHeaders(settings, everyRequest, putsOnly);
        if (settings.flag("requester.pays.enabled", false)) {
            everyRequest.put("x-amz-request-payer", "requester");
        }
        String acl = settings.get("acl.default");
        if (acl != null && !acl.isEmpty()) {
            putsOnly.put("x-amz-acl", cannedAcl(acl));
        }
        String prefix = settings.get("user.agent.prefix");
        this.userAgent = (prefix == null || prefix.isEmpty() ? "" : prefix + ", ") + "cubed-s3/1 Java/"
                + System.getProperty("java.version");
    }

    private static int parsePort(String port) {
        try {
            return Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException("fs.s3a.proxy.port must be a port number, got '" + port + "'", e);
        }
    }

    /** S3A's canned ACL names (e.g. {@code BucketOwnerFullControl}) as S3's header values. */
    private static String cannedAcl(String acl) {
        return switch (acl) {
            case "Private" -> "private";
            case "PublicRead" -> "public-read";
            case "PublicReadWrite" -> "public-read-write";
            case "AuthenticatedRead" -> "authenticated-read";
            case "LogDeliveryWrite" -> "log-delivery-write";
            case "BucketOwnerRead" -> "bucket-owner-read";
            case "BucketOwnerFullControl" -> "bucket-owner-full-control";
            default -> acl;
        };
    }

    /** The headers of S3A's server-side encryption settings: on PUTs, and for SSE-C on every object request. */
    private static void encryptionHeaders(S3Settings s, Map<String, String> every, Map<String, String> puts) {
        String algorithm = s.get("encryption.algorithm");
        if (algorithm == null || algorithm.isEmpty()) {
            algorithm = s.get("server-side-encryption-algorithm");
        }
        String key = s.get("encryption.key");
        if (key == null || key.isEmpty()) {
            key = s.get("server-side-encryption.key");
        }
        if (algorithm == null || algorithm.isEmpty() || algorithm.equalsIgnoreCase("none")) {
            return;
        }
        switch (algorithm.toUpperCase(java.util.Locale.ROOT)) {
            case "AES256", "SSE-S3" -> puts.put("x-amz-server-side-encryption", "AES256");
            case "SSE-KMS" -> {
                puts.put("x-amz-server-side-encryption", "aws:kms");
                if (key != null && !key.isEmpty()) {
                    puts.put("x-amz-server-side-encryption-aws-kms-key-id", key);
                }
            }
            case "SSE-C" -> {
                if (key == null || key.isEmpty()) {
                    throw new InvalidArgumentException("fs.s3a.encryption.algorithm SSE-C for bucket " + s.bucket()
                            + " needs fs.s3a.encryption.key (the base64 AES-256 key)");
                }
                byte[] raw;
                try {
                    raw = Base64.getDecoder().decode(key);
                    MessageDigest md5 = MessageDigest.getInstance("MD5");
                    every.put("x-amz-server-side-encryption-customer-algorithm", "AES256");
                    every.put("x-amz-server-side-encryption-customer-key", key);
                    every.put(
                            "x-amz-server-side-encryption-customer-key-md5",
                            Base64.getEncoder().encodeToString(md5.digest(raw)));
                } catch (IllegalArgumentException | java.security.NoSuchAlgorithmException e) {
                    throw new InvalidArgumentException(
                            "fs.s3a.encryption.key for SSE-C on bucket " + s.bucket() + " is not base64", e);
                }
            }
            default -> throw new InvalidArgumentException("fs.s3a.encryption.algorithm '" + algorithm + "' for bucket "
                    + s.bucket() + " is not supported by Cubed's S3 client (AES256/SSE-S3, SSE-KMS, SSE-C); set"
                    + " cubed.store.s3.client=hadoop to go through S3A");
        }
    }

    /** {@code endpoint} without a port that is its scheme's default: the Host header then has none either. */
    private static URI normalize(URI endpoint) {
        int port = endpoint.getPort();
        boolean defaultPort = (port == 443 && endpoint.getScheme().equals("https"))
                || (port == 80 && endpoint.getScheme().equals("http"));
        return defaultPort ? URI.create(endpoint.getScheme() + "://" + endpoint.getHost()) : endpoint;
    }

    String bucket() {
        return settings.bucket();
    }

    RequestStats stats() {
        return stats;
    }

    /** Connections idle in the client's pool now (for tests). */
    int idleConnections() {
        return http.idleConnections();
    }

    /** One request: method, the operation it counts as, key, query, headers and body. */
    record Request(
            String method,
            String operation,
            String key,
            Map<String, String> query,
            Map<String, String> headers,
            byte[] body,
            int offset,
            int length) {}

    /** Makes {@code request} on the caller's thread and reads its answer with {@code answer}. */
    <T> T now(Request request, java.util.function.Function<Response, T> answer) throws IOException {
        Response r = call(request);
        try {
            return answer.apply(r);
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }

    /** Makes {@code request} on a thread of the client's pool and reads its answer with {@code answer}. */
    <T> CompletableFuture<T> later(Request request, java.util.function.Function<Response, T> answer) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return answer.apply(call(request));
                    } catch (IOException e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                },
                REQUESTS);
    }

    /** GET of the whole object at {@code key}. */
    static Request get(String key) {
        return new Request("GET", "GET", key, Map.of(), Map.of(), null, 0, 0);
    }

    /** The object's bytes, or null when there is none. */
    static byte[] object(Response r) {
        if (absent(r)) {
            return null;
        }
        expect(r, 200);
        return r.body;
    }

    /**
     * Whether {@code r} says that the object asked for does not exist: a 404, but not S3's {@code NoSuchBucket}, which
     * fails instead. A missing bucket is no missing object: read as one, it would pass for an absent array, or for
     * chunks never written that read as the fill value. (A HEAD's 404 has no body to tell them apart.)
     */
    static boolean absent(Response r) {
        if (r.status != 404) {
            return false;
        }
        S3Xml.Error e = S3Xml.error(r.body);
        if ("NoSuchBucket".equals(e.code())) {
            throw new java.util.concurrent.CompletionException(new S3Failure(r.status, e.code(), e.message()));
        }
        return true;
    }

    /** GET of {@code length} (at least 1) bytes of the object at {@code key} from {@code offset}. */
    static Request getRange(String key, long offset, int length) {
        return new Request(
                "GET",
                "GET",
                key,
                Map.of(),
                Map.of("range", "bytes=" + offset + "-" + (offset + length - 1)),
                null,
                0,
                0);
    }

    /** GET of the last {@code length} (at least 1) bytes of the object at {@code key}: a suffix range. */
    static Request getTail(String key, int length) {
        return new Request("GET", "GET", key, Map.of(), Map.of("range", "bytes=-" + length), null, 0, 0);
    }

    /** The object's whole size that a 206 answer names in {@code Content-Range: bytes a-b/size}, or -1 when it does not. */
    static long totalSize(Response r) {
        String range = r.header("content-range");
        if (range == null) {
            return -1;
        }
        int slash = range.lastIndexOf('/');
        try {
            return slash < 0 ? -1 : Long.parseLong(range.substring(slash + 1).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** HEAD of the object at {@code key}. */
    static Request head(String key) {
        return new Request("HEAD", "HEAD", key, Map.of(), Map.of(), null, 0, 0);
    }

    /** The size a HEAD gave, or -1 when there is no object. */
    static long size(Response r) {
        if (r.status == 404) {
            return -1L;
        }
        expect(r, 200);
        long n = r.contentLength();
        if (n < 0) {
            throw new java.util.concurrent.CompletionException(
                    new S3Failure(r.status, null, "a HEAD answer without Content-Length"));
        }
        return n;
    }

    /** PUT of {@code length} bytes of {@code value} from {@code offset} at {@code key}. */
    Request put(String key, byte[] value, int offset, int length) {
        return new Request("PUT", "PUT", key, Map.of(), putsOnly, value, offset, length);
    }

    /** A PUT's answer: nothing, or its failure. */
    static Void stored(Response r) {
        expect(r, 200);
        return null;
    }

    /** DELETE of the object at {@code key} (S3 answers the same whether it was there or not). */
    static Request delete(String key) {
        return new Request("DELETE", "DELETE", key, Map.of(), Map.of(), null, 0, 0);
    }

    static Void deleted(Response r) {
        if (r.status != 404) {
            expect(r, 204, 200);
        }
        return null;
    }

    /** DeleteObjects of up to 1000 keys in one request. */
    static Request deleteAll(List<String> keys) {
        if (keys.size() > 1000) {
            throw new IllegalArgumentException("S3 deletes at most 1000 objects per request, asked for " + keys.size());
        }
        byte[] body = S3Xml.deleteRequest(keys);
        Map<String, String> h = new TreeMap<>();
        try {
            h.put(
                    "content-md5",
                    Base64.getEncoder()
                            .encodeToString(MessageDigest.getInstance("MD5").digest(body)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no MD5", e);
        }
        h.put("content-type", "application/xml");
        return new Request("POST", "DELETE_OBJECTS", "", Map.of("delete", ""), h, body, 0, body.length);
    }

    /** The keys a DeleteObjects answer says S3 could not remove, and why. */
    static List<String> notDeleted(Response r) {
        expect(r, 200);
        try {
            return S3Xml.deleteFailures(r.body);
        } catch (javax.xml.stream.XMLStreamException e) {
            throw new java.util.concurrent.CompletionException(
                    new S3Failure(r.status, null, "an unreadable DeleteObjects answer: " + e.getMessage()));
        }
    }

    /** ListObjectsV2 of one page (up to 1000 keys) of the objects whose keys start with {@code prefix}. */
    static Request list(String prefix, String token) {
        return list(prefix, null, token);
    }

    /**
     * ListObjectsV2 of one page (up to 1000 keys and common prefixes) of the objects whose keys start with {@code
     * prefix}; with a {@code delimiter}, the keys that have it after the prefix come rolled up into their common
     * prefixes (one entry per "directory").
     */
    static Request list(String prefix, String delimiter, String token) {
        Map<String, String> q = new TreeMap<>();
        q.put("list-type", "2");
        q.put("prefix", prefix);
        if (delimiter != null) {
            q.put("delimiter", delimiter);
        }
        if (token != null) {
            q.put("continuation-token", token);
        }
        return new Request("GET", "LIST", "", q, Map.of(), null, 0, 0);
    }

    static S3Xml.ListPage listPage(Response r) {
        expect(r, 200);
        try {
            return S3Xml.listPage(r.body);
        } catch (javax.xml.stream.XMLStreamException | NumberFormatException e) {
            throw new java.util.concurrent.CompletionException(
                    new S3Failure(r.status, null, "an unreadable listing: " + e.getMessage()));
        }
    }

    /** Fails the answer {@code r} unless its status is one of {@code ok}, with S3's error code and message. */
    static void expect(Response r, int... ok) {
        for (int s : ok) {
            if (r.status == s) {
                return;
            }
        }
        S3Xml.Error e = S3Xml.error(r.body);
        throw new java.util.concurrent.CompletionException(new S3Failure(r.status, e.code(), e.message()));
    }

    /**
     * Makes one request on the caller's thread and returns S3's answer, whatever its status (a transport failure is a
     * {@link TransportFailure}); an answer that the bucket is in another region is followed once.
     */
    private Response call(Request q) throws IOException {
        Target t = target;
        Response r = callAt(t, q);
        String region = otherRegion(t, r);
        if (region == null) {
            return r;
        }
        Target moved = new Target(
                region,
                settings.get("endpoint") == null || settings.get("endpoint").isEmpty()
                        ? normalize(settings.endpoint(region))
                        : t.endpoint,
                t.pathStyle);
        target = moved;
        return callAt(moved, q);
    }

    /** The bucket's region when {@code r} says the request went to the wrong one on an AWS endpoint; else null. */
    private String otherRegion(Target t, Response r) {
        if (!awsEndpoint || (r.status != 301 && r.status != 307 && r.status != 400)) {
            return null;
        }
        String region = r.header("x-amz-bucket-region");
        if (region == null && r.status == 400) {
            region = S3Xml.error(r.body).region();
        }
        return region == null || region.equals(t.region) ? null : region;
    }

    private Response callAt(Target t, Request q) throws IOException {
        String method = q.method();
        String key = q.key();
        Map<String, String> query = q.query();
        byte[] body = q.body();
        int offset = q.offset();
        int length = q.length();
        String bucket = settings.bucket();
        URI uri = t.uri(bucket, key, SigV4.canonicalQuery(query));
        String amzDate = SigV4.amzDate(ZonedDateTime.now(ZoneOffset.UTC));
        String payloadHash = body == null
                ? SigV4.EMPTY_SHA256
                : signPayload ? SigV4.hex(SigV4.sha256(body, offset, length)) : SigV4.UNSIGNED_PAYLOAD;
        Map<String, String> h = new TreeMap<>(everyRequest);
        h.putAll(q.headers());
        h.put("x-amz-date", amzDate);
        h.put("x-amz-content-sha256", payloadHash);
        h.put("user-agent", userAgent);
        Credentials c = credentials.get();
        if (!c.anonymous()) {
            if (c.sessionToken() != null) {
                h.put("x-amz-security-token", c.sessionToken());
            }
            Map<String, String> signed = new TreeMap<>(h);
            signed.remove("user-agent");
            signed.put("host", uri.getRawAuthority());
            h.put(
                    "authorization",
                    signer.authorization(
                            c, t.region, amzDate, method, t.path(bucket, key), query, signed, payloadHash));
        }
        List<Map.Entry<String, String>> sent = new ArrayList<>(h.entrySet());
        String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        int port = uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 80;
        stats.start(q.operation());
        JVM_STATS.start(q.operation());
        long started = System.nanoTime();
        int status = -1;
        try {
            Http1.Response r =
                    http.exchange(uri.getScheme(), uri.getHost(), port, method, target, sent, body, offset, length);
            status = r.status();
            return new Response(r.status(), r, r.body());
        } catch (IOException e) {
            throw new TransportFailure(e);
        } finally {
            stats.end();
            JVM_STATS.end();
            if (REQUESTS_LOG.isDebugEnabled()) {
                REQUESTS_LOG.debug(
                        "{} {} {}{} -> {} in {} ms",
                        q.operation(),
                        bucket,
                        key,
                        query.isEmpty() ? "" : " " + query,
                        status < 0 ? "failed" : Integer.toString(status),
                        (System.nanoTime() - started) / 1_000_000);
            }
        }
    }

    @Override
    public String toString() {
        Target t = target;
        return "S3Client{" + settings.bucket() + " at " + t.endpoint + ", " + t.region
                + (t.pathStyle ? ", path style" : "") + "}";
    }
}
