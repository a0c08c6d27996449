package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.DirectSlices;
import io.cubed.storage.zarr.codec.RawBytes;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A C-order chunk seen as its raw element bytes, run by run: {@link #view} gives any byte range of the chunk's stored
 * form on demand (for encoding block by block), {@link #sinkInto} converts decoded runs straight into the chunk's
 * elements. Neither holds the chunk's bytes in one array. Runs may start and end anywhere, even inside an element; a
 * decoded element split between two runs is put together when its second part arrives.
 */
final class ChunkBytes {
    private ChunkBytes() {}

    /** Converts between slots of a primitive array and bytes in one byte order. */
    private interface Slots {
        /** Bytes of slots {@code [slot, slot + n)} into {@code dst[off...]}. */
        void toBytes(int slot, int n, byte[] dst, int off);

        /** Slots {@code [slot, slot + n)} from the bytes at {@code src[off...]}. */
        void fromBytes(byte[] src, int off, int slot, int n);
    }

    /** The stored bytes of {@code chunk}, a whole C-order chunk, in byte order {@code order}. */
    static RawBytes view(Chunk chunk, ByteOrder order) {
        DType dtype = chunk.dtype();
        int slotBytes = dtype.itemSizeBytes() / dtype.slotsPerElement();
        Slots slots = slots(chunk.data(), dtype, order);
        int size = Math.toIntExact(chunk.nbytes());
        return new RawBytes() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public RawBytesSink.Doubles doublesAt(int from, int length) {
                return float64Run(chunk, order, from, length);
            }

            @Override
            public void copyTo(int from, ByteBuffer dst, int length) {
                if (from < 0 || length < 0 || from + length > size) {
                    throw new IndexOutOfBoundsException(
                            "bytes [" + from + ", " + (from + length) + ") of a " + size + "-byte chunk");
                }
                if (from % slotBytes == 0 && length % slotBytes == 0) {
                    putSlots(chunk.data(), dtype, order, from / slotBytes, length / slotBytes, dst);
                } else {
                    RawBytes.super.copyTo(from, dst, length);
                }
            }

            @Override
            public void copyTo(int from, byte[] dst, int dstOff, int length) {
                if (from < 0 || length < 0 || from + length > size) {
                    throw new IndexOutOfBoundsException(
                            "bytes [" + from + ", " + (from + length) + ") of a " + size + "-byte chunk");
                }
                int head = Math.min(length, (slotBytes - from % slotBytes) % slotBytes);
                if (head > 0) {
                    partial(slots, slotBytes, from, dst, dstOff, head);
                }
                int whole = (length - head) / slotBytes;
                if (whole > 0) {
                    slots.toBytes((from + head) / slotBytes, whole, dst, dstOff + head);
                }
                int done = head + whole * slotBytes;
                if (done < length) {
                    partial(slots, slotBytes, from + done, dst, dstOff + done, length - done);
                }
            }
        };
    }

    /**
     * Raw bytes {@code [from, from + length)} of {@code chunk}, stored in byte order {@code order}, as the chunk's own
     * array when they are whole little-endian {@code float64} slots ({@code float64}, {@code complex128}): copied as
     * they are, a codec can read or write them there. Null otherwise.
     */
    private static RawBytesSink.Doubles float64Run(Chunk chunk, ByteOrder order, int from, int length) {
        DType dtype = chunk.dtype();
        if (chunk.data() instanceof double[] values
                && dtype.itemSizeBytes() / dtype.slotsPerElement() == 8
                && order == ByteOrder.LITTLE_ENDIAN
                && from >= 0
                && length >= 0
                && from + (long) length <= chunk.nbytes()
                && from % 8 == 0
                && length % 8 == 0) {
            return new RawBytesSink.Doubles(values, from / 8);
        }
        return null;
    }

    /** Bytes {@code [from, from + length)} lying within one slot. */
    private static void partial(Slots slots, int slotBytes, int from, byte[] dst, int dstOff, int length) {
        byte[] one = new byte[slotBytes];
        slots.toBytes(from / slotBytes, 1, one, 0);
        System.arraycopy(one, from % slotBytes, dst, dstOff, length);
    }

    /** A sink that converts decoded runs into {@code chunk}, a whole C-order chunk stored in byte order {@code order}. */
    static RawBytesSink sinkInto(Chunk chunk, ByteOrder order) {
        DType dtype = chunk.dtype();
        int slotBytes = dtype.itemSizeBytes() / dtype.slotsPerElement();
        Slots slots = slots(chunk.data(), dtype, order);
        int size = Math.toIntExact(chunk.nbytes());
        return new RawBytesSink() {
            /** The slot whose bytes arrived in part, and how many of them. */
            private final byte[] pending = new byte[slotBytes];

            private int pendingSlot = -1;
            private int pendingBytes;

            @Override
            public void accept(int at, byte[] src, int srcOff, int length) {
                if (at < 0 || length < 0 || at + length > size) {
                    throw new IndexOutOfBoundsException(
                            "bytes [" + at + ", " + (at + length) + ") of a " + size + "-byte chunk");
                }
                int head = Math.min(length, (slotBytes - at % slotBytes) % slotBytes);
                if (head > 0) {
                    collect(at, src, srcOff, head);
                }
                int whole = (length - head) / slotBytes;
                if (whole > 0) {
                    slots.fromBytes(src, srcOff + head, (at + head) / slotBytes, whole);
                }
                int done = head + whole * slotBytes;
                if (done < length) {
                    collect(at + done, src, srcOff + done, length - done);
                }
            }

            /** As {@link #float64Run}, unless part of a slot waits for its last bytes. */
            @Override
            public Doubles doublesFor(int at, int length) {
                return pendingSlot < 0 ? float64Run(chunk, order, at, length) : null;
            }

            /** The whole run: the chunk's values are one array. */
            @Override
            public Piece doublesPiece(int at, int length) {
                Doubles d = length > 0 ? doublesFor(at, length) : null;
                return d == null ? null : new Piece(d.array(), d.offset(), length);
            }

            @Override
            public void acceptedAsDoubles(int at, int length) {
                // The values are in the chunk already.
            }

            /** Part of one slot: kept until the slot's last byte arrives, then converted. */
            private void collect(int at, byte[] src, int srcOff, int length) {
                int slot = at / slotBytes;
                if (pendingSlot != slot) {
                    pendingSlot = slot;
                    pendingBytes = 0;
                }
                System.arraycopy(src, srcOff, pending, at % slotBytes, length);
                pendingBytes += length;
                if (pendingBytes == slotBytes) {
                    slots.fromBytes(pending, 0, slot, 1);
                    pendingSlot = -1;
                }
            }
        };
    }

    /**
     * A sink that converts the decoded runs of a C-order block of {@code extent} (an inner chunk of a shard, a stored
     * chunk read into a rechunk's region) into its place at {@code offset} in {@code chunk}, stored in byte order
     * {@code order}. The block is laid out in the chunk as segments: from the first axis {@code k} after which the block
     * spans the chunk's whole extent on every axis, a segment is the block's elements with one index on each axis
     * before {@code k}, contiguous in the chunk (a row along the last axis, or several whole rows, or the whole block
     * when it spans every axis but the first). Each run is split at segment ends and handed to {@link #sinkInto} of the
     * chunk at the segment's position there; a run within one segment gets the chunk's own array to decode float64
     * values into. The block must lie within the chunk.
     */
    static RawBytesSink sinkIntoRegion(Chunk chunk, ByteOrder order, int[] offset, int[] extent) {
        int nd = extent.length;
        int[] shape = chunk.shape();
        if (nd == 0 || nd != shape.length) {
            return sinkInto(chunk, order);
        }
        for (int a = 0; a < nd; a++) {
            if (offset[a] < 0 || extent[a] < 0 || offset[a] + extent[a] > shape[a]) {
                throw new IndexOutOfBoundsException("a block of " + java.util.Arrays.toString(extent) + " at "
                        + java.util.Arrays.toString(offset) + " lies outside a chunk of "
                        + java.util.Arrays.toString(shape));
            }
        }
        RawBytesSink whole = sinkInto(chunk, order);
        int item = chunk.dtype().itemSizeBytes();
        // Segments: axes k.. contiguous, where every axis after k is whole in the block.
        int k = nd - 1;
        while (k > 0 && extent[k] == shape[k]) {
            k--;
        }
        long[] strides = new long[nd];
        strides[nd - 1] = item;
        for (int a = nd - 2; a >= 0; a--) {
            strides[a] = strides[a + 1] * shape[a + 1];
        }
        int segAxis = k;
        long segLong = extent[k] * strides[k];
        long size = segLong * Chunk.elementCount(java.util.Arrays.copyOf(extent, k));
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a block of " + java.util.Arrays.toString(extent) + " has " + size
                    + " bytes, more than an array holds");
        }
        int segBytes = (int) segLong;
        return new RawBytesSink() {
            /** Where segment {@code seg} of the block starts in the chunk's bytes. */
            private int segStart(int seg) {
                long at = 0;
                for (int a = nd - 1; a >= segAxis; a--) {
                    at += offset[a] * strides[a];
                }
                for (int a = segAxis - 1; a >= 0; a--) {
                    at += (offset[a] + seg % extent[a]) * strides[a];
                    seg /= extent[a];
                }
                return Math.toIntExact(at);
            }

            @Override
            public void accept(int at, byte[] src, int srcOff, int length) {
                if (at < 0 || length < 0 || at + (long) length > size) {
                    throw new IndexOutOfBoundsException(
                            "bytes [" + at + ", " + (at + length) + ") of a " + size + "-byte block");
                }
                while (length > 0) {
                    int seg = at / segBytes;
                    int inSeg = at % segBytes;
                    int n = Math.min(length, segBytes - inSeg);
                    whole.accept(segStart(seg) + inSeg, src, srcOff, n);
                    at += n;
                    srcOff += n;
                    length -= n;
                }
            }

            /** The chunk's own array, for a run within one segment of the block. */
            @Override
            public Doubles doublesFor(int at, int length) {
                if (segBytes == 0 || at / segBytes != (at + length - 1) / segBytes) {
                    return null;
                }
                return whole.doublesFor(segStart(at / segBytes) + at % segBytes, length);
            }

            /** The run up to the end of its segment. */
            @Override
            public Piece doublesPiece(int at, int length) {
                if (segBytes == 0 || length <= 0) {
                    return null;
                }
                int n = Math.min(length, segBytes - at % segBytes);
                Doubles d = whole.doublesFor(segStart(at / segBytes) + at % segBytes, n);
                return d == null ? null : new Piece(d.array(), d.offset(), n);
            }

            @Override
            public void acceptedAsDoubles(int at, int length) {
                whole.acceptedAsDoubles(segStart(at / segBytes) + at % segBytes, length);
            }
        };
    }

    /**
     * A sink that converts the decoded runs of a C-order chunk of {@code shape} into the parts of {@code targets} it
     * overlaps, each target stored in byte order {@code order}: {@code boxes[t]} is {@link
     * io.cubed.storage.ChunkStores#overlap} of the chunk and target {@code t} (null: they do not overlap), and no two
     * boxes overlap. Bytes no target takes are dropped. A run is split where a row of the chunk (along its last axis)
     * passes from one target to another, so that a rechunk's input chunk is decoded straight into the output chunks of
     * its region: a piece of {@code float64} values goes to the target's own array ({@link #doublesPiece}), other runs
     * to {@link #sinkInto} of the target.
     */
    static RawBytesSink sinkIntoTargets(Chunk[] targets, ByteOrder order, int[] shape, int[][][] boxes) {
        return new TargetsSink(targets, order, shape, boxes);
    }

    /** {@link #sinkIntoTargets}. */
    private static final class TargetsSink implements RawBytesSink {
        private final int nd;
        private final int[] shape;
        private final int[][][] boxes;
        private final RawBytesSink[] sinks;
        private final long[][] strides;
        private final int item;
        private final int rowLength;
        private final long size;
        /** The row whose targets are listed below, or -1. */
        private long row = -1;
        /** The targets the row passes through, by where it enters them; and where in each the row's part starts. */
        private final int[] rowTargets;

        private final long[] rowBase;
        private int rowCount;
        /** The last of those a piece was in or after, or -1. */
        private int cursor = -1;
        /**
         * Whether every target holds little-endian float64 slots: only then are pieces given ({@link #doublesPiece}),
         * skipped ones included, so that a codec that starts a block in pieces finds a piece at every value after it.
         */
        private final boolean doubles;

        TargetsSink(Chunk[] targets, ByteOrder order, int[] shape, int[][][] boxes) {
            if (shape.length == 0) {
                throw new IllegalArgumentException("a chunk of rank 0 has no rows to split among targets");
            }
            this.nd = shape.length;
            this.shape = shape;
            this.boxes = boxes;
            this.sinks = new RawBytesSink[targets.length];
            this.strides = new long[targets.length][];
            this.item = targets.length == 0 ? 1 : targets[0].dtype().itemSizeBytes();
            this.rowLength = shape[nd - 1];
            this.size = item * Chunk.elementCount(shape);
            for (int t = 0; t < targets.length; t++) {
                sinks[t] = sinkInto(targets[t], order);
                int[] ts = targets[t].shape();
                long[] st = new long[nd];
                long stride = 1;
                for (int a = nd - 1; a >= 0; a--) {
                    st[a] = stride;
                    stride *= ts[a];
                }
                strides[t] = st;
            }
            rowTargets = new int[targets.length];
            rowBase = new long[targets.length];
            boolean all = targets.length > 0 && order == ByteOrder.LITTLE_ENDIAN;
            for (Chunk t : targets) {
                all &= t.data() instanceof double[]
                        && t.dtype().itemSizeBytes() / t.dtype().slotsPerElement() == 8;
            }
            doubles = all;
        }

        /** Lists the targets row {@code r} of the chunk passes through, by where it enters them. */
        private void enterRow(long r) {
            if (r == row) {
                return;
            }
            row = r;
            rowCount = 0;
            cursor = -1;
            int last = nd - 1;
            for (int t = 0; t < boxes.length; t++) {
                int[][] b = boxes[t];
                if (b == null) {
                    continue;
                }
                long rest = r;
                long base = b[1][last];
                boolean in = true;
                for (int a = last - 1; a >= 0 && in; a--) {
                    int c = (int) (rest % shape[a]);
                    rest /= shape[a];
                    in = c >= b[0][a] && c < b[0][a] + b[2][a];
                    base += (b[1][a] + (long) (c - b[0][a])) * strides[t][a];
                }
                if (!in) {
                    continue;
                }
                // Insertion by the column where the row enters the target: few targets per row.
                int k = rowCount++;
                int enter = b[0][last];
                while (k > 0 && enter(k - 1) > enter) {
                    rowTargets[k] = rowTargets[k - 1];
                    rowBase[k] = rowBase[k - 1];
                    k--;
                }
                rowTargets[k] = t;
                rowBase[k] = base;
            }
        }

        /**
         * The piece from byte {@code at}: sets {@link #pieceTarget} (-1: no target), {@link #pieceAt} (the byte in the
         * target) and returns its length in bytes, at most {@code length}.
         */
        private int piece(int at, int length) {
            long e = at / item;
            int inItem = at % item;
            enterRow(e / rowLength);
            int c = (int) (e % rowLength);
            // The last target the row enters at or before column c: pieces are asked for in order along a row, so
            // the search goes on from the last one's.
            int k = cursor;
            if (k >= 0 && enter(k) > c) {
                k = -1;
            }
            while (k + 1 < rowCount && enter(k + 1) <= c) {
                k++;
            }
            cursor = k;
            long elements;
            int[][] b = k >= 0 ? boxes[rowTargets[k]] : null;
            if (b != null && c < b[0][nd - 1] + b[2][nd - 1]) {
                elements = b[0][nd - 1] + b[2][nd - 1] - c;
                pieceTarget = rowTargets[k];
                pieceAt = (rowBase[k] + (c - b[0][nd - 1])) * item + inItem;
            } else {
                elements = (k + 1 < rowCount ? enter(k + 1) : rowLength) - c;
                pieceTarget = -1;
                pieceAt = -1;
            }
            return (int) Math.min(length, elements * item - inItem);
        }

        /** The column where the row enters the {@code k}-th target it passes through. */
        private int enter(int k) {
            return boxes[rowTargets[k]][0][nd - 1];
        }

        private int pieceTarget;
        private long pieceAt;

        @Override
        public void accept(int at, byte[] src, int srcOff, int length) {
            if (at < 0 || length < 0 || at + (long) length > size) {
                throw new IndexOutOfBoundsException(
                        "bytes [" + at + ", " + (at + length) + ") of a " + size + "-byte chunk");
            }
            while (length > 0) {
                int n = piece(at, length);
                if (pieceTarget >= 0) {
                    sinks[pieceTarget].accept(Math.toIntExact(pieceAt), src, srcOff, n);
                }
                at += n;
                srcOff += n;
                length -= n;
            }
        }

        @Override
        public Piece doublesPiece(int at, int length) {
            if (!doubles || length <= 0 || at < 0 || at + (long) length > size) {
                return null;
            }
            int n = piece(at, length);
            if (pieceTarget < 0) {
                return n % 8 == 0 ? new Piece(null, 0, n) : null;
            }
            Doubles d = sinks[pieceTarget].doublesFor(Math.toIntExact(pieceAt), n);
            return d == null ? null : new Piece(d.array(), d.offset(), n);
        }

        @Override
        public void acceptedAsDoubles(int at, int length) {
            // The values are in the targets already.
        }
    }

    /**
     * Writes slots {@code [slot, slot + n)} of {@code data}, the array of a {@code dtype} chunk, into {@code dst} at its
     * position in byte order {@code order}, one bulk conversion, and moves its position past them.
     */
    static void putSlots(Object data, DType dtype, ByteOrder order, int slot, int n, ByteBuffer dst) {
        int at = dst.position();
        ByteBuffer d = dst.duplicate().order(order);
        switch (dtype) {
            case BOOL -> {
                boolean[] a = (boolean[]) data;
                for (int i = 0; i < n; i++) {
                    d.put(at + i, (byte) (a[slot + i] ? 1 : 0));
                }
                dst.position(at + n);
            }
            case INT8, UINT8 -> {
                d.put((byte[]) data, slot, n);
                dst.position(at + n);
            }
            case INT16, UINT16 -> {
                d.asShortBuffer().put((short[]) data, slot, n);
                dst.position(at + 2 * n);
            }
            case INT32, UINT32 -> {
                d.asIntBuffer().put((int[]) data, slot, n);
                dst.position(at + 4 * n);
            }
            case INT64, UINT64 -> {
                d.asLongBuffer().put((long[]) data, slot, n);
                dst.position(at + 8 * n);
            }
            case FLOAT32, COMPLEX64 -> {
                d.asFloatBuffer().put((float[]) data, slot, n);
                dst.position(at + 4 * n);
            }
            case FLOAT64, COMPLEX128 -> {
                d.asDoubleBuffer().put((double[]) data, slot, n);
                dst.position(at + 8 * n);
            }
        }
    }

    /** Converts slots of a buffer's bytes into a chunk's array; made once for a buffer's contents ({@link #slotsOf}). */
    interface SlotSource {
        /** Converts the {@code n} slots starting at byte {@code at} of the buffer into {@code data} from slot {@code slot}. */
        void get(int at, Object data, int slot, int n);
    }

    /**
     * The slots of a {@code dtype} chunk stored in byte order {@code order} in {@code src}, from its byte 0 to its
     * capacity (its position and limit are left alone): one typed view, each {@link SlotSource#get} a bulk conversion.
     */
    static SlotSource slotsOf(ByteBuffer src, DType dtype, ByteOrder order) {
        ByteBuffer s = src.duplicate().order(order);
        s.clear();
        return switch (dtype) {
            case BOOL -> (at, data, slot, n) -> {
                boolean[] a = (boolean[]) data;
                for (int i = 0; i < n; i++) {
                    a[slot + i] = s.get(at + i) != 0;
                }
            };
            case INT8, UINT8 -> (at, data, slot, n) -> s.get(at, (byte[]) data, slot, n);
            case INT16, UINT16 -> {
                java.nio.ShortBuffer v = s.asShortBuffer();
                yield (at, data, slot, n) -> v.get(at / 2, (short[]) data, slot, n);
            }
            case INT32, UINT32 -> {
                java.nio.IntBuffer v = s.asIntBuffer();
                yield (at, data, slot, n) -> v.get(at / 4, (int[]) data, slot, n);
            }
            case INT64, UINT64 -> {
                java.nio.LongBuffer v = s.asLongBuffer();
                yield (at, data, slot, n) -> v.get(at / 8, (long[]) data, slot, n);
            }
            case FLOAT32, COMPLEX64 -> {
                java.nio.FloatBuffer v = s.asFloatBuffer();
                yield (at, data, slot, n) -> v.get(at / 4, (float[]) data, slot, n);
            }
            case FLOAT64, COMPLEX128 -> {
                java.nio.DoubleBuffer v = s.asDoubleBuffer();
                yield (at, data, slot, n) -> v.get(at / 8, (double[]) data, slot, n);
            }
        };
    }

    /**
     * Writes all of {@code raw} to {@code out} a {@linkplain DirectSlices slice} at a time, each converted straight into
     * a direct buffer ({@link RawBytes#copyTo(int, ByteBuffer, int)}) that the channel writes as it is.
     */
    static void writeInSlices(RawBytes raw, java.nio.channels.WritableByteChannel out) throws java.io.IOException {
        ByteBuffer slice = DirectSlices.take();
        try {
            int size = raw.size();
            for (int at = 0; at < size; ) {
                int n = Math.min(DirectSlices.BYTES, size - at);
                slice.clear();
                raw.copyTo(at, slice, n);
                slice.flip();
                while (slice.hasRemaining()) {
                    out.write(slice);
                }
                at += n;
            }
        } finally {
            DirectSlices.giveBack(slice);
        }
    }

    private static Slots slots(Object data, DType dtype, ByteOrder order) {
        switch (dtype) {
            case BOOL: {
                boolean[] a = (boolean[]) data;
                return new Slots() {
                    @Override
                    public void toBytes(int slot, int n, byte[] dst, int off) {
                        for (int i = 0; i < n; i++) {
                            dst[off + i] = (byte) (a[slot + i] ? 1 : 0);
                        }
                    }

                    @Override
                    public void fromBytes(byte[] src, int off, int slot, int n) {
                        for (int i = 0; i < n; i++) {
                            a[slot + i] = src[off + i] != 0;
                        }
                    }
                };
            }
            case INT8:
            case UINT8: {
                byte[] a = (byte[]) data;
                return new Slots() {
                    @Override
                    public void toBytes(int slot, int n, byte[] dst, int off) {
                        System.arraycopy(a, slot, dst, off, n);
                    }

                    @Override
                    public void fromBytes(byte[] src, int off, int slot, int n) {
                        System.arraycopy(src, off, a, slot, n);
                    }
                };
            }
            case INT16:
            case UINT16: {
                short[] a = (short[]) data;
                return new Slots() {
                    @Override
                    public void toBytes(int slot, int n, byte[] dst, int off) {
                        ByteBuffer.wrap(dst, off, 2 * n)
                                .order(order)
                                .asShortBuffer()
                                .put(a, slot, n);
                    }

                    @Override
                    public void fromBytes(byte[] src, int off, int slot, int n) {
                        ByteBuffer.wrap(src, off, 2 * n)
                                .order(order)
                                .asShortBuffer()
                                .get(a, slot, n);
                    }
                };
            }
            case INT32:
            case UINT32: {
                int[] a = (int[]) data;
                return new Slots() {
                    @Override
                    public void toBytes(int slot, int n, byte[] dst, int off) {
                        ByteBuffer.wrap(dst, off, 4 * n)
                                .order(order)
                                .asIntBuffer()
                                .put(a, slot, n);
                    }

                    @Override
                    public void fromBytes(byte[] src, int off, int slot, int n) {
                        ByteBuffer.wrap(src, off, 4 * n)
                                .order(order)
                                .asIntBuffer()
                                .get(a, slot, n);
                    }
                };
            }
            case INT64:
            case UINT64: {
                long[] a = (long[]) data;
                return new Slots() {
                    @Override
                    public void toBytes(int slot, int n, byte[] dst, int off) {
                        ByteBuffer.wrap(dst, off, 8 * n)
                                .order(order)
                                .asLongBuffer()
                                .put(a, slot, n);
                    }

                    @Override
                    public void fromBytes(byte[] src, int off, int slot, int n) {
                        ByteBuffer.wrap(src, off, 8 * n)
                                .order(order)
                                .asLongBuffer()
                                .get(a, slot, n);
                    }
                };
            }
            case FLOAT32:
            case COMPLEX64: {
                float[] a = (float[]) data;
                return new Slots() {
                    @Override
                    public void toBytes(int slot, int n, byte[] dst, int off) {
                        ByteBuffer.wrap(dst, off, 4 * n)
                                .order(order)
                                .asFloatBuffer()
                                .put(a, slot, n);
                    }

                    @Override
                    public void fromBytes(byte[] src, int off, int slot, int n) {
                        ByteBuffer.wrap(src, off, 4 * n)
                                .order(order)
                                .asFloatBuffer()
                                .get(a, slot, n);
                    }
                };
            }
            case FLOAT64:
            case COMPLEX128: {
                double[] a = (double[]) data;
                return new Slots() {
                    @Override
                    public void toBytes(int slot, int n, byte[] dst, int off) {
                        ByteBuffer.wrap(dst, off, 8 * n)
                                .order(order)
                                .asDoubleBuffer()
                                .put(a, slot, n);
                    }

                    @Override
                    public void fromBytes(byte[] src, int off, int slot, int n) {
                        ByteBuffer.wrap(src, off, 8 * n)
                                .order(order)
                                .asDoubleBuffer()
                                .get(a, slot, n);
                    }
                };
            }
        }
        throw new AssertionError(dtype);
    }
}
