package io.cubed.storage.zarr.blosc;

/**
 * Block-sized scratch buffers, so that encoding and decoding a chunk block by block allocates nothing chunk-sized and
 * the blocks stay in cache: two for the decoder (decompressed and unshuffled block) and two for the encoder (raw and
 * shuffled block). Buffers of {@value #MIN_CACHED_BYTES} to {@value #MAX_CACHED_BYTES} bytes (the blocks of chunks
 * of a megabyte or more: c-blosc makes blocks of up to 1 MiB) are kept per thread, at most 4 MiB per thread, memory of
 * the runtime (within {@code reservedMem}) rather than of a task; smaller and larger ones are allocated for the call
 * and dropped with it, so that small chunks leave nothing behind.
 */
final class BlockBuffers {
    static final int MIN_CACHED_BYTES = 256 << 10;
    static final int MAX_CACHED_BYTES = 1 << 20;

    private static final ThreadLocal<byte[][]> DECODER = ThreadLocal.withInitial(() -> new byte[2][]);
    private static final ThreadLocal<byte[][]> ENCODER = ThreadLocal.withInitial(() -> new byte[2][]);

    private BlockBuffers() {}

    /** Decoder scratch buffer {@code which} (0 or 1) of at least {@code size} bytes. */
    static byte[] decoder(int which, int size) {
        return buffer(DECODER, which, size);
    }

    /** Encoder scratch buffer {@code which} (0 or 1) of at least {@code size} bytes. */
    static byte[] encoder(int which, int size) {
        return buffer(ENCODER, which, size);
    }

    private static byte[] buffer(ThreadLocal<byte[][]> local, int which, int size) {
        if (size < MIN_CACHED_BYTES || size > MAX_CACHED_BYTES) {
            return new byte[size];
        }
        byte[][] buffers = local.get();
        byte[] b = buffers[which];
        if (b == null || b.length < size) {
            b = new byte[size];
            buffers[which] = b;
        }
        return b;
    }
}
