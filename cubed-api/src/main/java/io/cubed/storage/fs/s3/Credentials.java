package io.cubed.storage.fs.s3;

/**
 * AWS credentials for one request: an access key, a secret key and, for temporary credentials, a session token; or
 * none at all for anonymous requests (public buckets). {@link #toString} never shows the secret or the token.
 */
record Credentials(String accessKey, String secretKey, String sessionToken) {
    /** No credentials: requests go unsigned. */
    static final Credentials ANONYMOUS = new Credentials(null, null, null);

    Credentials {
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException("an access key needs a secret key and the other way round");
        }
    }

    /** True when requests go unsigned. */
    boolean anonymous() {
        return accessKey == null;
    }

    @Override
    public String toString() {
        return anonymous()
                ? "Credentials{anonymous}"
                : "Credentials{" + accessKey + (sessionToken == null ? "" : ", with a session token") + "}";
    }
}
