package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.UnaryFunction;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Computation;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Executor;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The array-level elementwise API: results of chunked lazy arrays equal plain loops (hand-computed values) or, for the
 * whole catalogue of functions and types, the chunk kernel applied once to the whole, unchunked array — which is what
 * chunking must not change. The kernels themselves are checked against NumPy in {@code ElementwiseNumpyTest}.
 */
class ElementwiseArrayTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    private static Chunk doubles(int[] shape, java.util.function.IntToDoubleFunction f) {
        Chunk c = Chunk.allocate(DType.FLOAT64, shape);
        for (int i = 0; i < c.size(); i++) {
            c.doubles()[i] = f.applyAsDouble(i);
        }
        return c;
    }

    @Test
    void addOfTwoChunkedArraysIsThePlainSum() {
        Spec spec = spec();
        Chunk a = doubles(new int[] {5, 7}, i -> i * 0.5);
        Chunk b = doubles(new int[] {5, 7}, i -> 100 - i);
        CubedArray c = Elementwise.add(Cubed.asarray(a, spec, 2, 3), Cubed.asarray(b, spec, 2, 3));
        assertThat(c.shape()).containsExactly(5, 7);
        assertThat(c.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(c.chunkShape()).containsExactly(2, 3);
        double[] out = c.compute().doubles();
        for (int i = 0; i < 35; i++) {
            assertThat(out[i]).isEqualTo(i * 0.5 + 100 - i);
        }
    }

    @Test
    void broadcastingFollowsNumPy() {
        Spec spec = spec();
        // (4, 1) column + (6,) row = outer sum; (4, 6) chunked (3, 4) times a 0-d array.
        CubedArray col = Cubed.asarray(doubles(new int[] {4, 1}, i -> 10.0 * i), spec, 3, 1);
        CubedArray row = Cubed.asarray(doubles(new int[] {6}, i -> i), spec, 4);
        CubedArray outer = Elementwise.add(col, row);
        assertThat(outer.shape()).containsExactly(4, 6);
        assertThat(outer.chunkShape()).containsExactly(3, 4);
        CubedArray scaled = Elementwise.multiply(outer, Cubed.asarray(doubles(new int[0], i -> -2), spec));
        double[] out = scaled.compute().doubles();
        for (int r = 0; r < 4; r++) {
            for (int k = 0; k < 6; k++) {
                assertThat(out[r * 6 + k]).isEqualTo(-2 * (10.0 * r + k));
            }
        }
    }

    @Test
    void operandsWithDifferentChunksAreRechunkedToCommonOnes() {
        Spec spec = spec();
        CubedArray a = Cubed.asarray(doubles(new int[] {10}, i -> i), spec, 3);
        CubedArray b = Cubed.asarray(doubles(new int[] {10}, i -> i * i), spec, 4);
        CubedArray c = Elementwise.subtract(a, b);
        assertThat(c.chunkShape()).containsExactly(3);
        double[] out = c.compute().doubles();
        for (int i = 0; i < 10; i++) {
            assertThat(out[i]).isEqualTo(i - (double) i * i);
        }
    }

    @Test
    void promotionFollowsTheStandard() {
        Spec spec = spec();
        CubedArray i8 = Cubed.asarray(Chunk.wrap(DType.INT8, new int[] {3}, new byte[] {-128, 5, 127}), spec);
        CubedArray u8 = Cubed.asarray(Chunk.wrap(DType.UINT8, new int[] {3}, new byte[] {(byte) 255, 5, 1}), spec);
        CubedArray sum = Elementwise.add(i8, u8);
        assertThat(sum.dtype()).isEqualTo(DType.INT16);
        assertThat(sum.compute().toLongArray()).containsExactly(127, 10, 128);
        // int8 wraps around in int8 arithmetic.
        assertThat(Elementwise.add(i8, i8).compute().toLongArray()).containsExactly(0, 10, -2);
        CubedArray cmp = Elementwise.less(i8, u8);
        assertThat(cmp.dtype()).isEqualTo(DType.BOOL);
        assertThat(cmp.compute().booleans()).containsExactly(true, false, false);
    }

    @Test
    void scalarsFollowThePythonScalarRules() {
        Spec spec = spec();
        Chunk f32 = Chunk.wrap(DType.FLOAT32, new int[] {4}, new float[] {1f, 2f, 3f, 4f});
        CubedArray x = Cubed.asarray(f32, spec, 3);
        CubedArray y = Elementwise.add(x, Scalar.ofDouble(0.5));
        assertThat(y.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(y.compute().floats()).containsExactly(1.5f, 2.5f, 3.5f, 4.5f);
        CubedArray z = Elementwise.subtract(Scalar.ofLong(10), x);
        assertThat(z.compute().floats()).containsExactly(9f, 8f, 7f, 6f);
        CubedArray p = Elementwise.pow(
                Scalar.ofLong(2),
                Cubed.asarray(Chunk.wrap(DType.INT32, new int[] {4}, new int[] {0, 1, 10, 30}), spec, 2));
        assertThat(p.dtype()).isEqualTo(DType.INT32);
        assertThat(p.compute().toLongArray()).containsExactly(1, 2, 1024, 1L << 30);
    }

    @Test
    void badTypesAreRefusedAtTheCallNamingTheArrayAndFunction() {
        Spec spec = spec();
        CubedArray i64 = Cubed.asarray(Chunk.allocate(DType.INT64, 2), spec);
        CubedArray u64 = Cubed.asarray(Chunk.allocate(DType.UINT64, 2), spec);
        CubedArray flags = Cubed.asarray(Chunk.allocate(DType.BOOL, 2), spec);
        CubedArray i8 = Cubed.asarray(Chunk.allocate(DType.INT8, 2), spec);
        assertThatThrownBy(() -> Elementwise.add(i64, u64))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("add")
                .hasMessageContaining("'" + i64.name() + "' (int64")
                .hasMessageContaining("'" + u64.name() + "' (uint64")
                .hasMessageContaining("astype");
        assertThatThrownBy(() -> Elementwise.sqrt(i64))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("sqrt: array '" + i64.name() + "' (int64, shape [2]) has data type int64")
                .hasMessageContaining("a floating-point data type");
        assertThatThrownBy(() -> Elementwise.negative(flags))
                .hasMessageContaining("negative")
                .hasMessageContaining("bool");
        assertThatThrownBy(() -> Elementwise.add(i8, Scalar.ofLong(300)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("300")
                .hasMessageContaining("int8")
                .hasMessageContaining("'" + i8.name() + "'");
        assertThatThrownBy(() -> Elementwise.logicalAnd(i8, i8)).hasMessageContaining("a boolean data type");
        assertThatThrownBy(() -> Elementwise.add(i8, Cubed.asarray(Chunk.allocate(DType.INT8, 3), spec)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cannot be broadcast");
        assertThatThrownBy(() ->
                        Elementwise.astype(Cubed.asarray(Chunk.allocate(DType.COMPLEX64, 2), spec), DType.FLOAT64))
                .hasMessageContaining("astype")
                .hasMessageContaining("imaginary");
    }

    @Test
    void buildingRunsNothing() {
        Executor raise = new Executor() {
            @Override
            public String name() {
                return "raise-if-computes";
            }

            @Override
            public void execute(ExecutionPlan plan, List<Callback> callbacks) {
                throw new AssertionError("computed");
            }
        };
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .executor(raise)
                .build();
        CubedArray x = Creation.ones(new long[] {100, 100}, new int[] {10, 10}, DType.FLOAT64, spec);
        CubedArray y = Elementwise.sqrt(Elementwise.add(x, Elementwise.exp(x)));
        y = Elementwise.clip(Elementwise.astype(y, DType.FLOAT32), Scalar.ofDouble(0), Scalar.ofDouble(1));
        assertThat(y.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(y.explain())
                .contains("sqrt")
                .contains("exp")
                .contains("clip")
                .contains("astype");
    }

    @Test
    void scratchMemoryOfPromotionIsProjected() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .reservedMem(1000)
                .build();
        CubedArray f32 = Creation.ones(new long[] {40}, new int[] {10}, DType.FLOAT32, spec);
        CubedArray f64 = Creation.zeros(new long[] {40}, new int[] {10}, DType.FLOAT64, spec);
        CubedArray sum = Elementwise.add(f32, f64);
        Computation c = Computation.prepare(spec, List.of(sum.node()), Map.of());
        // Virtual inputs have no buffer copies: 40 + 80 bytes. The float32 chunk is promoted to float64 (80 bytes);
        // output float64 (80) with one write copy on local disk.
        long expected = 1000 + 10 * 4 + 10 * 8 + 10 * 8 + 10 * 8 * 2;
        assertThat(c.projectedMemBytes().get(sum.node().op())).isEqualTo(expected);
        double[] out = sum.compute().doubles();
        assertThat(out).hasSize(40).containsOnly(1.0);
    }

    @Test
    void clipWithArrayAndScalarBoundsMatchesALoop() {
        Spec spec = spec();
        Chunk data = doubles(new int[] {3, 5}, i -> i - 7);
        CubedArray x = Cubed.asarray(data, spec, 2, 2);
        CubedArray lo = Cubed.asarray(doubles(new int[] {5}, i -> -i), spec, 2);
        double[] withArrays =
                Elementwise.clip(x, lo, (CubedArray) null).compute().doubles();
        double[] withScalars = Elementwise.clip(x, Scalar.ofDouble(-2), Scalar.ofDouble(3))
                .compute()
                .doubles();
        for (int r = 0; r < 3; r++) {
            for (int k = 0; k < 5; k++) {
                double v = r * 5 + k - 7;
                assertThat(withArrays[r * 5 + k]).isEqualTo(Math.max(v, -k));
                assertThat(withScalars[r * 5 + k]).isEqualTo(Math.min(Math.max(v, -2), 3));
            }
        }
        assertThatThrownBy(() -> Elementwise.clip(
                        x, Cubed.asarray(Chunk.allocate(DType.FLOAT64, 4, 5), spec), (CubedArray) null))
                .hasMessageContaining("clip: min")
                .hasMessageContaining("does not broadcast to the shape [3, 5]");
    }

    @Test
    void astypeConvertsAndIsIdentityForTheSameType() {
        Spec spec = spec();
        CubedArray x = Cubed.asarray(doubles(new int[] {4}, i -> i * 1.75 - 3), spec, 3);
        assertThat(Elementwise.astype(x, DType.FLOAT64)).isSameAs(x);
        CubedArray i = Elementwise.astype(x, DType.INT16);
        assertThat(i.dtype()).isEqualTo(DType.INT16);
        // -3, -1.25, 0.5, 2.25 truncate toward zero.
        assertThat(i.compute().toLongArray()).containsExactly(-3, -1, 0, 2);
        assertThat(Elementwise.astype(x, DType.BOOL).compute().booleans()).containsExactly(true, true, true, true);
    }

    @Test
    void realAndConjOfRealValuedInputKeepValuesAndType() {
        // 2024.12 allows real-valued input: real and conj give the values unchanged, in the input's type.
        Spec spec = spec();
        CubedArray f32 = Cubed.asarray(
                Chunk.wrap(DType.FLOAT32, new int[] {5}, new float[] {-1.5f, 0f, -0f, Float.NaN, 3e38f}), spec, 2);
        for (CubedArray r : List.of(Elementwise.real(f32), Elementwise.conj(f32))) {
            assertThat(r.dtype()).isEqualTo(DType.FLOAT32);
            assertThat(r.compute().floats()).containsExactly(-1.5f, 0f, -0f, Float.NaN, 3e38f);
        }
        CubedArray i16 =
                Cubed.asarray(Chunk.wrap(DType.INT16, new int[] {3}, new short[] {Short.MIN_VALUE, 7, -2}), spec, 2);
        for (CubedArray r : List.of(Elementwise.real(i16), Elementwise.conj(i16))) {
            assertThat(r.dtype()).isEqualTo(DType.INT16);
            assertThat(r.compute().toLongArray()).containsExactly(Short.MIN_VALUE, 7, -2);
        }
        CubedArray c = Cubed.asarray(Chunk.wrap(DType.COMPLEX64, new int[] {1}, new float[] {2f, -3f}), spec);
        assertThat(Elementwise.real(c).compute().floats()).containsExactly(2f);
        assertThat(Elementwise.conj(c).compute().floats()).containsExactly(2f, 3f);
        CubedArray flags = Cubed.asarray(Chunk.allocate(DType.BOOL, 1), spec);
        assertThatThrownBy(() -> Elementwise.real(flags)).hasMessageContaining("a numeric data type");
        assertThatThrownBy(() -> Elementwise.imag(f32)).hasMessageContaining("a complex floating-point data type");
    }

    @Test
    void dataTypeFunctionsAcceptArrays() {
        Spec spec = spec();
        CubedArray i16 = Cubed.asarray(Chunk.allocate(DType.INT16, 2), spec);
        CubedArray f32 = Cubed.asarray(Chunk.allocate(DType.FLOAT32, 2), spec);
        assertThat(DataTypes.resultType(i16, DType.UINT8)).isEqualTo(DType.INT16);
        assertThat(DataTypes.resultType(f32, f32)).isEqualTo(DType.FLOAT32);
        assertThat(DataTypes.canCast(i16, DType.INT32)).isTrue();
        assertThat(DataTypes.canCast(i16, DType.INT8)).isFalse();
        // The standard's lattice has no edges between kinds (NumPy would say true here).
        assertThat(DataTypes.canCast(i16, DType.FLOAT32)).isFalse();
        assertThat(DataTypes.canCast(f32, DType.COMPLEX64)).isTrue();
        assertThat(DataTypes.iinfo(i16).max()).isEqualTo(32767);
        assertThat(DataTypes.finfo(f32).eps()).isEqualTo(Math.ulp(1.0f));
        assertThat(DataTypes.isdtype(f32, "real floating")).isTrue();
        assertThat(DataTypes.isdtype(i16, "unsigned integer")).isFalse();
    }

    // ---- every function on every type of its domain: chunked result == kernel on the whole array ----

    private static final DType[] ALL = DType.values();

    static Stream<Arguments> unaryCases() {
        List<Arguments> out = new ArrayList<>();
        for (UnaryFunction f : UnaryFunction.values()) {
            for (DType t : ALL) {
                if (f.domain().accepts(t)) {
                    out.add(Arguments.of(f, t));
                }
            }
        }
        return out.stream();
    }

    static Stream<Arguments> binaryCases() {
        List<Arguments> out = new ArrayList<>();
        DType[][] pairs = {
            {DType.BOOL, DType.BOOL},
            {DType.INT8, DType.INT8},
            {DType.INT32, DType.INT64},
            {DType.UINT8, DType.INT16},
            {DType.UINT64, DType.UINT64},
            {DType.FLOAT32, DType.FLOAT32},
            {DType.FLOAT32, DType.FLOAT64},
            {DType.INT8, DType.FLOAT32},
            {DType.COMPLEX64, DType.FLOAT64},
            {DType.COMPLEX128, DType.COMPLEX128}
        };
        for (BinaryFunction f : BinaryFunction.values()) {
            for (DType[] p : pairs) {
                DType pt;
                try {
                    pt = DTypes.resultType(p[0], p[1]);
                } catch (InvalidArgumentException e) {
                    continue;
                }
                if (f.domain().accepts(pt)) {
                    out.add(Arguments.of(f, p[0], p[1]));
                }
            }
        }
        return out.stream();
    }

    /** Random values of type {@code t} with small integers (so pow and shifts stay meaningful) and some NaNs. */
    private static Chunk random(DType t, int[] shape, long seed) {
        Random r = new Random(seed);
        Chunk c = Chunk.allocate(t, shape);
        int n = c.size();
        for (int i = 0; i < n; i++) {
            switch (t) {
                case BOOL -> c.booleans()[i] = r.nextBoolean();
                case INT8, UINT8 -> c.bytes()[i] = (byte) (r.nextInt(7) - (t == DType.INT8 ? 3 : 0));
                case INT16, UINT16 -> c.shorts()[i] = (short) (r.nextInt(9) - (t == DType.INT16 ? 4 : 0));
                case INT32, UINT32 -> c.ints()[i] = r.nextInt(9) - (t == DType.INT32 ? 4 : 0);
                case INT64, UINT64 -> c.longs()[i] = r.nextInt(9) - (t == DType.INT64 ? 4 : 0);
                case FLOAT32 -> c.floats()[i] = i % 11 == 5 ? Float.NaN : (float) (r.nextGaussian() * 2);
                case FLOAT64 -> c.doubles()[i] = i % 11 == 5 ? Double.NaN : r.nextGaussian() * 2;
                case COMPLEX64 -> {
                    c.floats()[2 * i] = (float) r.nextGaussian();
                    c.floats()[2 * i + 1] = (float) r.nextGaussian();
                }
                default -> {
                    c.doubles()[2 * i] = r.nextGaussian();
                    c.doubles()[2 * i + 1] = r.nextGaussian();
                }
            }
        }
        return c;
    }

    private static void assertSameChunk(Chunk actual, Chunk expected, String what) {
        assertThat(actual.dtype()).as(what).isEqualTo(expected.dtype());
        assertThat(actual.shape()).as(what).containsExactly(expected.shape());
        assertThat(Arrays.deepEquals(new Object[] {actual.data()}, new Object[] {expected.data()}))
                .as(what + ": " + actual + " vs " + expected)
                .isTrue();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("unaryCases")
    void unaryChunkedEqualsWhole(UnaryFunction f, DType t) {
        Chunk whole = random(t, new int[] {5, 7}, f.ordinal() * 31L + t.ordinal());
        CubedArray x = Cubed.asarray(whole, spec(), 2, 3);
        Chunk expected = io.cubed.chunk.Elementwise.unary(f, whole);
        assertSameChunk(Elementwise.unary(f, x).compute(), expected, f + " " + t);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("binaryCases")
    void binaryChunkedAndBroadcastEqualsWhole(BinaryFunction f, DType ta, DType tb) {
        Spec spec = spec();
        Chunk a = random(ta, new int[] {5, 7}, f.ordinal() * 131L + ta.ordinal());
        Chunk b = random(tb, new int[] {7}, f.ordinal() * 17L + tb.ordinal() + 1000);
        if (f == BinaryFunction.POW && tb.kind() == DType.Kind.SIGNED) {
            // Integers to negative integer powers are refused (as in NumPy); keep the exponents non-negative.
            b = io.cubed.chunk.Elementwise.unary(UnaryFunction.ABS, b);
        }
        Chunk expected = io.cubed.chunk.Elementwise.binary(f, a, b);
        CubedArray result = Elementwise.binary(f, Cubed.asarray(a, spec, 2, 3), Cubed.asarray(b, spec, 3));
        assertSameChunk(result.compute(), expected, f + " " + ta + " " + tb);
    }
}
