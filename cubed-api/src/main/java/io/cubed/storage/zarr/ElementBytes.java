package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Converts between the raw element bytes of a stored chunk and an in-memory {@link Chunk} in C order. */
final class ElementBytes {
    private ElementBytes() {}

    /**
     * Reads {@code raw}, the elements of a chunk of {@code shape} in byte order {@code order} and in Fortran order when
     * {@code fortran}, into a C-order chunk. {@code raw} must hold exactly the chunk's bytes.
     */
    static Chunk decode(byte[] raw, DType dtype, ByteOrder order, int[] shape, boolean fortran) {
        int[] storedShape = fortran ? reversed(shape) : shape;
        Chunk stored = Chunk.allocate(dtype, storedShape);
        // One run over the whole chunk: the same conversion decodeInto does row by row.
        runCopy(raw, dtype, order, stored.data()).run(0, 0, stored.size() * dtype.slotsPerElement());
        return fortran ? reverseAxes(stored) : stored;
    }

    /**
     * Converts the elements of {@code raw}, a C-order chunk of {@code storedShape} in byte order {@code order}, that
     * lie in the box of {@code extent} at {@code srcStart} straight into {@code dst} at {@code dstStart}, row by row
     * and without allocating a chunk: what {@link #decode} followed by {@link Chunk#copyRegion} does, in one pass.
     */
    static void decodeInto(
            byte[] raw,
            DType dtype,
            ByteOrder order,
            int[] storedShape,
            int[] srcStart,
            Chunk dst,
            int[] dstStart,
            int[] extent) {
        int nd = storedShape.length;
        if (dst.dtype() != dtype) {
            throw new IllegalArgumentException("cannot decode " + dtype + " elements into a " + dst.dtype() + " chunk");
        }
        if (dst.ndim() != nd || srcStart.length != nd || dstStart.length != nd || extent.length != nd) {
            throw new IllegalArgumentException("decodeInto needs offsets and extent of the chunk's rank " + nd);
        }
        long elements = 1;
        for (int i = 0; i < nd; i++) {
            if (extent[i] < 0
                    || srcStart[i] < 0
                    || srcStart[i] + extent[i] > storedShape[i]
                    || dstStart[i] < 0
                    || dstStart[i] + extent[i] > dst.shape(i)) {
                throw new IllegalArgumentException("box of extent " + java.util.Arrays.toString(extent) + " at "
                        + java.util.Arrays.toString(srcStart) + " -> " + java.util.Arrays.toString(dstStart)
                        + " does not fit shapes " + java.util.Arrays.toString(storedShape) + " -> "
                        + java.util.Arrays.toString(dst.shape()));
            }
            elements *= storedShape[i];
        }
        if (raw.length != elements * dtype.itemSizeBytes()) {
            throw new IllegalArgumentException(raw.length + " bytes do not hold a " + dtype + " chunk of shape "
                    + java.util.Arrays.toString(storedShape));
        }
        for (int e : extent) {
            if (e == 0) {
                return;
            }
        }
        RunCopy copy = runCopy(raw, dtype, order, dst.data());
        int slots = dtype.slotsPerElement();
        if (nd == 0) {
            copy.run(0, 0, slots);
            return;
        }
        int[] srcStride = Chunk.strides(storedShape);
        int[] dstStride = Chunk.strides(dst.shape());
        int run = extent[nd - 1] * slots;
        int[] pos = new int[nd - 1];
        while (true) {
            int s = srcStart[nd - 1];
            int d = dstStart[nd - 1];
            for (int i = 0; i < nd - 1; i++) {
                s += (srcStart[i] + pos[i]) * srcStride[i];
                d += (dstStart[i] + pos[i]) * dstStride[i];
            }
            copy.run(s * slots, d * slots, run);
            if (!Chunk.nextIndex(pos, extent, nd - 1)) {
                return;
            }
        }
    }

    /** Converts {@code length} slots from slot {@code src} of the stored bytes to slot {@code dst} of the array. */
    private interface RunCopy {
        void run(int src, int dst, int length);
    }

    private static RunCopy runCopy(byte[] raw, DType dtype, ByteOrder order, Object data) {
        ByteBuffer buf = ByteBuffer.wrap(raw).order(order);
        switch (dtype) {
            case BOOL: {
                boolean[] b = (boolean[]) data;
                return (src, dst, length) -> {
                    for (int i = 0; i < length; i++) {
                        b[dst + i] = raw[src + i] != 0;
                    }
                };
            }
            case INT8:
            case UINT8: {
                byte[] b = (byte[]) data;
                return (src, dst, length) -> System.arraycopy(raw, src, b, dst, length);
            }
            case INT16:
            case UINT16: {
                java.nio.ShortBuffer v = buf.asShortBuffer();
                short[] a = (short[]) data;
                return (src, dst, length) -> v.get(src, a, dst, length);
            }
            case INT32:
            case UINT32: {
                java.nio.IntBuffer v = buf.asIntBuffer();
                int[] a = (int[]) data;
                return (src, dst, length) -> v.get(src, a, dst, length);
            }
            case INT64:
            case UINT64: {
                java.nio.LongBuffer v = buf.asLongBuffer();
                long[] a = (long[]) data;
                return (src, dst, length) -> v.get(src, a, dst, length);
            }
            case FLOAT32:
            case COMPLEX64: {
                java.nio.FloatBuffer v = buf.asFloatBuffer();
                float[] a = (float[]) data;
                return (src, dst, length) -> v.get(src, a, dst, length);
            }
            case FLOAT64:
            case COMPLEX128: {
                java.nio.DoubleBuffer v = buf.asDoubleBuffer();
                double[] a = (double[]) data;
                return (src, dst, length) -> v.get(src, a, dst, length);
            }
        }
        throw new AssertionError(dtype);
    }

