package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class ChunkTest {
    @Test
    void copyRegionMovesTheBoxOnly() {
        Chunk src = Chunk.allocate(DType.INT32, 3, 4);
        for (int i = 0; i < 12; i++) {
            src.ints()[i] = i;
        }
        Chunk dst = Chunk.full(DType.INT32, Scalar.ofLong(-1), 2, 5);
        // Copy rows 1-2, columns 1-2 of src to rows 0-1, columns 3-4 of dst.
        Chunk.copyRegion(src, new int[] {1, 1}, dst, new int[] {0, 3}, new int[] {2, 2});
        assertThat(dst.ints()).containsExactly(-1, -1, -1, 5, 6, -1, -1, -1, 9, 10);
    }

    @Test
    void copyRegionOfComplexCopiesBothParts() {
        Chunk src = Chunk.allocate(DType.COMPLEX128, 2);
        src.doubles()[0] = 1;
        src.doubles()[1] = 2;
        src.doubles()[2] = 3;
        src.doubles()[3] = 4;
        Chunk dst = Chunk.allocate(DType.COMPLEX128, 3);
        Chunk.copyRegion(src, new int[] {1}, dst, new int[] {2}, new int[] {1});
        assertThat(dst.doubles()).containsExactly(0, 0, 0, 0, 3, 4);
    }

    @Test
    void unsignedAccessorsWidenWithoutSign() {
        Chunk u8 = Chunk.wrap(DType.UINT8, new int[] {2}, new byte[] {(byte) 0xff, 1});
        assertThat(u8.getLong(0)).isEqualTo(255);
        Chunk u64 = Chunk.wrap(DType.UINT64, new int[] {1}, new long[] {-1L});
        assertThat(u64.getDouble(0)).isEqualTo(18446744073709551615.0);
        Chunk u32 = Chunk.wrap(DType.UINT32, new int[] {1}, new int[] {-2});
        assertThat(u32.getLong(0)).isEqualTo(4294967294L);
    }

    @Test
    void fillAndIsAllCompareBitsSoNanMatches() {
        Chunk c = Chunk.full(DType.FLOAT64, Scalar.ofDouble(Double.NaN), 2, 2);
        assertThat(c.isAll(Scalar.ofDouble(Double.NaN))).isTrue();
        c.doubles()[3] = 0;
        assertThat(c.isAll(Scalar.ofDouble(Double.NaN))).isFalse();
        Chunk z = Chunk.full(DType.COMPLEX64, Scalar.ofComplex(1, -2), 2);
        assertThat(z.floats()).containsExactly(1f, -2f, 1f, -2f);
        assertThat(z.isAll(Scalar.ofComplex(1, -2))).isTrue();
        assertThat(z.isAll(Scalar.ofComplex(1, 2))).isFalse();
    }

    @Test
    void wrapChecksTypeAndLength() {
        assertThatThrownBy(() -> Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[2]))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("3 array slots");
        assertThatThrownBy(() -> Chunk.wrap(DType.FLOAT64, new int[] {2}, new float[2]))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("double[]");
        assertThat(Chunk.wrap(DType.COMPLEX64, new int[] {2}, new float[4]).size())
                .isEqualTo(2);
    }

    @Test
    void flatIndexIsCOrder() {
        Chunk c = Chunk.allocate(DType.INT8, 2, 3, 4);
        assertThat(c.flatIndex(1, 2, 3)).isEqualTo(23);
        assertThat(c.flatIndex(0, 1, 0)).isEqualTo(4);
        assertThatThrownBy(() -> c.flatIndex(2, 0, 0)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void typedAccessorsConvertEveryElement() {
        Chunk u8 = Chunk.wrap(DType.UINT8, new int[] {2, 2}, new byte[] {1, (byte) 200, 3, 4});
        assertThat(u8.toLongArray()).containsExactly(1, 200, 3, 4);
        assertThat(u8.toDoubleArray()).containsExactly(1.0, 200.0, 3.0, 4.0);
        assertThat(u8.get(0, 1)).isEqualTo(Scalar.ofLong(200));
        Chunk z = Chunk.wrap(DType.COMPLEX64, new int[] {2}, new float[] {1.5f, -2f, 3f, 4f});
        assertThat(z.toDoubleArray()).containsExactly(1.5, 3.0);
        assertThat(z.get(0)).isEqualTo(Scalar.ofComplex(1.5, -2));
        Chunk scalar = Chunk.wrap(DType.FLOAT64, new int[0], new double[] {7.25});
        assertThat(scalar.get()).isEqualTo(Scalar.ofDouble(7.25));
        assertThat(scalar.toDoubleArray()).containsExactly(7.25);
    }
}
