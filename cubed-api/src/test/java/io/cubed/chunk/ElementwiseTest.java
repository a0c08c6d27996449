package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

/** Hand-computed edge cases of the elementwise kernels, per data type family. */
class ElementwiseTest {
    private static Chunk i8(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return Chunk.wrap(DType.INT8, new int[] {v.length}, b);
    }

    private static Chunk f64(double... v) {
        return Chunk.wrap(DType.FLOAT64, new int[] {v.length}, v);
    }

    private static Chunk c128(double... reIm) {
        return Chunk.wrap(DType.COMPLEX128, new int[] {reIm.length / 2}, reIm);
    }

    private static Chunk u64(long... v) {
        return Chunk.wrap(DType.UINT64, new int[] {v.length}, v);
    }

    private static Chunk bin(BinaryFunction f, Chunk a, Chunk b) {
        return Elementwise.binary(f, a, b);
    }

    @Test
    void integerArithmeticWrapsAround() {
        assertThat(bin(BinaryFunction.ADD, i8(127, -128), i8(1, -1)).bytes()).containsExactly(-128, 127);
        assertThat(bin(BinaryFunction.MULTIPLY, i8(64), i8(2)).bytes()).containsExactly(-128);
        assertThat(Elementwise.unary(UnaryFunction.ABS, i8(-128)).bytes()).containsExactly(-128);
        assertThat(Elementwise.unary(UnaryFunction.NEGATIVE, i8(-128)).bytes()).containsExactly(-128);
        Chunk u8 = Chunk.wrap(DType.UINT8, new int[] {1}, new byte[] {0});
        assertThat(Elementwise.binary(BinaryFunction.SUBTRACT, u8, Scalar.ofLong(1))
                        .getLong(0))
                .isEqualTo(255);
        assertThat(bin(BinaryFunction.POW, i8(2, 3, 0), i8(7, 0, 0)).bytes()).containsExactly(-128, 1, 1);
    }

    @Test
    void unsignedOperationsUseTheStoredBits() {
        Chunk max = u64(-1L, -1L);
        assertThat(bin(BinaryFunction.FLOOR_DIVIDE, max, u64(2, -1L)).longs()).containsExactly(Long.MAX_VALUE, 1);
        assertThat(bin(BinaryFunction.REMAINDER, max, u64(10, 3)).longs()).containsExactly(5, 0);
        assertThat(bin(BinaryFunction.GREATER, max, u64(1, 0)).booleans()).containsExactly(true, true);
        assertThat(bin(BinaryFunction.MAXIMUM, max, u64(1, 0)).longs()).containsExactly(-1L, -1L);
        assertThat(bin(BinaryFunction.BITWISE_RIGHT_SHIFT, max, u64(63, 64)).longs())
                .containsExactly(1, 0);
        assertThat(Elementwise.unary(UnaryFunction.SIGN, max).longs()).containsExactly(1, 1);
        assertThat(Elementwise.astype(u64(-1L), DType.FLOAT64).doubles()).containsExactly(1.8446744073709552e19);
        assertThat(Elementwise.astype(u64(Long.MIN_VALUE + 1025), DType.FLOAT64).doubles())
                .containsExactly(9.223372036854777856e18);
    }

