package io.cubed.memory;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;

/**
 * How many extra copies of a chunk a task holds while reading ({@code read}) and writing ({@code write}) it, besides
 * the decoded chunk itself: one for the compressed bytes on a file system, two on object stores, whose clients buffer
 * the whole object once more, and one more for a codec that decodes the whole chunk's bytes into one array before
 * converting them (every codec but Blosc, which converts block by block, and zstd, piece by piece; see {@link #plus}).
 */
public record BufferCopies(int read, int write) implements Serializable {
    /** Copies on local disk and other file systems. */
    public static final BufferCopies FILE_SYSTEM = new BufferCopies(1, 1);
    /** Copies on object stores (S3, GCS, Azure blobs). */
    public static final BufferCopies OBJECT_STORE = new BufferCopies(2, 2);

    public BufferCopies {
        if (read < 0 || write < 0) {
            throw new InvalidArgumentException(
                    "buffer copies must not be negative, got read " + read + ", write " + write);
        }
    }

    /** These copies plus {@code extra} more while reading and while writing (a codec's own chunk-sized buffer). */
    public BufferCopies plus(int extra) {
        return extra == 0 ? this : new BufferCopies(read + extra, write + extra);
    }

    /** These copies plus {@code extra}'s, while reading and while writing. */
    public BufferCopies plus(BufferCopies extra) {
        return new BufferCopies(read + extra.read, write + extra.write);
    }

    /** The copies for a store that is, or is not, an object store. */
    public static BufferCopies forStore(boolean objectStore) {
        return objectStore ? OBJECT_STORE : FILE_SYSTEM;
    }
}
