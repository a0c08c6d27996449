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

    /**
     * Where this sink would put raw bytes {@code [at, at + length)} when they are little-endian {@code float64} values
     * it copies as they are: the {@code double[]} and the index of the value that byte {@code at} starts; null (the
     * default) when it converts them otherwise. A codec that can write such values itself (Blosc unshuffling 8-byte
     * elements) writes them there and then calls {@link #acceptedAsDoubles} instead of {@link #accept}, saving the
     * copy through bytes. Codecs ask for whole values, a run at a time, on one thread.
     */
    default Doubles doublesFor(int at, int length) {
        return null;
    }

    /**
     * Where this sink puts, as little-endian {@code float64} values it copies as they are, the longest run of raw bytes
     * from {@code at} (within {@code [at, at + length)}) that lies in one array: a sink that places a chunk's rows in
     * several arrays (a rechunk's output chunks) or apart in one (a region) gives a block a piece at a time. Null (the
     * default) when it converts them otherwise. A sink that gives a piece at a run's start gives one at every value
     * boundary after it within the run, and asking has no effect (a codec may ask twice). A codec that writes such
     * values itself writes each piece's values there, then calls {@link #acceptedAsDoubles} for it; a piece with no
     * array is bytes no one takes, skipped. Codecs ask for whole values, on one thread.
     */
    default Piece doublesPiece(int at, int length) {
        return null;
    }

    /** Bytes {@code [at, at + length)} have been written as values where {@link #doublesFor} or {@link #doublesPiece} said. */
    default void acceptedAsDoubles(int at, int length) {
        throw new UnsupportedOperationException("this sink takes no doubles");
    }

    /** A {@code double[]} and the index in it of a run's first value. */
    record Doubles(double[] array, int offset) {}

    /**
     * The first {@code bytes} bytes of a run (a positive multiple of 8) go to {@code array} from index {@code offset}, or
     * nowhere when {@code array} is null.
     */
    record Piece(double[] array, int offset, int bytes) {}
}
