package io.cubed.storage.zarr;

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
        ByteBuffer buf = ByteBuffer.wrap(raw).order(order);
        switch (dtype) {
            case BOOL:
                boolean[] b = stored.booleans();
                for (int i = 0; i < b.length; i++) {
                    b[i] = raw[i] != 0;
                }
                break;
            case INT8:
            case UINT8:
                System.arraycopy(raw, 0, stored.bytes(), 0, raw.length);
                break;
            case INT16:
            case UINT16:
                buf.asShortBuffer().get(stored.shorts());
                break;
            case INT32:
            case UINT32:
                buf.asIntBuffer().get(stored.ints());
                break;
            case INT64:
            case UINT64:
                buf.asLongBuffer().get(stored.longs());
                break;
            case FLOAT32:
            case COMPLEX64:
                buf.asFloatBuffer().get(stored.floats());
                break;
            case FLOAT64:
            case COMPLEX128:
                buf.asDoubleBuffer().get(stored.doubles());
                break;
        }
        return fortran ? reverseAxes(stored) : stored;
    }

    /** The element bytes of {@code chunk} in byte order {@code order}, and in Fortran order when {@code fortran}. */
    static byte[] encode(Chunk c, ByteOrder order, boolean fortran) {
        Chunk chunk = fortran ? reverseAxes(c) : c;
        DType dtype = chunk.dtype();
        byte[] raw = new byte[Math.toIntExact(chunk.nbytes())];
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
