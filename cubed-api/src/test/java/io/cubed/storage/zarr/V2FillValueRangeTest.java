package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Zarr v2 fill value must be a value of the array's dtype, as in v3: an integer within the integer type's range
 * ({@code numpy.iinfo}), a whole number for an integer type, true/false (or 0/1) for bool. zarr-python 2.13 on NumPy
 * 1.24 wraps 300 to int8 44 and -1 to uint8 255 (with NumPy's "will stop allowing conversion of out-of-bound Python
 * integers" warning; NumPy 2 raises OverflowError) and truncates 1.5 to 1; Cubed refuses them, on read and at create,
 * naming the array, the field and the value. The values accepted at the edges read back as zarr-python 2.13 reads them.
 */
class V2FillValueRangeTest {
    @TempDir
    Path tmp;

    private String zarray(String name, String dtype, String fill) {
        String url = tmp.resolve(name).toString();
        Stores.open(url)
                .put(
                        ".zarray",
                        ("{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], \"dtype\": \"" + dtype
                                        + "\", \"compressor\": null, \"fill_value\": " + fill
                                        + ", \"order\": \"C\", \"filters\": null}")
                                .getBytes(StandardCharsets.UTF_8));
        return url;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = ';',
            value = {
                // dtype; fill_value JSON; what the error says about it
                "|i1; 300; [-128, 127]",
                "|i1; -129; [-128, 127]",
                "|u1; -1; [0, 255]",
                "|u1; 256; [0, 255]",
                "<u2; 65536; [0, 65535]",
                "<i4; 2147483648; [-2147483648, 2147483647]",
                "<u8; -1; [0, 18446744073709551615]",
                "<u8; 18446744073709551616; [0, 18446744073709551615]",
                "<i8; 9223372036854775808; [-9223372036854775808, 9223372036854775807]",
                // A float beyond int64: (long) 9.3e18 saturated to Long.MAX_VALUE before.
                "<i8; 9.3e18; [-9223372036854775808, 9223372036854775807]",
                "<i8; 1.0e30; [-9223372036854775808, 9223372036854775807]",
                "<i4; 1.5; expected an integer",
                "<i4; \"NaN\"; expected an integer",
                "<u1; \"Infinity\"; expected an integer",
                "|b1; 2; true or false",
                "|b1; -1; true or false",
                "|b1; 0.5; expected an integer"
            })
    void aFillValueItsDtypeCannotHoldIsRefusedOnRead(String dtype, String fill, String why) {
        String url = zarray("bad.zarr", dtype, fill);
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("bad fill_value " + fill)
                .hasMessageContaining(url + "/.zarray")
                .hasMessageContaining(why);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = ';',
            value = {
                // dtype; fill_value JSON; a missing chunk's elements as zarr-python 2.13 reads them (as longs, uint64
                // as its bits)
                "|i1; -128; -128",
                "|i1; 127; 127",
                "|u1; 255; 255",
                "<i2; 3.0; 3",
                "<i4; true; 1",
                "<i8; -9223372036854775808; -9223372036854775808",
                "<i8; 9223372036854775807; 9223372036854775807",
                "<u8; 18446744073709551615; -1",
                "|b1; 1; 1",
                "|b1; 0; 0",
                "|b1; true; 1"
            })
    void aFillValueAtTheEdgeOfItsDtypeFillsMissingChunks(String dtype, String fill, long element) {
        ZarrArray a = ZarrArray.open(zarray("edge.zarr", dtype, fill));
        assertThat(a.readRegion(new long[] {0}, new int[] {4}).toLongArray()).containsOnly(element);
    }

    static Stream<Arguments> unholdable() {
        return Stream.of(
                Arguments.of(DType.INT8, Scalar.ofLong(300), "300 lies outside the data type's range [-128, 127]"),
                Arguments.of(DType.UINT8, Scalar.ofLong(-1), "-1 lies outside the data type's range [0, 255]"),
                Arguments.of(
                        DType.UINT64,
                        Scalar.ofLong(-1),
                        "-1 lies outside the data type's range [0, 18446744073709551615]"),
                Arguments.of(
                        DType.INT64,
                        Scalar.ofUnsignedLong(-1L),
                        "18446744073709551615 lies outside the data type's range"),
                Arguments.of(DType.INT32, Scalar.ofDouble(1.5), "expected an integer"),
                Arguments.of(DType.INT32, Scalar.ofDouble(Double.NaN), "expected an integer"),
                Arguments.of(DType.INT64, Scalar.ofDouble(1e30), "lies outside the data type's range"),
                Arguments.of(DType.BOOL, Scalar.ofLong(2), "true or false"),
                Arguments.of(DType.FLOAT64, Scalar.ofComplex(1, 2), "has no imaginary part"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("unholdable")
    void createRefusesAFillValueItsDtypeCannotHold(DType dtype, Scalar fill, String why) throws Exception {
        assertThatThrownBy(() -> ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, dtype)
                        .fillValue(fill)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("bad fill value " + fill + " for a new " + dtype + " array")
                .hasMessageContaining(why);
        // Through the format toZarr and the cubed commands write with: the error names the array, nothing is written.
        for (ZarrFormat format : List.of(ZarrFormat.v2(), ZarrFormat.v3())) {
            String url = tmp.resolve("new-v" + format.version() + ".zarr").toString();
            assertThatThrownBy(() -> format.withFillValue(fill)
                            .create(
                                    url,
                                    ChunkGrid.of(new long[] {4}, new int[] {2}),
                                    dtype,
                                    false,
                                    StoreOptions.empty()))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining(url)
                    .hasMessageContaining(fill.toString())
                    .hasMessageContaining(dtype.toString());
            assertThat(Files.exists(Path.of(url))).isFalse();
        }
    }

    @Test
    void createKeepsAFillValueItsDtypeHolds() {
        ZarrV2Metadata u = ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.UINT64)
                .fillValue(Scalar.ofUnsignedLong(-1L))
                .build()
                .toMetadata();
        assertThat(u.toJson()).contains("\"fill_value\": 18446744073709551615");
        // 3.0 for int16 is the integer 3 (NumPy: numpy.array(3.0, dtype="i2") is 3); true for int8 is 1.
        ZarrV2Metadata i = ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT16)
                .fillValue(Scalar.ofDouble(3.0))
                .build()
                .toMetadata();
        assertThat(i.toJson()).contains("\"fill_value\": 3,");
        assertThat(i.fillValue()).isEqualTo(Scalar.ofLong(3));
        ZarrV3Metadata b = ZarrV3Metadata.create(
                new long[] {4}, new int[] {2}, DType.INT8, Scalar.ofBoolean(true), ZarrV3Metadata.defaultCodecs());
        assertThat(b.fillValue()).isEqualTo(Scalar.ofLong(1));
    }

    @Test
    void aFloat32FillBeyondItsRangeIsInfinityAsNumPyConvertsIt() {
        // zarr-python 2.13: zarr.create(4, chunks=2, dtype="<f4", fill_value=1e300) writes "fill_value": "Infinity"
        // (numpy.float32(1e300) is inf) and missing chunks read as inf; the JSON is the string, not a bare Infinity.
        ZarrV2Metadata m = ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.FLOAT32)
                .fillValue(Scalar.ofDouble(1e300))
                .build()
                .toMetadata();
        assertThat(m.toJson()).contains("\"fill_value\": \"Infinity\"").doesNotContain(": Infinity");
        ZarrV2Metadata n = ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.COMPLEX64)
                .fillValue(Scalar.ofComplex(-1e300, 1))
                .build()
                .toMetadata();
        assertThat(n.toJson().replaceAll("\\s", "")).contains("\"fill_value\":[\"-Infinity\",1.0]");
        ZarrArray a = ZarrArray.open(zarray("f4.zarr", "<f4", "1e300"));
        assertThat(a.readRegion(new long[] {0}, new int[] {4}).toDoubleArray()).containsOnly(Double.POSITIVE_INFINITY);
    }
}
