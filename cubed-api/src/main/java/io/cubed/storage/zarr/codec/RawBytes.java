package io.cubed.storage.zarr.codec;

import java.util.Objects;

/**
 * The raw bytes of one chunk (its elements in stored byte order), given on demand by offset: a codec that works block
 * by block (Blosc) asks for one block at a time and never needs the chunk's bytes in one array, so a chunk can be
 * encoded straight from its typed elements. Offsets and sizes are in bytes.
 */
public interface RawBytes {
    /** The number of raw bytes. */
    int size();

    /** Copies raw bytes {@code [from, from + length)} to {@code dst[dstOff...]}. */
    void copyTo(int from, byte[] dst, int dstOff, int length);

    /**
     * Copies raw bytes {@code [from, from + length)} into {@code dst} at its position, which moves past them. The
     * default goes through a heap array; a view of typed elements converts them straight into the buffer.
     */
    default void copyTo(int from, java.nio.ByteBuffer dst, int length) {
        byte[] piece = new byte[length];
        copyTo(from, piece, 0, length);
        dst.put(piece);
    }

    /**
     * Where raw bytes {@code [from, from + length)} lie as little-endian {@code float64} values: the {@code double[]} and
     * the index of the value byte {@code from} starts; null (the default) when they are not values of an array as they
     * are. A codec that reads such values itself (Blosc shuffling 8-byte elements) takes them there instead of asking
     * {@link #copyTo} for their bytes.
     */
    default RawBytesSink.Doubles doublesAt(int from, int length) {
        return null;
    }

    /** The array holding all the raw bytes from index 0, when there is one (no copy needed), otherwise null. */
    default byte[] array() {
        return null;
    }

    /** Raw bytes already in an array. */
    static RawBytes of(byte[] raw) {
        Objects.requireNonNull(raw, "raw");
        return new RawBytes() {
            @Override
            public int size() {
                return raw.length;
            }

            @Override
            public void copyTo(int from, byte[] dst, int dstOff, int length) {
                System.arraycopy(raw, from, dst, dstOff, length);
            }

            @Override
            public byte[] array() {
                return raw;
            }
        };
    }

    /** All the raw bytes in a new array. */
    default byte[] toArray() {
        byte[] a = array();
        if (a != null) {
            return a;
        }
        byte[] out = new byte[size()];
        copyTo(0, out, 0, out.length);
        return out;
    }
}
