package io.cubed.storage.fs;

import io.cubed.storage.StoreOptions;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;

/**
 * An S3-compatible server (s3proxy, in-memory blobs, objects replaced atomically as on S3: {@link
 * AtomicObjectsBlobStore}) in this JVM on 127.0.0.1, with one bucket, for tests.
 */
public final class S3TestServer implements AutoCloseable {
    public static final String ACCESS_KEY = "cubed-test-access";
    public static final String SECRET_KEY = "cubed-test-secret";

    private final S3Proxy proxy;
    private final String bucket;
    private final String accessKey;
    private final String secretKey;

    private S3TestServer(S3Proxy proxy, String bucket, String accessKey, String secretKey) {
        this.proxy = proxy;
        this.bucket = bucket;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    /** Starts a server with bucket {@code bucket} on a free port of 127.0.0.1 and waits until it serves. */
    public static S3TestServer start(String bucket) throws Exception {
        return start(bucket, ACCESS_KEY, SECRET_KEY);
    }

    /** As {@link #start(String)}, accepting the credentials {@code accessKey} and {@code secretKey}. */
    public static S3TestServer start(String bucket, String accessKey, String secretKey) throws Exception {
        BlobStore blobs = new AtomicObjectsBlobStore(new TransientNio2BlobStore());
        blobs.createContainer(bucket);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(blobs)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        return new S3TestServer(proxy, bucket, accessKey, secretKey);
    }

    public int port() {
        return proxy.getPort();
    }

    /** {@code s3a://BUCKET/path}. */
    public String url(String path) {
        return "s3a://" + bucket + "/" + path;
    }

    /** s3a options for this server (path-style access, test credentials, small retry limits). */
    public StoreOptions options() {
        return S3StoreIT.s3Options(port()).with("fs.s3a.access.key", accessKey).with("fs.s3a.secret.key", secretKey);
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}
