package io.cubed.storage.zarr.codec;

/**
 * A byte-to-byte compressor as numcodecs defines them: {@link #encode} turns the raw bytes of a chunk into the stored
 * bytes, {@link #decode} turns them back. Implementations are stateless and safe for use by many threads.
 */
public interface Codec {
    /** Compresses {@code raw}, the little-endian element bytes of one chunk. */
    byte[] encode(byte[] raw);

    /**
     * Decompresses {@code encoded}; {@code decodedSizeBytes} is the size the raw bytes must have (the full chunk), used
     * to allocate once. Throws {@link io.cubed.error.StorageException} on corrupt input; the caller adds the chunk key.
     */
    byte[] decode(byte[] encoded, int decodedSizeBytes);
}
