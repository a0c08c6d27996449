package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Turns the decoded byte runs of one C-order chunk into boxes of elements for a {@link ChunkStore.BoxSink}: each run
 * (a Blosc block) is cut into the fewest boxes that cover its whole elements (full hyper-rows where it can, then rows,
 * then parts of a row), each converted into a small array that is handed over and reused, so that a reduction reads
 * every block while it is still in the processor's cache and no chunk-sized array is allocated. An element split
 * between two runs goes over as a box of its own once its last byte has arrived.
 */
final class ChunkBoxes implements RawBytesSink {
    /** A failure of the sink (not of the decoding), carried through the codec untouched. */
    static final class SinkFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SinkFailure(RuntimeException cause) {
            super(cause);
        }

        RuntimeException failure() {
            return (RuntimeException) getCause();
        }
    }

    private final DType dtype;
    private final ByteOrder order;
    private final int[] shape;
    private final long[] stride;
    private final int itemBytes;
    private final long elements;
    private final ChunkStore.BoxSink sink;
    /** The bytes of an element whose first part has arrived, and where its next byte is due. */
    private final byte[] pending;

    private int pendingBytes;
    private long pendingAt = -1;
    private long delivered;
    /** The last box array, reused for the next box of the same number of elements. */
    private Chunk reused;
    /** The box a codec is writing values into ({@link #doublesFor}), and where it lies. */
    private Chunk written;

    private int[] writtenCoords;

    ChunkBoxes(DType dtype, ByteOrder order, int[] shape, ChunkStore.BoxSink sink) {
        this.dtype = dtype;
        this.order = order;
        this.shape = shape.clone();
        this.itemBytes = dtype.itemSizeBytes();
        this.sink = sink;
        this.pending = new byte[itemBytes];
        this.stride = new long[shape.length];
        long s = 1;
        for (int a = shape.length - 1; a >= 0; a--) {
            stride[a] = s;
            s *= shape[a];
        }
        this.elements = s;
    }

    @Override
    public synchronized void accept(int at, byte[] src, int srcOff, int length) {
        long pos = at;
        int off = srcOff;
        int left = length;
        if (pendingBytes > 0) {
            if (pos != pendingAt) {
                throw new StorageException("decoded bytes arrived out of order: byte " + pos + " after part of the "
                        + "element ending at byte " + pendingAt);
            }
            int take = Math.min(left, itemBytes - pendingBytes);
            System.arraycopy(src, off, pending, pendingBytes, take);
            pendingBytes += take;
            pos += take;
            off += take;
            left -= take;
            pendingAt = pos;
            if (pendingBytes < itemBytes) {
                return;
            }
            emit((pos - itemBytes) / itemBytes, 1, pending, 0);
            pendingBytes = 0;
        } else if (pos % itemBytes != 0) {
            throw new StorageException("decoded bytes start at byte " + pos + ", inside an element of " + itemBytes
                    + " bytes, with no earlier part of it");
        }
        long whole = left / itemBytes;
        if (whole > 0) {
            emit(pos / itemBytes, whole, src, off);
        }
        int tail = (int) (left - whole * itemBytes);
        if (tail > 0) {
            System.arraycopy(src, off + (int) (whole * itemBytes), pending, 0, tail);
            pendingBytes = tail;
            pendingAt = pos + (long) left;
        }
    }

    /**
     * A run of whole elements that is one box, written by the codec straight into the box's array: a {@code float64}
     * chunk stored little-endian, no element pending, and elements {@code [at / 8, (at + length) / 8)} exactly the
     * first box {@link #emit} would make of them. The box goes to the sink when the codec says it is written ({@link
     * #acceptedAsDoubles}).
     */
    @Override
    public synchronized Doubles doublesFor(int at, int length) {
        if (dtype != DType.FLOAT64
                || order != ByteOrder.LITTLE_ENDIAN
                || pendingBytes > 0
                || length <= 0
                || at % 8 != 0
                || length % 8 != 0
                || at / 8 + length / 8 > elements) {
            return null;
        }
        long first = at / 8;
        long n = length / 8;
        int[] coords = new int[shape.length];
        int[] boxShape = new int[shape.length];
        if (firstBox(first, first + n, coords, boxShape) != n) {
            return null;
        }
        written = box(boxShape, (int) n);
        writtenCoords = coords;
        return new Doubles((double[]) written.data(), 0);
    }

    @Override
    public synchronized void acceptedAsDoubles(int at, int length) {
        Chunk box = written;
        written = null;
        if (box == null || (long) length != box.size() * 8L) {
            throw new IllegalStateException(
                    "values accepted that were not asked for: bytes [" + at + ", " + (at + length) + ")");
        }
        try {
            sink.accept(writtenCoords, box);
        } catch (RuntimeException ex) {
            throw new SinkFailure(ex);
        }
        delivered += box.size();
    }

    /**
     * The first box of elements {@code [e, end)}: the coarsest axis {@code a} at whose boundary {@code e} lies
     * (coordinates after it all 0) that fits at least one step. Its coordinates go into {@code coords}, its shape into
     * {@code boxShape}; returns its number of elements.
     */
    private long firstBox(long e, long end, int[] coords, int[] boxShape) {
        int nd = shape.length;
        long rem = e;
        for (int a = 0; a < nd; a++) {
            coords[a] = (int) (rem / stride[a]);
            rem %= stride[a];
        }
        int a = 0;
        while (a < nd - 1 && !alignedFrom(coords, a + 1)) {
            a++;
        }
        long steps = Math.min(shape[a] - coords[a], (end - e) / stride[a]);
        while (steps == 0) {
            a++;
            steps = Math.min(shape[a] - coords[a], (end - e) / stride[a]);
        }
        for (int b = 0; b < nd; b++) {
            boxShape[b] = b < a ? 1 : b == a ? (int) steps : shape[b];
        }
        return steps * stride[a];
    }

    /** Hands over elements {@code [first, first + n)}, whose bytes are {@code src[off...]}, box by box. */
    private void emit(long first, long n, byte[] src, int off) {
        long e = first;
        long end = first + n;
        int nd = shape.length;
        int byteOff = off;
        while (e < end) {
            int[] coords = new int[nd];
            int[] boxShape = new int[nd];
            long count = firstBox(e, end, coords, boxShape);
            Chunk box = box(boxShape, (int) count);
            int bytes = Math.toIntExact(count * itemBytes);
            ChunkBytes.sinkInto(box, order).accept(0, src, byteOff, bytes);
            try {
                sink.accept(coords, box);
            } catch (RuntimeException ex) {
                throw new SinkFailure(ex);
            }
            delivered += count;
            byteOff += bytes;
            e += count;
        }
    }

    /** Whether coordinates {@code from} and after are all 0. */
    private static boolean alignedFrom(int[] coords, int from) {
        for (int b = from; b < coords.length; b++) {
            if (coords[b] != 0) {
                return false;
            }
        }
        return true;
    }

    private Chunk box(int[] boxShape, int count) {
        if (reused == null || reused.size() != count) {
            release();
            reused = Chunk.allocateForTaskToOverwrite(dtype, boxShape);
            return reused;
        }
        return Chunk.wrap(dtype, boxShape, reused.data());
    }

    /**
     * Hands the box array back ({@link ArrayRecycler}) once the chunk's last box has been taken, so that the task's next
     * chunk reuses it instead of allocating one per chunk.
     */
    void release() {
        if (reused != null) {
            ArrayRecycler.giveBack(reused.data());
            reused = null;
        }
    }

    /** Fails unless every element of the chunk has been handed over. */
    void checkComplete() {
        if (pendingBytes > 0 || delivered != elements) {
            throw new StorageException("the decoded bytes covered " + delivered + " of the " + elements
                    + " elements of a chunk of shape " + Arrays.toString(shape)
                    + (pendingBytes > 0 ? " and part of one more" : ""));
        }
    }
}
