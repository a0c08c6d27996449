package io.cubed.storage.zarr.blosc;

/**
 * Blosc's byte shuffle of one block: byte {@code j} of every element goes to stream {@code j}, streams laid out one
 * after another; the bytes after the last whole element are copied unchanged. Sizes are in bytes.
 */
final class ByteShuffle {
    private static final long MASK_32 = 0x00000000FFFFFFFFL;
    private static final long MASK_16 = 0x0000FFFF0000FFFFL;
    private static final long MASK_8 = 0x00FF00FF00FF00FFL;

    private ByteShuffle() {}

    /** Shuffles the {@code blockBytes} bytes at {@code src[srcOff]} into {@code dst[dstOff]}. */
    static void shuffle(int typesize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int n = blockBytes / typesize;
        if (typesize == 8) {
            for (int i = 0; i < n; i++) {
                long v = LittleEndian.getLong(src, srcOff + 8 * i);
                int d = dstOff + i;
                dst[d] = (byte) v;
                dst[d + n] = (byte) (v >>> 8);
                dst[d + 2 * n] = (byte) (v >>> 16);
                dst[d + 3 * n] = (byte) (v >>> 24);
                dst[d + 4 * n] = (byte) (v >>> 32);
                dst[d + 5 * n] = (byte) (v >>> 40);
                dst[d + 6 * n] = (byte) (v >>> 48);
                dst[d + 7 * n] = (byte) (v >>> 56);
            }
        } else if (typesize == 4) {
            for (int i = 0; i < n; i++) {
                int v = LittleEndian.getInt(src, srcOff + 4 * i);
                int d = dstOff + i;
                dst[d] = (byte) v;
                dst[d + n] = (byte) (v >>> 8);
                dst[d + 2 * n] = (byte) (v >>> 16);
                dst[d + 3 * n] = (byte) (v >>> 24);
            }
        } else {
            for (int j = 0; j < typesize; j++) {
                int d = dstOff + j * n;
                int s = srcOff + j;
                for (int i = 0; i < n; i++, s += typesize) {
                    dst[d + i] = src[s];
                }
            }
        }
        int whole = n * typesize;
        System.arraycopy(src, srcOff + whole, dst, dstOff + whole, blockBytes - whole);
    }

    /** Reverses {@link #shuffle}: unshuffles the {@code blockBytes} bytes at {@code src[srcOff]} into {@code dst}. */
    static void unshuffle(int typesize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int n = blockBytes / typesize;
        if (typesize == 8) {
            unshuffle8(n, src, srcOff, dst, dstOff);
        } else if (typesize == 4) {
            unshuffle4(n, src, srcOff, dst, dstOff);
        } else if (typesize == 2) {
            for (int i = 0; i < n; i++) {
                int s = srcOff + i;
                int d = dstOff + 2 * i;
                dst[d] = src[s];
                dst[d + 1] = src[s + n];
            }
        } else {
            for (int i = 0; i < n; i++) {
                int d = dstOff + i * typesize;
                int s = srcOff + i;
                for (int j = 0; j < typesize; j++, s += n) {
                    dst[d + j] = src[s];
                }
            }
        }
        int whole = n * typesize;
        System.arraycopy(src, srcOff + whole, dst, dstOff + whole, blockBytes - whole);
    }

