package io.cubed.dtype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DTypesTest {
    // The promotion table of the Array API standard (2023.12), "-" where the standard defines none.
    private static final String[] ORDER = {"b", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "c8", "c16"
    };
    private static final String[] TABLE = {
        "b    b   -   -   -   -   -   -   -   -   -   -   -   -",
        "i1   -   i1  i2  i4  i8  i2  i4  i8  -   -   -   -   -",
        "i2   -   i2  i2  i4  i8  i2  i4  i8  -   -   -   -   -",
        "i4   -   i4  i4  i4  i8  i4  i4  i8  -   -   -   -   -",
        "i8   -   i8  i8  i8  i8  i8  i8  i8  -   -   -   -   -",
        "u1   -   i2  i2  i4  i8  u1  u2  u4  u8  -   -   -   -",
        "u2   -   i4  i4  i4  i8  u2  u2  u4  u8  -   -   -   -",
        "u4   -   i8  i8  i8  i8  u4  u4  u4  u8  -   -   -   -",
        "u8   -   -   -   -   -   u8  u8  u8  u8  -   -   -   -",
        "f4   -   -   -   -   -   -   -   -   -   f4  f8  c8  c16",
        "f8   -   -   -   -   -   -   -   -   -   f8  f8  c16 c16",
        "c8   -   -   -   -   -   -   -   -   -   c8  c16 c8  c16",
        "c16  -   -   -   -   -   -   -   -   -   c16 c16 c16 c16",
    };
    private static final Map<String, DType> ABBREV = Map.ofEntries(
            Map.entry("b", DType.BOOL),
            Map.entry("i1", DType.INT8),
            Map.entry("i2", DType.INT16),
            Map.entry("i4", DType.INT32),
            Map.entry("i8", DType.INT64),
            Map.entry("u1", DType.UINT8),
            Map.entry("u2", DType.UINT16),
            Map.entry("u4", DType.UINT32),
            Map.entry("u8", DType.UINT64),
            Map.entry("f4", DType.FLOAT32),
            Map.entry("f8", DType.FLOAT64),
            Map.entry("c8", DType.COMPLEX64),
            Map.entry("c16", DType.COMPLEX128));

    static Stream<Arguments> promotionTable() {
        List<Arguments> cases = new ArrayList<>();
        for (String row : TABLE) {
            String[] cells = row.trim().split("\\s+");
            DType a = ABBREV.get(cells[0]);
            for (int j = 0; j < ORDER.length; j++) {
                String r = cells[j + 1];
                cases.add(Arguments.of(a, ABBREV.get(ORDER[j]), r.equals("-") ? null : ABBREV.get(r)));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} with {1} -> {2}")
    @MethodSource("promotionTable")
    void resultTypeFollowsTheStandardsTable(DType a, DType b, DType expected) {
        if (expected == null) {
            assertThatThrownBy(() -> DTypes.resultType(a, b))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining(a.typeName())
                    .hasMessageContaining(b.typeName())
                    .hasMessageContaining("defines no promotion");
            assertThat(DTypes.canCast(a, b)).isFalse();
        } else {
            assertThat(DTypes.resultType(a, b)).isEqualTo(expected);
            assertThat(DTypes.canCast(a, b)).isEqualTo(expected == b);
        }
    }

    @Test
    void tableCoversAllPairsAndIsSymmetric() {
        assertThat(promotionTable().count()).isEqualTo(169);
        for (DType a : DType.values()) {
            for (DType b : DType.values()) {
                DType ab = DTypes.promoteOrNull(a, b);
                assertThat(DTypes.promoteOrNull(b, a)).as(a + "," + b).isEqualTo(ab);
            }
        }
    }

    @Test
    void resultTypeOfManyIsPairwise() {
        assertThat(DTypes.resultType(DType.INT8)).isEqualTo(DType.INT8);
        assertThat(DTypes.resultType(DType.INT8, DType.UINT8, DType.INT32)).isEqualTo(DType.INT32);
        assertThat(DTypes.resultType(DType.FLOAT32, DType.COMPLEX64, DType.FLOAT64))
                .isEqualTo(DType.COMPLEX128);
        assertThatThrownBy(DTypes::resultType).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DTypes.resultType(DType.INT64, DType.UINT64))
                .hasMessageContaining("int64")
                .hasMessageContaining("uint64");
    }

    @Test
    void canCastExamples() {
        assertThat(DTypes.canCast(DType.INT8, DType.INT16)).isTrue();
        assertThat(DTypes.canCast(DType.UINT8, DType.INT16)).isTrue();
        assertThat(DTypes.canCast(DType.INT16, DType.INT8)).isFalse();
        assertThat(DTypes.canCast(DType.UINT8, DType.INT8)).isFalse();
        assertThat(DTypes.canCast(DType.INT32, DType.FLOAT64)).isFalse();
        assertThat(DTypes.canCast(DType.FLOAT32, DType.COMPLEX64)).isTrue();
        assertThat(DTypes.canCast(DType.FLOAT64, DType.COMPLEX64)).isFalse();
        assertThat(DTypes.canCast(DType.BOOL, DType.BOOL)).isTrue();
        assertThat(DTypes.canCast(DType.BOOL, DType.INT8)).isFalse();
        for (DType d : DType.values()) {
            assertThat(DTypes.canCast(d, d)).isTrue();
        }
    }

    @Test
    void scalarRules() {
        assertThat(DTypes.resultTypeWithScalar(DType.INT8, Scalar.Form.INTEGER)).isEqualTo(DType.INT8);
        assertThat(DTypes.resultTypeWithScalar(DType.UINT64, Scalar.Form.INTEGER))
                .isEqualTo(DType.UINT64);
        assertThat(DTypes.resultTypeWithScalar(DType.FLOAT32, Scalar.Form.INTEGER))
                .isEqualTo(DType.FLOAT32);
        assertThat(DTypes.resultTypeWithScalar(DType.COMPLEX64, Scalar.Form.INTEGER))
                .isEqualTo(DType.COMPLEX64);
        assertThat(DTypes.resultTypeWithScalar(DType.FLOAT32, Scalar.Form.REAL)).isEqualTo(DType.FLOAT32);
        assertThat(DTypes.resultTypeWithScalar(DType.COMPLEX128, Scalar.Form.REAL))
                .isEqualTo(DType.COMPLEX128);
        assertThat(DTypes.resultTypeWithScalar(DType.FLOAT32, Scalar.Form.COMPLEX))
                .isEqualTo(DType.COMPLEX64);
        assertThat(DTypes.resultTypeWithScalar(DType.FLOAT64, Scalar.Form.COMPLEX))
                .isEqualTo(DType.COMPLEX128);
        assertThat(DTypes.resultTypeWithScalar(DType.COMPLEX64, Scalar.Form.COMPLEX))
                .isEqualTo(DType.COMPLEX64);
        assertThat(DTypes.resultTypeWithScalar(DType.BOOL, Scalar.Form.BOOL)).isEqualTo(DType.BOOL);
        assertThatThrownBy(() -> DTypes.resultTypeWithScalar(DType.INT32, Scalar.Form.REAL))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("int32")
                .hasMessageContaining("real");
        assertThatThrownBy(() -> DTypes.resultTypeWithScalar(DType.INT32, Scalar.Form.COMPLEX))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DTypes.resultTypeWithScalar(DType.BOOL, Scalar.Form.INTEGER))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DTypes.resultTypeWithScalar(DType.INT8, Scalar.Form.BOOL))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void finfoValues() {
        FInfo f = DTypes.finfo(DType.FLOAT32);
        assertThat(f.bits()).isEqualTo(32);
        assertThat((float) f.eps()).isEqualTo(1.1920929e-07f);
        assertThat(f.max()).isEqualTo(3.4028234663852886e38);
        assertThat(f.min()).isEqualTo(-3.4028234663852886e38);
        assertThat(f.smallestNormal()).isEqualTo(1.1754943508222875e-38);
        assertThat(f.dtype()).isEqualTo(DType.FLOAT32);
        FInfo d = DTypes.finfo(DType.FLOAT64);
        assertThat(d.bits()).isEqualTo(64);
        assertThat(d.eps()).isEqualTo(2.220446049250313e-16);
        assertThat(d.max()).isEqualTo(1.7976931348623157e308);
        assertThat(d.smallestNormal()).isEqualTo(2.2250738585072014e-308);
        assertThat(DTypes.finfo(DType.COMPLEX64)).isEqualTo(f);
        assertThat(DTypes.finfo(DType.COMPLEX128)).isEqualTo(d);
        assertThatThrownBy(() -> DTypes.finfo(DType.INT32))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("int32");
    }

    @Test
    void iinfoValues() {
        assertThat(DTypes.iinfo(DType.INT8)).isEqualTo(new IInfo(8, 127, -128, DType.INT8));
        assertThat(DTypes.iinfo(DType.INT16)).isEqualTo(new IInfo(16, 32767, -32768, DType.INT16));
        assertThat(DTypes.iinfo(DType.INT32))
                .isEqualTo(new IInfo(32, Integer.MAX_VALUE, Integer.MIN_VALUE, DType.INT32));
        assertThat(DTypes.iinfo(DType.INT64)).isEqualTo(new IInfo(64, Long.MAX_VALUE, Long.MIN_VALUE, DType.INT64));
        assertThat(DTypes.iinfo(DType.UINT8)).isEqualTo(new IInfo(8, 255, 0, DType.UINT8));
        assertThat(DTypes.iinfo(DType.UINT16)).isEqualTo(new IInfo(16, 65535, 0, DType.UINT16));
        assertThat(DTypes.iinfo(DType.UINT32)).isEqualTo(new IInfo(32, 4294967295L, 0, DType.UINT32));
        IInfo u64 = DTypes.iinfo(DType.UINT64);
        assertThat(u64.max()).isEqualTo(-1L);
        assertThat(u64.maxExact()).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(DTypes.iinfo(DType.INT64).maxExact()).isEqualTo(BigInteger.valueOf(Long.MAX_VALUE));
        assertThatThrownBy(() -> DTypes.iinfo(DType.FLOAT32)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void isdtypeKinds() {
        assertThat(DTypes.isdtype(DType.BOOL, "bool")).isTrue();
        assertThat(DTypes.isdtype(DType.BOOL, "numeric")).isFalse();
        assertThat(DTypes.isdtype(DType.INT8, "signed integer")).isTrue();
        assertThat(DTypes.isdtype(DType.UINT8, "signed integer")).isFalse();
        assertThat(DTypes.isdtype(DType.UINT8, "unsigned integer")).isTrue();
        assertThat(DTypes.isdtype(DType.UINT64, "integral")).isTrue();
        assertThat(DTypes.isdtype(DType.FLOAT32, "integral")).isFalse();
        assertThat(DTypes.isdtype(DType.FLOAT32, "real floating")).isTrue();
        assertThat(DTypes.isdtype(DType.COMPLEX64, "real floating")).isFalse();
        assertThat(DTypes.isdtype(DType.COMPLEX64, "complex floating")).isTrue();
        assertThat(DTypes.isdtype(DType.COMPLEX64, "numeric")).isTrue();
        assertThat(DTypes.isdtype(DType.INT32, "int32")).isTrue();
        assertThat(DTypes.isdtype(DType.INT32, "int64")).isFalse();
        assertThat(DTypes.isdtype(DType.INT32, "bool", "integral")).isTrue();
        assertThat(DTypes.isdtype(DType.FLOAT64, "bool", "integral")).isFalse();
        assertThatThrownBy(() -> DTypes.isdtype(DType.INT32, "integer"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'integer'");
    }

    @Test
    void realComplexHelpersAndDefaults() {
        assertThat(DTypes.complexOf(DType.FLOAT32)).isEqualTo(DType.COMPLEX64);
        assertThat(DTypes.complexOf(DType.FLOAT64)).isEqualTo(DType.COMPLEX128);
        assertThat(DTypes.realOf(DType.COMPLEX64)).isEqualTo(DType.FLOAT32);
        assertThat(DTypes.realOf(DType.COMPLEX128)).isEqualTo(DType.FLOAT64);
        assertThat(DTypes.defaultFloat()).isEqualTo(DType.FLOAT64);
        assertThat(DTypes.defaultInt()).isEqualTo(DType.INT64);
        assertThatThrownBy(() -> DTypes.complexOf(DType.INT8)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DTypes.realOf(DType.BOOL)).isInstanceOf(InvalidArgumentException.class);
    }
}