    /** The element bytes of {@code chunk} in byte order {@code order}, and in Fortran order when {@code fortran}. */
    static byte[] encode(Chunk c, ByteOrder order, boolean fortran) {
        Chunk chunk = fortran ? reverseAxes(c) : c;
        DType dtype = chunk.dtype();
        byte[] raw = ArrayRecycler.bytes(Math.toIntExact(chunk.nbytes()));
        ByteBuffer buf = ByteBuffer.wrap(raw).order(order);
        switch (dtype) {
            case BOOL:
                boolean[] b = chunk.booleans();
                for (int i = 0; i < b.length; i++) {
                    raw[i] = (byte) (b[i] ? 1 : 0);
                }
                break;
            case INT8:
            case UINT8:
                System.arraycopy(chunk.bytes(), 0, raw, 0, raw.length);
                break;
            case INT16:
            case UINT16:
                buf.asShortBuffer().put(chunk.shorts());
                break;
            case INT32:
            case UINT32:
                buf.asIntBuffer().put(chunk.ints());
                break;
            case INT64:
            case UINT64:
                buf.asLongBuffer().put(chunk.longs());
                break;
            case FLOAT32:
            case COMPLEX64:
                buf.asFloatBuffer().put(chunk.floats());
                break;
            case FLOAT64:
            case COMPLEX128:
                buf.asDoubleBuffer().put(chunk.doubles());
                break;
        }
        return raw;
    }

    private static int[] reversed(int[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[a.length - 1 - i];
        }
        return r;
    }

    /** The transpose of {@code src} with its axes reversed: turns a Fortran-order buffer into C order and back. */
    private static Chunk reverseAxes(Chunk src) {
        int nd = src.ndim();
        int[] srcShape = src.shape();
        int[] dstShape = reversed(srcShape);
        Chunk dst = Chunk.allocate(src.dtype(), dstShape);
        if (nd <= 1) {
            System.arraycopy(src.data(), 0, dst.data(), 0, java.lang.reflect.Array.getLength(src.data()));
            return dst;
        }
        int slots = src.dtype().slotsPerElement();
        int[] srcStride = Chunk.strides(srcShape);
        int[] idx = new int[nd];
        int n = dst.size();
        Object s = src.data();
        Object d = dst.data();
        // Walk the destination in C order; destination axis i is source axis nd-1-i.
        for (int flat = 0; flat < n; flat++) {
            int off = 0;
            for (int i = 0; i < nd; i++) {
                off += idx[i] * srcStride[nd - 1 - i];
            }
            System.arraycopy(s, off * slots, d, flat * slots, slots);
            for (int axis = nd - 1; axis >= 0; axis--) {
                if (++idx[axis] < dstShape[axis]) {
                    break;
                }
                idx[axis] = 0;
            }
        }
        return dst;
    }

    /**
     * The transpose of {@code src} in which destination axis {@code i} is source axis {@code order[i]} (the Zarr v3
     * {@code transpose} codec's encoding direction); {@code order} must be a permutation of the axes.
     */
    static Chunk permute(Chunk src, int[] order) {
        int nd = src.ndim();
        int[] srcShape = src.shape();
        int[] dstShape = new int[nd];
        for (int i = 0; i < nd; i++) {
            dstShape[i] = srcShape[order[i]];
        }
        Chunk dst = Chunk.allocate(src.dtype(), dstShape);
        int slots = src.dtype().slotsPerElement();
        int n = dst.size();
        if (n == 0) {
            return dst;
        }
        int[] srcStride = Chunk.strides(srcShape);
        int[] idx = new int[nd];
        Object s = src.data();
        Object d = dst.data();
        for (int flat = 0; flat < n; flat++) {
            int off = 0;
            for (int i = 0; i < nd; i++) {
                off += idx[i] * srcStride[order[i]];
            }
            System.arraycopy(s, off * slots, d, flat * slots, slots);
            for (int axis = nd - 1; axis >= 0; axis--) {
                if (++idx[axis] < dstShape[axis]) {
                    break;
                }
                idx[axis] = 0;
            }
        }
        return dst;
    }
}
