package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.s3.S3Store;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store contract on {@link S3Store}, Cubed's own S3 client, which {@code s3a://} URIs open by default, against
 * the in-process S3 test server (s3proxy, which checks every request's Signature Version 4).
 */
class S3ClientStoreIT extends StoreContract {
    private static final String BUCKET = "cubed-client-it";
    private static final AtomicInteger RUN = new AtomicInteger();
    private static S3TestServer server;

    @BeforeAll
    static void startS3() throws Exception {
        server = S3TestServer.start(BUCKET);
    }

    @AfterAll
    static void stopS3() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected Store newStore() {
        return Stores.open(server.url("run-" + RUN.incrementAndGet()), server.options());
    }

    @Override
    protected boolean expectedObjectStore() {
        return true;
    }

    /** Any key may be written on S3: the failing put is one the server refuses for its credentials (403). */
    @Override
    protected String arrangeFailingPut() {
        return "denied/0.0";
    }

    @Override
    protected Store storeForFailingPut() {
        return Stores.open(store.uri(), server.options().with("fs.s3a.secret.key", "not-the-secret"));
    }

    @Override
    protected List<String> keysAfterFailingPut() {
        return List.of();
    }

    @Override
    protected int atomicityRounds() {
        return 16;
    }

    @Override
    protected boolean listingsAreAtomicDuringPuts() {
        return false;
    }

    @Test
    void s3aUrisOpenCubedsClient() {
        assertThat(RetryingStore.unwrapAll(store)).isInstanceOf(S3Store.class);
        assertThat(store.concurrency()).isEqualTo(S3Store.DEFAULT_CONCURRENCY);
        Store eight = Stores.open(store.uri(), server.options().with(Store.CONCURRENCY_OPTION, "8"));
        assertThat(eight.concurrency()).isEqualTo(8);
        assertThatThrownBy(() -> Stores.open(store.uri(), server.options().with(Store.CONCURRENCY_OPTION, "0")))
                .hasMessageContaining(Store.CONCURRENCY_OPTION)
                .hasMessageContaining("'0'");
    }

    @Test
    void aReadIsOneGetAWriteOnePutAndAMissingValueOneGet() {
        S3Store s3 = (S3Store) RetryingStore.unwrapAll(store);
        var before = s3.requestStats().snapshot();
        store.put("a/0.0", bytes("chunk"));
        assertThat(store.get("a/0.0")).isEqualTo(bytes("chunk"));
        assertThat(store.get("a/1.0")).isNull();
        var io = s3.requestStats().snapshot().minus(before);
        assertThat(io.counts()).containsOnlyKeys("GET", "PUT");
        assertThat(io.count("GET")).isEqualTo(2);
        assertThat(io.count("PUT")).isEqualTo(1);
    }

    @Test
    void theJvmsCountsAreThoseOfEveryStoreTogether() {
        Store other = Stores.open(server.url("other-" + RUN.incrementAndGet()), server.options());
        S3Store.requestStatsOfThisJvm().resetMax();
        var before = S3Store.requestStatsOfThisJvm().snapshot();
        store.put("a/0.0", bytes("chunk"));
        other.put("a/0.0", bytes("chunk"));
        assertThat(store.get("a/0.0")).isEqualTo(bytes("chunk"));
        assertThat(other.exists("a/0.0")).isTrue();
        var io = S3Store.requestStatsOfThisJvm().snapshot().minus(before);
        assertThat(io.counts()).isEqualTo(java.util.Map.of("PUT", 2L, "GET", 1L, "HEAD", 1L));
        assertThat(io.maxInFlight()).isEqualTo(1);
    }

    @Test
    void manyRequestsAreInFlightAtOnceWithoutAThreadEach() throws Exception {
        S3Store s3 = (S3Store) RetryingStore.unwrapAll(store);
        byte[] value = random(64 * 1024, 5);
        List<CompletableFuture<Void>> puts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            puts.add(store.putAsync("many/" + i, value, value.length));
        }
        for (CompletableFuture<Void> p : puts) {
            p.get(60, TimeUnit.SECONDS);
        }
        s3.requestStats().resetMax();
        List<CompletableFuture<Store.Bytes>> gets = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            gets.add(store.getAsync("many/" + i));
        }
        for (CompletableFuture<Store.Bytes> g : gets) {
            Store.Bytes b = g.get(60, TimeUnit.SECONDS);
            assertThat(java.util.Arrays.copyOf(b.array(), b.length())).isEqualTo(value);
        }
        assertThat(s3.requestStats().snapshot().maxInFlight()).isGreaterThan(8);
        assertThat(store.getAsync("many/none").get(60, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void wrongCredentialsFailNamingTheStoreTheKeyAndS3sAnswer() {
        StoreOptions bad = server.options().with("fs.s3a.secret.key", "wrong");
        Store s = Stores.open(store.uri(), bad);
        assertThatThrownBy(() -> s.get("anything"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(store.uri())
                .hasMessageContaining("'anything'")
                .hasMessageContaining("403");
    }

    /**
     * {@code s3a://bucket//run/x.zarr/} is the place {@code s3a://bucket/run/x.zarr} (as S3A's Path reads it): a Zarr
     * array written through one spelling reads back through the other, and S3 holds it under the normalised keys.
     */
    @Test
    void aUrlWithRepeatedAndTrailingSlashesIsThePlaceS3AReads() {
        String run = "slashes-" + RUN.incrementAndGet();
        String spelled = "s3a://" + BUCKET + "//" + run + "//x.zarr/";
        io.cubed.storage.zarr.ZarrArray written = io.cubed.storage.zarr.ZarrArray.create(
                spelled,
                io.cubed.storage.zarr.ZarrCreateOptions.builder(
                                new long[] {4}, new int[] {2}, io.cubed.dtype.DType.INT32)
                        .compressor(null)
                        .build(),
                server.options());
        written.writeChunk(io.cubed.chunk.Chunk.wrap(io.cubed.dtype.DType.INT32, new int[] {2}, new int[] {7, 8}), 0);
        io.cubed.storage.zarr.ZarrArray read =
                io.cubed.storage.zarr.ZarrArray.open(server.url(run + "/x.zarr"), server.options());
        assertThat(read.readRegion(new long[] {0}, new int[] {4}).toLongArray()).containsExactly(7, 8, 0, 0);
        Store bucket = Stores.open("s3a://" + BUCKET, server.options());
        assertThat(bucket.exists(run + "/x.zarr/.zarray")).isTrue();
        assertThat(bucket.exists(run + "/x.zarr/0")).isTrue();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anUnreachableEndpointFailsQuicklyNamingTheUri() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        StoreOptions options = server.options()
                .with("fs.s3a.endpoint", "http://127.0.0.1:" + closedPort)
                .with(RetryingStore.BASE_DELAY_MS, "10");
        long start = System.nanoTime();
        assertThatThrownBy(() -> Stores.open(store.uri(), options).put("k", bytes("w")))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(store.uri())
                .hasMessageContaining("attempts");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(15);
    }
}
