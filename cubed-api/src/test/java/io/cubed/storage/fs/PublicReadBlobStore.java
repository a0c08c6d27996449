package io.cubed.storage.fs;

import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * Makes every object of the wrapped store public-read, so that s3proxy serves an unsigned GET or HEAD of any key (a 404
 * for a missing one) while it still demands a signature for writes. s3proxy 4.1.0 answers an anonymous request for an
 * object by the object's own canned ACL, which it reads with {@link #getBlobAccess} (on the in-memory store it is
 * private unless the upload asked for {@code x-amz-acl: public-read}); the bucket's ACL governs only anonymous bucket
 * requests (listing, HEAD bucket), and anonymous writes need a public-read-write bucket.
 */
final class PublicReadBlobStore extends ForwardingBlobStore {
    PublicReadBlobStore(BlobStore delegate) {
        super(delegate);
    }

    @Override
    public ObjectCannedACL getBlobAccess(String container, String name) {
        return ObjectCannedACL.PUBLIC_READ;
    }

    @Override
    public ObjectCannedACL getBlobAccess(String container, String name, String versionId) {
        return ObjectCannedACL.PUBLIC_READ;
    }
}
