package io.cubed.storage.zarr.blosc;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Blosc's byte shuffle of 8-byte elements with the JDK's Vector API, for JVMs started with {@code --add-modules
 * jdk.incubator.vector}: the 8 x 8 byte transpose that {@link ByteShuffle} does on one group of 8 elements at a time
 * runs here on as many groups as a 256-bit (or, where there is none, 128-bit) vector has long lanes, about four times
 * faster (docs/zarr.md). Only {@link ByteShuffle} calls it, and only when {@link ByteShuffle#VECTOR}; without the module this class is never
 * loaded. Sizes are in bytes, counts in elements.
 */
final class VectorByteShuffle {
    /**
     * 256-bit vectors where the machine has them (also on AVX-512 machines: measured on an AMD EPYC with AVX-512, the
     * 512-bit species of JDK 17 ran an earlier version of this code at 1.3 GB/s against 7.7 to 12.9 GB/s with 256-bit
     * vectors), otherwise the
     * machine's own (128-bit NEON or SSE).
     */
    private static final VectorSpecies<Long> LONGS =
            LongVector.SPECIES_PREFERRED.vectorBitSize() >= 256 ? LongVector.SPECIES_256 : LongVector.SPECIES_PREFERRED;

    private static final int LANES = LONGS.length();
    /** Elements per step: a group of 8 per lane. */
    private static final int STEP = 8 * LANES;

    private static final long MASK_32 = 0x00000000FFFFFFFFL;
    private static final long MASK_16 = 0x0000FFFF0000FFFFL;
    private static final long MASK_8 = 0x00FF00FF00FF00FFL;

    /**
     * Doubles of one vector of {@link #LONGS}' shape ({@link #unshuffle8ToDoubles}, {@link #shuffle8FromDoubles}).
     * Longs become doubles by {@code reinterpretShape} to this species,
     * not by {@code reinterpretAsDoubles()}: that one goes through a method every vector type shares, whose call profile
     * other vector code in the process pollutes, and C2 then compiled the store after it without the Vector API's
     * intrinsic (the vectors boxed: a task allocating 1.2 GB instead of 80 MB, W5 4 x slower); measured in a small
     * program with the profile polluted on purpose, 368 ms against 19.
     */
    private static final VectorSpecies<Double> DOUBLES = LONGS.withLanes(double.class);

    /** Bytes of one vector of {@link #LONGS}' shape. */
    private static final VectorSpecies<Byte> BYTES = LONGS.withLanes(byte.class);

    /**
     * Reorders the {@code 8 * LANES} bytes a vector loads from one stream (byte j of elements e = 0, 1, ...) so that
     * lane k holds elements k, k + LANES, ..., k + 7 LANES: after the 8 x 8 transpose, vector r then holds elements
     * {@code LANES * r} to {@code LANES * r + LANES - 1}, contiguous, and is stored with one vector store.
     */
    private static final VectorShuffle<Byte> TO_LANES;

    /** The inverse of {@link #TO_LANES}, for shuffling: lane k, byte p back to stream position k + LANES p. */
    private static final VectorShuffle<Byte> FROM_LANES;

    static {
        int[] to = new int[8 * LANES];
        int[] from = new int[8 * LANES];
        for (int k = 0; k < LANES; k++) {
            for (int p = 0; p < 8; p++) {
                to[8 * k + p] = k + LANES * p;
                from[k + LANES * p] = 8 * k + p;
            }
        }
        TO_LANES = VectorShuffle.fromArray(BYTES, to, 0);
        FROM_LANES = VectorShuffle.fromArray(BYTES, from, 0);
    }

    /** True when the vector shape has at least two long lanes, so that vectors beat scalar code. */
    static final boolean AVAILABLE = LANES >= 2;

    private VectorByteShuffle() {}

    /** The vector size in bits this JVM runs the shuffle with (256, or the machine's 128). */
    static int vectorBits() {
        return LONGS.vectorBitSize();
    }

    /** Unshuffles {@code n} 8-byte elements: 8 streams of {@code n} bytes at {@code src[srcOff]} to elements. */
    static void unshuffle8(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        unshuffle8(
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

    /**
     * Unshuffles {@code n} 8-byte elements from 8 streams of {@code n} bytes each, stream {@code j} at {@code
     * s<j>[o<j>]}: the streams need not follow one another (a Blosc block whose streams are partly stored as they are,
     * in the frame, and partly decompressed elsewhere is unshuffled without first being gathered). Eight arrays and
     * offsets rather than two arrays of them, so that no array is allocated per block.
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
        int i = 0;
        for (; i + STEP <= n; i += STEP) {
            // Lane k of vector j: byte j of elements i + k + LANES p, p = 0..7 (byte p of the lane).
            LongVector a0 = ByteVector.fromByteArray(BYTES, s0, o0 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a1 = ByteVector.fromByteArray(BYTES, s1, o1 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a2 = ByteVector.fromByteArray(BYTES, s2, o2 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a3 = ByteVector.fromByteArray(BYTES, s3, o3 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a4 = ByteVector.fromByteArray(BYTES, s4, o4 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a5 = ByteVector.fromByteArray(BYTES, s5, o5 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a6 = ByteVector.fromByteArray(BYTES, s6, o6 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a7 = ByteVector.fromByteArray(BYTES, s7, o7 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            // The 8 x 8 byte transpose within each lane, in three rounds of delta swaps (blocks of 4, 2, 1 bytes):
            // t = ((a >>> w) ^ b) & mask; a ^= t << w; b ^= t. Written out in one method, not in helpers: the vectors
            // must stay in registers, and C2 stops inlining helpers into a method this large (they would be boxed:
            // measured, a helper for the stores halved the shuffle's speed).
            LongVector t = a0.lanewise(LSHR, 32).lanewise(XOR, a4).and(MASK_32);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 32));
            a4 = a4.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 32).lanewise(XOR, a5).and(MASK_32);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 32));
            a5 = a5.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 32).lanewise(XOR, a6).and(MASK_32);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 32));
            a6 = a6.lanewise(XOR, t);
            t = a3.lanewise(LSHR, 32).lanewise(XOR, a7).and(MASK_32);
            a3 = a3.lanewise(XOR, t.lanewise(LSHL, 32));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 16).lanewise(XOR, a2).and(MASK_16);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 16));
            a2 = a2.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 16).lanewise(XOR, a3).and(MASK_16);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 16));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 16).lanewise(XOR, a6).and(MASK_16);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 16));
            a6 = a6.lanewise(XOR, t);
            t = a5.lanewise(LSHR, 16).lanewise(XOR, a7).and(MASK_16);
            a5 = a5.lanewise(XOR, t.lanewise(LSHL, 16));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 8).lanewise(XOR, a1).and(MASK_8);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 8));
            a1 = a1.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 8).lanewise(XOR, a3).and(MASK_8);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 8));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 8).lanewise(XOR, a5).and(MASK_8);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 8));
            a5 = a5.lanewise(XOR, t);
            t = a6.lanewise(LSHR, 8).lanewise(XOR, a7).and(MASK_8);
            a6 = a6.lanewise(XOR, t.lanewise(LSHL, 8));
            a7 = a7.lanewise(XOR, t);
            // Lane k of vector r is element i + k + LANES r: vector r is LANES consecutive elements.
            int d = dstOff + 8 * i;
            a0.intoByteArray(dst, d, ByteOrder.LITTLE_ENDIAN);
            a1.intoByteArray(dst, d + 8 * LANES, ByteOrder.LITTLE_ENDIAN);
            a2.intoByteArray(dst, d + 16 * LANES, ByteOrder.LITTLE_ENDIAN);
            a3.intoByteArray(dst, d + 24 * LANES, ByteOrder.LITTLE_ENDIAN);
            a4.intoByteArray(dst, d + 32 * LANES, ByteOrder.LITTLE_ENDIAN);
            a5.intoByteArray(dst, d + 40 * LANES, ByteOrder.LITTLE_ENDIAN);
            a6.intoByteArray(dst, d + 48 * LANES, ByteOrder.LITTLE_ENDIAN);
            a7.intoByteArray(dst, d + 56 * LANES, ByteOrder.LITTLE_ENDIAN);
        }
        for (; i < n; i++) {
            long v = (s0[o0 + i] & 0xFFL)
                    | (s1[o1 + i] & 0xFFL) << 8
                    | (s2[o2 + i] & 0xFFL) << 16
                    | (s3[o3 + i] & 0xFFL) << 24
                    | (s4[o4 + i] & 0xFFL) << 32
                    | (s5[o5 + i] & 0xFFL) << 40
                    | (s6[o6 + i] & 0xFFL) << 48
                    | (s7[o7 + i] & 0xFFL) << 56;
            LittleEndian.putLong(dst, dstOff + 8 * i, v);
        }
    }

    /** {@link #unshuffle8(int, byte[], int, byte[], int)} into {@code float64} values, as below. */
    static void unshuffle8ToDoubles(int n, byte[] src, int srcOff, double[] dst, int dstOff) {
        unshuffle8ToDoubles(
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

    /**
     * {@link #unshuffle8(int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int, byte[], int,
     * byte[], int, byte[], int)} into {@code float64} elements: {@code dst[dstOff + e]} is the value whose
     * little-endian bytes element {@code e} is, with no copy through a {@code byte[]} (a decoded block goes straight
     * into a chunk's or a box's array). A method of its own, not a branch on the destination's type in the other, so that
     * each is as small as C2 needs to compile it whole with its vectors in registers (see the transpose's comment); the
     * transpose is the same, written out again for that reason. The stores: {@link #DOUBLES}.
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
        int i = 0;
        for (; i + STEP <= n; i += STEP) {
            // Lane k of vector j: byte j of elements i + k + LANES p, p = 0..7 (byte p of the lane).
            LongVector a0 = ByteVector.fromByteArray(BYTES, s0, o0 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a1 = ByteVector.fromByteArray(BYTES, s1, o1 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a2 = ByteVector.fromByteArray(BYTES, s2, o2 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a3 = ByteVector.fromByteArray(BYTES, s3, o3 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a4 = ByteVector.fromByteArray(BYTES, s4, o4 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a5 = ByteVector.fromByteArray(BYTES, s5, o5 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a6 = ByteVector.fromByteArray(BYTES, s6, o6 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            LongVector a7 = ByteVector.fromByteArray(BYTES, s7, o7 + i, ByteOrder.LITTLE_ENDIAN)
                    .rearrange(TO_LANES)
                    .reinterpretAsLongs();
            // The 8 x 8 byte transpose within each lane, in three rounds of delta swaps (blocks of 4, 2, 1 bytes):
            // t = ((a >>> w) ^ b) & mask; a ^= t << w; b ^= t. Written out in one method, not in helpers: the vectors
            // must stay in registers, and C2 stops inlining helpers into a method this large (they would be boxed:
            // measured, a helper for the stores halved the shuffle's speed).
            LongVector t = a0.lanewise(LSHR, 32).lanewise(XOR, a4).and(MASK_32);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 32));
            a4 = a4.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 32).lanewise(XOR, a5).and(MASK_32);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 32));
            a5 = a5.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 32).lanewise(XOR, a6).and(MASK_32);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 32));
            a6 = a6.lanewise(XOR, t);
            t = a3.lanewise(LSHR, 32).lanewise(XOR, a7).and(MASK_32);
            a3 = a3.lanewise(XOR, t.lanewise(LSHL, 32));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 16).lanewise(XOR, a2).and(MASK_16);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 16));
            a2 = a2.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 16).lanewise(XOR, a3).and(MASK_16);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 16));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 16).lanewise(XOR, a6).and(MASK_16);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 16));
            a6 = a6.lanewise(XOR, t);
            t = a5.lanewise(LSHR, 16).lanewise(XOR, a7).and(MASK_16);
            a5 = a5.lanewise(XOR, t.lanewise(LSHL, 16));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 8).lanewise(XOR, a1).and(MASK_8);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 8));
            a1 = a1.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 8).lanewise(XOR, a3).and(MASK_8);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 8));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 8).lanewise(XOR, a5).and(MASK_8);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 8));
            a5 = a5.lanewise(XOR, t);
            t = a6.lanewise(LSHR, 8).lanewise(XOR, a7).and(MASK_8);
            a6 = a6.lanewise(XOR, t.lanewise(LSHL, 8));
            a7 = a7.lanewise(XOR, t);
            // Lane k of vector r is element i + k + LANES r, its lanes the elements' bit patterns.
            int e = dstOff + i;
            ((DoubleVector) a0.reinterpretShape(DOUBLES, 0)).intoArray(dst, e);
            ((DoubleVector) a1.reinterpretShape(DOUBLES, 0)).intoArray(dst, e + LANES);
            ((DoubleVector) a2.reinterpretShape(DOUBLES, 0)).intoArray(dst, e + 2 * LANES);
            ((DoubleVector) a3.reinterpretShape(DOUBLES, 0)).intoArray(dst, e + 3 * LANES);
            ((DoubleVector) a4.reinterpretShape(DOUBLES, 0)).intoArray(dst, e + 4 * LANES);
            ((DoubleVector) a5.reinterpretShape(DOUBLES, 0)).intoArray(dst, e + 5 * LANES);
            ((DoubleVector) a6.reinterpretShape(DOUBLES, 0)).intoArray(dst, e + 6 * LANES);
            ((DoubleVector) a7.reinterpretShape(DOUBLES, 0)).intoArray(dst, e + 7 * LANES);
        }
        for (; i < n; i++) {
            long v = (s0[o0 + i] & 0xFFL)
                    | (s1[o1 + i] & 0xFFL) << 8
                    | (s2[o2 + i] & 0xFFL) << 16
                    | (s3[o3 + i] & 0xFFL) << 24
                    | (s4[o4 + i] & 0xFFL) << 32
                    | (s5[o5 + i] & 0xFFL) << 40
                    | (s6[o6 + i] & 0xFFL) << 48
                    | (s7[o7 + i] & 0xFFL) << 56;
            dst[dstOff + i] = Double.longBitsToDouble(v);
        }
    }

    /** Shuffles {@code n} 8-byte elements at {@code src[srcOff]} into 8 streams of {@code n} bytes. */
    static void shuffle8(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
        int i = 0;
        for (; i + STEP <= n; i += STEP) {
            int s = srcOff + 8 * i;
            // Vector r: elements i + LANES r .. i + LANES r + LANES - 1, lane k element i + k + LANES r.
            LongVector a0 = LongVector.fromByteArray(LONGS, src, s, ByteOrder.LITTLE_ENDIAN);
            LongVector a1 = LongVector.fromByteArray(LONGS, src, s + 8 * LANES, ByteOrder.LITTLE_ENDIAN);
            LongVector a2 = LongVector.fromByteArray(LONGS, src, s + 16 * LANES, ByteOrder.LITTLE_ENDIAN);
            LongVector a3 = LongVector.fromByteArray(LONGS, src, s + 24 * LANES, ByteOrder.LITTLE_ENDIAN);
            LongVector a4 = LongVector.fromByteArray(LONGS, src, s + 32 * LANES, ByteOrder.LITTLE_ENDIAN);
            LongVector a5 = LongVector.fromByteArray(LONGS, src, s + 40 * LANES, ByteOrder.LITTLE_ENDIAN);
            LongVector a6 = LongVector.fromByteArray(LONGS, src, s + 48 * LANES, ByteOrder.LITTLE_ENDIAN);
            LongVector a7 = LongVector.fromByteArray(LONGS, src, s + 56 * LANES, ByteOrder.LITTLE_ENDIAN);
            // The same transpose (it is its own inverse): lane k of vector j becomes byte j of elements
            // i + k + LANES p, p = 0..7.
            LongVector t = a0.lanewise(LSHR, 32).lanewise(XOR, a4).and(MASK_32);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 32));
            a4 = a4.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 32).lanewise(XOR, a5).and(MASK_32);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 32));
            a5 = a5.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 32).lanewise(XOR, a6).and(MASK_32);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 32));
            a6 = a6.lanewise(XOR, t);
            t = a3.lanewise(LSHR, 32).lanewise(XOR, a7).and(MASK_32);
            a3 = a3.lanewise(XOR, t.lanewise(LSHL, 32));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 16).lanewise(XOR, a2).and(MASK_16);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 16));
            a2 = a2.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 16).lanewise(XOR, a3).and(MASK_16);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 16));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 16).lanewise(XOR, a6).and(MASK_16);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 16));
            a6 = a6.lanewise(XOR, t);
            t = a5.lanewise(LSHR, 16).lanewise(XOR, a7).and(MASK_16);
            a5 = a5.lanewise(XOR, t.lanewise(LSHL, 16));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 8).lanewise(XOR, a1).and(MASK_8);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 8));
            a1 = a1.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 8).lanewise(XOR, a3).and(MASK_8);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 8));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 8).lanewise(XOR, a5).and(MASK_8);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 8));
            a5 = a5.lanewise(XOR, t);
            t = a6.lanewise(LSHR, 8).lanewise(XOR, a7).and(MASK_8);
            a6 = a6.lanewise(XOR, t.lanewise(LSHL, 8));
            a7 = a7.lanewise(XOR, t);
            int d = dstOff + i;
            a0.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d, ByteOrder.LITTLE_ENDIAN);
            a1.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + n, ByteOrder.LITTLE_ENDIAN);
            a2.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 2 * n, ByteOrder.LITTLE_ENDIAN);
            a3.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 3 * n, ByteOrder.LITTLE_ENDIAN);
            a4.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 4 * n, ByteOrder.LITTLE_ENDIAN);
            a5.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 5 * n, ByteOrder.LITTLE_ENDIAN);
            a6.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 6 * n, ByteOrder.LITTLE_ENDIAN);
            a7.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 7 * n, ByteOrder.LITTLE_ENDIAN);
        }
        for (; i < n; i++) {
            long v = LittleEndian.getLong(src, srcOff + 8 * i);
            for (int j = 0; j < 8; j++) {
                dst[dstOff + j * n + i] = (byte) (v >>> (8 * j));
            }
        }
    }

    /**
     * {@link #shuffle8} of {@code float64} values: the little-endian bytes of {@code src[srcOff...srcOff + n)} into 8
     * streams of {@code n} bytes, with no copy of the values into a {@code byte[]} first (a chunk's block goes to the
     * encoder straight from its array). A method of its own, as {@link #unshuffle8ToDoubles} is, the loads the only
     * difference.
     */
    static void shuffle8FromDoubles(int n, double[] src, int srcOff, byte[] dst, int dstOff) {
        int i = 0;
        for (; i + STEP <= n; i += STEP) {
            int e = srcOff + i;
            // Vector r: elements i + LANES r .. i + LANES r + LANES - 1, lane k element i + k + LANES r.
            LongVector a0 = (LongVector) DoubleVector.fromArray(DOUBLES, src, e).reinterpretShape(LONGS, 0);
            LongVector a1 =
                    (LongVector) DoubleVector.fromArray(DOUBLES, src, e + LANES).reinterpretShape(LONGS, 0);
            LongVector a2 = (LongVector)
                    DoubleVector.fromArray(DOUBLES, src, e + 2 * LANES).reinterpretShape(LONGS, 0);
            LongVector a3 = (LongVector)
                    DoubleVector.fromArray(DOUBLES, src, e + 3 * LANES).reinterpretShape(LONGS, 0);
            LongVector a4 = (LongVector)
                    DoubleVector.fromArray(DOUBLES, src, e + 4 * LANES).reinterpretShape(LONGS, 0);
            LongVector a5 = (LongVector)
                    DoubleVector.fromArray(DOUBLES, src, e + 5 * LANES).reinterpretShape(LONGS, 0);
            LongVector a6 = (LongVector)
                    DoubleVector.fromArray(DOUBLES, src, e + 6 * LANES).reinterpretShape(LONGS, 0);
            LongVector a7 = (LongVector)
                    DoubleVector.fromArray(DOUBLES, src, e + 7 * LANES).reinterpretShape(LONGS, 0);
            // The same transpose (it is its own inverse): lane k of vector j becomes byte j of elements
            // i + k + LANES p, p = 0..7.
            LongVector t = a0.lanewise(LSHR, 32).lanewise(XOR, a4).and(MASK_32);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 32));
            a4 = a4.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 32).lanewise(XOR, a5).and(MASK_32);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 32));
            a5 = a5.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 32).lanewise(XOR, a6).and(MASK_32);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 32));
            a6 = a6.lanewise(XOR, t);
            t = a3.lanewise(LSHR, 32).lanewise(XOR, a7).and(MASK_32);
            a3 = a3.lanewise(XOR, t.lanewise(LSHL, 32));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 16).lanewise(XOR, a2).and(MASK_16);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 16));
            a2 = a2.lanewise(XOR, t);
            t = a1.lanewise(LSHR, 16).lanewise(XOR, a3).and(MASK_16);
            a1 = a1.lanewise(XOR, t.lanewise(LSHL, 16));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 16).lanewise(XOR, a6).and(MASK_16);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 16));
            a6 = a6.lanewise(XOR, t);
            t = a5.lanewise(LSHR, 16).lanewise(XOR, a7).and(MASK_16);
            a5 = a5.lanewise(XOR, t.lanewise(LSHL, 16));
            a7 = a7.lanewise(XOR, t);
            t = a0.lanewise(LSHR, 8).lanewise(XOR, a1).and(MASK_8);
            a0 = a0.lanewise(XOR, t.lanewise(LSHL, 8));
            a1 = a1.lanewise(XOR, t);
            t = a2.lanewise(LSHR, 8).lanewise(XOR, a3).and(MASK_8);
            a2 = a2.lanewise(XOR, t.lanewise(LSHL, 8));
            a3 = a3.lanewise(XOR, t);
            t = a4.lanewise(LSHR, 8).lanewise(XOR, a5).and(MASK_8);
            a4 = a4.lanewise(XOR, t.lanewise(LSHL, 8));
            a5 = a5.lanewise(XOR, t);
            t = a6.lanewise(LSHR, 8).lanewise(XOR, a7).and(MASK_8);
            a6 = a6.lanewise(XOR, t.lanewise(LSHL, 8));
            a7 = a7.lanewise(XOR, t);
            int d = dstOff + i;
            a0.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d, ByteOrder.LITTLE_ENDIAN);
            a1.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + n, ByteOrder.LITTLE_ENDIAN);
            a2.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 2 * n, ByteOrder.LITTLE_ENDIAN);
            a3.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 3 * n, ByteOrder.LITTLE_ENDIAN);
            a4.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 4 * n, ByteOrder.LITTLE_ENDIAN);
            a5.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 5 * n, ByteOrder.LITTLE_ENDIAN);
            a6.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 6 * n, ByteOrder.LITTLE_ENDIAN);
            a7.reinterpretAsBytes().rearrange(FROM_LANES).intoByteArray(dst, d + 7 * n, ByteOrder.LITTLE_ENDIAN);
        }
        for (; i < n; i++) {
            long v = Double.doubleToRawLongBits(src[srcOff + i]);
            for (int j = 0; j < 8; j++) {
                dst[dstOff + j * n + i] = (byte) (v >>> (8 * j));
            }
        }
    }
}
