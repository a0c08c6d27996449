package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.error.CorruptDataException;
import io.cubed.error.StorageException;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytes;

/**
 * The put of a chunk whose codec {@linkplain Codec#encodesInOrder encodes in order} (zstd), for both Zarr versions: on a
 * store that {@linkplain Store#putsInPieces writes pieces as they come} (a local file) the compressed bytes go to it as
 * the codec makes them, so the write holds a piece of the raw bytes and of the compressed ones, never the chunk's;
 * elsewhere (object stores, memory) the frame is made in one recycled worst-case array and put through the task's
 * {@link ChunkIo}. A failure leaves no chunk written.
 */
final class OrderedPuts {
    private OrderedPuts() {}

    /**
     * Compresses {@code raw} with {@code codec} and stores it at {@code key} ({@code where} names it in errors); with
     * {@code streamed} (the raw bytes come from a stream) checks that the stream was taken whole. Returns false, storing
     * nothing, when {@code streamed} was given a fill value and every element was it: an empty chunk, which the caller
     * skips (such a chunk is compressed into an array, as its emptiness is known only at its end).
     */
    static boolean put(Store store, String key, String where, Codec codec, RawBytes raw, StreamedRawBytes streamed) {
        if (store.putsInPieces() && (streamed == null || !streamed.checksFill())) {
            store.put(key, out -> {
                try {
                    codec.encode(raw, out);
                } catch (CorruptDataException e) {
                    // A stream's own chunk (a copy's source) is corrupt: its message names it.
                    throw e;
                } catch (RuntimeException e) {
                    throw new StorageException("cannot encode chunk " + where + ": " + e.getMessage(), e);
                }
                if (streamed != null) {
                    streamed.allFill();
                }
                // A piece of the raw bytes and of the compressed ones: the most this write holds.
                HeapProbe.checkpoint();
            });
            return true;
        }
        Codec.Encoded stored;
        try {
            stored = codec.encode(raw);
        } catch (CorruptDataException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StorageException("cannot encode chunk " + where + ": " + e.getMessage(), e);
        }
        if (streamed != null && streamed.allFill()) {
            ArrayRecycler.giveBack(stored.buffer());
            return false;
        }
        // A piece of the raw bytes and the compressed bytes: the most this write holds.
        HeapProbe.checkpoint();
        ChunkIo.put(store, key, stored.buffer(), stored.length());
        ArrayRecycler.giveBack(stored.buffer());
        return true;
    }
}
