package io.cubed.storage.zarr.blosc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Blosc's byte shuffle of 8-byte elements with the JDK's Vector API, for JVMs started with {@code --add-modules
 * jdk.incubator.vector}: the 8 x 8 byte transpose that {@link ByteShuffle} does on one group of 8 elements at a time
 * runs here on as many groups as a 256-bit (or, where there is none, 128-bit) vector has long lanes, three to four times
 * faster. Only {@link ByteShuffle} calls it, and only when {@link #AVAILABLE}; without the module this class is never
 * loaded. Sizes are in bytes, counts in elements.
 */
final class VectorByteShuffle {
    /**
     * 256-bit vectors where the machine has them (also on AVX-512 machines: measured on an AMD EPYC with AVX-512, the
     * 512-bit species of JDK 17 ran this at 1.3 GB/s against 7.7 to 12.9 GB/s with 256-bit vectors), otherwise the
     * machine's own (128-bit NEON or SSE).
     */
    private static final VectorSpecies<Long> LONGS =
            LongVector.SPECIES_PREFERRED.vectorBitSize() >= 256 ? LongVector.SPECIES_256 : LongVector.SPECIES_PREFERRED;

    private static final int LANES = LONGS.length();
    /** Elements per step: a group of 8 per lane. */
    private static final int STEP = 8 * LANES;

    private static final VarHandle LONG_AT =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long MASK_32 = 0x00000000FFFFFFFFL;
    private static final long MASK_16 = 0x0000FFFF0000FFFFL;
    private static final long MASK_8 = 0x00FF00FF00FF00FFL;

    /** Per-thread scratch for moving lanes between the transposed vectors and the elements' order. */
    private static final ThreadLocal<long[]> SCRATCH = ThreadLocal.withInitial(() -> new long[8 * LANES]);

    /** True when the vector shape has at least two long lanes, so that vectors beat scalar code. */
    static final boolean AVAILABLE = LANES >= 2;

    private VectorByteShuffle() {}

    /** Unshuffles {@code n} 8-byte elements: 8 streams of {@code n} bytes at {@code src[srcOff]} to elements. */
    static void unshuffle8(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        long[] t = SCRATCH.get();
        int i = 0;
        for (; i + STEP <= n; i += STEP) {
            int s = srcOff + i;
            // Lane k of vector j: bytes i + 8k .. i + 8k + 7 of stream j, i.e. byte j of 8 consecutive elements.
            LongVector a0 = LongVector.fromByteArray(LONGS, src, s, ByteOrder.LITTLE_ENDIAN);
            LongVector a1 = LongVector.fromByteArray(LONGS, src, s + n, ByteOrder.LITTLE_ENDIAN);
            LongVector a2 = LongVector.fromByteArray(LONGS, src, s + 2 * n, ByteOrder.LITTLE_ENDIAN);
            LongVector a3 = LongVector.fromByteArray(LONGS, src, s + 3 * n, ByteOrder.LITTLE_ENDIAN);
            LongVector a4 = LongVector.fromByteArray(LONGS, src, s + 4 * n, ByteOrder.LITTLE_ENDIAN);
            LongVector a5 = LongVector.fromByteArray(LONGS, src, s + 5 * n, ByteOrder.LITTLE_ENDIAN);
            LongVector a6 = LongVector.fromByteArray(LONGS, src, s + 6 * n, ByteOrder.LITTLE_ENDIAN);
            LongVector a7 = LongVector.fromByteArray(LONGS, src, s + 7 * n, ByteOrder.LITTLE_ENDIAN);
            // The transpose, in three rounds of block swaps (4 x 4, 2 x 2, 1 x 1 bytes): a & mask | (b << s) & ~mask
            // and (a >>> s) & mask | b & ~mask. Written out in one method, not in helpers: the vectors must stay in
            // registers, and C2 stops inlining helpers into a method this large (the vectors would then be boxed).
            LongVector b0 =
                    a0.and(MASK_32).or(a4.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b4 = a0.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a4.and(~MASK_32));
            LongVector b1 =
                    a1.and(MASK_32).or(a5.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b5 = a1.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a5.and(~MASK_32));
            LongVector b2 =
                    a2.and(MASK_32).or(a6.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b6 = a2.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a6.and(~MASK_32));
            LongVector b3 =
                    a3.and(MASK_32).or(a7.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b7 = a3.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a7.and(~MASK_32));
            LongVector c0 =
                    b0.and(MASK_16).or(b2.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c2 = b0.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b2.and(~MASK_16));
            LongVector c1 =
                    b1.and(MASK_16).or(b3.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c3 = b1.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b3.and(~MASK_16));
            LongVector c4 =
                    b4.and(MASK_16).or(b6.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c6 = b4.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b6.and(~MASK_16));
            LongVector c5 =
                    b5.and(MASK_16).or(b7.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c7 = b5.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b7.and(~MASK_16));
            // Lane k of the vector for r is element i + 8k + r.
            c0.and(MASK_8).or(c1.lanewise(VectorOperators.LSHL, 8).and(~MASK_8)).intoArray(t, 0);
            c0.lanewise(VectorOperators.LSHR, 8).and(MASK_8).or(c1.and(~MASK_8)).intoArray(t, LANES);
            c2.and(MASK_8).or(c3.lanewise(VectorOperators.LSHL, 8).and(~MASK_8)).intoArray(t, 2 * LANES);
            c2.lanewise(VectorOperators.LSHR, 8).and(MASK_8).or(c3.and(~MASK_8)).intoArray(t, 3 * LANES);
            c4.and(MASK_8).or(c5.lanewise(VectorOperators.LSHL, 8).and(~MASK_8)).intoArray(t, 4 * LANES);
            c4.lanewise(VectorOperators.LSHR, 8).and(MASK_8).or(c5.and(~MASK_8)).intoArray(t, 5 * LANES);
            c6.and(MASK_8).or(c7.lanewise(VectorOperators.LSHL, 8).and(~MASK_8)).intoArray(t, 6 * LANES);
            c6.lanewise(VectorOperators.LSHR, 8).and(MASK_8).or(c7.and(~MASK_8)).intoArray(t, 7 * LANES);
            int d = dstOff + 8 * i;
            for (int k = 0; k < LANES; k++) {
                for (int r = 0; r < 8; r++) {
                    LONG_AT.set(dst, d + 64 * k + 8 * r, t[r * LANES + k]);
                }
            }
        }
        if (i < n) {
            ByteShuffle.unshuffle8From(i, n, src, srcOff, dst, dstOff);
        }
    }

    /** Shuffles {@code n} 8-byte elements at {@code src[srcOff]} into 8 streams of {@code n} bytes. */
    static void shuffle8(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        long[] t = SCRATCH.get();
        int i = 0;
        for (; i + STEP <= n; i += STEP) {
            int s = srcOff + 8 * i;
            for (int k = 0; k < LANES; k++) {
                for (int r = 0; r < 8; r++) {
                    t[r * LANES + k] = (long) LONG_AT.get(src, s + 64 * k + 8 * r);
                }
            }
            // Lane k of the vector for r: element i + 8k + r; the transpose makes lane k of vector j byte j of them.
            LongVector a0 = LongVector.fromArray(LONGS, t, 0);
            LongVector a1 = LongVector.fromArray(LONGS, t, LANES);
            LongVector a2 = LongVector.fromArray(LONGS, t, 2 * LANES);
            LongVector a3 = LongVector.fromArray(LONGS, t, 3 * LANES);
            LongVector a4 = LongVector.fromArray(LONGS, t, 4 * LANES);
            LongVector a5 = LongVector.fromArray(LONGS, t, 5 * LANES);
            LongVector a6 = LongVector.fromArray(LONGS, t, 6 * LANES);
            LongVector a7 = LongVector.fromArray(LONGS, t, 7 * LANES);
            LongVector b0 =
                    a0.and(MASK_32).or(a4.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b4 = a0.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a4.and(~MASK_32));
            LongVector b1 =
                    a1.and(MASK_32).or(a5.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b5 = a1.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a5.and(~MASK_32));
            LongVector b2 =
                    a2.and(MASK_32).or(a6.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b6 = a2.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a6.and(~MASK_32));
            LongVector b3 =
                    a3.and(MASK_32).or(a7.lanewise(VectorOperators.LSHL, 32).and(~MASK_32));
            LongVector b7 = a3.lanewise(VectorOperators.LSHR, 32).and(MASK_32).or(a7.and(~MASK_32));
            LongVector c0 =
                    b0.and(MASK_16).or(b2.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c2 = b0.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b2.and(~MASK_16));
            LongVector c1 =
                    b1.and(MASK_16).or(b3.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c3 = b1.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b3.and(~MASK_16));
            LongVector c4 =
                    b4.and(MASK_16).or(b6.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c6 = b4.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b6.and(~MASK_16));
            LongVector c5 =
                    b5.and(MASK_16).or(b7.lanewise(VectorOperators.LSHL, 16).and(~MASK_16));
            LongVector c7 = b5.lanewise(VectorOperators.LSHR, 16).and(MASK_16).or(b7.and(~MASK_16));
            int d = dstOff + i;
            c0.and(MASK_8)
                    .or(c1.lanewise(VectorOperators.LSHL, 8).and(~MASK_8))
                    .intoByteArray(dst, d, ByteOrder.LITTLE_ENDIAN);
            c0.lanewise(VectorOperators.LSHR, 8)
                    .and(MASK_8)
                    .or(c1.and(~MASK_8))
                    .intoByteArray(dst, d + n, ByteOrder.LITTLE_ENDIAN);
            c2.and(MASK_8)
                    .or(c3.lanewise(VectorOperators.LSHL, 8).and(~MASK_8))
                    .intoByteArray(dst, d + 2 * n, ByteOrder.LITTLE_ENDIAN);
            c2.lanewise(VectorOperators.LSHR, 8)
                    .and(MASK_8)
                    .or(c3.and(~MASK_8))
                    .intoByteArray(dst, d + 3 * n, ByteOrder.LITTLE_ENDIAN);
            c4.and(MASK_8)
                    .or(c5.lanewise(VectorOperators.LSHL, 8).and(~MASK_8))
                    .intoByteArray(dst, d + 4 * n, ByteOrder.LITTLE_ENDIAN);
            c4.lanewise(VectorOperators.LSHR, 8)
                    .and(MASK_8)
                    .or(c5.and(~MASK_8))
                    .intoByteArray(dst, d + 5 * n, ByteOrder.LITTLE_ENDIAN);
            c6.and(MASK_8)
                    .or(c7.lanewise(VectorOperators.LSHL, 8).and(~MASK_8))
                    .intoByteArray(dst, d + 6 * n, ByteOrder.LITTLE_ENDIAN);
            c6.lanewise(VectorOperators.LSHR, 8)
                    .and(MASK_8)
                    .or(c7.and(~MASK_8))
                    .intoByteArray(dst, d + 7 * n, ByteOrder.LITTLE_ENDIAN);
        }
        if (i < n) {
            ByteShuffle.shuffle8From(i, n, src, srcOff, dst, dstOff);
        }
    }
}
