package io.cubed.storage.zarr.codec;

/**
 * Receives the decoded raw bytes of one chunk, a run at a time (Blosc: a block), so that they can be converted into
 * typed elements while they are in cache and without one array of the whole chunk's bytes. Runs do not overlap and
 * together cover the chunk once; a codec gives them in increasing order of offset. Offsets and sizes are in bytes.
 */
@FunctionalInterface
public interface RawBytesSink {
    /** Raw bytes {@code [at, at + length)} of the chunk are {@code src[srcOff...]}; valid only during the call. */
    void accept(int at, byte[] src, int srcOff, int length);
}
