package io.cubed.storage.zarr.blosc;

/**
 * Blosc's byte shuffle of one block: byte {@code j} of every element goes to stream {@code j}, streams laid out one
 * after another; the bytes after the last whole element are copied unchanged. Sizes are in bytes.
 */
final class ByteShuffle {
    private static final long MASK_32 = 0x00000000FFFFFFFFL;
    private static final long MASK_16 = 0x0000FFFF0000FFFFL;
    private static final long MASK_8 = 0x00FF00FF00FF00FFL;

    /**
     * Whether 8-byte elements may be shuffled with {@link VectorByteShuffle}: when the JVM has the Vector API ({@code
     * --add-modules jdk.incubator.vector}) with at least two long lanes, unless the system property {@value
     * #VECTOR_PROPERTY} is {@code false}; it is used once {@link ShuffleWarmup} finds it compiled and faster.
     */
    static final boolean VECTOR = vectorEnabled();

    /**
     * System property that turns the Vector API shuffle off ({@code false}) or on from the first block ({@code eager},
     * without waiting for {@link ShuffleWarmup}), for comparisons and diagnosis.
     */
    static final String VECTOR_PROPERTY = "cubed.blosc.vector";

    private static final boolean EAGER = "eager".equalsIgnoreCase(System.getProperty(VECTOR_PROPERTY));

    private ByteShuffle() {}

    /**
     * Bytes of 8-byte elements the scalar loops shuffle before {@link ShuffleWarmup} starts: its thread takes about 0.75
     * s of a core and the JIT's compilation of the vector code more, which a short command (a copy of a few hundred
     * chunks) never earns back, while past this much work the vector code's 3-4 × speed repays it within a second or
     * two. {@link BloscCodec#warmUp()} starts it at once for processes known to be long (the benchmark suite).
     */
    static final long WARMUP_AFTER_BYTES = 256L << 20;

    private static final java.util.concurrent.atomic.LongAdder SCALAR_BYTES =
            new java.util.concurrent.atomic.LongAdder();

    /**
     * Whether this block of {@code blockBytes} goes through the vector code: once {@link ShuffleWarmup} has seen it
     * compiled and faster than the scalar loops (or at once with {@code -Dcubed.blosc.vector=eager}); the scalar
     * blocks are counted, and the warm-up starts once {@link #WARMUP_AFTER_BYTES} have been shuffled.
     */
    private static boolean vectorNow(int blockBytes) {
        if (EAGER || ShuffleWarmup.ready()) {
            return true;
        }
        if (!ShuffleWarmup.started()) {
            SCALAR_BYTES.add(blockBytes);
            if (warmupDue(SCALAR_BYTES.sum())) {
                ShuffleWarmup.start();
            }
        }
        return false;
    }

    /** Whether {@code scalarBytes} shuffled by the scalar loops call for the vector code's warm-up. */
    static boolean warmupDue(long scalarBytes) {
        return scalarBytes >= WARMUP_AFTER_BYTES;
    }

    /** Starts {@link ShuffleWarmup} when the vector shuffle is enabled and not warm yet. */
    static void startWarmup() {
        if (VECTOR && !EAGER) {
            ShuffleWarmup.start();
        }
    }

    private static boolean vectorEnabled() {
        if ("false".equalsIgnoreCase(System.getProperty(VECTOR_PROPERTY))) {
            return false;
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return false;
        }
        try {
            return VectorByteShuffle.AVAILABLE;
        } catch (LinkageError e) {
            return false;
        }
    }

    /** Shuffles the {@code blockBytes} bytes at {@code src[srcOff]} into {@code dst[dstOff]}. */
    static void shuffle(int typesize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int n = blockBytes / typesize;
        if (typesize == 8 && VECTOR && vectorNow(blockBytes)) {
            VectorByteShuffle.shuffle8(n, src, srcOff, dst, dstOff);
        } else if (typesize == 8) {
            shuffle8From(0, n, src, srcOff, dst, dstOff);
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
        if (typesize == 8 && VECTOR && vectorNow(blockBytes)) {
            VectorByteShuffle.unshuffle8(n, src, srcOff, dst, dstOff);
        } else if (typesize == 8) {
            unshuffle8From(0, n, src, srcOff, dst, dstOff);
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

    /**
     * Shuffles elements {@code from} (a multiple of 8) to {@code n} of {@code n} 8-byte elements, 8 at a time: 8
     * elements (rows) become 8 runs of one byte each (columns).
     */
    static void shuffle8From(int from, int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        long[] m = new long[8];
        int i = from;
        for (; i + 8 <= n; i += 8) {
            int s = srcOff + 8 * i;
            for (int r = 0; r < 8; r++) {
                m[r] = LittleEndian.getLong(src, s + 8 * r);
            }
            transpose8(m);
            int d = dstOff + i;
            for (int r = 0; r < 8; r++) {
                LittleEndian.putLong(dst, d + r * n, m[r]);
            }
        }
        for (; i < n; i++) {
            long v = LittleEndian.getLong(src, srcOff + 8 * i);
            int d = dstOff + i;
            for (int b = 0; b < 8; b++) {
                dst[d + b * n] = (byte) (v >>> (8 * b));
            }
        }
    }

    /**
     * Unshuffles elements {@code from} (a multiple of 8) to {@code n} of {@code n} 8-byte elements, 8 at a time: 8 runs
     * of one byte each become 8 elements.
     */
    static void unshuffle8From(int from, int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        long[] m = new long[8];
        int i = from;
        for (; i + 8 <= n; i += 8) {
            int s = srcOff + i;
            for (int r = 0; r < 8; r++) {
                m[r] = LittleEndian.getLong(src, s + r * n);
            }
            transpose8(m);
            int d = dstOff + 8 * i;
            for (int r = 0; r < 8; r++) {
                LittleEndian.putLong(dst, d + 8 * r, m[r]);
            }
        }
        for (; i < n; i++) {
            int s = srcOff + i;
            long v = 0;
            for (int b = 0; b < 8; b++) {
                v |= (src[s + b * n] & 0xFFL) << (8 * b);
            }
            LittleEndian.putLong(dst, dstOff + 8 * i, v);
        }
    }

    /**
     * Transposes, in place, the 8 x 8 byte matrix whose row {@code r} is {@code m[r]} (byte {@code c} of a row is bits
     * {@code 8c..8c+7} of its long): three rounds swap blocks across the diagonal (4 x 4, 2 x 2, then 1 x 1 bytes). A
     * transpose is its own inverse, so it both shuffles (rows = elements) and unshuffles (rows = byte streams). Small
     * on purpose, so that the JIT inlines it and keeps {@code m} in registers.
     */
    private static void transpose8(long[] m) {
        for (int r = 0; r < 4; r++) {
            long a = m[r];
            long b = m[r + 4];
            m[r] = (a & MASK_32) | (b << 32);
            m[r + 4] = (a >>> 32) | (b & ~MASK_32);
        }
        for (int h = 0; h < 8; h += 4) {
            for (int r = h; r < h + 2; r++) {
                long a = m[r];
                long b = m[r + 2];
                m[r] = (a & MASK_16) | ((b << 16) & ~MASK_16);
                m[r + 2] = ((a >>> 16) & MASK_16) | (b & ~MASK_16);
            }
        }
        for (int r = 0; r < 8; r += 2) {
            long a = m[r];
            long b = m[r + 1];
            m[r] = (a & MASK_8) | ((b << 8) & ~MASK_8);
            m[r + 1] = ((a >>> 8) & MASK_8) | (b & ~MASK_8);
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
