package io.cubed.storage.fs;

import java.util.Locale;
import java.util.Set;

/**
 * The S3 operation one HTTP request to {@link S3TestServer} asks for, told from its method, its path (bucket level or
 * object level), the names of its query parameters and whether it names a copy source; every request is exactly one
 * operation.
 */
public enum S3Operation {
    /** {@code GET /bucket/key}, ranged or not ({@code partNumber}, {@code versionId} and presigned URLs included). */
    GET_OBJECT,
    /** {@code HEAD /bucket/key}. */
    HEAD_OBJECT,
    /** {@code PUT /bucket/key} without a copy source: a single-part upload. */
    PUT_OBJECT,
    /** {@code GET /bucket} with only listing parameters: ListObjects (v1) or ListObjectsV2. */
    LIST,
    /** {@code DELETE /bucket/key}: one object. */
    DELETE_OBJECT,
    /** {@code POST /bucket?delete}: a bulk delete (DeleteObjects) of the keys its XML body names. */
    DELETE_OBJECTS,
    /** {@code PUT /bucket/key} with {@code x-amz-copy-source}: a server-side copy. */
    COPY_OBJECT,
    /** {@code POST /bucket/key?uploads}: CreateMultipartUpload. */
    INITIATE_MULTIPART,
    /** {@code PUT /bucket/key?partNumber=n&uploadId=u}: UploadPart, or UploadPartCopy with a copy source. */
    UPLOAD_PART,
    /** {@code POST /bucket/key?uploadId=u}: CompleteMultipartUpload. */
    COMPLETE_MULTIPART,
    /** Everything else: bucket requests other than listing, ACLs, tagging, aborts, listing uploads or parts. */
    OTHER;

    /** Parameters that name a sub-resource of an object: a request carrying one is not a plain object request. */
    private static final Set<String> OBJECT_SUBRESOURCES = Set.of(
            "acl",
            "attributes",
            "legal-hold",
            "restore",
            "retention",
            "select",
            "tagging",
            "torrent",
            "uploadId",
            "uploads");

    /** Parameters of ListObjects and ListObjectsV2. */
    private static final Set<String> LIST_PARAMETERS = Set.of(
            "list-type",
            "prefix",
            "delimiter",
            "marker",
            "max-keys",
            "continuation-token",
            "start-after",
            "encoding-type",
            "fetch-owner",
            "allow-unordered");

    /**
     * The operation of a request with HTTP method {@code method} on an object ({@code objectLevel}: the path names a
     * key after the bucket) or on a bucket, with query parameters named {@code parameters}; {@code copySource} says
     * whether it has an {@code x-amz-copy-source} header.
     */
    static S3Operation classify(String method, boolean objectLevel, Set<String> parameters, boolean copySource) {
        return switch (method.toUpperCase(Locale.ROOT)) {
            case "GET" -> objectLevel ? (subresource(parameters) ? OTHER : GET_OBJECT) : bucketGet(parameters);
            case "HEAD" -> objectLevel ? HEAD_OBJECT : OTHER;
            case "PUT" -> objectLevel ? objectPut(parameters, copySource) : OTHER;
            case "POST" -> objectLevel ? objectPost(parameters) : bucketPost(parameters);
            case "DELETE" -> objectLevel && !subresource(parameters) ? DELETE_OBJECT : OTHER;
            default -> OTHER;
        };
    }

    private static S3Operation bucketGet(Set<String> parameters) {
        for (String p : parameters) {
            if (!LIST_PARAMETERS.contains(p) && !authentication(p)) {
                return OTHER;
            }
        }
        return LIST;
    }

    private static S3Operation objectPut(Set<String> parameters, boolean copySource) {
        if (parameters.contains("uploadId")) {
            return UPLOAD_PART;
        }
        if (subresource(parameters)) {
            return OTHER;
        }
        return copySource ? COPY_OBJECT : PUT_OBJECT;
    }

    private static S3Operation objectPost(Set<String> parameters) {
        if (parameters.contains("uploads")) {
            return INITIATE_MULTIPART;
        }
        return parameters.contains("uploadId") ? COMPLETE_MULTIPART : OTHER;
    }

    private static S3Operation bucketPost(Set<String> parameters) {
        return parameters.contains("delete") ? DELETE_OBJECTS : OTHER;
    }

    private static boolean subresource(Set<String> parameters) {
        for (String p : parameters) {
            if (OBJECT_SUBRESOURCES.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** The parameters of a presigned URL (signature v4 and v2). */
    private static boolean authentication(String parameter) {
        return parameter.regionMatches(true, 0, "X-Amz-", 0, 6)
                || parameter.equals("AWSAccessKeyId")
                || parameter.equals("Signature")
                || parameter.equals("Expires");
    }
}
