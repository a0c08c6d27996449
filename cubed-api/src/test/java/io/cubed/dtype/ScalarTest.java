package io.cubed.dtype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

/** Signed and unsigned integer scalars: which value each one is, and which integer types it fits. */
class ScalarTest {
    @Test
    void aNegativeLongAndAnUnsignedValueWithTheSameBitsAreDifferentValues() {
        Scalar minusOne = Scalar.ofLong(-1);
        Scalar max = Scalar.ofUnsignedLong(-1L);
        assertThat(max.longValue()).isEqualTo(minusOne.longValue());
        assertThat(max).isNotEqualTo(minusOne);
        assertThat(max.toString()).isEqualTo("18446744073709551615");
        assertThat(max.doubleValue()).isEqualTo(1.8446744073709552e19);
        assertThat(max.isUnsignedAboveLongMax()).isTrue();
        assertThat(minusOne.toString()).isEqualTo("-1");
        assertThat(minusOne.doubleValue()).isEqualTo(-1.0);
        assertThat(Scalar.ofUnsignedLong(Long.MIN_VALUE).toString()).isEqualTo("9223372036854775808");
        // Up to Long.MAX_VALUE the two are the same scalar.
        assertThat(Scalar.ofUnsignedLong(5)).isEqualTo(Scalar.ofLong(5));
        assertThat(Scalar.ofUnsignedLong(Long.MAX_VALUE).isUnsignedAboveLongMax())
                .isFalse();
    }

    @Test
    void anIntegerFitsATypeByItsExactValue() {
        assertThat(Scalar.ofLong(-1).fits(DType.UINT64)).isFalse();
        assertThat(Scalar.ofLong(-1).fits(DType.UINT8)).isFalse();
        assertThat(Scalar.ofLong(-1).fits(DType.INT8)).isTrue();
        assertThat(Scalar.ofLong(Long.MAX_VALUE).fits(DType.UINT64)).isTrue();
        assertThat(Scalar.ofLong(Long.MAX_VALUE).fits(DType.INT64)).isTrue();
        assertThat(Scalar.ofLong(Long.MIN_VALUE).fits(DType.INT64)).isTrue();
        assertThat(Scalar.ofUnsignedLong(-1L).fits(DType.UINT64)).isTrue();
        assertThat(Scalar.ofUnsignedLong(Long.MIN_VALUE).fits(DType.UINT64)).isTrue();
        assertThat(Scalar.ofUnsignedLong(-1L).fits(DType.INT64)).isFalse();
        assertThat(Scalar.ofUnsignedLong(-1L).fits(DType.UINT32)).isFalse();
        assertThat(Scalar.ofLong(255).fits(DType.UINT8)).isTrue();
        assertThat(Scalar.ofLong(256).fits(DType.UINT8)).isFalse();
        assertThat(Scalar.ofLong(-128).fits(DType.INT8)).isTrue();
        assertThat(Scalar.ofLong(-129).fits(DType.INT8)).isFalse();
        assertThat(Scalar.ofLong(4294967295L).fits(DType.UINT32)).isTrue();
        assertThat(Scalar.ofLong(4294967296L).fits(DType.UINT32)).isFalse();
        // Not integers, or not an integer type: no range question.
        assertThat(Scalar.ofLong(1000).fits(DType.FLOAT32)).isTrue();
        assertThat(Scalar.ofDouble(1000.5).fits(DType.INT8)).isTrue();
    }

    @Test
    void theCheckNamesTheFunctionTheValueAndTheRange() {
        assertThatThrownBy(() -> DTypes.checkScalarFits("less", Scalar.ofLong(-1), DType.UINT64))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("less: the integer scalar -1 is outside the range [0, 18446744073709551615] of data type "
                        + DType.UINT64);
        assertThatThrownBy(() -> DTypes.checkScalarFits("add", Scalar.ofUnsignedLong(-1L), DType.INT64))
                .hasMessageContaining("18446744073709551615");
        DTypes.checkScalarFits("add", Scalar.ofUnsignedLong(-1L), DType.UINT64);
        DTypes.checkScalarFits("add", Scalar.ofLong(-128), DType.INT8);
    }

    @Test
    void anElementOfAUint64ChunkIsItsUnsignedValue() {
        Chunk u64 = Chunk.wrap(DType.UINT64, new int[] {2}, new long[] {-1L, 5});
        assertThat(u64.getScalar(0)).isEqualTo(Scalar.ofUnsignedLong(-1L));
        assertThat(u64.getScalar(0).toString()).isEqualTo("18446744073709551615");
        assertThat(u64.getScalar(1)).isEqualTo(Scalar.ofLong(5));
        Chunk i64 = Chunk.wrap(DType.INT64, new int[] {1}, new long[] {-1L});
        assertThat(i64.getScalar(0)).isEqualTo(Scalar.ofLong(-1));
    }
}
