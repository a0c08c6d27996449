package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.StoreSupplier;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store contract on {@link HadoopStore} over {@code s3a://} (S3A, chosen with {@code cubed.store.s3.client=hadoop}), against an in-process s3proxy (in-memory blob store)
 * listening on 127.0.0.1 only.
 */
class S3StoreIT extends StoreContract {
    private static final String BUCKET = "cubed-it";
    private static final String ACCESS_KEY = S3TestServer.ACCESS_KEY;
    private static final String SECRET_KEY = S3TestServer.SECRET_KEY;
    private static final AtomicInteger RUN = new AtomicInteger();

    private static S3TestServer server;
    private static int port;

    @BeforeAll
    static void startS3() throws Exception {
        server = S3TestServer.start(BUCKET);
        port = server.port();
        assertThat(port).isPositive();
    }

    @AfterAll
    static void stopS3() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** s3a options for an S3 endpoint on 127.0.0.1:{@code port}, with small retry limits so failures are quick. */
    static StoreOptions s3Options(int port) {
        return StoreOptions.empty()
                .with("fs.s3a.endpoint", "http://127.0.0.1:" + port)
                .with("fs.s3a.endpoint.region", "us-east-1")
                .with("fs.s3a.path.style.access", "true")
                .with("fs.s3a.connection.ssl.enabled", "false")
                .with("fs.s3a.access.key", ACCESS_KEY)
                .with("fs.s3a.secret.key", SECRET_KEY)
                .with("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider")
                .with("fs.s3a.attempts.maximum", "1")
                .with("fs.s3a.retry.limit", "1")
                .with("fs.s3a.retry.interval", "50ms")
                .with("fs.s3a.retry.throttle.limit", "1")
                .with("fs.s3a.retry.throttle.interval", "50ms")
                .with("fs.s3a.connection.establish.timeout", "2000")
                .with("fs.s3a.connection.timeout", "10000")
                .with("fs.s3a.fast.upload.buffer", "bytebuffer");
    }

    /** The contract through Hadoop's S3A ({@code cubed.store.s3.client=hadoop}); S3ClientStoreIT runs it on Cubed's. */
    @Override
    protected Store newStore() {
        return Stores.open(
                "s3a://" + BUCKET + "/run-" + RUN.incrementAndGet(),
                s3Options(port).with(Stores.S3_CLIENT_OPTION, "hadoop"));
    }

    @Override
    protected boolean expectedObjectStore() {
        return true;
    }

    /** Object stores allow a value below another value's key; a put over a "directory" fails instead. */
    @Override
    protected String arrangeFailingPut() {
        store.put("dir/x", bytes("below"));
        return "dir";
    }

    @Override
    protected List<String> keysAfterFailingPut() {
        return List.of("dir/x");
    }

    @Override
    protected int atomicityRounds() {
        return 16;
    }

    /** s3proxy's file-backed blob store lists an upload's temporary file ("key-UUID") while it is written. */
    @Override
    protected boolean listingsAreAtomicDuringPuts() {
        return false;
    }

    @Test
    void storesAreHadoopStoresOnS3a() {
        assertThat(io.cubed.storage.RetryingStore.unwrapAll(store)).isInstanceOf(HadoopStore.class);
        assertThat(store.uri()).startsWith("s3a://" + BUCKET + "/run-");
    }

    @Test
    void aSupplierReopensTheSameBucketData() throws Exception {
        store.put("a/0.0", bytes("chunk"));
        StoreSupplier supplier = StoresTest.roundTrip(
                Stores.supplier(store.uri(), s3Options(port).with(Stores.S3_CLIENT_OPTION, "hadoop")));
        Store shared = supplier.open();
        assertThat(shared).isSameAs(supplier.open());
        assertThat(shared.get("a/0.0")).isEqualTo(bytes("chunk"));
        assertThat(shared.isObjectStore()).isTrue();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anUnreachableEndpointFailsQuicklyNamingTheUri() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        // Same bucket and prefix as a working store: a store must not reuse a file system opened with other options.
        store.put("k", bytes("v"));
        String uri = store.uri();
        long start = System.nanoTime();
        assertThatThrownBy(() -> {
                    try (Store unreachable =
                            Stores.open(uri, s3Options(closedPort).with(Stores.S3_CLIENT_OPTION, "hadoop"))) {
                        unreachable.put("k", bytes("w"));
                    }
                })
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(uri);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertThat(seconds).as("seconds to fail").isLessThan(15);
        assertThat(store.get("k")).isEqualTo(bytes("v"));
    }

    /**
     * The test server answers a HEAD (which S3A's open sends first, taking the length and the ETag it then asks for
     * with If-Match) with one version's size and the same version's ETag, as S3 does, also while the object is being
     * replaced: a size from before a put with an ETag from after it makes S3A read the new value cut to the old
     * length (seen once in {@link #readersSeeOnlyWholeValuesWhileAWriterOverwrites}).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aHeadGivesTheSizeAndETagOfOneVersionWhileAWriterOverwrites() throws Exception {
        byte[] a = random(3 * 1024 * 1024, 21);
        byte[] b = random(2 * 1024 * 1024 + 5, 22);
        Configuration conf = new Configuration();
        s3Options(port).asMap().forEach(conf::set);
        conf.setBoolean("fs.s3a.impl.disable.cache", true);
        URI root = URI.create(store.uri() + "/");
        Path path = new Path(store.uri() + "/head/0");
        try (FileSystem fs = FileSystem.newInstance(root, conf)) {
            store.put("head/0", b);
            String etagB = ((S3AFileStatus) fs.getFileStatus(path)).getETag();
            store.put("head/0", a);
            String etagA = ((S3AFileStatus) fs.getFileStatus(path)).getETag();
            assertThat(etagA).isNotEqualTo(etagB);
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<String> bad = new AtomicReference<>();
            AtomicInteger heads = new AtomicInteger();
            Thread reader = new Thread(() -> {
                try {
                    while (!done.get() && bad.get() == null) {
                        S3AFileStatus st = (S3AFileStatus) fs.getFileStatus(path);
                        heads.incrementAndGet();
                        boolean isA = st.getLen() == a.length && etagA.equals(st.getETag());
                        boolean isB = st.getLen() == b.length && etagB.equals(st.getETag());
                        if (!isA && !isB) {
                            bad.set(st.getLen() + " bytes with ETag " + st.getETag() + " (a: " + a.length + ", " + etagA
                                    + "; b: " + b.length + ", " + etagB + ")");
                        }
                    }
                } catch (Exception e) {
                    bad.set(e.toString());
                }
            });
            reader.start();
            try {
                for (int i = 0; i < 80 && bad.get() == null; i++) {
                    store.put("head/0", i % 2 == 0 ? b : a);
                }
            } finally {
                done.set(true);
                reader.join();
            }
            assertThat(bad.get()).isNull();
            assertThat(heads.get()).isGreaterThan(1);
        }
    }

    /**
     * S3A (through {@link HadoopStore}) and Cubed's S3 client read one URL as one prefix: the characters after the
     * bucket literally (a space, {@code %41}, {@code #}, {@code ?}, non-ASCII), repeated and trailing slashes and dot
     * segments as Hadoop's {@code Path} reads them. What one writes, the other reads under the same URL, and the
     * object's key is the one Hadoop's {@code Path} gives. Before, HadoopStore refused a URL with a space and decoded
     * {@code %41}.
     */
    @Test
    void s3aAndCubedsClientReadOneUrlAsOnePrefix() {
        String run = "spell-" + RUN.incrementAndGet();
        List<String> spellings = List.of("my run/x.zarr", "a%41", "a#b", "a?b", "é 日本", "x//y/", "p/./q/../r");
        StoreOptions hadoop = s3Options(port).with(Stores.S3_CLIENT_OPTION, "hadoop");
        StoreOptions cubed = s3Options(port).with(Stores.S3_CLIENT_OPTION, "cubed");
        for (int i = 0; i < spellings.size(); i++) {
            String url = "s3a://" + BUCKET + "/" + run + "/" + i + "/" + spellings.get(i);
            String key = new Path(url).toUri().getPath().substring(1) + "/k";
            byte[] v = bytes("value " + i);
            try (Store viaS3a = Stores.open(url, hadoop);
                    Store viaCubed = Stores.open(url, cubed);
                    Store bucket = Stores.open("s3a://" + BUCKET, cubed)) {
                assertThat(io.cubed.storage.RetryingStore.unwrapAll(viaS3a)).isInstanceOf(HadoopStore.class);
                viaS3a.put("k", v);
                assertThat(viaCubed.get("k")).as(url).isEqualTo(v);
                assertThat(bucket.get(key)).as("object " + key).isEqualTo(v);
                viaCubed.put("k2", v);
                assertThat(viaS3a.list("")).as(url).containsExactly("k", "k2");
            }
        }
    }
}
