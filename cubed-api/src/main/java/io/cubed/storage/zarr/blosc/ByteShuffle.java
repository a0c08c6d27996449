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
     * Bytes of 8-byte elements the scalar loops shuffle before {@link ShuffleWarmup} starts, 12 GiB: about what the
     * warm-up costs. Against the scalar loops of now the vector code saves about 0.12 s of CPU per GB shuffled (JMH
     * {@code ShuffleBenchmark}), while the warm-up's calls in the Vector API's fallback and C2's compilation of four
     * large methods take about 1.5 s of CPU: with the warm-up after 4 GiB, a {@code cubed rechunk} that shuffles 9.2 GB
     * took as long as without the vector code, and more CPU (docs/zarr.md, "Why 12 GiB"). Shuffling this much first, a job never pays much more than twice what the better
     * choice in hindsight would have cost (the ski-rental rule). {@link BloscCodec#warmUp()} starts it at once for
     * processes known to be long (the benchmark suite).
     */
    static final long WARMUP_AFTER_BYTES = 12L << 30;

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
            shuffle8Scalar(n, src, srcOff, dst, dstOff);
        } else if (typesize == 4) {
            shuffle4(n, src, srcOff, dst, dstOff);
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
            unshuffle8Scalar(n, src, srcOff, dst, dstOff);
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
     * Unshuffles {@code n} 8-byte elements from 8 streams of {@code n} bytes each, stream {@code j} at {@code
     * s<j>[o<j>]}, into {@code dst[dstOff...]}: with the vector code once it is in use, else the scalar loops. The
     * streams need not follow one another: a Blosc block whose streams are partly stored as they are, in the frame, and
     * partly decompressed elsewhere is unshuffled without first being gathered.
     */
    static void unshuffle8(
            int n,
            byte[] s0,
            int o0,
            byte[] s1,
            int o1,
            byte[] s2,
            int o2,
            byte[] s3,
            int o3,
            byte[] s4,
            int o4,
            byte[] s5,
            int o5,
            byte[] s6,
            int o6,
            byte[] s7,
            int o7,
            byte[] dst,
            int dstOff) {
        if (VECTOR && vectorNow(8 * n)) {
            VectorByteShuffle.unshuffle8(
                    n, s0, o0, s1, o1, s2, o2, s3, o3, s4, o4, s5, o5, s6, o6, s7, o7, dst, dstOff);
        } else {
            unshuffle8Scalar(n, s0, o0, s1, o1, s2, o2, s3, o3, s4, o4, s5, o5, s6, o6, s7, o7, dst, dstOff);
        }
    }

    /**
     * {@link #unshuffle8(int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int,
     * byte[], int, byte[], int)} into {@code float64} values: {@code dst[dstOff + e]} is the value whose little-endian
     * bytes element {@code e} is, with no copy through a {@code byte[]} (a decoded block goes straight into a chunk's or
     * a box's array).
     */
    static void unshuffle8ToDoubles(
            int n,
            byte[] s0,
            int o0,
            byte[] s1,
            int o1,
            byte[] s2,
            int o2,
            byte[] s3,
            int o3,
            byte[] s4,
            int o4,
            byte[] s5,
            int o5,
            byte[] s6,
            int o6,
            byte[] s7,
            int o7,
            double[] dst,
            int dstOff) {
        if (VECTOR && vectorNow(8 * n)) {
            VectorByteShuffle.unshuffle8ToDoubles(
                    n, s0, o0, s1, o1, s2, o2, s3, o3, s4, o4, s5, o5, s6, o6, s7, o7, dst, dstOff);
        } else {
            unshuffle8ToDoublesScalar(n, s0, o0, s1, o1, s2, o2, s3, o3, s4, o4, s5, o5, s6, o6, s7, o7, dst, dstOff);
        }
    }

    /**
     * Shuffles the little-endian bytes of the {@code float64} values {@code src[srcOff...srcOff + n)} into 8 streams of
     * {@code n} bytes at {@code dst[dstOff...]}, with no copy of the values into a {@code byte[]} first (a chunk's
     * block goes to the encoder straight from its array).
     */
    static void shuffle8FromDoubles(int n, double[] src, int srcOff, byte[] dst, int dstOff) {
        if (VECTOR && vectorNow(8 * n)) {
            VectorByteShuffle.shuffle8FromDoubles(n, src, srcOff, dst, dstOff);
        } else {
            shuffle8FromDoublesScalar(n, src, srcOff, dst, dstOff);
        }
    }

    /*
     * The scalar loops below work on 8 elements at a time: 8 longs (rows) whose bytes are an 8 x 8 byte matrix are
     * transposed in three rounds of delta swaps, 4 x 4 blocks across the diagonal, then 2 x 2 within them, then single
     * bytes. Rows are elements when shuffling and streams when unshuffling: a transpose is its own inverse. Byte c of a
     * row is bits 8c..8c+7 (little-endian).
     *
     * The transpose is written out in each loop, not called: C2 inlines a hot method of at most 325 bytecodes
     * (FreqInlineSize), and the transpose as a method of its own is about 630, so every 8 elements paid a call whose
     * loads and stores could not share their bounds checks. Written out: 2.8-3.6 GB/s per direction against 2.3-2.7
     * for the called method, and 3.5-4.6 GB/s unshuffling into float64 values, whose copy from bytes it saves too
     * (docs/zarr.md, "Byte shuffle").
     */

    /** The scalar {@link #unshuffle8(int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int)}. */
    static void unshuffle8Scalar(
            int n,
            byte[] s0,
            int o0,
            byte[] s1,
            int o1,
            byte[] s2,
            int o2,
            byte[] s3,
            int o3,
            byte[] s4,
            int o4,
            byte[] s5,
            int o5,
            byte[] s6,
            int o6,
            byte[] s7,
            int o7,
            byte[] dst,
            int dstOff) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long r0 = LittleEndian.getLong(s0, o0 + i);
            long r1 = LittleEndian.getLong(s1, o1 + i);
            long r2 = LittleEndian.getLong(s2, o2 + i);
            long r3 = LittleEndian.getLong(s3, o3 + i);
            long r4 = LittleEndian.getLong(s4, o4 + i);
            long r5 = LittleEndian.getLong(s5, o5 + i);
            long r6 = LittleEndian.getLong(s6, o6 + i);
            long r7 = LittleEndian.getLong(s7, o7 + i);
            long x;
            x = ((r0 >>> 32) ^ r4) & MASK_32;
            r0 ^= x << 32;
            r4 ^= x;
            x = ((r1 >>> 32) ^ r5) & MASK_32;
            r1 ^= x << 32;
            r5 ^= x;
            x = ((r2 >>> 32) ^ r6) & MASK_32;
            r2 ^= x << 32;
            r6 ^= x;
            x = ((r3 >>> 32) ^ r7) & MASK_32;
            r3 ^= x << 32;
            r7 ^= x;
            x = ((r0 >>> 16) ^ r2) & MASK_16;
            r0 ^= x << 16;
            r2 ^= x;
            x = ((r1 >>> 16) ^ r3) & MASK_16;
            r1 ^= x << 16;
            r3 ^= x;
            x = ((r4 >>> 16) ^ r6) & MASK_16;
            r4 ^= x << 16;
            r6 ^= x;
            x = ((r5 >>> 16) ^ r7) & MASK_16;
            r5 ^= x << 16;
            r7 ^= x;
            x = ((r0 >>> 8) ^ r1) & MASK_8;
            r0 ^= x << 8;
            r1 ^= x;
            x = ((r2 >>> 8) ^ r3) & MASK_8;
            r2 ^= x << 8;
            r3 ^= x;
            x = ((r4 >>> 8) ^ r5) & MASK_8;
            r4 ^= x << 8;
            r5 ^= x;
            x = ((r6 >>> 8) ^ r7) & MASK_8;
            r6 ^= x << 8;
            r7 ^= x;
            int d = dstOff + 8 * i;
            LittleEndian.putLong(dst, d, r0);
            LittleEndian.putLong(dst, d + 8, r1);
            LittleEndian.putLong(dst, d + 16, r2);
            LittleEndian.putLong(dst, d + 24, r3);
            LittleEndian.putLong(dst, d + 32, r4);
            LittleEndian.putLong(dst, d + 40, r5);
            LittleEndian.putLong(dst, d + 48, r6);
            LittleEndian.putLong(dst, d + 56, r7);
        }
        for (; i < n; i++) {
            LittleEndian.putLong(
                    dst, dstOff + 8 * i, gather(i, s0, o0, s1, o1, s2, o2, s3, o3, s4, o4, s5, o5, s6, o6, s7, o7));
        }
    }

    /** The scalar {@link #unshuffle8ToDoubles}: {@link #unshuffle8Scalar} with other stores. */
    static void unshuffle8ToDoublesScalar(
            int n,
            byte[] s0,
            int o0,
            byte[] s1,
            int o1,
            byte[] s2,
            int o2,
            byte[] s3,
            int o3,
            byte[] s4,
            int o4,
            byte[] s5,
            int o5,
            byte[] s6,
            int o6,
            byte[] s7,
            int o7,
            double[] dst,
            int dstOff) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long r0 = LittleEndian.getLong(s0, o0 + i);
            long r1 = LittleEndian.getLong(s1, o1 + i);
            long r2 = LittleEndian.getLong(s2, o2 + i);
            long r3 = LittleEndian.getLong(s3, o3 + i);
            long r4 = LittleEndian.getLong(s4, o4 + i);
            long r5 = LittleEndian.getLong(s5, o5 + i);
            long r6 = LittleEndian.getLong(s6, o6 + i);
            long r7 = LittleEndian.getLong(s7, o7 + i);
            long x;
            x = ((r0 >>> 32) ^ r4) & MASK_32;
            r0 ^= x << 32;
            r4 ^= x;
            x = ((r1 >>> 32) ^ r5) & MASK_32;
            r1 ^= x << 32;
            r5 ^= x;
            x = ((r2 >>> 32) ^ r6) & MASK_32;
            r2 ^= x << 32;
            r6 ^= x;
            x = ((r3 >>> 32) ^ r7) & MASK_32;
            r3 ^= x << 32;
            r7 ^= x;
            x = ((r0 >>> 16) ^ r2) & MASK_16;
            r0 ^= x << 16;
            r2 ^= x;
            x = ((r1 >>> 16) ^ r3) & MASK_16;
            r1 ^= x << 16;
            r3 ^= x;
            x = ((r4 >>> 16) ^ r6) & MASK_16;
            r4 ^= x << 16;
            r6 ^= x;
            x = ((r5 >>> 16) ^ r7) & MASK_16;
            r5 ^= x << 16;
            r7 ^= x;
            x = ((r0 >>> 8) ^ r1) & MASK_8;
            r0 ^= x << 8;
            r1 ^= x;
            x = ((r2 >>> 8) ^ r3) & MASK_8;
            r2 ^= x << 8;
            r3 ^= x;
            x = ((r4 >>> 8) ^ r5) & MASK_8;
            r4 ^= x << 8;
            r5 ^= x;
            x = ((r6 >>> 8) ^ r7) & MASK_8;
            r6 ^= x << 8;
            r7 ^= x;
            int d = dstOff + i;
            dst[d] = Double.longBitsToDouble(r0);
            dst[d + 1] = Double.longBitsToDouble(r1);
            dst[d + 2] = Double.longBitsToDouble(r2);
            dst[d + 3] = Double.longBitsToDouble(r3);
            dst[d + 4] = Double.longBitsToDouble(r4);
            dst[d + 5] = Double.longBitsToDouble(r5);
            dst[d + 6] = Double.longBitsToDouble(r6);
            dst[d + 7] = Double.longBitsToDouble(r7);
        }
        for (; i < n; i++) {
            dst[dstOff + i] =
                    Double.longBitsToDouble(gather(i, s0, o0, s1, o1, s2, o2, s3, o3, s4, o4, s5, o5, s6, o6, s7, o7));
        }
    }

    /** Element {@code i} of 8 streams: byte {@code j} from stream {@code j}. */
    private static long gather(
            int i,
            byte[] s0,
            int o0,
            byte[] s1,
            int o1,
            byte[] s2,
            int o2,
            byte[] s3,
            int o3,
            byte[] s4,
            int o4,
            byte[] s5,
            int o5,
            byte[] s6,
            int o6,
            byte[] s7,
            int o7) {
        return (s0[o0 + i] & 0xFFL)
                | (s1[o1 + i] & 0xFFL) << 8
                | (s2[o2 + i] & 0xFFL) << 16
                | (s3[o3 + i] & 0xFFL) << 24
                | (s4[o4 + i] & 0xFFL) << 32
                | (s5[o5 + i] & 0xFFL) << 40
                | (s6[o6 + i] & 0xFFL) << 48
                | (s7[o7 + i] & 0xFFL) << 56;
    }

    /** Unshuffles {@code n} 8-byte elements with the scalar loops: 8 streams of {@code n} bytes at {@code src[srcOff]}. */
    static void unshuffle8Scalar(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        unshuffle8Scalar(
                n,
                src,
                srcOff,
                src,
                srcOff + n,
                src,
                srcOff + 2 * n,
                src,
                srcOff + 3 * n,
                src,
                srcOff + 4 * n,
                src,
                srcOff + 5 * n,
                src,
                srcOff + 6 * n,
                src,
                srcOff + 7 * n,
                dst,
                dstOff);
    }

    /** {@link #unshuffle8Scalar(int, byte[], int, byte[], int)} into {@code float64} values. */
    static void unshuffle8ToDoublesScalar(int n, byte[] src, int srcOff, double[] dst, int dstOff) {
        unshuffle8ToDoublesScalar(
                n,
                src,
                srcOff,
                src,
                srcOff + n,
                src,
                srcOff + 2 * n,
                src,
                srcOff + 3 * n,
                src,
                srcOff + 4 * n,
                src,
                srcOff + 5 * n,
                src,
                srcOff + 6 * n,
                src,
                srcOff + 7 * n,
                dst,
                dstOff);
    }

    /** Shuffles {@code n} 8-byte elements at {@code src[srcOff]} with the scalar loops. */
    static void shuffle8Scalar(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            int s = srcOff + 8 * i;
            long r0 = LittleEndian.getLong(src, s);
            long r1 = LittleEndian.getLong(src, s + 8);
            long r2 = LittleEndian.getLong(src, s + 16);
            long r3 = LittleEndian.getLong(src, s + 24);
            long r4 = LittleEndian.getLong(src, s + 32);
            long r5 = LittleEndian.getLong(src, s + 40);
            long r6 = LittleEndian.getLong(src, s + 48);
            long r7 = LittleEndian.getLong(src, s + 56);
            long x;
            x = ((r0 >>> 32) ^ r4) & MASK_32;
            r0 ^= x << 32;
            r4 ^= x;
            x = ((r1 >>> 32) ^ r5) & MASK_32;
            r1 ^= x << 32;
            r5 ^= x;
            x = ((r2 >>> 32) ^ r6) & MASK_32;
            r2 ^= x << 32;
            r6 ^= x;
            x = ((r3 >>> 32) ^ r7) & MASK_32;
            r3 ^= x << 32;
            r7 ^= x;
            x = ((r0 >>> 16) ^ r2) & MASK_16;
            r0 ^= x << 16;
            r2 ^= x;
            x = ((r1 >>> 16) ^ r3) & MASK_16;
            r1 ^= x << 16;
            r3 ^= x;
            x = ((r4 >>> 16) ^ r6) & MASK_16;
            r4 ^= x << 16;
            r6 ^= x;
            x = ((r5 >>> 16) ^ r7) & MASK_16;
            r5 ^= x << 16;
            r7 ^= x;
            x = ((r0 >>> 8) ^ r1) & MASK_8;
            r0 ^= x << 8;
            r1 ^= x;
            x = ((r2 >>> 8) ^ r3) & MASK_8;
            r2 ^= x << 8;
            r3 ^= x;
            x = ((r4 >>> 8) ^ r5) & MASK_8;
            r4 ^= x << 8;
            r5 ^= x;
            x = ((r6 >>> 8) ^ r7) & MASK_8;
            r6 ^= x << 8;
            r7 ^= x;
            putStreams(dst, dstOff + i, n, r0, r1, r2, r3, r4, r5, r6, r7);
        }
        for (; i < n; i++) {
            scatter(LittleEndian.getLong(src, srcOff + 8 * i), dst, dstOff + i, n);
        }
    }

    /** The scalar {@link #shuffle8FromDoubles}: {@link #shuffle8Scalar} with other loads. */
    static void shuffle8FromDoublesScalar(int n, double[] src, int srcOff, byte[] dst, int dstOff) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            int s = srcOff + i;
            long r0 = Double.doubleToRawLongBits(src[s]);
            long r1 = Double.doubleToRawLongBits(src[s + 1]);
            long r2 = Double.doubleToRawLongBits(src[s + 2]);
            long r3 = Double.doubleToRawLongBits(src[s + 3]);
            long r4 = Double.doubleToRawLongBits(src[s + 4]);
            long r5 = Double.doubleToRawLongBits(src[s + 5]);
            long r6 = Double.doubleToRawLongBits(src[s + 6]);
            long r7 = Double.doubleToRawLongBits(src[s + 7]);
            long x;
            x = ((r0 >>> 32) ^ r4) & MASK_32;
            r0 ^= x << 32;
            r4 ^= x;
            x = ((r1 >>> 32) ^ r5) & MASK_32;
            r1 ^= x << 32;
            r5 ^= x;
            x = ((r2 >>> 32) ^ r6) & MASK_32;
            r2 ^= x << 32;
            r6 ^= x;
            x = ((r3 >>> 32) ^ r7) & MASK_32;
            r3 ^= x << 32;
            r7 ^= x;
            x = ((r0 >>> 16) ^ r2) & MASK_16;
            r0 ^= x << 16;
            r2 ^= x;
            x = ((r1 >>> 16) ^ r3) & MASK_16;
            r1 ^= x << 16;
            r3 ^= x;
            x = ((r4 >>> 16) ^ r6) & MASK_16;
            r4 ^= x << 16;
            r6 ^= x;
            x = ((r5 >>> 16) ^ r7) & MASK_16;
            r5 ^= x << 16;
            r7 ^= x;
            x = ((r0 >>> 8) ^ r1) & MASK_8;
            r0 ^= x << 8;
            r1 ^= x;
            x = ((r2 >>> 8) ^ r3) & MASK_8;
            r2 ^= x << 8;
            r3 ^= x;
            x = ((r4 >>> 8) ^ r5) & MASK_8;
            r4 ^= x << 8;
            r5 ^= x;
            x = ((r6 >>> 8) ^ r7) & MASK_8;
            r6 ^= x << 8;
            r7 ^= x;
            putStreams(dst, dstOff + i, n, r0, r1, r2, r3, r4, r5, r6, r7);
        }
        for (; i < n; i++) {
            scatter(Double.doubleToRawLongBits(src[srcOff + i]), dst, dstOff + i, n);
        }
    }

    /** Stores 8 transposed rows: row {@code j} (8 elements' byte {@code j}) at {@code dst[d + j * n]}. */
    private static void putStreams(
            byte[] dst, int d, int n, long r0, long r1, long r2, long r3, long r4, long r5, long r6, long r7) {
        LittleEndian.putLong(dst, d, r0);
        LittleEndian.putLong(dst, d + n, r1);
        LittleEndian.putLong(dst, d + 2 * n, r2);
        LittleEndian.putLong(dst, d + 3 * n, r3);
        LittleEndian.putLong(dst, d + 4 * n, r4);
        LittleEndian.putLong(dst, d + 5 * n, r5);
        LittleEndian.putLong(dst, d + 6 * n, r6);
        LittleEndian.putLong(dst, d + 7 * n, r7);
    }

    /** One element's 8 bytes to 8 streams of {@code n} bytes: byte {@code j} at {@code dst[d + j * n]}. */
    private static void scatter(long v, byte[] dst, int d, int n) {
        for (int j = 0; j < 8; j++) {
            dst[d + j * n] = (byte) (v >>> (8 * j));
        }
    }

    /*
     * 4-byte elements (float32, int32: ERA5 and most climate data), 8 at a time: 4 longs, one per stream, hold byte j
     * of elements i..i+7, and two rounds of delta swaps transpose the 4 x 4 byte matrix in each 32-bit half at once
     * (elements i..i+3 in the low halves, i+4..i+7 in the high ones): unshuffle 4.8-5.0 GB/s and shuffle 5.1-5.5 on
     * one thread, against 3.4-4.1 and 2.3-2.5 an element at a time (docs/zarr.md, "The scalar loops").
     */

    /** Shuffles {@code n} 4-byte elements at {@code src[srcOff]} into 4 streams of {@code n} bytes. */
    static void shuffle4(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            int s = srcOff + 4 * i;
            long e01 = LittleEndian.getLong(src, s);
            long e23 = LittleEndian.getLong(src, s + 8);
            long e45 = LittleEndian.getLong(src, s + 16);
            long e67 = LittleEndian.getLong(src, s + 24);
            // Row k: element k in the low half, element k + 4 in the high one.
            long r0 = (e01 & MASK_32) | (e45 << 32);
            long r1 = (e01 >>> 32) | (e45 & ~MASK_32);
            long r2 = (e23 & MASK_32) | (e67 << 32);
            long r3 = (e23 >>> 32) | (e67 & ~MASK_32);
            long x;
            x = ((r0 >>> 16) ^ r2) & MASK_16;
            r0 ^= x << 16;
            r2 ^= x;
            x = ((r1 >>> 16) ^ r3) & MASK_16;
            r1 ^= x << 16;
            r3 ^= x;
            x = ((r0 >>> 8) ^ r1) & MASK_8;
            r0 ^= x << 8;
            r1 ^= x;
            x = ((r2 >>> 8) ^ r3) & MASK_8;
            r2 ^= x << 8;
            r3 ^= x;
            // Row j: byte j of elements i..i+3 (low half) and i+4..i+7 (high half), in element order.
            int d = dstOff + i;
            LittleEndian.putLong(dst, d, r0);
            LittleEndian.putLong(dst, d + n, r1);
            LittleEndian.putLong(dst, d + 2 * n, r2);
            LittleEndian.putLong(dst, d + 3 * n, r3);
        }
        for (; i < n; i++) {
            int v = LittleEndian.getInt(src, srcOff + 4 * i);
            int d = dstOff + i;
            dst[d] = (byte) v;
            dst[d + n] = (byte) (v >>> 8);
            dst[d + 2 * n] = (byte) (v >>> 16);
            dst[d + 3 * n] = (byte) (v >>> 24);
        }
    }

    /** Unshuffles {@code n} 4-byte elements: 4 streams of {@code n} bytes at {@code src[srcOff]} to elements. */
    static void unshuffle4(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            int s = srcOff + i;
            long r0 = LittleEndian.getLong(src, s);
            long r1 = LittleEndian.getLong(src, s + n);
            long r2 = LittleEndian.getLong(src, s + 2 * n);
            long r3 = LittleEndian.getLong(src, s + 3 * n);
            long x;
            x = ((r0 >>> 16) ^ r2) & MASK_16;
            r0 ^= x << 16;
            r2 ^= x;
            x = ((r1 >>> 16) ^ r3) & MASK_16;
            r1 ^= x << 16;
            r3 ^= x;
            x = ((r0 >>> 8) ^ r1) & MASK_8;
            r0 ^= x << 8;
            r1 ^= x;
            x = ((r2 >>> 8) ^ r3) & MASK_8;
            r2 ^= x << 8;
            r3 ^= x;
            // Row k: element i + k in the low half, element i + k + 4 in the high one.
            int d = dstOff + 4 * i;
            LittleEndian.putLong(dst, d, (r0 & MASK_32) | (r1 << 32));
            LittleEndian.putLong(dst, d + 8, (r2 & MASK_32) | (r3 << 32));
            LittleEndian.putLong(dst, d + 16, (r0 >>> 32) | (r1 & ~MASK_32));
            LittleEndian.putLong(dst, d + 24, (r2 >>> 32) | (r3 & ~MASK_32));
        }
        for (; i < n; i++) {
            int s = srcOff + i;
            int v = (src[s] & 0xFF) | (src[s + n] & 0xFF) << 8 | (src[s + 2 * n] & 0xFF) << 16 | src[s + 3 * n] << 24;
            LittleEndian.putInt(dst, dstOff + 4 * i, v);
        }
    }
}
