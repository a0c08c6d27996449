package io.cubed.storage.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.Store;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * {@link S3TestServer} as a latency and request-counting server: exact counts of hand-made requests by operation and
 * key, the delay before every request and its overlap between concurrent requests, per-key locking, resets, and the
 * standalone program's protocol.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3TestServerIT {
    static {
        // As ThrottlingS3Proxy, which may run later in this JVM: the JDK's HTTP client reads this once.
        System.setProperty("jdk.httpclient.allowRestrictedHeaders", "host");
    }

    private static final String BUCKET = "metered";

    private static S3TestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        server = S3TestServer.builder().bucket(BUCKET).anonymousReads(true).start();
        http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void noLatencyAndNoCounts() throws InterruptedException {
        server.setLatencyMillis(0);
        awaitIdle(server);
        server.resetStats();
    }

    @Test
    void countsEveryHandMadeRequestOnceByOperationAndKey() throws Exception {
        Store store = Stores.open(server.url("counts"), server.options());
        store.put("a/0.0", StoreContract.bytes("zero"));
        awaitIdle(server);
        assertThat(server.stats().keyCounts("counts/a/0.0"))
                .as("s3a's requests naming the key it wrote once")
                .containsEntry(S3Operation.PUT_OBJECT, 1L);
        server.resetStats();

        HttpResponse<String> hit = send("GET", server.httpUrl("counts/a/0.0"));
        HttpResponse<String> miss = send("GET", server.httpUrl("counts/a/missing"));
        HttpResponse<String> head = send("HEAD", server.httpUrl("counts/a/0.0"));
        HttpResponse<String> write = send("PUT", server.httpUrl("counts/a/anonymous"));

        S3ServerStats stats = server.stats();

        assertThat(hit.statusCode()).isEqualTo(200);
        assertThat(hit.body()).isEqualTo("zero");
        assertThat(miss.statusCode()).isEqualTo(404);
        assertThat(miss.body()).contains("<Code>NoSuchKey</Code>");
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(4);
        assertThat(write.statusCode()).as("an unsigned write").isEqualTo(403);
        assertThat(store.exists("a/anonymous")).isFalse();
        assertThat(stats.total()).isEqualTo(4);
        assertThat(stats.count(S3Operation.GET_OBJECT)).isEqualTo(2);
        assertThat(stats.count(S3Operation.HEAD_OBJECT)).isEqualTo(1);
        assertThat(stats.count(S3Operation.PUT_OBJECT))
                .as("refused, yet a request")
                .isEqualTo(1);
        assertThat(stats.keyCounts("counts/a/0.0"))
                .isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L, S3Operation.HEAD_OBJECT, 1L));
        assertThat(stats.keyCounts("counts/a/missing")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L));
        assertThat(stats.keyCounts("counts/a/anonymous")).isEqualTo(Map.of(S3Operation.PUT_OBJECT, 1L));
        assertThat(stats.keyCounts()).hasSize(3);
        assertThat(stats.distinctKeys(S3Operation.GET_OBJECT)).isEqualTo(2);
        assertThat(stats.maxKeyCount(S3Operation.GET_OBJECT)).isEqualTo(1);
    }

    /** s3a deletes a prefix with one bulk delete (POST ?delete) naming its keys, after a HEAD and listings. */
    @Test
    void aBulkDeleteCountsForEachKeyOfItsBody() throws Exception {
        Store store = Stores.open(server.url("bulk"), server.options());
        for (int i = 0; i < 3; i++) {
            store.put("d/" + i, StoreContract.bytes("v" + i));
        }
        assertThat(store.list("d")).hasSize(3);
        awaitIdle(server);
        server.resetStats();

        store.deletePrefix("d");

        awaitIdle(server);
        S3ServerStats stats = server.stats();
        assertThat(stats.count(S3Operation.LIST)).isPositive();
        assertThat(stats.count(S3Operation.DELETE_OBJECTS)).isPositive();
        assertThat(stats.distinctKeys(S3Operation.DELETE_OBJECTS)).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(stats.keyCounts("bulk/d/" + i)).isEqualTo(Map.of(S3Operation.DELETE_OBJECTS, 1L));
        }
    }

    /** An SDK client with retries off sends one request per call: each counts once, under its own operation. */
    @Test
    void copiesMultipartUploadsAndDeletesCountAsTheirOperations() {
        try (S3Client s3 = S3Client.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)))
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build()) {
            s3.putObject(b -> b.bucket(BUCKET).key("sdk/a"), RequestBody.fromString("a"));
            s3.copyObject(b -> b.sourceBucket(BUCKET)
                    .sourceKey("sdk/a")
                    .destinationBucket(BUCKET)
                    .destinationKey("sdk/b & c"));
            String upload =
                    s3.createMultipartUpload(b -> b.bucket(BUCKET).key("sdk/m")).uploadId();
            String etag = s3.uploadPart(
                            b -> b.bucket(BUCKET).key("sdk/m").uploadId(upload).partNumber(1),
                            RequestBody.fromString("part"))
                    .eTag();
            s3.completeMultipartUpload(b -> b.bucket(BUCKET)
                    .key("sdk/m")
                    .uploadId(upload)
                    .multipartUpload(m -> m.parts(
                            CompletedPart.builder().partNumber(1).eTag(etag).build())));
            s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("sdk/"));
            s3.deleteObject(b -> b.bucket(BUCKET).key("sdk/m"));
            s3.deleteObjects(b -> b.bucket(BUCKET)
                    .delete(d -> d.objects(
                            ObjectIdentifier.builder().key("sdk/a").build(),
                            ObjectIdentifier.builder().key("sdk/b & c").build())));
            s3.headBucket(b -> b.bucket(BUCKET));
        }

        S3ServerStats stats = server.stats();
        assertThat(stats.counts())
                .containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry(S3Operation.GET_OBJECT, 0L),
                        Map.entry(S3Operation.HEAD_OBJECT, 0L),
                        Map.entry(S3Operation.PUT_OBJECT, 1L),
                        Map.entry(S3Operation.LIST, 1L),
                        Map.entry(S3Operation.DELETE_OBJECT, 1L),
                        Map.entry(S3Operation.DELETE_OBJECTS, 1L),
                        Map.entry(S3Operation.COPY_OBJECT, 1L),
                        Map.entry(S3Operation.INITIATE_MULTIPART, 1L),
                        Map.entry(S3Operation.UPLOAD_PART, 1L),
                        Map.entry(S3Operation.COMPLETE_MULTIPART, 1L),
                        Map.entry(S3Operation.OTHER, 1L)));
        assertThat(stats.keyCounts())
                .containsOnlyKeys("sdk/a", "sdk/b & c", "sdk/m")
                .containsEntry(
                        "sdk/a",
                        Map.of(S3Operation.PUT_OBJECT, 1L, S3Operation.COPY_OBJECT, 1L, S3Operation.DELETE_OBJECTS, 1L))
                .containsEntry("sdk/b & c", Map.of(S3Operation.COPY_OBJECT, 1L, S3Operation.DELETE_OBJECTS, 1L))
                .containsEntry(
                        "sdk/m",
                        Map.of(
                                S3Operation.INITIATE_MULTIPART, 1L,
                                S3Operation.UPLOAD_PART, 1L,
                                S3Operation.COMPLETE_MULTIPART, 1L,
                                S3Operation.DELETE_OBJECT, 1L));
    }

    @Test
    void aRequestIsServedAfterTheLatency() throws Exception {
        send("GET", server.httpUrl("latency/warm-up"));
        server.setLatencyMillis(100);
        awaitIdle(server);
        server.resetStats();

        long start = System.nanoTime();
        HttpResponse<String> miss = send("GET", server.httpUrl("latency/missing"));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(miss.statusCode()).isEqualTo(404);
        assertThat(millis).as("ms for one GET").isGreaterThanOrEqualTo(100);
        awaitIdle(server);
        assertThat(server.stats().busyNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(server.stats().meanInFlight()).isEqualTo(1.0);
    }

    /**
     * 16 GETs at once, each held 200 ms: all 16 wait at the same time, as S3's first-byte latencies overlap. A first
     * round opens the client's 16 connections, so that the second's requests reach the server within a few ms.
     */
    @Test
    void concurrentRequestsWaitOutTheirLatencyTogether() throws Exception {
        Store store = Stores.open(server.url("together"), server.options());
        store.put("x", StoreContract.bytes("shared"));
        server.setLatencyMillis(50);
        getAtOnce(16, server.httpUrl("together/x"));
        server.setLatencyMillis(200);
        awaitIdle(server);
        server.resetStats();

        long start = System.nanoTime();
        List<HttpResponse<String>> gets = getAtOnce(16, server.httpUrl("together/x"));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(gets).extracting(HttpResponse::body).containsOnly("shared").hasSize(16);
        assertThat(millis)
                .as("ms for 16 GETs of 200 ms at once (16 x 200 = 3200 one after the other)")
                .isBetween(200L, 1500L);
        awaitIdle(server);
        S3ServerStats stats = server.stats();
        assertThat(stats.count(S3Operation.GET_OBJECT)).isEqualTo(16);
        assertThat(stats.keyCounts("together/x")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 16L));
        assertThat(stats.maxInFlight()).isEqualTo(16);
        assertThat(stats.meanInFlight()).isGreaterThan(8);
        assertThat(stats.busyNanos())
                .isBetween(TimeUnit.MILLISECONDS.toNanos(200), TimeUnit.MILLISECONDS.toNanos(1500));
    }

    private static List<HttpResponse<String>> getAtOnce(int n, String url) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sent.add(http.sendAsync(request("GET", url), HttpResponse.BodyHandlers.ofString()));
        }
        List<HttpResponse<String>> responses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> get : sent) {
            responses.add(get.get(20, TimeUnit.SECONDS));
        }
        return responses;
    }

    @Test
    void resetStartsCountingAnew() throws Exception {
        send("GET", server.httpUrl("reset/missing"));
        send("HEAD", server.httpUrl("reset/missing"));
        awaitIdle(server);
        assertThat(server.stats().total()).isEqualTo(2);

        server.resetStats();

        S3ServerStats stats = server.stats();
        assertThat(stats).isEqualTo(new S3ServerStats(Map.of(), Map.of(), 0, 0, 0.0, 0L));
        assertThat(stats.count(S3Operation.GET_OBJECT)).isZero();
        assertThat(stats.keyCounts("reset/missing")).isEmpty();
        send("GET", server.httpUrl("reset/missing"));
        assertThat(server.stats().keyCounts("reset/missing")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L));
    }

    /**
     * A PUT stopped inside the blob store, holding its key's lock, holds up a GET of its own key but not a GET of
     * another key (one lock for all keys held up every request behind every PUT). Holding back the upload's body would
     * not test the locks: the body is buffered before the key's lock is taken.
     */
    @Test
    void aPutHoldingItsKeyHoldsUpThatKeyOnly() throws Exception {
        AtomicReference<StoppedPuts> stopped = new AtomicReference<>();
        try (S3TestServer locks = S3TestServer.builder()
                .bucket("locks")
                .anonymousReads(true)
                .wrapStore(s -> {
                    stopped.set(new StoppedPuts(s, "data/slow/0"));
                    return stopped.get();
                })
                .start()) {
            assertThat(AtomicObjectsBlobStore.stripe("locks", "data/slow/0"))
                    .isNotEqualTo(AtomicObjectsBlobStore.stripe("locks", "data/fast/0"));
            Store store = Stores.open(locks.url("data"), locks.options());
            store.put("fast/0", StoreContract.bytes("fast"));
            CompletableFuture<Void> slowPut =
                    CompletableFuture.runAsync(() -> store.put("slow/0", StoreContract.bytes("slow")));
            assertThat(stopped.get().entered.await(20, TimeUnit.SECONDS)).isTrue();
            try {
                long start = System.nanoTime();
                HttpResponse<String> fast = send("GET", locks.httpUrl("data/fast/0"));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(fast.body()).isEqualTo("fast");
                assertThat(millis).as("ms for a GET of another key").isLessThan(2000);

                CompletableFuture<HttpResponse<String>> slow = http.sendAsync(
                        request("GET", locks.httpUrl("data/slow/0")), HttpResponse.BodyHandlers.ofString());
                Thread.sleep(300);
                assertThat(slow).as("a GET of the key being written").isNotDone();
                stopped.get().release.countDown();
                assertThat(slow.get(20, TimeUnit.SECONDS).body()).isEqualTo("slow");
            } finally {
                stopped.get().release.countDown();
            }
            slowPut.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aServerInADirectoryKeepsItsObjectsForTheNextServerThere(@TempDir Path tmp) throws Exception {
        try (S3TestServer first =
                        S3TestServer.builder().bucket("kept").directory(tmp).start();
                Store store = Stores.open(first.url("data"), first.options())) {
            store.put("a/k", "in a file".getBytes(UTF_8));
        }
        assertThat(tmp.resolve("kept")).isDirectory();
        try (S3TestServer second =
                        S3TestServer.builder().bucket("kept").directory(tmp).start();
                Store store = Stores.open(second.url("data"), second.options())) {
            assertThat(store.list("")).containsExactly("a/k");
            assertThat(new String(store.get("a/k"), UTF_8)).isEqualTo("in a file");
        }
    }

    @Test
    void theProgramAnswersCommandsUntilToldToStop(@TempDir Path tmp) throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path log = tmp.resolve("server.log");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        classPath,
                        S3TestServer.class.getName(),
                        "--bucket",
                        "program",
                        "--latency-ms",
                        "50",
                        "--anonymous-reads")
                .redirectError(log.toFile())
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), UTF_8));
                PrintWriter in = new PrintWriter(new OutputStreamWriter(p.getOutputStream(), UTF_8), true)) {
            String first = CompletableFuture.supplyAsync(() -> readLine(out)).get(30, TimeUnit.SECONDS);
            assertThat(first)
                    .as("first line; the log: %s", Files.exists(log) ? Files.readString(log) : "")
                    .matches("PORT \\d+");
            String url = "http://127.0.0.1:" + first.substring(5) + "/program/";

            long start = System.nanoTime();
            assertThat(send("GET", url + "a/missing").statusCode()).isEqualTo(404);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(50);
            assertThat(send("HEAD", url + "a/missing").statusCode()).isEqualTo(404);

            in.println("stats");
            String stats = out.readLine();
            assertThat(stats)
                    .startsWith("{\"requests\":2,\"counts\":{\"GET_OBJECT\":1,\"HEAD_OBJECT\":1,\"PUT_OBJECT\":0,")
                    .contains("\"keys\":{\"GET_OBJECT\":{\"distinct\":1,\"max\":1},"
                            + "\"HEAD_OBJECT\":{\"distinct\":1,\"max\":1},\"PUT_OBJECT\":{\"distinct\":0,\"max\":0},")
                    .contains(",\"maxInFlight\":1,\"meanInFlight\":1.000,")
                    .endsWith(",\"latencyMs\":50}");
            in.println("latency 0");
            assertThat(out.readLine()).isEqualTo("OK");
            in.println("reset");
            assertThat(out.readLine()).isEqualTo("OK");
            in.println("stats");
            assertThat(out.readLine()).isEqualTo(new S3ServerStats(Map.of(), Map.of(), 0, 0, 0, 0).toJson(0));
            in.println("frobnicate");
            assertThat(out.readLine()).isEqualTo("ERROR unknown command: frobnicate");
            in.println("stop");
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(out.readLine()).as("nothing else on standard output").isNull();
        } finally {
            p.destroyForcibly();
        }
    }

    /** Waits until no request is in flight: a client has its response a moment before the server completes it. */
    static void awaitIdle(S3TestServer s3) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (s3.stats().inFlight() > 0) {
            assertThat(System.nanoTime()).as("requests still in flight").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static HttpRequest request(String method, String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .method(
                        method,
                        method.equals("PUT")
                                ? HttpRequest.BodyPublishers.ofString("anonymous")
                                : HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(20))
                .build();
    }

    private static HttpResponse<String> send(String method, String url) throws Exception {
        return http.send(request(method, url), HttpResponse.BodyHandlers.ofString());
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Stops every PUT of one key inside the blob store (under its key's lock) until released. */
    private static final class StoppedPuts extends ForwardingBlobStore {
        final String key;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        StoppedPuts(BlobStore delegate, String key) {
            super(delegate);
            this.key = key;
        }

        @Override
        public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
            if (request.key().equals(key)) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.putBlob(request, body);
        }
    }
}
