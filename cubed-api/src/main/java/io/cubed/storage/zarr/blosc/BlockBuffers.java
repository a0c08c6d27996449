package io.cubed.storage.zarr.blosc;

/**
 * Block-sized scratch buffers kept per thread, so that encoding and decoding a chunk block by block allocates nothing
 * chunk-sized and the blocks stay in cache: two for the decoder (decompressed and unshuffled block) and two for the
 * encoder (raw and shuffled block). Buffers up to {@value #MAX_CACHED_BYTES} bytes are kept (a Blosc block is at most
 * 1 MiB unless a frame forces larger ones); larger ones are allocated for the call only.
 */
final class BlockBuffers {
    static final int MAX_CACHED_BYTES = 4 << 20;

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
        if (size > MAX_CACHED_BYTES) {
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
