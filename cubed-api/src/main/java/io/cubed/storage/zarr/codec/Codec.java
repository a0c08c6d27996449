package io.cubed.storage.zarr.codec;

/**
 * A byte-to-byte compressor as numcodecs defines them: {@link #encode} turns the raw bytes of a chunk into the stored
 * bytes, {@link #decode} turns them back. Implementations are stateless and safe for use by many threads.
 */
public interface Codec {
    /** Compresses {@code raw}, the little-endian element bytes of one chunk. */
    byte[] encode(byte[] raw);

    /** Encoded bytes: the first {@code length} bytes of {@code buffer}. */
    record Encoded(byte[] buffer, int length) {
        public Encoded {
            if (length < 0 || length > buffer.length) {
                throw new IllegalArgumentException(
                        "length " + length + " outside a buffer of " + buffer.length + " bytes");
            }
        }
    }

    /**
     * {@link #encode}, possibly in a buffer longer than the result, to be written with {@link
     * io.cubed.storage.Store#put(String, byte[], int)}: saves the copy that trims a compressor's worst-case buffer to
     * the compressed size (nearly a chunk's worth of bytes per write when the data compresses badly). The default
     * returns {@link #encode}'s exact bytes.
     */
    default Encoded encodeUntrimmed(byte[] raw) {
        byte[] e = encode(raw);
        return new Encoded(e, e.length);
    }

    /**
     * Decompresses {@code encoded}; {@code decodedSizeBytes} is the size the raw bytes must have (the full chunk), used
     * to allocate once. Throws {@link io.cubed.error.StorageException} on corrupt input; the caller adds the chunk key.
     */
    byte[] decode(byte[] encoded, int decodedSizeBytes);

    /**
     * True when {@link #encode(RawBytes)} and {@link #decode(byte[], int, RawBytesSink)} work block by block, without
     * an array of the chunk's raw bytes (Blosc); false when they gather or produce the whole chunk's bytes (the
     * defaults), so that callers may as well use the array forms.
     */
    default boolean worksInBlocks() {
        return false;
    }

    /**
     * Checks, without decoding, what the first {@code encodedLength} bytes of {@code encoded} say of themselves: that
     * they decode to {@code decodedSizeBytes} and are not cut short, where the format says so before decoding (Blosc's
     * header, the content size of a zstd frame); throws a {@link
     * io.cubed.error.StorageException} when they cannot. The default checks nothing (zlib, gzip, bz2 and LZ4 are left
     * to their decoders).
     */
    default void checkEncoded(byte[] encoded, int encodedLength, int decodedSizeBytes) {}

    /**
     * True when {@link #decode(byte[], int, int, RawBytesSink)} hands the raw bytes over from the front, in order, a
     * piece at a time, without an array of the chunk's raw bytes (zstd's streaming decompression), so that a reader may
     * convert them straight into the chunk's elements; false by default (the default decode produces the whole array).
     */
    default boolean decodesInOrder() {
        return false;
    }

    /**
     * True when {@link #encode(RawBytes)} asks {@code raw} for each byte once, from the front, in order, on the calling
     * thread, and holds no array of the chunk's raw bytes (zstd's streaming compression): the raw bytes may then come
     * from a stream, as they are decoded from another chunk or converted from elements. False by default.
     */
    default boolean encodesInOrder() {
        return false;
    }

    /**
     * Compresses the raw bytes {@code raw} gives to {@code out} as the compressed bytes are made, for a codec that
     * {@linkplain #encodesInOrder encodes in order} (which then holds neither the raw nor the compressed chunk). The
     * default compresses into an array ({@link #encode(RawBytes)}) and writes it.
     */
    default void encode(RawBytes raw, java.nio.channels.WritableByteChannel out) throws java.io.IOException {
        Encoded e = encode(raw);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(e.buffer(), 0, e.length());
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    /**
     * Compresses the raw bytes {@code raw} gives, possibly in a buffer longer than the result (see {@link
     * #encodeUntrimmed}). Codecs that compress block by block override it to ask {@code raw} for one block at a time;
     * the default gathers the bytes into one array first.
     */
    default Encoded encode(RawBytes raw) {
        return encodeUntrimmed(raw.toArray());
    }

    /**
     * Decompresses {@code encoded}, which must decode to exactly {@code decodedSizeBytes}, giving the raw bytes to
     * {@code sink}. Codecs that decompress block by block override it to hand over each block as it is decoded; the
     * default decodes the whole chunk and hands it over at once.
     */
    default void decode(byte[] encoded, int decodedSizeBytes, RawBytesSink sink) {
        byte[] raw = decode(encoded, decodedSizeBytes);
        if (raw.length != decodedSizeBytes) {
            throw new io.cubed.error.StorageException(
                    "it decodes to " + raw.length + " bytes but " + decodedSizeBytes + " were expected");
        }
        sink.accept(0, raw, 0, raw.length);
    }

    /**
     * Whether {@link #decode(byte[], int, int)} and {@link #decode(byte[], int, int, RawBytesSink)} read the encoded
     * bytes from the front of a longer array as they are, without copying them out (Blosc: a frame's header gives its
     * length), so that a reader may keep compressed chunks of varying lengths in one recycled array. The defaults copy.
     */
    default boolean decodesFromLongerArrays() {
        return false;
    }

    /** {@link #decode(byte[], int)} of the first {@code encodedLength} bytes of {@code encoded}. */
    default byte[] decode(byte[] encoded, int encodedLength, int decodedSizeBytes) {
        return decode(exactly(encoded, encodedLength), decodedSizeBytes);
    }

    /** {@link #decode(byte[], int, RawBytesSink)} of the first {@code encodedLength} bytes of {@code encoded}. */
    default void decode(byte[] encoded, int encodedLength, int decodedSizeBytes, RawBytesSink sink) {
        decode(exactly(encoded, encodedLength), decodedSizeBytes, sink);
    }

    /**
     * The blocks of the first {@code encodedLength} bytes of {@code encoded}, which must decode to exactly {@code
     * decodedSizeBytes}, for decoding one at a time as the caller needs them (several chunks in step, say), or null
     * when this codec does not decode in blocks (the default). The header is checked here. A codec that {@linkplain
     * #decodesInOrder decodes in order} (zstd) gives pieces that must be decoded in order, from the first.
     */
    default Blocks blocks(byte[] encoded, int encodedLength, int decodedSizeBytes) {
        return null;
    }

    /** The blocks of one encoded chunk, decoded on request; each holds the encoded bytes it was made from. */
    interface Blocks {
        /** Number of blocks. */
        int count();

        /** Decoded bytes of a full block (the last one may be shorter). */
        int blockBytes();

        /**
         * Decodes block {@code j} into {@code out} from {@code outOff} (room for {@link #blockBytes}) and returns its
         * size in bytes; blocks together cover the chunk's raw bytes in order.
         */
        int decode(int j, byte[] out, int outOff);

        /** No block will be decoded any more: scratch arrays go back ({@link io.cubed.chunk.ArrayRecycler}). */
        default void release() {}
    }

    private static byte[] exactly(byte[] encoded, int length) {
        if (length < 0 || length > encoded.length) {
            throw new IllegalArgumentException(
                    "length " + length + " outside an array of " + encoded.length + " encoded bytes");
        }
        return length == encoded.length ? encoded : java.util.Arrays.copyOf(encoded, length);
    }
}
