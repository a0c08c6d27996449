package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AtomicObjectsBlobStoreTest {
    private static final String BUCKET = "stripes";

    @Test
    void stripesAreWithinRangeAndSpreadKeys() {
        boolean[] seen = new boolean[AtomicObjectsBlobStore.STRIPES];
        int distinct = 0;
        for (int i = 0; i < 4096; i++) {
            int s = AtomicObjectsBlobStore.stripe(BUCKET, "a/" + (i / 64) + "." + (i % 64));
            assertThat(s).isBetween(0, AtomicObjectsBlobStore.STRIPES - 1);
            if (!seen[s]) {
                seen[s] = true;
                distinct++;
            }
        }
        assertThat(distinct).as("stripes used by 4096 chunk keys").isEqualTo(AtomicObjectsBlobStore.STRIPES);
    }

    /**
     * A bulk delete locks every key it names: it waits for a GET of one of them (held inside the store, under that
     * key's shared lock), while a GET of a key it does not name does not wait. (Blocking calls run in futures: a lock
     * wait cannot be interrupted by a test timeout.)
     */
    @Test
    void aBulkDeleteWaitsForReadsOfItsKeysOnly() throws Exception {
        HeldGets held = new HeldGets(new TransientNio2BlobStore(), "b");
        AtomicObjectsBlobStore blobs = new AtomicObjectsBlobStore(held);
        blobs.createContainer(BUCKET);
        for (String key : List.of("a", "b", "c")) {
            put(blobs, key, key);
        }
        assertThat(AtomicObjectsBlobStore.stripe(BUCKET, "c"))
                .isNotIn(AtomicObjectsBlobStore.stripe(BUCKET, "a"), AtomicObjectsBlobStore.stripe(BUCKET, "b"));

        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> get(blobs, "b"));
        assertThat(held.entered.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> blobs.removeBlobs(deleteOf("a", "b")));
        assertThat(CompletableFuture.supplyAsync(() -> get(blobs, "c")).get(10, TimeUnit.SECONDS))
                .isEqualTo("c");
        Thread.sleep(200);
        assertThat(delete).as("a bulk delete of a key being read").isNotDone();

        held.release.countDown();

        assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo("b");
        delete.get(10, TimeUnit.SECONDS);
        assertThat(blobs.blobExists(BUCKET, "a")).isFalse();
        assertThat(blobs.blobExists(BUCKET, "b")).isFalse();
        assertThat(get(blobs, "c")).isEqualTo("c");
    }

    /** Copies a to b and b to a, and bulk deletes of both, at once: each takes both stripes in the same order. */
    @Test
    void copiesBothWaysAndBulkDeletesDoNotDeadlock() throws Exception {
        AtomicObjectsBlobStore blobs = new AtomicObjectsBlobStore(new TransientNio2BlobStore());
        blobs.createContainer(BUCKET);
        assertThat(AtomicObjectsBlobStore.stripe(BUCKET, "a")).isNotEqualTo(AtomicObjectsBlobStore.stripe(BUCKET, "b"));
        put(blobs, "a", "x");
        put(blobs, "b", "x");
        // Daemon threads: deadlocked ones (uninterruptible in lock()) must not keep the test JVM from exiting.
        ExecutorService threads = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "copy-or-delete");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int kind = t;
                work.add(threads.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        switch (kind) {
                            case 0 -> copyIfPresent(blobs, "a", "b");
                            case 1 -> copyIfPresent(blobs, "b", "a");
                            case 2 -> blobs.removeBlobs(deleteOf("a", "b"));
                            default -> put(blobs, i % 2 == 0 ? "a" : "b", "x");
                        }
                    }
                }));
            }
            for (Future<?> w : work) {
                w.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static void copyIfPresent(BlobStore blobs, String from, String to) {
        try {
            blobs.copyBlob(CopyObjectRequest.builder()
                    .sourceBucket(BUCKET)
                    .sourceKey(from)
                    .destinationBucket(BUCKET)
                    .destinationKey(to)
                    .build());
        } catch (NoSuchKeyException e) {
            // The bulk delete removed the source first, as it may on S3.
        }
    }

    private static DeleteObjectsRequest deleteOf(String... keys) {
        List<ObjectIdentifier> objects = new ArrayList<>();
        for (String key : keys) {
            objects.add(ObjectIdentifier.builder().key(key).build());
        }
        return DeleteObjectsRequest.builder()
                .bucket(BUCKET)
                .delete(Delete.builder().objects(objects).build())
                .build();
    }

    private static void put(BlobStore blobs, String key, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        blobs.putBlob(
                PutObjectRequest.builder()
                        .bucket(BUCKET)
                        .key(key)
                        .contentLength((long) bytes.length)
                        .build(),
                new ByteArrayInputStream(bytes));
    }

    private static String get(BlobStore blobs, String key) {
        try (ResponseInputStream<GetObjectResponse> in =
                blobs.getBlob(GetObjectRequest.builder().bucket(BUCKET).key(key).build())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Holds every GET of one key inside the store (under its key's shared lock) until released. */
    private static final class HeldGets extends ForwardingBlobStore {
        final String key;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        HeldGets(BlobStore delegate, String key) {
            super(delegate);
            this.key = key;
        }

        @Override
        public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
            if (request.key().equals(key) && entered.getCount() > 0) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.getBlob(request);
        }
    }
}