    @Test
    void integerDivisionFollowsNumpy() {
        assertThat(bin(BinaryFunction.FLOOR_DIVIDE, i8(-7, 7, 7, -128, 5), i8(2, -2, 0, -1, 0))
                        .bytes())
                .containsExactly(-4, -4, 0, -128, 0);
        assertThat(bin(BinaryFunction.REMAINDER, i8(-7, 7, 7, -128), i8(2, -2, 0, -1))
                        .bytes())
                .containsExactly(1, -1, 0, 0);
        assertThat(bin(BinaryFunction.BITWISE_LEFT_SHIFT, i8(1, 1, 1), i8(7, 8, -1))
                        .bytes())
                .containsExactly(-128, 0, 0);
        assertThat(bin(BinaryFunction.BITWISE_RIGHT_SHIFT, i8(-5, -5, 5), i8(1, 9, 9))
                        .bytes())
                .containsExactly(-3, -1, 0);
        assertThatThrownBy(() -> bin(BinaryFunction.POW, i8(2), i8(-1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("pow")
                .hasMessageContaining("negative exponent");
    }

    @Test
    void floatSpecialValues() {
        double nan = Double.NaN;
        assertThat(bin(BinaryFunction.MAXIMUM, f64(nan, 1, -0.0), f64(1, nan, 0.0))
                        .doubles())
                .containsExactly(nan, nan, 0.0);
        assertThat(bin(BinaryFunction.MINIMUM, f64(nan, 1), f64(1, nan)).doubles())
                .containsExactly(nan, nan);
        assertThat(Elementwise.unary(UnaryFunction.ROUND, f64(0.5, 1.5, 2.5, -0.5, -2.5))
                        .doubles())
                .containsExactly(0.0, 2.0, 2.0, -0.0, -2.0);
        assertThat(Elementwise.unary(UnaryFunction.NEGATIVE, f64(0.0)).doubles()[0])
                .isEqualTo(-0.0);
        assertThat(Elementwise.unary(UnaryFunction.SIGN, f64(-0.0, -3, nan)).doubles())
                .containsExactly(0.0, -1.0, nan);
        assertThat(Elementwise.unary(UnaryFunction.SIGNBIT, f64(-0.0, 0.0, -nan))
                        .booleans())
                .containsExactly(true, false, true);
        assertThat(bin(BinaryFunction.FLOOR_DIVIDE, f64(-7, 7, 1), f64(2, 0, Double.POSITIVE_INFINITY))
                        .doubles())
                .containsExactly(-4.0, Double.POSITIVE_INFINITY, 0.0);
        assertThat(bin(BinaryFunction.REMAINDER, f64(-7, -1), f64(2, Double.POSITIVE_INFINITY))
                        .doubles())
                .containsExactly(1.0, Double.POSITIVE_INFINITY);
        assertThat(bin(BinaryFunction.POW, f64(1, -1), f64(nan, Double.NEGATIVE_INFINITY))
                        .doubles())
                .containsExactly(1.0, 1.0);
        assertThat(bin(BinaryFunction.NEXTAFTER, f64(0), f64(-1)).doubles()).containsExactly(-Double.MIN_VALUE);
        Chunk f32 = Chunk.wrap(DType.FLOAT32, new int[] {1}, new float[] {0.1f});
        Chunk sum = Elementwise.binary(BinaryFunction.ADD, f32, f32);
        assertThat(sum.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(sum.floats()).containsExactly(0.2f);
    }

    @Test
    void complexFunctionsOnThePrincipalBranch() {
        double pi = Math.PI;
        assertThat(Elementwise.unary(UnaryFunction.SQRT, c128(-1, 0.0, -1, -0.0))
                        .doubles())
                .containsExactly(0.0, 1.0, 0.0, -1.0);
        assertThat(Elementwise.unary(UnaryFunction.LOG, c128(-1, 0.0, -1, -0.0)).doubles())
                .containsExactly(0.0, pi, 0.0, -pi);
        double[] asin =
                Elementwise.unary(UnaryFunction.ASIN, c128(2, 0.0, 2, -0.0)).doubles();
        assertThat(asin[0]).isCloseTo(pi / 2, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(asin[1]).isCloseTo(1.3169578969248166, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(asin[3]).isCloseTo(-1.3169578969248166, org.assertj.core.data.Offset.offset(1e-15));
        Chunk abs = Elementwise.unary(UnaryFunction.ABS, c128(3, 4));
        assertThat(abs.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(abs.doubles()).containsExactly(5.0);
        assertThat(Elementwise.unary(UnaryFunction.SIGN, c128(3, 4, 0, 0)).doubles())
                .containsExactly(0.6, 0.8, 0.0, 0.0);
        assertThat(bin(BinaryFunction.EQUAL, c128(1, 2, 1, 2), c128(1, 2, 1, -2))
                        .booleans())
                .containsExactly(true, false);
        assertThat(bin(BinaryFunction.MULTIPLY, c128(1, 2), c128(3, 4)).doubles())
                .containsExactly(-5.0, 10.0);
        assertThat(Elementwise.unary(UnaryFunction.IMAG, c128(1, 2)).doubles()).containsExactly(2.0);
    }

    @Test
    void broadcastingFollowsNumpy() {
        Chunk col = Chunk.wrap(DType.FLOAT64, new int[] {3, 1}, new double[] {0, 10, 20});
        Chunk row = f64(1, 2, 3, 4);
        Chunk sum = bin(BinaryFunction.ADD, col, row);
        assertThat(sum.shape()).containsExactly(3, 4);
        assertThat(sum.doubles()).containsExactly(1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24);
        Chunk scalar = Chunk.full(DType.FLOAT64, Scalar.ofDouble(2));
        assertThat(bin(BinaryFunction.MULTIPLY, scalar, row).doubles()).containsExactly(2, 4, 6, 8);
        assertThat(bin(BinaryFunction.ADD, scalar, scalar).shape()).isEmpty();
        Chunk empty = Chunk.allocate(DType.FLOAT64, 0, 4);
        assertThat(bin(BinaryFunction.ADD, empty, row).shape()).containsExactly(0, 4);
        assertThatThrownBy(() -> bin(
                        BinaryFunction.ADD, Chunk.allocate(DType.FLOAT64, 2, 3), Chunk.allocate(DType.FLOAT64, 3, 2)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("add")
                .hasMessageContaining("[2, 3]")
                .hasMessageContaining("[3, 2]");
    }

    @Test
    void inputsAreNotModified() {
        Chunk a = f64(1, 2);
        Chunk b = f64(3, 4);
        Chunk r = bin(BinaryFunction.ADD, a, b);
        assertThat(a.doubles()).containsExactly(1, 2);
        assertThat(r.data()).isNotSameAs(a.data()).isNotSameAs(b.data());
        assertThat(Elementwise.unary(UnaryFunction.POSITIVE, a).data()).isNotSameAs(a.data());
        assertThat(Elementwise.astype(a, DType.FLOAT64).data()).isNotSameAs(a.data());
    }

    @Test
    void typeErrorsNameFunctionAndTypes() {
        Chunk ints = Chunk.allocate(DType.INT32, 2);
        assertThatThrownBy(() -> bin(BinaryFunction.DIVIDE, ints, ints))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("divide")
                .hasMessageContaining("int32")
                .hasMessageContaining("floating-point");
        assertThatThrownBy(() -> bin(BinaryFunction.ADD, i8(1), f64(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("add")
                .hasMessageContaining("int8")
                .hasMessageContaining("float64");
        Chunk bools = Chunk.allocate(DType.BOOL, 1);
        assertThatThrownBy(() -> bin(BinaryFunction.ADD, bools, bools)).hasMessageContaining("numeric");
        assertThatThrownBy(() -> Elementwise.unary(UnaryFunction.SIN, ints))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("sin")
                .hasMessageContaining("int32");
        assertThatThrownBy(() -> Elementwise.unary(UnaryFunction.IMAG, f64(1))).hasMessageContaining("complex");
        assertThatThrownBy(() -> Elementwise.binary(BinaryFunction.ADD, ints, Scalar.ofDouble(1.5)))
                .hasMessageContaining("add")
                .hasMessageContaining("int32");
        assertThatThrownBy(() -> Elementwise.binary(BinaryFunction.ADD, i8(1), Scalar.ofLong(200)))
                .hasMessageContaining("200")
                .hasMessageContaining("int8");
    }

    @Test
    void scalarsFollowTheStandardsRules() {
        Chunk f32 = Chunk.wrap(DType.FLOAT32, new int[] {1}, new float[] {2});
        Chunk c = Elementwise.binary(BinaryFunction.MULTIPLY, f32, Scalar.ofComplex(0, 1));
        assertThat(c.dtype()).isEqualTo(DType.COMPLEX64);
        assertThat(c.floats()).containsExactly(0f, 2f);
        Chunk d = Elementwise.binary(BinaryFunction.SUBTRACT, Scalar.ofLong(10), i8(3));
        assertThat(d.dtype()).isEqualTo(DType.INT8);
        assertThat(d.bytes()).containsExactly(7);
    }

    @Test
    void clipClampsAndPropagatesNan() {
        Chunk x = f64(-5, 0, 5, Double.NaN);
        Chunk r = Elementwise.clip(x, Scalar.ofDouble(-1), Scalar.ofDouble(1));
        assertThat(r.doubles()).containsExactly(-1, 0, 1, Double.NaN);
        assertThat(Elementwise.clip(i8(-5, 5), null, i8(2)).bytes()).containsExactly(-5, 2);
        Chunk copy = Elementwise.clip(x, (Chunk) null, null);
        assertThat(copy.contentEquals(x)).isTrue();
        assertThat(copy.data()).isNotSameAs(x.data());
        assertThatThrownBy(() -> Elementwise.clip(i8(1), f64(0), null)).hasMessageContaining("clip");
        assertThatThrownBy(() -> Elementwise.clip(i8(1), i8(0, 1), null))
                .hasMessageContaining("clip")
                .hasMessageContaining("[2]");
    }

    @Test
    void astypeFollowsNumpyCasting() {
        assertThat(Elementwise.astype(f64(-3.7, 3.7, 127.9), DType.INT8).bytes())
                .containsExactly(-3, 3, 127);
        assertThat(Elementwise.astype(i8(-1, 2), DType.UINT16).shorts()).containsExactly((short) 65535, (short) 2);
        assertThat(Elementwise.astype(f64(0, -0.0, Double.NaN, 2), DType.BOOL).booleans())
                .containsExactly(false, false, true, true);
        assertThat(Elementwise.astype(c128(0, 1, 0, 0), DType.BOOL).booleans()).containsExactly(true, false);
        assertThat(Elementwise.astype(f64(1.5), DType.COMPLEX64).floats()).containsExactly(1.5f, 0f);
        assertThatThrownBy(() -> Elementwise.astype(c128(1, 2), DType.FLOAT64))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("astype")
                .hasMessageContaining("complex128")
                .hasMessageContaining("float64");
    }

    /**
     * float64 and float32 to uint64 of NaN, infinities and values outside the type give what NumPy 1.24 gives on x86-64
     * for arrays of any length (its signed conversion's minimum, 2^63, below the range; 0 from 2^64 on); values read
     * from {@code np.array([...]).astype(np.uint64)}.
     */
    @Test
    void astypeToUint64OfNanInfinityAndOutOfRangeValuesAsNumpy() {
        double[] v = {
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            1e20,
            -1e20,
            0x1p64,
            -0x1p63,
            -0x1p63 - 4096,
            -1e10,
            -1.5,
            1e19,
            0x1p63
        };
        long[] numpy = {
            Long.MIN_VALUE, // 9223372036854775808
            0,
            Long.MIN_VALUE,
            0,
            Long.MIN_VALUE,
            0,
            Long.MIN_VALUE,
            Long.MIN_VALUE,
            Long.parseUnsignedLong("18446744063709551616"),
            Long.parseUnsignedLong("18446744073709551615"),
            Long.parseUnsignedLong("10000000000000000000"),
            Long.MIN_VALUE
        };
        assertThat(Elementwise.astype(f64(v), DType.UINT64).longs()).containsExactly(numpy);
        Chunk f32 = Elementwise.astype(f64(v), DType.FLOAT32);
        long[] fromFloat = numpy.clone();
        fromFloat[8] = Long.parseUnsignedLong("18446744063709551616"); // -1e10 is exact in float32
        fromFloat[10] = Long.parseUnsignedLong("9999999980506447872"); // float32(1e19)
        assertThat(Elementwise.astype(f32, DType.UINT64).longs()).containsExactly(fromFloat);
    }

    @Test
    void functionsKnowTheirPythonNames() {
        assertThat(UnaryFunction.values()).hasSize(38); // with reciprocal (2024.12)
        assertThat(BinaryFunction.values()).hasSize(28);
        assertThat(UnaryFunction.BITWISE_INVERT.pythonName()).isEqualTo("bitwise_invert");
        assertThat(BinaryFunction.fromPythonName("floor_divide")).isEqualTo(BinaryFunction.FLOOR_DIVIDE);
        assertThat(Elementwise.fullLike(i8(1, 2), Scalar.ofLong(9)).bytes()).containsExactly(9, 9);
    }

    /** The single-value loops give exactly what broadcasting the value to a whole chunk gives, on both sides. */
    @Test
    void scalarFastPathsEqualTheBroadcastResult() {
        double[] values = {-2.5, -0.0, 0.0, 1.0, 3.25, Double.NaN, Double.POSITIVE_INFINITY, -1e300};
        BinaryFunction[] hot = {
            BinaryFunction.ADD,
            BinaryFunction.SUBTRACT,
            BinaryFunction.MULTIPLY,
            BinaryFunction.DIVIDE,
            BinaryFunction.MAXIMUM,
            BinaryFunction.MINIMUM
        };
        for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
            Chunk x = Elementwise.astype(Chunk.wrap(DType.FLOAT64, new int[] {2, 4}, values.clone()), t);
            for (double sv : new double[] {-0.0, 0.0, 2.0, Double.NaN, -3.5}) {
                Chunk single = Elementwise.astype(Chunk.wrap(DType.FLOAT64, new int[0], new double[] {sv}), t);
                Chunk whole = Chunk.full(t, Scalar.ofDouble(sv), 2, 4);
                for (BinaryFunction f : hot) {
                    String what = f + " " + t + " " + sv;
                    assertThat(Elementwise.binary(f, x, single).data())
                            .as(what + " right")
                            .isEqualTo(Elementwise.binary(f, x, whole).data());
                    assertThat(Elementwise.binary(f, single, x).data())
                            .as(what + " left")
                            .isEqualTo(Elementwise.binary(f, whole, x).data());
                    assertThat(Elementwise.binary(f, x, Scalar.ofDouble(sv)).data())
                            .as(what + " scalar")
                            .isEqualTo(Elementwise.binary(f, x, whole).data());
                }
            }
        }
        // By hand: 0.5 - x and maximum(x, 0) with NaN propagation.
        Chunk x = Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {1.0, Double.NaN, -2.0});
        assertThat(Elementwise.binary(BinaryFunction.SUBTRACT, Scalar.ofDouble(0.5), x)
                        .doubles())
                .containsExactly(-0.5, Double.NaN, 2.5);
        assertThat(Elementwise.binary(BinaryFunction.MAXIMUM, x, Scalar.ofDouble(0))
                        .doubles())
                .containsExactly(1.0, Double.NaN, 0.0);
    }

    @Test
    void powWithAScalarMatchesTheElementLoop() {
        double nan = Double.NaN;
        double inf = Double.POSITIVE_INFINITY;
        double[] x = {3, -1.5, 0.1, -0.0, 0.0, nan, -inf, 1, -1, 1e200, 7.25e-3};
        Chunk a = f64(x);
        // x ** 2 is the correctly rounded square, as NumPy's ** gives it.
        double[] sq =
                Elementwise.binary(BinaryFunction.POW, a, Scalar.ofLong(2)).doubles();
        double[] sqArray = bin(BinaryFunction.POW, a, f64(new double[x.length])).doubles();
        for (int i = 0; i < x.length; i++) {
            assertThat(Double.valueOf(sq[i])).as("x[%d] ** 2", i).isEqualTo(Double.valueOf(x[i] * x[i]));
            assertThat(sqArray[i]).isEqualTo(1.0);
        }
        assertThat(Double.doubleToRawLongBits(sq[3])).as("(-0) ** 2 is +0").isZero();
        // Other exponents and a scalar base give what the element-by-element pow of two arrays gives.
        for (double s : new double[] {0.5, 3, -1, 0, nan, inf, -2.5}) {
            double[] full = new double[x.length];
            java.util.Arrays.fill(full, s);
            assertThat(Elementwise.binary(BinaryFunction.POW, a, Scalar.ofDouble(s))
                            .doubles())
                    .as("x ** %s", s)
                    .containsExactly(bin(BinaryFunction.POW, a, f64(full)).doubles());
            assertThat(Elementwise.binary(BinaryFunction.POW, Scalar.ofDouble(s), a)
                            .doubles())
                    .as("%s ** x", s)
                    .containsExactly(bin(BinaryFunction.POW, f64(full), a).doubles());
            for (int i = 0; i < x.length; i++) {
                double ref = x[i] == 1 || (x[i] == -1 && Double.isInfinite(s)) ? 1 : Math.pow(x[i], s);
                double got = Elementwise.binary(BinaryFunction.POW, a, Scalar.ofDouble(s))
                        .doubles()[i];
                assertThat(Double.valueOf(got)).isEqualTo(Double.valueOf(ref));
            }
        }
        // Integer and float32 arrays keep their own loops.
        assertThat(Elementwise.binary(BinaryFunction.POW, i8(3, -2), Scalar.ofLong(2))
                        .bytes())
                .containsExactly(9, 4);
        Chunk f32 = Chunk.wrap(DType.FLOAT32, new int[] {2}, new float[] {1.5f, -3f});
        Chunk f32sq = Elementwise.binary(BinaryFunction.POW, f32, Scalar.ofLong(2));
        assertThat(f32sq.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(f32sq.floats()).containsExactly(2.25f, 9f);
    }

    @Test
    void broadcastStretchesSingleElementsAlongTheLastAxisAsAReferenceLoopDoes() {
        // (3, 1) stretched to (3, n) and (1,) to (2, n): every row is its element repeated, for lengths around powers
        // of two (the fill doubles its run).
        for (int n : new int[] {1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 1000}) {
            Chunk col = Chunk.wrap(DType.FLOAT64, new int[] {3, 1}, new double[] {1.5, -2, 7});
            double[] got = Broadcast.expand(col, new int[] {3, n}).doubles();
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < n; c++) {
                    assertThat(got[r * n + c]).isEqualTo(col.doubles()[r]);
                }
            }
            Chunk z = Chunk.wrap(DType.COMPLEX128, new int[] {1}, new double[] {2, -3});
            double[] gz = Broadcast.expand(z, new int[] {2, n}).doubles();
            for (int k = 0; k < 2 * n; k++) {
                assertThat(gz[2 * k]).isEqualTo(2.0);
                assertThat(gz[2 * k + 1]).isEqualTo(-3.0);
            }
        }
    }

    @Test
    void anOperandBroadcastAlongLeadingAxesGivesWhatElementByElementArithmeticGives() {
        // (full shape, row shape): rows along one or two leading axes, a row of one or two axes, a missing axis, and a
        // leading axis of length 1 inside the full shape.
        int[][][] cases = {
            {{6, 5}, {1, 5}},
            {{6, 5}, {5}},
            {{3, 4, 5}, {4, 5}},
            {{3, 4, 5}, {1, 1, 5}},
            {{4, 1, 5}, {1, 1, 5}},
            {{2, 3, 4}, {1, 3, 4}},
            // rows of 16 elements or more, which the row loops copy through a buffer
            {{7, 40}, {1, 40}},
            {{3, 2, 24}, {2, 24}}
        };
        BinaryFunction[] fs = {
            BinaryFunction.ADD, BinaryFunction.SUBTRACT, BinaryFunction.MULTIPLY, BinaryFunction.DIVIDE
        };
        for (int[][] c : cases) {
            int[] shape = c[0];
            int[] rowShape = c[1];
            int n = Chunk.elementCount(shape);
            int m = Chunk.elementCount(rowShape);
            double[] full = new double[n];
            double[] row = new double[m];
            for (int i = 0; i < n; i++) {
                full[i] = (i % 7) - 2.5 + i * 0.125;
            }
            for (int j = 0; j < m; j++) {
                row[j] = j == 1 ? 0.0 : 1.5 - j; // a zero divides too
            }
            Chunk a = Chunk.wrap(DType.FLOAT64, shape, full);
            Chunk r = Chunk.wrap(DType.FLOAT64, rowShape, row);
            for (BinaryFunction f : fs) {
                double[] right = Elementwise.binary(f, a, r).doubles();
                double[] left = Elementwise.binary(f, r, a).doubles();
                for (int i = 0; i < n; i++) {
                    double x = full[i];
                    double y = row[i % m];
                    double[] expected =
                            switch (f) {
                                case ADD -> new double[] {x + y, y + x};
                                case SUBTRACT -> new double[] {x - y, y - x};
                                case MULTIPLY -> new double[] {x * y, y * x};
                                default -> new double[] {x / y, y / x};
                            };
                    assertThat(Double.valueOf(right[i]))
                            .as("%s %s row right, %d", f, java.util.Arrays.toString(shape), i)
                            .isEqualTo(Double.valueOf(expected[0]));
                    assertThat(Double.valueOf(left[i]))
                            .as("%s %s row left, %d", f, java.util.Arrays.toString(shape), i)
                            .isEqualTo(Double.valueOf(expected[1]));
                }
            }
        }
    }

    @Test
    void onlyOperandsRepeatedAlongLeadingAxesCountAsRows() {
        assertThat(Elementwise.isTrailingRow(new int[] {1, 5}, new int[] {6, 5}))
                .isTrue();
        assertThat(Elementwise.isTrailingRow(new int[] {5}, new int[] {6, 5})).isTrue();
        assertThat(Elementwise.isTrailingRow(new int[] {1, 1, 5}, new int[] {4, 1, 5}))
                .isTrue();
        assertThat(Elementwise.isTrailingRow(new int[] {6, 1}, new int[] {6, 5}))
                .as("a column")
                .isFalse();
        assertThat(Elementwise.isTrailingRow(new int[] {1, 1}, new int[] {6, 5}))
                .as("one element")
                .isFalse();
        assertThat(Elementwise.isTrailingRow(new int[] {6, 5}, new int[] {6, 5}))
                .as("no repeat")
                .isFalse();
        assertThat(Elementwise.isTrailingRow(new int[] {1, 5}, new int[] {1, 5}))
                .as("no repeat")
                .isFalse();
        assertThat(Elementwise.isTrailingRow(new int[] {3, 1, 5}, new int[] {3, 4, 5}))
                .as("a middle axis")
                .isFalse();
        assertThat(Elementwise.isTrailingRow(new int[] {1, 5}, new int[] {0, 5}))
                .as("empty")
                .isFalse();
    }
}
