package io.cubed.storage.zarr.cf;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Vector API loops of CF decoding against straightforward reference loops written here (the conversion, product
 * and sum as separate float operations, as numpy does them for xarray), bit for bit, on runs of every length around
 * the vector size and at offsets; and their switch-over through {@link CfDecoding} once warm.
 */
class VectorCfKernelsTest {
    private static final int[] LENGTHS = {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000};

    private static short[] packed(Random r, int n, short[] masks) {
        short[] s = new short[n];
        for (int i = 0; i < n; i++) {
            s[i] = (short) r.nextInt(1 << 16);
            if (masks.length > 0 && r.nextInt(10) == 0) {
                s[i] = masks[r.nextInt(masks.length)];
            }
            if (r.nextInt(20) == 0) {
                s[i] = 0;
            }
        }
        return s;
    }

    /** The reference: NaN at a mask value, else {@code (float) s * scale + offset}; the masked indexes in order. */
    private static int reference(
            short[] in, int from, float scale, float offset, short[] masks, float[] f, int off, int n, int[] missing) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            short x = in[from + i];
            boolean masked = false;
            for (short m : masks) {
                masked |= x == m;
            }
            float v = (float) x;
            v = v * scale;
            v = v + offset;
            f[off + i] = masked ? Float.NaN : v;
            if (masked) {
                missing[k++] = off + i;
            }
        }
        return k;
    }

    private static void assertSameBits(float[] actual, float[] expected) {
        for (int i = 0; i < expected.length; i++) {
            assertThat(Float.floatToRawIntBits(actual[i]))
                    .as("element %d: %s against %s", i, actual[i], expected[i])
                    .isEqualTo(Float.floatToRawIntBits(expected[i]));
        }
    }

    @Test
    void packedInt16DecodesAsTheReferenceLoopForEveryLengthOffsetAndMaskSet() {
        assertThat(VectorCfKernels.AVAILABLE).isTrue();
        Random r = new Random(7);
        short[][] maskSets = {{}, {-32767}, {-32767, 0}, {32767, -1, 5}};
        float[][] scales = {{0.002f, 260f}, {1f, -0.0f}, {-0.5f, -0.0f}, {1f, 273.15f}, {3e-5f, -1e4f}};
        for (short[] masks : maskSets) {
            for (float[] so : scales) {
                for (int n : LENGTHS) {
                    short[] in = packed(r, n + 5, masks);
                    float[] expected = new float[n + 3];
                    float[] actual = new float[n + 3];
                    int[] expectedMissing = new int[n + 3];
                    int[] actualMissing = new int[n + 3];
                    int ke = reference(in, 5, so[0], so[1], masks, expected, 3, n, expectedMissing);
                    int ka = VectorCfKernels.int16ToFloat32(in, 5, so[0], so[1], masks, actual, 3, n, actualMissing);
                    assertSameBits(actual, expected);
                    assertThat(ka).isEqualTo(ke);
                    assertThat(Arrays.copyOf(actualMissing, ka)).containsExactly(Arrays.copyOf(expectedMissing, ke));
                    float[] noRecord = new float[n + 3];
                    assertThat(VectorCfKernels.int16ToFloat32(in, 5, so[0], so[1], masks, noRecord, 3, n, null))
                            .isZero();
                    assertSameBits(noRecord, expected);
                }
            }
        }
    }

    @Test
    void aZeroTimesANegativeScaleKeepsItsSignWithoutAnOffset() {
        short[] in = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        float[] f = new float[in.length];
        VectorCfKernels.int16ToFloat32(in, 0, -2f, -0.0f, new short[0], f, 0, in.length, null);
        for (float v : f) {
            assertThat(Float.floatToRawIntBits(v)).isEqualTo(Float.floatToRawIntBits(-0.0f));
        }
    }

    @Test
    void nansAreFoundAsTheScalarLoopFindsThem() {
        Random r = new Random(11);
        for (int n : LENGTHS) {
            float[] f = new float[n + 4];
            for (int i = 0; i < f.length; i++) {
                f[i] = r.nextInt(7) == 0 ? Float.NaN : r.nextFloat() * 100 - 50;
            }
            f[f.length - 1] = Float.intBitsToFloat(0x7fc00001); // a NaN of other bits
            int[] expected = new int[n];
            int ke = 0;
            for (int i = 2; i < 2 + n; i++) {
                if (Float.isNaN(f[i])) {
                    expected[ke++] = i;
                }
            }
            int[] actual = new int[n];
            int ka = VectorCfKernels.nans(f, 2, n, actual);
            assertThat(Arrays.copyOf(actual, ka)).containsExactly(Arrays.copyOf(expected, ke));
        }
    }

    @Test
    void infinitiesOfBothSignsInOneStepAreNotNaN() {
        // The NaN search adds the vectors of a step and tests the sum: +inf and -inf make a NaN there that is no
        // value's. Every position pairing, and a real NaN beside them.
        for (int n : new int[] {32, 64, 100}) {
            for (int at = 0; at < n; at += 5) {
                float[] f = new float[n];
                Arrays.fill(f, 1.5f);
                f[at] = Float.POSITIVE_INFINITY;
                f[(at + 7) % n] = Float.NEGATIVE_INFINITY;
                int[] missing = new int[n];
                assertThat(VectorCfKernels.nans(f, 0, n, missing))
                        .as("n %d, +inf at %d", n, at)
                        .isZero();
                f[(at + 13) % n] = Float.NaN;
                assertThat(VectorCfKernels.nans(f, 0, n, missing)).isEqualTo(1);
                assertThat(missing[0]).isEqualTo((at + 13) % n);
            }
        }
    }

    @Test
    void theWarmUpQualifiesTheVectorLoopsInTheTestJvm() {
        assertThat(CfWarmup.VECTOR.enabled()).isTrue();
        assertThat(CfWarmup.VECTOR.calibrate(io.cubed.chunk.VectorWarmup.DEADLINE_NANOS))
                .isTrue();
        assertThat(CfWarmup.VECTOR.calibrate(0)).isFalse();
        assertThat(CfWarmup.VECTOR.due(CfWarmup.WARMUP_AFTER_VALUES - 1)).isFalse();
        assertThat(CfWarmup.VECTOR.due(CfWarmup.WARMUP_AFTER_VALUES)).isTrue();
    }

    @Test
    void aPackedArrayDecodesAlikeBeforeAndAfterTheSwitch() {
        CfDecoding d = CfDecoding.of(
                "t2m",
                DType.INT16,
                null,
                2,
                Map.of("_FillValue", -32767L, "missing_value", -1L, "scale_factor", 0.002, "add_offset", 260.0),
                CfOptions.defaults(),
                null);
        assertThat(d.dtype()).isEqualTo(DType.FLOAT32);
        Chunk raw = Chunk.allocate(DType.INT16, 1003);
        raw.shorts()[0] = 0;
        short[] in = packed(new Random(3), 1003, new short[] {-32767, -1});
        System.arraycopy(in, 0, raw.shorts(), 0, in.length);
        float[] expected = new float[1000];
        int[] expectedMissing = new int[1000];
        int ke = reference(in, 3, 0.002f, 260f, new short[] {-32767, -1}, expected, 0, 1000, expectedMissing);
        assertThat(ke).isPositive();

        float[] before = new float[1000];
        int[] beforeMissing = new int[1000];
        int kb = d.decodeRun(raw, 3, before, 0, 1000, beforeMissing);
        CfDecoding.warmUp(); // as a benchmark starts it: at once, not after the scalar loops' 1.5 billion values
        assertThat(CfWarmup.VECTOR.started()).isTrue();
        long end = System.nanoTime() + io.cubed.chunk.VectorWarmup.DEADLINE_NANOS;
        while (!CfWarmup.VECTOR.ready() && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertThat(CfWarmup.VECTOR.ready()).as("the vector loops in use").isTrue();
        float[] after = new float[1000];
        int[] afterMissing = new int[1000];
        int ka = d.decodeRun(raw, 3, after, 0, 1000, afterMissing);
        assertSameBits(before, expected);
        assertSameBits(after, expected);
        assertThat(Arrays.copyOf(beforeMissing, kb)).containsExactly(Arrays.copyOf(expectedMissing, ke));
        assertThat(Arrays.copyOf(afterMissing, ka)).containsExactly(Arrays.copyOf(expectedMissing, ke));
        assertThat(d.decode(Chunk.full(DType.INT16, Scalar.ofLong(-1), 9)).floats())
                .containsOnly(Float.NaN);
    }
}
