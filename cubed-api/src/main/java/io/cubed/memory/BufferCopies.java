package io.cubed.memory;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;

/**
 * How many extra copies of a chunk a task holds while reading ({@code read}) and writing ({@code write}) it, besides
 * the decoded chunk itself: one for the compressed bytes on a file system, two on object stores, whose clients buffer
 * the whole object once more, and one more for a codec that decodes the whole chunk's bytes into one array before
 * converting them (every codec but Blosc, which converts block by block, and zstd, piece by piece; see {@link #plus}).
 *
 * <p>{@code readsInto}: whether a chunk read straight into other chunks ({@link io.cubed.storage.ChunkStore#readChunkInto}
 * with targets that do not overlap one another, as a rechunk reads an input chunk into the output chunks of its region)
 * holds only the read copies: the stored bytes and the codec's buffers are converted into the targets, and the chunk
 * is never decoded into an array of its own (Zarr v2 in C order). Where it is, such a read holds {@code read} copies
 * instead of {@code 1 + read}.
 */
public record BufferCopies(int read, int write, boolean readsInto) implements Serializable {
    /** Copies on local disk and other file systems. */
    public static final BufferCopies FILE_SYSTEM = new BufferCopies(1, 1);
    /** Copies on object stores (S3, GCS, Azure blobs). */
    public static final BufferCopies OBJECT_STORE = new BufferCopies(2, 2);

    /** Copies of a store whose reads into other chunks decode the chunk first. */
    public BufferCopies(int read, int write) {
        this(read, write, false);
    }

    public BufferCopies {
        if (read < 0 || write < 0) {
            throw new InvalidArgumentException(
                    "buffer copies must not be negative, got read " + read + ", write " + write);
        }
    }

    /** These copies plus {@code extra} more while reading and while writing (a codec's own chunk-sized buffer). */
    public BufferCopies plus(int extra) {
        return extra == 0 ? this : new BufferCopies(read + extra, write + extra, readsInto);
    }

    /** These copies plus {@code extra}'s, while reading and while writing; reads into other chunks as these do. */
    public BufferCopies plus(BufferCopies extra) {
        return new BufferCopies(read + extra.read, write + extra.write, readsInto);
    }

    /** These copies, reading into other chunks with no decoded chunk ({@code true}) or through one. */
    public BufferCopies readingInto(boolean into) {
        return into == readsInto ? this : new BufferCopies(read, write, into);
    }

    /**
     * The copies a chunk read into other chunks holds besides those chunks: {@code read}, or {@code 1 + read} where
     * the chunk is decoded first ({@link #readsInto} false).
     */
    public int readIntoCopies() {
        return readsInto ? read : 1 + read;
    }

    /** The copies for a store that is, or is not, an object store. */
    public static BufferCopies forStore(boolean objectStore) {
        return objectStore ? OBJECT_STORE : FILE_SYSTEM;
    }
}
