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
     * System property that turns the Vector API shuffle off ({@code false}) or on from the first block ({@code eager},
     * without waiting for {@link ShuffleWarmup}), for comparisons and diagnosis.
     */
    static final String VECTOR_PROPERTY = "cubed.blosc.vector";

    /**
     * Bytes of 8-byte elements the scalar loops shuffle before {@link ShuffleWarmup} starts, 4 GiB: about what the
     * warm-up costs. The vector code saves about 0.4 s of CPU per GB shuffled against the scalar loops (W1, 5 GB:
     * 1.36-1.56 s against 2.43 s on two threads), while the warm-up's calls in the Vector API's fallback and C2's
     * compilation of four large methods take seconds of CPU on a busy machine: started after 256 MB, as it was, the
     * warm-up made a 1.2 GB {@code cubed copy --codec zstd:3} 2.99-3.63 s at 284-324 MB peak, against 2.32-2.45 s at
     * 189-192 MB without it (docs/zarr.md). Shuffling this much first, a job never pays much more than twice what the
     * better choice in hindsight would have cost (the ski-rental rule). {@link BloscCodec#warmUp()} starts it at once
     * for processes known to be long (the benchmark suite).
     */
    static final long WARMUP_AFTER_BYTES = 4L << 30;

    /**
     * Whether 8-byte elements may be shuffled with {@link VectorByteShuffle}: when the JVM has the Vector API ({@code
     * --add-modules jdk.incubator.vector}) with at least two long lanes, unless the system property {@value
     * #VECTOR_PROPERTY} is {@code false}; it is used once {@link ShuffleWarmup} finds it compiled and faster.
     */
    static final boolean VECTOR = ShuffleWarmup.WARMUP.enabled();

    private ByteShuffle() {}

    /**
     * Whether this block of {@code blockBytes} goes through the vector code: once {@link ShuffleWarmup} has seen it
     * compiled and faster than the scalar loops (or at once with {@code -Dcubed.blosc.vector=eager}); the scalar
     * blocks are counted, and the warm-up starts once {@link #WARMUP_AFTER_BYTES} have been shuffled.
     */
    private static boolean vectorNow(int blockBytes) {
        return ShuffleWarmup.WARMUP.useVector(blockBytes);
    }

    /**
     * Whether 8-byte elements are unshuffled by the vector code now, asked without counting any work as scalar: a
     * decoder that can hand {@link VectorByteShuffle#unshuffle8} a block's streams where they lie asks this first, and
     * otherwise gathers them and calls {@link #unshuffle}, which counts the block.
     */
    static boolean vectorInUse() {
        return VECTOR && vectorNow(0);
    }

    /** Whether {@code scalarBytes} shuffled by the scalar loops call for the vector code's warm-up. */
    static boolean warmupDue(long scalarBytes) {
        return ShuffleWarmup.WARMUP.due(scalarBytes);
    }

    /** Starts {@link ShuffleWarmup} when the vector shuffle is enabled and not warm yet. */
    static void startWarmup() {
        ShuffleWarmup.start();
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
        int i = from;
        for (; i + 8 <= n; i += 8) {
            transpose8(src, srcOff + 8 * i, 8, dst, dstOff + i, n);
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
        int i = from;
        for (; i + 8 <= n; i += 8) {
            transpose8(src, srcOff + i, n, dst, dstOff + 8 * i, 8);
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
     * Transposes an 8 x 8 byte matrix: reads its rows, 8-byte little-endian longs at {@code src[s + r * srcStride]}
     * (byte {@code c} of a row is bits {@code 8c..8c+7}), and writes its columns as the rows at {@code dst[d + r *
     * dstStride]}. Three rounds swap blocks across the diagonal (4 x 4, 2 x 2, then 1 x 1 bytes). A transpose is its own
     * inverse, so it both shuffles (rows = elements) and unshuffles (rows = byte streams).
     *
     * <p>Written out in locals, without an array or inner loops, for the JIT: C2 compiles the two loops that inline it
     * in about a third of the time the same rounds took as loops over a {@code long[8]} (which it had to unroll and
     * scalar-replace, once on stack replacement and again as a method), 0.1 instead of 0.25-0.35 s of a compiler
     * thread in a fresh JVM, for 256 chunks of 0.5 MB shuffled and unshuffled in 0.23 instead of 0.35-0.42 s; once
     * compiled it runs about a fifth slower (0.30 against 0.24 ms for both directions of a 0.5 MB block), which the
     * vector code replaces after {@link #WARMUP_AFTER_BYTES}.
     */
    private static void transpose8(byte[] src, int s, int srcStride, byte[] dst, int d, int dstStride) {
        long r0 = LittleEndian.getLong(src, s);
        long r1 = LittleEndian.getLong(src, s + srcStride);
        long r2 = LittleEndian.getLong(src, s + 2 * srcStride);
        long r3 = LittleEndian.getLong(src, s + 3 * srcStride);
        long r4 = LittleEndian.getLong(src, s + 4 * srcStride);
        long r5 = LittleEndian.getLong(src, s + 5 * srcStride);
        long r6 = LittleEndian.getLong(src, s + 6 * srcStride);
        long r7 = LittleEndian.getLong(src, s + 7 * srcStride);
        long t;
        // 4 x 4 blocks: the low half of row r + 4 with the high half of row r.
        t = r0;
        r0 = (t & MASK_32) | (r4 << 32);
        r4 = (t >>> 32) | (r4 & ~MASK_32);
        t = r1;
        r1 = (t & MASK_32) | (r5 << 32);
        r5 = (t >>> 32) | (r5 & ~MASK_32);
        t = r2;
        r2 = (t & MASK_32) | (r6 << 32);
        r6 = (t >>> 32) | (r6 & ~MASK_32);
        t = r3;
        r3 = (t & MASK_32) | (r7 << 32);
        r7 = (t >>> 32) | (r7 & ~MASK_32);
        // 2 x 2 blocks within each half: rows r and r + 2.
        t = r0;
        r0 = (t & MASK_16) | ((r2 << 16) & ~MASK_16);
        r2 = ((t >>> 16) & MASK_16) | (r2 & ~MASK_16);
        t = r1;
        r1 = (t & MASK_16) | ((r3 << 16) & ~MASK_16);
        r3 = ((t >>> 16) & MASK_16) | (r3 & ~MASK_16);
        t = r4;
        r4 = (t & MASK_16) | ((r6 << 16) & ~MASK_16);
        r6 = ((t >>> 16) & MASK_16) | (r6 & ~MASK_16);
        t = r5;
        r5 = (t & MASK_16) | ((r7 << 16) & ~MASK_16);
        r7 = ((t >>> 16) & MASK_16) | (r7 & ~MASK_16);
        // Single bytes: rows r and r + 1.
        t = r0;
        r0 = (t & MASK_8) | ((r1 << 8) & ~MASK_8);
        r1 = ((t >>> 8) & MASK_8) | (r1 & ~MASK_8);
        t = r2;
        r2 = (t & MASK_8) | ((r3 << 8) & ~MASK_8);
        r3 = ((t >>> 8) & MASK_8) | (r3 & ~MASK_8);
        t = r4;
        r4 = (t & MASK_8) | ((r5 << 8) & ~MASK_8);
        r5 = ((t >>> 8) & MASK_8) | (r5 & ~MASK_8);
        t = r6;
        r6 = (t & MASK_8) | ((r7 << 8) & ~MASK_8);
        r7 = ((t >>> 8) & MASK_8) | (r7 & ~MASK_8);
        LittleEndian.putLong(dst, d, r0);
        LittleEndian.putLong(dst, d + dstStride, r1);
        LittleEndian.putLong(dst, d + 2 * dstStride, r2);
        LittleEndian.putLong(dst, d + 3 * dstStride, r3);
        LittleEndian.putLong(dst, d + 4 * dstStride, r4);
        LittleEndian.putLong(dst, d + 5 * dstStride, r5);
        LittleEndian.putLong(dst, d + 6 * dstStride, r6);
        LittleEndian.putLong(dst, d + 7 * dstStride, r7);
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
