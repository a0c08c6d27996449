package io.cubed.storage.fs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.ReadWriteLock;
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
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Gives the test server S3's guarantee that an object is replaced atomically: a GET returns the whole old value or
 * the whole new one, never a mix. s3proxy's in-memory file-system store rewrites an object's file in place, so a GET
 * streamed while a PUT of the same key runs could return torn bytes, which real S3 never does; and its HEAD reads the
 * object's size and its ETag one after the other, so a HEAD during a PUT could give the old size with the new ETag
 * (S3A then asks for the old length with If-Match on the new ETag, and gets the new value cut short). Here every GET
 * reads its bytes, and every HEAD its metadata, under a shared lock, and every change (put, copy, multipart
 * completion, delete) runs under an exclusive one, with the uploaded body buffered before the lock is taken.
 */
final class AtomicObjectsBlobStore extends ForwardingBlobStore {
    private final ReadWriteLock lock = new ReentrantReadWriteLock();

    AtomicObjectsBlobStore(BlobStore delegate) {
        super(delegate);
    }

    @Override
    public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
        lock.readLock().lock();
        try (ResponseInputStream<GetObjectResponse> in = super.getBlob(request)) {
            byte[] bytes = in.readAllBytes();
            return new ResponseInputStream<>(
                    in.response(), AbortableInputStream.create(new ByteArrayInputStream(bytes)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Every other metadata read of s3proxy's (HEAD with or without a missing key, existence) comes through here. */
    @Override
    public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
        lock.readLock().lock();
        try {
            return super.blobMetadata(request);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
        byte[] bytes;
        try {
            bytes = body.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return exclusively(() -> super.putBlob(request, new ByteArrayInputStream(bytes)));
    }

    @Override
    public CopyObjectResponse copyBlob(CopyObjectRequest request) {
        return exclusively(() -> super.copyBlob(request));
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(
            MultipartUpload upload, CompleteMultipartUploadRequest request) {
        return exclusively(() -> super.completeMultipartUpload(upload, request));
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
        return exclusively(() -> super.removeBlob(request));
    }

    private <T> T exclusively(Supplier<T> change) {
        lock.writeLock().lock();
        try {
            return change.get();
        } finally {
            lock.writeLock().unlock();
        }
    }
}
