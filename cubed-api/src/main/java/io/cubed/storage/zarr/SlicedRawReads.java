package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.StorageException;
import io.cubed.storage.DirectSlices;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;

/**
 * An uncompressed C-order chunk read from its file a {@linkplain DirectSlices slice} at a time straight into the boxes
 * of target chunks it overlaps: each slice is read into a direct buffer (the kernel's copy, and no copy of the JDK's
 * through a temporary buffer) and its elements converted from there into every target, so no array holds the chunk's
 * bytes. The rows of each box are visited in the order they are stored; a row that goes on past a slice continues in
 * the next one.
 */
final class SlicedRawReads {
    private SlicedRawReads() {}

    /**
     * Reads {@code size} bytes, a whole chunk of {@code storedShape} in byte order {@code order}, from {@code in} into
     * the boxes {@code boxes[k]} ({@code {srcStart, dstStart, extent}}, or null for none) of {@code targets[k]}.
     * {@code where} names the chunk in errors. The caller has checked that {@code size} is the chunk's.
     */
    static void read(
            long size,
            ReadableByteChannel in,
            DType dtype,
            ByteOrder order,
            int[] storedShape,
            Chunk[] targets,
            int[][][] boxes,
            String where)
            throws IOException {
        Rows[] rows = new Rows[targets.length];
        for (int k = 0; k < targets.length; k++) {
            rows[k] = boxes[k] == null ? null : new Rows(dtype, storedShape, targets[k], boxes[k]);
        }
        ByteBuffer slice = DirectSlices.take();
        ChunkBytes.SlotSource slots = ChunkBytes.slotsOf(slice, dtype, order);
        try {
            for (long at = 0; at < size; ) {
                int n = (int) Math.min(DirectSlices.BYTES, size - at);
                slice.clear().limit(n);
                while (slice.hasRemaining()) {
                    if (in.read(slice) < 0) {
                        throw new StorageException("cannot read " + where + ": it ended after "
                                + (at + slice.position()) + " of " + size + " bytes while being read");
                    }
                }
                for (Rows r : rows) {
                    if (r != null) {
                        r.copy(slots, at, n);
                    }
                }
                at += n;
            }
        } finally {
            DirectSlices.giveBack(slice);
        }
    }

    /** The rows of one box, in stored order, and how far the copy has gone. */
    private static final class Rows {
        private final int itemBytes;
        private final int slots;
        private final Object data;
        private final int[] srcStart;
        private final int[] dstStart;
        private final int[] extent;
        private final int[] srcStride;
        private final int[] dstStride;
        private final int rowLength;
        private final int[] pos;

        /** The current row: its first stored byte, its first element in the target, and elements copied of it. */
        private long rowByte;

        private int rowElement;
        private int done;
        private boolean finished;

        Rows(DType dtype, int[] storedShape, Chunk target, int[][] box) {
            this.itemBytes = dtype.itemSizeBytes();
            this.slots = dtype.slotsPerElement();
            this.data = target.data();
            this.srcStart = box[0];
            this.dstStart = box[1];
            this.extent = box[2];
            int nd = storedShape.length;
            this.srcStride = Chunk.strides(storedShape);
            this.dstStride = Chunk.strides(target.shape());
            this.rowLength = nd == 0 ? 1 : extent[nd - 1];
            this.pos = new int[Math.max(0, nd - 1)];
            for (int e : extent) {
                finished |= e == 0;
            }
            locate();
        }

        /** Copies the parts of the box's rows that lie in the slice of {@code n} bytes starting at stored byte {@code at}. */
        void copy(ChunkBytes.SlotSource slice, long at, int n) {
            long end = at + n;
            while (!finished) {
                long from = rowByte + (long) done * itemBytes;
                if (from >= end) {
                    return;
                }
                long to = Math.min(rowByte + (long) rowLength * itemBytes, end);
                int elements = (int) ((to - from) / itemBytes);
                slice.get((int) (from - at), data, (rowElement + done) * slots, elements * slots);
                done += elements;
                if (done < rowLength) {
                    return; // the row goes on in the next slice
                }
                next();
            }
        }

        /** Moves to the next row of the box, or finishes. */
        private void next() {
            if (Chunk.nextIndex(pos, extent, pos.length)) {
                locate();
            } else {
                finished = true;
            }
        }

        /** Sets the current row from {@link #pos}. */
        private void locate() {
            int nd = srcStride.length;
            long s = nd == 0 ? 0 : srcStart[nd - 1];
            int d = nd == 0 ? 0 : dstStart[nd - 1];
            for (int i = 0; i < nd - 1; i++) {
                s += (long) (srcStart[i] + pos[i]) * srcStride[i];
                d += (dstStart[i] + pos[i]) * dstStride[i];
            }
            rowByte = s * itemBytes;
            rowElement = d;
            done = 0;
        }
    }
}
