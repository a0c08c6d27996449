package io.cubed.storage;

/**
 * A failure that knows whether the same request may succeed when made again: an S3 answer with its HTTP status (503
 * SlowDown and 500 InternalError may; 403 AccessDenied never will), a connection that broke. {@link
 * RetryingStore#isTransient} asks it before guessing from the message.
 */
public interface TransientFailure {
    /** True when making the same request again may succeed. */
    boolean isTransient();
}
