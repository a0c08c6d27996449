package io.cubed.chunk;

import io.cubed.dtype.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Little-endian raw bytes of chunk data (NumPy's {@code tofile} layout), for the NumPy cross-check. */
final class RawArrays {
    private RawArrays() {}

    static byte[] toBytes(Chunk c) {
        Object data = c.data();
        int slots = java.lang.reflect.Array.getLength(data);
        ByteBuffer b = ByteBuffer.allocate(slots * c.dtype().slotSizeBytes()).order(ByteOrder.LITTLE_ENDIAN);
        if (data instanceof boolean[] z) {
            for (boolean v : z) {
                b.put((byte) (v ? 1 : 0));
            }
        } else if (data instanceof byte[] x) {
            b.put(x);
        } else if (data instanceof short[] x) {
            b.asShortBuffer().put(x);
        } else if (data instanceof int[] x) {
            b.asIntBuffer().put(x);
        } else if (data instanceof long[] x) {
            b.asLongBuffer().put(x);
        } else if (data instanceof float[] x) {
            b.asFloatBuffer().put(x);
        } else {
            b.asDoubleBuffer().put((double[]) data);
        }
        return b.array();
    }

    static Chunk fromBytes(DType t, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int n = bytes.length / t.itemSizeBytes();
        Object data = t.newArray(n);
        if (data instanceof boolean[] z) {
            for (int i = 0; i < z.length; i++) {
                z[i] = bytes[i] != 0;
            }
        } else if (data instanceof byte[] x) {
            b.get(x);
        } else if (data instanceof short[] x) {
            b.asShortBuffer().get(x);
        } else if (data instanceof int[] x) {
            b.asIntBuffer().get(x);
        } else if (data instanceof long[] x) {
            b.asLongBuffer().get(x);
        } else if (data instanceof float[] x) {
            b.asFloatBuffer().get(x);
        } else {
            b.asDoubleBuffer().get((double[]) data);
        }
        return Chunk.wrap(t, new int[] {n}, data);
    }
}