    /** Unshuffles 8-byte elements, 8 at a time, as an 8x8 byte transpose of 8 longs. */
    private static void unshuffle8(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            int s = srcOff + i;
            long a0 = LittleEndian.getLong(src, s);
            long a1 = LittleEndian.getLong(src, s + n);
            long a2 = LittleEndian.getLong(src, s + 2 * n);
            long a3 = LittleEndian.getLong(src, s + 3 * n);
            long a4 = LittleEndian.getLong(src, s + 4 * n);
            long a5 = LittleEndian.getLong(src, s + 5 * n);
            long a6 = LittleEndian.getLong(src, s + 6 * n);
            long a7 = LittleEndian.getLong(src, s + 7 * n);
            // Swap 4x4 byte blocks: low half of rows 4-7 with high half of rows 0-3.
            long t;
            t = (a0 & MASK_32) | (a4 << 32);
            a4 = (a0 >>> 32) | (a4 & ~MASK_32);
            a0 = t;
            t = (a1 & MASK_32) | (a5 << 32);
            a5 = (a1 >>> 32) | (a5 & ~MASK_32);
            a1 = t;
            t = (a2 & MASK_32) | (a6 << 32);
            a6 = (a2 >>> 32) | (a6 & ~MASK_32);
            a2 = t;
            t = (a3 & MASK_32) | (a7 << 32);
            a7 = (a3 >>> 32) | (a7 & ~MASK_32);
            a3 = t;
            // Swap 2x2 byte blocks inside each 4x4 block.
            t = (a0 & MASK_16) | ((a2 << 16) & ~MASK_16);
            a2 = ((a0 >>> 16) & MASK_16) | (a2 & ~MASK_16);
            a0 = t;
            t = (a1 & MASK_16) | ((a3 << 16) & ~MASK_16);
            a3 = ((a1 >>> 16) & MASK_16) | (a3 & ~MASK_16);
            a1 = t;
            t = (a4 & MASK_16) | ((a6 << 16) & ~MASK_16);
            a6 = ((a4 >>> 16) & MASK_16) | (a6 & ~MASK_16);
            a4 = t;
            t = (a5 & MASK_16) | ((a7 << 16) & ~MASK_16);
            a7 = ((a5 >>> 16) & MASK_16) | (a7 & ~MASK_16);
            a5 = t;
            // Swap single bytes inside each 2x2 block.
            t = (a0 & MASK_8) | ((a1 << 8) & ~MASK_8);
            a1 = ((a0 >>> 8) & MASK_8) | (a1 & ~MASK_8);
            a0 = t;
            t = (a2 & MASK_8) | ((a3 << 8) & ~MASK_8);
            a3 = ((a2 >>> 8) & MASK_8) | (a3 & ~MASK_8);
            a2 = t;
            t = (a4 & MASK_8) | ((a5 << 8) & ~MASK_8);
            a5 = ((a4 >>> 8) & MASK_8) | (a5 & ~MASK_8);
            a4 = t;
            t = (a6 & MASK_8) | ((a7 << 8) & ~MASK_8);
            a7 = ((a6 >>> 8) & MASK_8) | (a7 & ~MASK_8);
            a6 = t;
            int d = dstOff + 8 * i;
            LittleEndian.putLong(dst, d, a0);
            LittleEndian.putLong(dst, d + 8, a1);
            LittleEndian.putLong(dst, d + 16, a2);
            LittleEndian.putLong(dst, d + 24, a3);
            LittleEndian.putLong(dst, d + 32, a4);
            LittleEndian.putLong(dst, d + 40, a5);
            LittleEndian.putLong(dst, d + 48, a6);
            LittleEndian.putLong(dst, d + 56, a7);
        }
        for (; i < n; i++) {
            int s = srcOff + i;
            long v = (src[s] & 0xFFL)
                    | (src[s + n] & 0xFFL) << 8
                    | (src[s + 2 * n] & 0xFFL) << 16
                    | (src[s + 3 * n] & 0xFFL) << 24
                    | (src[s + 4 * n] & 0xFFL) << 32
                    | (src[s + 5 * n] & 0xFFL) << 40
                    | (src[s + 6 * n] & 0xFFL) << 48
                    | (src[s + 7 * n] & 0xFFL) << 56;
            LittleEndian.putLong(dst, dstOff + 8 * i, v);
        }
    }

    /** Unshuffles 4-byte elements, assembling each element as an int from its 4 streams. */
    private static void unshuffle4(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        for (int i = 0; i < n; i++) {
            int s = srcOff + i;
            int v = (src[s] & 0xFF) | (src[s + n] & 0xFF) << 8 | (src[s + 2 * n] & 0xFF) << 16 | src[s + 3 * n] << 24;
            LittleEndian.putInt(dst, dstOff + 4 * i, v);
        }
    }
}
