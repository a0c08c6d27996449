package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An integer scalar that becomes an element of an integer array must fit the array's type, at every entry point that
 * takes one (elementwise functions, {@code clip}, {@code where}, {@code diff}'s prepend and append, {@code pad}'s
 * constant, {@code full}, {@code map_overlap}'s boundary): a value outside it is refused at the call, naming the
 * function, the array and the value, as {@code add(int8Array, 300)} is and as NumPy 2 refuses it, instead of wrapping.
 * uint64 takes every value from 0 to 2<sup>64</sup>−1 ({@link Scalar#ofUnsignedLong}) and no negative one.
 * {@code searchsorted} compares a scalar by its exact value instead. Expected values are hand-computed.
 */
class IntegerScalarRangeTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** int8 [1, 2, 3, 4] in chunks of 2. */
    private CubedArray int8(Spec spec) {
        return Cubed.asarray(Chunk.wrap(DType.INT8, new int[] {4}, new byte[] {1, 2, 3, 4}), spec, 2);
    }

    /** uint64 [5, 6, 7] in chunks of 2. */
    private CubedArray uint64(Spec spec) {
        return Cubed.asarray(Chunk.wrap(DType.UINT64, new int[] {3}, new long[] {5, 6, 7}), spec, 2);
    }

    private static void assertRefused(ThrowingCallable call, String op, CubedArray x, String value) {
        assertThatThrownBy(call)
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(op + ": the integer scalar " + value + " is outside the range")
                .hasMessageContaining("'" + x.name() + "'")
                .hasMessageContaining(x.dtype().toString());
    }

    @Test
    void uint64RefusesNegativeScalarsInElementwiseFunctionsAndClip() {
        Spec spec = spec();
        CubedArray u = uint64(spec);
        Scalar minusOne = Scalar.ofLong(-1);
        assertRefused(() -> Elementwise.less(u, minusOne), "less", u, "-1");
        assertRefused(() -> Elementwise.less(minusOne, u), "less", u, "-1");
        assertRefused(() -> Elementwise.clip(u, Scalar.ofLong(-5), Scalar.ofLong(100)), "clip", u, "-5");
        assertRefused(() -> Elementwise.clip(u, (CubedArray) null, Scalar.ofLong(-5)), "clip", u, "-5");
        assertRefused(() -> Elementwise.maximum(u, minusOne), "maximum", u, "-1");
        assertRefused(() -> Elementwise.add(u, minusOne), "add", u, "-1");
        assertRefused(() -> Elementwise.floorDivide(u, minusOne), "floor_divide", u, "-1");
        assertRefused(() -> Elementwise.equal(u, Scalar.ofLong(Long.MIN_VALUE)), "equal", u, "-9223372036854775808");
        // As for uint8, which always refused them.
        CubedArray u8 = Cubed.asarray(Chunk.wrap(DType.UINT8, new int[] {2}, new byte[] {5, 6}), spec);
        assertRefused(() -> Elementwise.less(u8, minusOne), "less", u8, "-1");
        assertRefused(() -> Elementwise.add(u8, Scalar.ofLong(256)), "add", u8, "256");
    }

    @Test
    void uint64TakesEveryValueUpTo2To64Minus1() {
        Spec spec = spec();
        CubedArray u = uint64(spec);
        Scalar max = Scalar.ofUnsignedLong(-1L); // 18446744073709551615
        Scalar half = Scalar.ofUnsignedLong(Long.MIN_VALUE); // 9223372036854775808
        assertThat(Elementwise.less(u, max).compute().booleans()).containsExactly(true, true, true);
        assertThat(Elementwise.greaterEqual(u, half).compute().booleans()).containsExactly(false, false, false);
        assertThat(Elementwise.equal(max, u).compute().booleans()).containsExactly(false, false, false);
        assertThat(Elementwise.maximum(u, half).compute().longs())
                .containsExactly(Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE);
        // 2^64 - 1 - [5, 6, 7] = 18446744073709551610, ...609, ...608, whose bits are -6, -7, -8.
        assertThat(Elementwise.subtract(max, u).compute().longs()).containsExactly(-6L, -7L, -8L);
        // (2^64 - 1) // [5, 6, 7]
        assertThat(Elementwise.floorDivide(max, u).compute().longs())
                .containsExactly(3689348814741910323L, 3074457345618258602L, 2635249153387078802L);
        assertThat(Elementwise.clip(u, Scalar.ofLong(6), max).compute().longs()).containsExactly(6, 6, 7);
        assertThat(Elementwise.clip(u, half, max).compute().longs())
                .containsExactly(Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE);
        assertThat(Elementwise.add(u, Scalar.ofLong(Long.MAX_VALUE)).compute().longs())
                .containsExactly(Long.MAX_VALUE + 5, Long.MAX_VALUE + 6, Long.MAX_VALUE + 7);
        // A uint64 value above 2^63 - 1 fits no other integer type; as a float it is its unsigned value.
        CubedArray i64 = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {1}, new long[] {1}), spec);
        assertRefused(() -> Elementwise.add(i64, max), "add", i64, "18446744073709551615");
        CubedArray f64 = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {1}, new double[] {1}), spec);
        assertThat(Elementwise.add(f64, max).compute().doubles()).containsExactly(1.8446744073709552e19);
    }

    @Test
    void negativeScalarsStillWorkWithSignedTypes() {
        Spec spec = spec();
        CubedArray x = int8(spec);
        assertThat(Elementwise.add(x, Scalar.ofLong(-128)).compute().bytes()).containsExactly(-127, -126, -125, -124);
        assertThat(Elementwise.less(x, Scalar.ofLong(-1)).compute().booleans())
                .containsExactly(false, false, false, false);
        assertThat(Elementwise.clip(x, Scalar.ofLong(-128), Scalar.ofLong(2))
                        .compute()
                        .bytes())
                .containsExactly(1, 2, 2, 2);
        assertRefused(() -> Elementwise.add(x, Scalar.ofLong(-129)), "add", x, "-129");
    }

    @Test
    void whereRefusesAScalarOutsideTheArraysType() {
        Spec spec = spec();
        CubedArray x = int8(spec);
        CubedArray big = Elementwise.greater(x, Scalar.ofLong(2));
        assertRefused(() -> Searching.where(big, x, Scalar.ofLong(1000)), "where", x, "1000");
        assertRefused(() -> Searching.where(big, Scalar.ofLong(300), x), "where", x, "300");
        assertThat(Searching.where(big, x, Scalar.ofLong(-128)).compute().bytes())
                .containsExactly(-128, -128, 3, 4);
        assertThat(Searching.where(big, Scalar.ofLong(127), x).compute().bytes())
                .containsExactly(1, 2, 127, 127);

        CubedArray u = uint64(spec);
        CubedArray six = Elementwise.greater(u, Scalar.ofLong(5));
        assertRefused(() -> Searching.where(six, u, Scalar.ofLong(-1)), "where", u, "-1");
        assertThat(Searching.where(six, u, Scalar.ofUnsignedLong(-1L)).compute().longs())
                .containsExactly(-1L, 6, 7);
    }

    @Test
    void searchsortedComparesAScalarByItsExactValue() {
        Spec spec = spec();
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.INT8, new int[] {4}, new byte[] {1, 2, 127, 127}), spec, 2);
        for (SearchSide side : SearchSide.values()) {
            // Above every int8: after everything; below every int8: before everything.
            assertThat(searchsorted(x, Scalar.ofLong(1000), side))
                    .as("%s", side)
                    .isEqualTo(4);
            assertThat(searchsorted(x, Scalar.ofLong(-1000), side))
                    .as("%s", side)
                    .isEqualTo(0);
        }
        // In range, as before: 127 is not 1000.
        assertThat(searchsorted(x, Scalar.ofLong(127), SearchSide.LEFT)).isEqualTo(2);
        assertThat(searchsorted(x, Scalar.ofLong(127), SearchSide.RIGHT)).isEqualTo(4);
        assertThat(searchsorted(x, Scalar.ofLong(2), SearchSide.LEFT)).isEqualTo(1);

        CubedArray u = uint64(spec);
        for (SearchSide side : SearchSide.values()) {
            assertThat(searchsorted(u, Scalar.ofLong(-1), side)).as("%s", side).isEqualTo(0);
            assertThat(searchsorted(u, Scalar.ofUnsignedLong(-1L), side))
                    .as("%s", side)
                    .isEqualTo(3);
        }
        assertThat(searchsorted(u, Scalar.ofLong(6), SearchSide.LEFT)).isEqualTo(1);
        assertThat(searchsorted(u, Scalar.ofLong(6), SearchSide.RIGHT)).isEqualTo(2);
        CubedArray i64 = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {2}, new long[] {-1, Long.MAX_VALUE}), spec);
        assertThat(searchsorted(i64, Scalar.ofUnsignedLong(-1L), SearchSide.LEFT))
                .isEqualTo(2);

        CubedArray r = Searching.searchsorted(x, Scalar.ofLong(1000), SearchSide.LEFT);
        assertThat(r.shape()).isEmpty();
        assertThat(r.dtype()).isEqualTo(DType.INT64);
        CubedArray twoD = Creation.zeros(new long[] {2, 2}, new int[] {2, 2}, DType.INT8, spec);
        assertThatThrownBy(() -> Searching.searchsorted(twoD, Scalar.ofLong(1000), SearchSide.LEFT))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("one-dimensional");
    }

    private static long searchsorted(CubedArray x, Scalar v, SearchSide side) {
        return Searching.searchsorted(x, v, side).compute().getLong(0);
    }

    @Test
    void diffRefusesAPrependOrAppendOutsideTheArraysType() {
        Spec spec = spec();
        CubedArray x = int8(spec);
        assertRefused(() -> Utility.diff(x, 0, 1, Scalar.ofLong(1000), null), "diff", x, "1000");
        assertRefused(() -> Utility.diff(x, 0, 1, null, Scalar.ofLong(-129)), "diff", x, "-129");
        // [-1, 1, 2, 3, 4, 127]
        assertThat(Utility.diff(x, 0, 1, Scalar.ofLong(-1), Scalar.ofLong(127))
                        .compute()
                        .bytes())
                .containsExactly(2, 1, 1, 1, 123);
        CubedArray u = uint64(spec);
        assertRefused(() -> Utility.diff(u, 0, 1, Scalar.ofLong(-1), null), "diff", u, "-1");
        // [5, 6, 7, 2^64 - 1]: the last difference is 2^64 - 8, whose bits are -8.
        assertThat(Utility.diff(u, 0, 1, null, Scalar.ofUnsignedLong(-1L))
                        .compute()
                        .longs())
                .containsExactly(1, 1, -8L);
    }

    @Test
    void padRefusesAConstantOutsideTheArraysType() {
        Spec spec = spec();
        CubedArray x = int8(spec);
        long[][] one = {{1, 1}};
        assertRefused(() -> Manipulation.pad(x, one, PadMode.CONSTANT, Scalar.ofLong(1000)), "pad", x, "1000");
        assertThat(Manipulation.pad(x, one, PadMode.CONSTANT, Scalar.ofLong(-128))
                        .compute()
                        .bytes())
                .containsExactly(-128, 1, 2, 3, 4, -128);
        CubedArray u = uint64(spec);
        assertRefused(() -> Manipulation.pad(u, one, PadMode.CONSTANT, Scalar.ofLong(-1)), "pad", u, "-1");
        assertThat(Manipulation.pad(u, one, PadMode.CONSTANT, Scalar.ofUnsignedLong(-1L))
                        .compute()
                        .longs())
                .containsExactly(-1L, 5, 6, 7, -1L);
    }

    @Test
    void fullRefusesAValueOutsideAnIntegerType() {
        Spec spec = spec();
        assertThatThrownBy(() -> Creation.full(new long[] {3}, Scalar.ofLong(1000), new int[] {2}, DType.INT8, spec))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage(
                        "full: the integer scalar 1000 is outside the range [-128, 127] of data type " + DType.INT8);
        assertThatThrownBy(() -> Creation.full(new long[] {3}, Scalar.ofLong(-1), new int[] {2}, DType.UINT64, spec))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("full: the integer scalar -1 is outside the range [0, 18446744073709551615]");
        assertThat(Creation.full(new long[] {3}, Scalar.ofLong(255), new int[] {2}, DType.UINT8, spec)
                        .compute()
                        .toLongArray())
                .containsExactly(255, 255, 255);
        assertThat(Creation.full(new long[] {2}, Scalar.ofUnsignedLong(-1L), new int[] {2}, DType.UINT64, spec)
                        .compute()
                        .longs())
                .containsExactly(-1L, -1L);
        assertThat(Creation.full(new long[] {2}, Scalar.ofLong(-128), new int[] {2}, DType.INT8, spec)
                        .compute()
                        .bytes())
                .containsExactly(-128, -128);
        CubedArray x = int8(spec);
        assertRefused(() -> Creation.fullLike(x, Scalar.ofLong(200)), "full_like", x, "200");
        assertRefused(() -> Creation.fullLike(x, Scalar.ofLong(-1), DType.UINT16), "full_like", x, "-1");
        assertThat(Creation.fullLike(x, Scalar.ofLong(65535), DType.UINT16)
                        .compute()
                        .toLongArray())
                .containsExactly(65535, 65535, 65535, 65535);
    }

    @Test
    void mapOverlapRefusesABoundaryOutsideTheArraysType() {
        Spec spec = spec();
        CubedArray x = int8(spec);
        assertRefused(
                () -> Overlap.mapOverlap((b, id) -> b[0], new int[] {1}, Scalar.ofLong(1000), DType.INT8, x),
                "map_overlap",
                x,
                "1000");
    }

    /**
     * The whole message, in the form docs/errors.md gives: the function, the value, the type's range, then the array
     * once — "(array 'x' (int8, shape [4]), scalar 1000)", not "(array array 'x' …)".
     */
    @Test
    void theMessageNamesTheArrayOnce() {
        Spec spec = spec();
        CubedArray x = int8(spec);
        CubedArray condition = Elementwise.greater(x, Scalar.ofLong(2));
        String array = "array '" + x.name() + "' (int8, shape [4])";
        assertThatThrownBy(() -> Searching.where(condition, x, Scalar.ofLong(1000)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("where: the integer scalar 1000 is outside the range [-128, 127] of data type int8 ("
                        + array + ", scalar 1000)");
        assertThatThrownBy(() -> Elementwise.add(x, Scalar.ofLong(300)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("add: the integer scalar 300 is outside the range [-128, 127] of data type int8 (" + array
                        + ", scalar 300)");
        assertThatThrownBy(() -> Elementwise.clip(x, Scalar.ofLong(-200), Scalar.ofLong(5)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("-200 is outside the range [-128, 127] of data type int8")
                .hasMessageContaining("(" + array)
                .hasMessageNotContaining("array array");
    }
}
