package io.cubed.storage.zarr;

import io.cubed.storage.Store;

/**
 * How far a Zarr array of either version reads ahead: the bound of one stored chunk's bytes that a read started
 * ahead asks for, and the bytes the store's requests in flight hold at once.
 */
final class ReadAhead {
    private ReadAhead() {}

    /** An upper bound of a stored chunk of {@code rawBytes}: codecs add at most a header to what they cannot shrink. */
    static int storedChunkBound(long rawBytes) {
        return (int) Math.min(Integer.MAX_VALUE - 8, rawBytes + rawBytes / 64 + 1024);
    }

    /**
     * The bytes that {@code store}'s requests in flight hold at once, each of a stored chunk of at most {@code
     * boundBytes} and the store's overhead per request; none for a store that makes one request at a time.
     */
    static long inFlightBytes(Store store, int boundBytes) {
        int k = store.concurrency();
        return k > 1 ? (long) k * ((long) boundBytes + store.requestOverheadBytes()) : 0;
    }
}
