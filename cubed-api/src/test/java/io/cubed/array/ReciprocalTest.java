package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Computation;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reciprocal} (Array API 2024.12) on chunked arrays against plain Java loops: float64 and float32 bit for bit
 * (1 / x is correctly rounded in both), complex against the textbook formula conj(z) / |z|² within a few ulps, and
 * integer input promoted to float64.
 */
class ReciprocalTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    @Test
    void float64IsOneOverXBitForBit() {
        double[] v = {
            2,
            -4,
            3,
            0.1,
            -7.25,
            0.0,
            -0.0,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.NaN,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            1e-310,
            -1e300,
            12345.678
        };
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {3, 5}, v.clone()), spec(), 2, 2);
        CubedArray r = Elementwise.reciprocal(x);
        assertThat(r.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(r.chunkShape()).containsExactly(2, 2);
        double[] out = r.compute().doubles();
        for (int i = 0; i < v.length; i++) {
            assertThat(Double.doubleToLongBits(out[i]))
                    .as("1 / %s", v[i])
                    .isEqualTo(Double.doubleToLongBits(1.0 / v[i]));
        }
        // The special cases of 1.0 / x: signed zeros to signed infinities, infinities to signed zeros.
        assertThat(out[5]).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(out[6]).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Double.doubleToRawLongBits(out[8])).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void float32StaysFloat32AndMatchesFloatDivision() {
        float[] v = new float[40];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) ((i - 19.5) * 1.37e-3 * Math.pow(10, i % 7));
        }
        v[3] = 0f;
        v[4] = -0f;
        v[5] = Float.NaN;
        v[6] = Float.MIN_VALUE; // 1 / MIN_VALUE overflows to infinity in float32
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT32, new int[] {40}, v.clone()), spec(), 7);
        CubedArray r = Elementwise.reciprocal(x);
        assertThat(r.dtype()).isEqualTo(DType.FLOAT32);
        float[] out = r.compute().floats();
        for (int i = 0; i < v.length; i++) {
            assertThat(Float.floatToIntBits(out[i])).as("1 / %s", v[i]).isEqualTo(Float.floatToIntBits(1f / v[i]));
        }
        assertThat(out[6]).isEqualTo(Float.POSITIVE_INFINITY);
    }

    @Test
    void complex128AndComplex64MatchConjugateOverSquaredModulus() {
        int n = 24;
        double[] z = new double[2 * n];
        for (int i = 0; i < n; i++) {
            z[2 * i] = (i - 11.5) * 0.75;
            z[2 * i + 1] = (i % 5 - 2) * 1.3 + 0.01 * i;
        }
        z[0] = 2; // 1 / 2 = 0.5
        z[1] = 0;
        z[2] = 0; // 1 / i = -i
        z[3] = 1;
        float[] zf = new float[2 * n];
        for (int k = 0; k < zf.length; k++) {
            zf[k] = (float) z[k];
        }
        Spec spec = spec();
        Chunk c128 = Elementwise.reciprocal(
                        Cubed.asarray(Chunk.wrap(DType.COMPLEX128, new int[] {4, 6}, z.clone()), spec, 3, 4))
                .compute();
        Chunk c64 = Elementwise.reciprocal(
                        Cubed.asarray(Chunk.wrap(DType.COMPLEX64, new int[] {4, 6}, zf.clone()), spec, 3, 4))
                .compute();
        assertThat(c128.dtype()).isEqualTo(DType.COMPLEX128);
        assertThat(c64.dtype()).isEqualTo(DType.COMPLEX64);
        double[] o = c128.doubles();
        float[] of = c64.floats();
        for (int i = 0; i < n; i++) {
            double a = z[2 * i];
            double b = z[2 * i + 1];
            double m2 = a * a + b * b;
            double re = a / m2;
            double im = -b / m2;
            double tol = 4 * Math.ulp(Math.hypot(re, im));
            assertThat(o[2 * i]).as("re 1/(%s + %si)", a, b).isCloseTo(re, org.assertj.core.data.Offset.offset(tol));
            assertThat(o[2 * i + 1])
                    .as("im 1/(%s + %si)", a, b)
                    .isCloseTo(im, org.assertj.core.data.Offset.offset(tol));
            // complex64: the same in float arithmetic on the float32 inputs, within a few float ulps.
            float af = zf[2 * i];
            float bf = zf[2 * i + 1];
            float m2f = af * af + bf * bf;
            float ref = af / m2f;
            float imf = -bf / m2f;
            float tolf = 4 * Math.ulp((float) Math.hypot(ref, imf));
            assertThat(of[2 * i]).isCloseTo(ref, org.assertj.core.data.Offset.offset(tolf));
            assertThat(of[2 * i + 1]).isCloseTo(imf, org.assertj.core.data.Offset.offset(tolf));
        }
        assertThat(o[0]).isEqualTo(0.5);
        assertThat(o[1]).isEqualTo(0.0);
        assertThat(o[2]).isEqualTo(0.0);
        assertThat(o[3]).isEqualTo(-1.0);
    }

    @Test
    void integersArePromotedToFloat64() {
        Spec spec = spec();
        byte[] i8 = {-128, -3, -1, 0, 1, 2, 7, 127};
        Chunk r8 = Elementwise.reciprocal(Cubed.asarray(Chunk.wrap(DType.INT8, new int[] {8}, i8.clone()), spec, 3))
                .compute();
        assertThat(r8.dtype()).isEqualTo(DType.FLOAT64);
        for (int i = 0; i < i8.length; i++) {
            assertThat(r8.doubles()[i]).isEqualTo(1.0 / i8[i]);
        }
        assertThat(r8.doubles()[3]).isEqualTo(Double.POSITIVE_INFINITY);

        byte[] u8 = {(byte) 255, (byte) 128, 3};
        Chunk ru8 = Elementwise.reciprocal(Cubed.asarray(Chunk.wrap(DType.UINT8, new int[] {3}, u8.clone()), spec))
                .compute();
        assertThat(ru8.doubles()).containsExactly(1.0 / 255, 1.0 / 128, 1.0 / 3);

        int[] i32 = {Integer.MIN_VALUE, -1000, 3, 65536, Integer.MAX_VALUE};
        Chunk r32 = Elementwise.reciprocal(Cubed.asarray(Chunk.wrap(DType.INT32, new int[] {5}, i32.clone()), spec, 2))
                .compute();
        for (int i = 0; i < i32.length; i++) {
            assertThat(r32.doubles()[i]).isEqualTo(1.0 / i32[i]);
        }

        // int64 beyond 2^53 rounds to the nearest double first, as astype(float64) does; uint64 reads its bits
        // unsigned.
        long[] i64 = {(1L << 53) + 1, Long.MIN_VALUE, -7};
        Chunk r64 = Elementwise.reciprocal(Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {3}, i64.clone()), spec))
                .compute();
        for (int i = 0; i < i64.length; i++) {
            assertThat(r64.doubles()[i]).isEqualTo(1.0 / (double) i64[i]);
        }
        long[] u64 = {-1L, Long.MIN_VALUE, 10};
        Chunk ru64 = Elementwise.reciprocal(Cubed.asarray(Chunk.wrap(DType.UINT64, new int[] {3}, u64.clone()), spec))
                .compute();
        for (int i = 0; i < u64.length; i++) {
            double asDouble = new BigInteger(Long.toUnsignedString(u64[i])).doubleValue();
            assertThat(ru64.doubles()[i]).isEqualTo(1.0 / asDouble);
        }
    }

    @Test
    void boolIsRefusedAtTheCall() {
        CubedArray flags = Cubed.asarray(Chunk.allocate(DType.BOOL, 2), spec());
        assertThatThrownBy(() -> Elementwise.reciprocal(flags))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("reciprocal: array '" + flags.name() + "' (bool, shape [2])")
                .hasMessageContaining("a numeric data type");
    }

    @Test
    void promotionOfIntegersIsProjected() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .reservedMem(1000)
                .build();
        CubedArray i32 = Creation.ones(new long[] {40}, new int[] {10}, DType.INT32, spec);
        CubedArray r = Elementwise.reciprocal(i32);
        Computation c = Computation.prepare(spec, List.of(r.node()), Map.of());
        // A virtual int32 input chunk (40 bytes), its float64 copy (80) made through the kernels' long[] (80), the
        // float64 output (80) with one write copy on local disk.
        long expected = 1000 + 10 * 4 + 10 * 8 + 10 * 8 + 10 * 8 * 2;
        assertThat(c.projectedMemBytes().get(r.node().op())).isEqualTo(expected);
        assertThat(r.compute().doubles()).hasSize(40).containsOnly(1.0);
    }
}
