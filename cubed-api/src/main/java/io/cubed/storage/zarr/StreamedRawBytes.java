package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.codec.RawBytes;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The raw bytes of a chunk taken from a {@linkplain ChunkStore.ChunkStream stream} of its elements, for a codec that
 * {@linkplain io.cubed.storage.zarr.codec.Codec#encodesInOrder encodes in order}: elements are converted to bytes in the
 * array's byte order a piece at a time, so the chunk is never held. Bytes must be asked for from the front, in order;
 * a piece may be asked for again. With a fill value given, it notes whether every element was that value (a chunk
 * that is skipped when empty).
 */
final class StreamedRawBytes implements RawBytes {
    /** Elements converted at a time. */
    private static final int PIECE_ELEMENTS = 32 << 10;

    private final ChunkStore.ChunkStream stream;
    private final int size;
    private final int itemBytes;
    private final Chunk elements;
    private final RawBytes elementBytes;
    private final byte[] piece;
    private final byte[] fillBytes;
    private final String where;

    /** Chunk byte at which {@link #piece} starts, and how many of its bytes hold data. */
    private long pieceStart;

    private int pieceLength;
    private boolean allFill = true;

    /**
     * The bytes of {@code stream} in {@code order}; {@code fill} null when emptiness is not asked; {@code where} names
     * the chunk written, in errors.
     */
    StreamedRawBytes(ChunkStore.ChunkStream stream, ByteOrder order, Scalar fill, String where) {
        this.stream = stream;
        this.size = Math.toIntExact(stream.nbytes());
        this.itemBytes = stream.dtype().itemSizeBytes();
        int n = (int) Math.max(1, Math.min(PIECE_ELEMENTS, size / Math.max(1, itemBytes)));
        this.elements = Chunk.allocate(stream.dtype(), new int[] {n});
        this.elementBytes = ChunkBytes.view(elements, order);
        this.piece = new byte[n * itemBytes];
        if (fill != null) {
            fillBytes = new byte[itemBytes];
            ChunkBytes.view(Chunk.full(stream.dtype(), fill, 1), order).copyTo(0, fillBytes, 0, itemBytes);
        } else {
            fillBytes = null;
        }
        this.where = where;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void copyTo(int from, byte[] dst, int dstOff, int length) {
        if (from < pieceStart || from + (long) length > size) {
            throw new StorageException("bytes [" + from + ", " + (from + (long) length) + ") of " + where
                    + " asked out of order (its stream is at byte " + pieceStart + " of " + size + ")");
        }
        int at = from;
        int left = length;
        while (left > 0) {
            if (at >= pieceStart + pieceLength) {
                next(at);
            }
            int off = (int) (at - pieceStart);
            int n = Math.min(left, pieceLength - off);
            System.arraycopy(piece, off, dst, dstOff + (at - from), n);
            at += n;
            left -= n;
        }
    }

    /** Converts the next piece of elements, which must start at chunk byte {@code at}. */
    private void next(int at) {
        long end = pieceStart + pieceLength;
        if (at != end) {
            throw new StorageException("byte " + at + " of " + where + " asked before byte " + end);
        }
        int n = (int) Math.min(elements.size(), (size - end) / itemBytes);
        stream.next(elements.data(), 0, n);
        elementBytes.copyTo(0, piece, 0, n * itemBytes);
        pieceStart = end;
        pieceLength = n * itemBytes;
        if (allFill && fillBytes != null) {
            allFill = isFill(n * itemBytes);
        }
    }

    private boolean isFill(int length) {
        for (int i = 0; i < length; i += itemBytes) {
            if (!Arrays.equals(piece, i, i + itemBytes, fillBytes, 0, itemBytes)) {
                return false;
            }
        }
        return true;
    }

    /** Whether it was given a fill value to look for. */
    boolean checksFill() {
        return fillBytes != null;
    }

    /**
     * Whether every element taken was the fill value (false when no fill value was given); checks that every byte was
     * taken.
     */
    boolean allFill() {
        if (pieceStart + pieceLength != size) {
            throw new StorageException(
                    where + " was encoded from " + (pieceStart + pieceLength) + " of its " + size + " bytes");
        }
        return fillBytes != null && allFill;
    }
}
