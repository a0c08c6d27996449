package io.cubed.storage.fs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Gives the test server S3's guarantee that an object is replaced atomically: a GET returns the whole old value or
 * the whole new one, never a mix. s3proxy's in-memory file-system store rewrites an object's file in place, so a GET
 * streamed while a PUT of the same key runs could return torn bytes, which real S3 never does; and its HEAD reads the
 * object's size and its ETag one after the other, so a HEAD during a PUT could give the old size with the new ETag
 * (S3A then asks for the old length with If-Match on the new ETag, and gets the new value cut short). Here every GET
 * reads its bytes, and every metadata read (HEAD, existence) its metadata, under a shared lock of its key, and every
 * change of a key (put, copy, multipart completion, delete, bulk delete) runs under that key's exclusive lock, with the
 * uploaded body buffered before the lock is taken. (This store tells s3proxy it copies no parts server-side, so an
 * UploadPartCopy reads its source through {@link #getBlob}.)
 *
 * <p>The locks are per key, striped: {@value #STRIPES} read-write locks, a key taking the one its bucket and name hash
 * to, so that requests for different keys (but for the rare two that share a stripe) never wait for each other. A
 * change of several keys (a copy reads its source and writes its destination; a bulk delete writes every key it
 * names) takes all their stripes in ascending stripe order, exclusive for a written key, shared for a key only read,
 * so that two such changes cannot deadlock. A bulk delete is handed to the wrapped store whole, which deletes its keys
 * on threads of its own without coming back through these locks.
 */
final class AtomicObjectsBlobStore extends ForwardingBlobStore {
    static final int STRIPES = 256;

    private final ReentrantReadWriteLock[] stripes = new ReentrantReadWriteLock[STRIPES];

    AtomicObjectsBlobStore(BlobStore delegate) {
        super(delegate);
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantReadWriteLock();
        }
    }

    /** The stripe, in [0, {@value #STRIPES}), of the lock of object {@code key} in {@code bucket}. */
    static int stripe(String bucket, String key) {
        int h = bucket.hashCode() * 31 + key.hashCode();
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }

    @Override
    public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
        return locked(new Keys().read(request.bucket(), request.key()), () -> {
            try (ResponseInputStream<GetObjectResponse> in = super.getBlob(request)) {
                if (in == null) {
                    return null;
                }
                byte[] bytes = in.readAllBytes();
                return new ResponseInputStream<>(
                        in.response(), AbortableInputStream.create(new ByteArrayInputStream(bytes)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Every other metadata read of s3proxy's (HEAD with or without a missing key, existence) comes through here. */
    @Override
    public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
        return locked(new Keys().read(request.bucket(), request.key()), () -> super.blobMetadata(request));
    }

    /** ForwardingBlobStore forwards this straight to the wrapped store: it takes the key's shared lock here. */
    @Override
    public boolean blobExists(String container, String name) {
        return locked(new Keys().read(container, name), () -> super.blobExists(container, name));
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
        byte[] bytes;
        try {
            bytes = body.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return locked(
                new Keys().write(request.bucket(), request.key()),
                () -> super.putBlob(request, new ByteArrayInputStream(bytes)));
    }

    @Override
    public CopyObjectResponse copyBlob(CopyObjectRequest request) {
        Keys keys = new Keys()
                .read(request.sourceBucket(), request.sourceKey())
                .write(request.destinationBucket(), request.destinationKey());
        return locked(keys, () -> super.copyBlob(request));
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(
            MultipartUpload upload, CompleteMultipartUploadRequest request) {
        return locked(
                new Keys().write(upload.containerName(), upload.blobName()),
                () -> super.completeMultipartUpload(upload, request));
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
        return locked(new Keys().write(request.bucket(), request.key()), () -> super.removeBlob(request));
    }

    @Override
    public DeleteObjectsResponse removeBlobs(DeleteObjectsRequest request) {
        Keys keys = new Keys();
        if (request.delete() != null) {
            for (ObjectIdentifier object : request.delete().objects()) {
                keys.write(request.bucket(), object.key());
            }
        }
        return locked(keys, () -> delegate().removeBlobs(request));
    }

    /** The stripes an operation locks, each shared or exclusive. */
    private static final class Keys {
        /** Stripe to exclusive (true) or shared (false), in ascending stripe order. */
        final TreeMap<Integer, Boolean> stripes = new TreeMap<>();

        Keys read(String bucket, String key) {
            stripes.merge(stripe(bucket, key), false, Boolean::logicalOr);
            return this;
        }

        Keys write(String bucket, String key) {
            stripes.merge(stripe(bucket, key), true, Boolean::logicalOr);
            return this;
        }
    }

    private <T> T locked(Keys keys, Supplier<T> body) {
        List<Lock> held = new ArrayList<>(keys.stripes.size());
        try {
            for (Map.Entry<Integer, Boolean> e : keys.stripes.entrySet()) {
                ReentrantReadWriteLock rw = stripes[e.getKey()];
                Lock lock = e.getValue() ? rw.writeLock() : rw.readLock();
                lock.lock();
                held.add(lock);
            }
            return body.get();
        } finally {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).unlock();
            }
        }
    }
}
