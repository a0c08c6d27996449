package io.cubed.storage.zarr.blosc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian reads and writes of 32- and 64-bit values at byte offsets of a byte array. */
final class LittleEndian {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {}

    /** The int stored in the 4 bytes at byte offset {@code off}. */
    static int getInt(byte[] b, int off) {
        return (int) INT.get(b, off);
    }

    /** Stores {@code v} in the 4 bytes at byte offset {@code off}. */
    static void putInt(byte[] b, int off, int v) {
        INT.set(b, off, v);
    }

    /** The long stored in the 8 bytes at byte offset {@code off}. */
    static long getLong(byte[] b, int off) {
        return (long) LONG.get(b, off);
    }

    /** Stores {@code v} in the 8 bytes at byte offset {@code off}. */
    static void putLong(byte[] b, int off, long v) {
        LONG.set(b, off, v);
    }
}
