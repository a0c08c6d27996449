package io.cubed.storage.zarr.blosc;

/**
 * Blosc's bit shuffle of one block, laid out as c-blosc's bitshuffle code lays it out: bit {@code b} of byte {@code j}
 * of every element forms bit row {@code 8*j+b}, one bit per element (element {@code i} in bit {@code i%8} of byte
 * {@code i/8}), rows one after another. Blocks whose element count is not a multiple of 8 are copied unchanged, and
 * bytes after the last whole element are copied unchanged. Sizes are in bytes unless named elements.
 */
final class BitShuffle {
    private BitShuffle() {}

    /** Bit-shuffles the {@code blockBytes} bytes at {@code src[srcOff]} into {@code dst[dstOff]}. */
    static void shuffle(int typesize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int elements = blockBytes / typesize;
        if (elements % 8 != 0) {
            System.arraycopy(src, srcOff, dst, dstOff, blockBytes);
            return;
        }
        int rowBytes = elements / 8;
        for (int j = 0; j < typesize; j++) {
            int rowBase = dstOff + 8 * j * rowBytes;
            for (int g = 0; g < rowBytes; g++) {
                int s = srcOff + 8 * g * typesize + j;
                long x = 0;
                for (int m = 0; m < 8; m++, s += typesize) {
                    x |= (src[s] & 0xFFL) << (8 * m);
                }
                x = transpose8x8(x);
                int d = rowBase + g;
                for (int k = 0; k < 8; k++, d += rowBytes) {
                    dst[d] = (byte) (x >>> (8 * k));
                }
            }
        }
        int whole = elements * typesize;
        System.arraycopy(src, srcOff + whole, dst, dstOff + whole, blockBytes - whole);
    }

    /** Reverses {@link #shuffle}: bit-unshuffles the {@code blockBytes} bytes at {@code src[srcOff]} into {@code dst}. */
    static void unshuffle(int typesize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int elements = blockBytes / typesize;
        if (elements % 8 != 0) {
            System.arraycopy(src, srcOff, dst, dstOff, blockBytes);
            return;
        }
        int rowBytes = elements / 8;
        for (int j = 0; j < typesize; j++) {
            int rowBase = srcOff + 8 * j * rowBytes;
            for (int g = 0; g < rowBytes; g++) {
                int s = rowBase + g;
                long x = 0;
                for (int k = 0; k < 8; k++, s += rowBytes) {
                    x |= (src[s] & 0xFFL) << (8 * k);
                }
                x = transpose8x8(x);
                int d = dstOff + 8 * g * typesize + j;
                for (int m = 0; m < 8; m++, d += typesize) {
                    dst[d] = (byte) (x >>> (8 * m));
                }
            }
        }
        int whole = elements * typesize;
        System.arraycopy(src, srcOff + whole, dst, dstOff + whole, blockBytes - whole);
    }

    /** Transposes the 8x8 bit matrix whose row {@code r} is byte {@code r} of {@code x}: bit c of byte r moves to bit r of byte c. */
    static long transpose8x8(long x) {
        long t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
        x = x ^ t ^ (t << 7);
        t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
        x = x ^ t ^ (t << 14);
        t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
        return x ^ t ^ (t << 28);
    }
}
