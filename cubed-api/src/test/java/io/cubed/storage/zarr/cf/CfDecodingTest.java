package io.cubed.storage.zarr.cf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decoding rules, each against the dtype and values xarray 2023.01 gives for the same stored array (recorded from
 * {@code xr.open_zarr} on zarr-python 2.13 arrays holding 0, 1, 2, 3; {@code CfDecodingXarrayIT} checks them live).
 */
class CfDecodingTest {
    private static final float NAN_F = Float.NaN;

    private static CfDecoding v2(DType dtype, Scalar fill, Map<String, Object> attrs) {
        return CfDecoding.of("test", dtype, fill, 2, attrs, CfOptions.defaults(), null);
    }

    private static Chunk zeroToThree(DType dtype) {
        Chunk c = Chunk.allocate(dtype, 4);
        for (int i = 0; i < 4; i++) {
            switch (dtype) {
                case INT8, UINT8 -> c.bytes()[i] = (byte) i;
                case INT16, UINT16 -> c.shorts()[i] = (short) i;
                case INT32, UINT32 -> c.ints()[i] = i;
                case INT64, UINT64 -> c.longs()[i] = i;
                case FLOAT32 -> c.floats()[i] = i;
                case FLOAT64 -> c.doubles()[i] = i;
                case BOOL -> c.booleans()[i] = i > 0;
                default -> throw new AssertionError(dtype);
            }
        }
        return c;
    }

    @Test
    void packedInt16WithAFillValueIsFloat32() {
        CfDecoding d =
                v2(DType.INT16, Scalar.ofLong(0), Map.of("scale_factor", 0.01, "add_offset", 270.0, "units", "K"));
        assertThat(d.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(d.decode(zeroToThree(DType.INT16)).floats())
                .containsExactly(NAN_F, 270.010009765625f, 270.0199890136719f, 270.0299987792969f);
        assertThat(d.canBeMissing()).isTrue();
        // The same through the attribute _FillValue (a Zarr fill_value of null).
        CfDecoding attr = v2(DType.INT16, null, Map.of("_FillValue", -32767L, "scale_factor", 0.01, "add_offset", 270));
        assertThat(attr.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(attr.decode(zeroToThree(DType.INT16)).floats())
                .containsExactly(270.0f, 270.010009765625f, 270.0199890136719f, 270.0299987792969f);
    }

    @Test
    void packedWithoutAFillValueIsFloat64WithAnOffset() {
        CfDecoding d = v2(DType.INT16, null, Map.of("scale_factor", 0.01, "add_offset", 270.0));
        assertThat(d.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(d.decode(zeroToThree(DType.INT16)).doubles()).containsExactly(270.0, 270.01, 270.02, 270.03);
        assertThat(d.canBeMissing()).isTrue();
        CfDecoding scaleOnly = v2(DType.INT16, null, Map.of("scale_factor", 0.01));
        assertThat(scaleOnly.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(scaleOnly.decode(zeroToThree(DType.INT16)).floats())
                .containsExactly(0.0f, 0.009999999776482582f, 0.019999999552965164f, 0.029999999329447746f);
        CfDecoding offsetOnly = v2(DType.INT16, null, Map.of("add_offset", 1.0));
        assertThat(offsetOnly.dtype()).isEqualTo(DType.FLOAT64);
        CfDecoding wide = v2(DType.INT32, null, Map.of("scale_factor", 0.5, "add_offset", 1.0));
        assertThat(wide.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(wide.decode(zeroToThree(DType.INT32)).doubles()).containsExactly(1.0, 1.5, 2.0, 2.5);
        // A scale factor in a one-element list (netCDF's way) reads as the number.
        assertThat(v2(DType.FLOAT32, null, Map.of("scale_factor", List.of(2.0)))
                        .decode(zeroToThree(DType.FLOAT32))
                        .floats())
                .containsExactly(0f, 2f, 4f, 6f);
        assertThat(v2(DType.FLOAT32, null, Map.of("add_offset", 2L)).dtype()).isEqualTo(DType.FLOAT32);
    }

    @Test
    void masksPromoteIntegersAsXarrayDoes() {
        assertThat(v2(DType.INT32, Scalar.ofLong(0), Map.of())
                        .decode(zeroToThree(DType.INT32))
                        .doubles())
                .containsExactly(Double.NaN, 1.0, 2.0, 3.0);
        assertThat(v2(DType.INT64, Scalar.ofLong(0), Map.of()).dtype()).isEqualTo(DType.FLOAT64);
        assertThat(v2(DType.UINT32, Scalar.ofLong(0), Map.of()).dtype()).isEqualTo(DType.FLOAT64);
        assertThat(v2(DType.UINT8, Scalar.ofLong(0), Map.of())
                        .decode(zeroToThree(DType.UINT8))
                        .floats())
                .containsExactly(NAN_F, 1f, 2f, 3f);
        assertThat(v2(DType.INT8, Scalar.ofLong(0), Map.of()).dtype()).isEqualTo(DType.FLOAT32);
        assertThat(v2(DType.INT16, null, Map.of("missing_value", List.of(1L, 2L)))
                        .decode(zeroToThree(DType.INT16))
                        .floats())
                .containsExactly(0f, NAN_F, NAN_F, 3f);
        // Without a fill value an integer array stays as it is.
        CfDecoding plain = v2(DType.INT32, null, Map.of("units", "m"));
        assertThat(plain.isIdentity()).isTrue();
        assertThat(plain.canBeMissing()).isFalse();
        // A fill value no element can take still promotes (xarray compares after converting).
        assertThat(v2(DType.INT8, Scalar.ofLong(0), Map.of("_FillValue", 1000L)).dtype())
                .isEqualTo(DType.FLOAT32);
        // An unsigned fill value: uint16 65535.
        Chunk u = Chunk.wrap(DType.UINT16, new int[] {2}, new short[] {(short) 65535, 7});
        assertThat(v2(DType.UINT16, Scalar.ofLong(65535), Map.of()).decode(u).floats())
                .containsExactly(NAN_F, 7f);
    }

    /**
     * {@code _Unsigned}: a signed array read as the unsigned type of its size (and back with "false"), its fill value
     * converted to that type, before masking and scaling; the values by hand.
     */
    @Test
    void unsignedAttributeReadsTheOtherSign() {
        Chunk bytes = Chunk.wrap(DType.INT8, new int[] {5}, new byte[] {-1, 0, 1, -128, 127});
        CfDecoding plain = v2(DType.INT8, null, Map.of("_Unsigned", "true"));
        assertThat(plain.isIdentity()).isFalse();
        assertThat(plain.dtype()).isEqualTo(DType.UINT8);
        Chunk u = plain.decode(bytes);
        assertThat(u.dtype()).isEqualTo(DType.UINT8);
        assertThat(new long[] {u.getLong(0), u.getLong(1), u.getLong(2), u.getLong(3), u.getLong(4)})
                .containsExactly(255, 0, 1, 128, 127);
        // The Zarr fill value -1 is 255 as uint8: a mask, so float32 with NaN there.
        CfDecoding filled = v2(DType.INT8, Scalar.ofLong(-1), Map.of("_Unsigned", "true"));
        assertThat(filled.decode(bytes).floats()).containsExactly(NAN_F, 0f, 1f, 128f, 127f);
        // The same through the attribute _FillValue, and a missing_value of -1, which xarray leaves unconverted: it
        // masks nothing.
        assertThat(v2(DType.INT8, null, Map.of("_Unsigned", "true", "_FillValue", -1L))
                        .decode(bytes)
                        .floats())
                .containsExactly(NAN_F, 0f, 1f, 128f, 127f);
        assertThat(v2(DType.INT8, null, Map.of("_Unsigned", "true", "missing_value", -1L))
                        .decode(bytes)
                        .floats())
                .containsExactly(255f, 0f, 1f, 128f, 127f);
        // int16 packed: 65535 * 0.5 in float32 (no add_offset), and with a fill value and an offset, masked first.
        Chunk shorts = Chunk.wrap(DType.INT16, new int[] {4}, new short[] {-1, 0, 1, -32768});
        assertThat(v2(DType.INT16, null, Map.of("_Unsigned", "true", "scale_factor", 0.5))
                        .decode(shorts)
                        .floats())
                .containsExactly(32767.5f, 0f, 0.5f, 16384f);
        CfDecoding packed =
                v2(DType.INT16, Scalar.ofLong(-1), Map.of("_Unsigned", "true", "scale_factor", 0.01, "add_offset", 10));
        assertThat(packed.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(packed.decode(shorts).floats())
                .containsExactly(NAN_F, 10f, (float) 1 * 0.01f + 10f, (float) 32768 * 0.01f + 10f);
        int[] missing = new int[4];
        float[] run = new float[6];
        assertThat(packed.decodeRun(shorts, 0, run, 2, 4, missing)).isEqualTo(1);
        assertThat(missing[0]).isEqualTo(2);
        // "false" on an unsigned type reads it signed; other spellings, and non-integer types, are ignored.
        Chunk ubytes = Chunk.wrap(DType.UINT8, new int[] {3}, new byte[] {-1, 0, -128});
        Chunk s = v2(DType.UINT8, null, Map.of("_Unsigned", "false")).decode(ubytes);
        assertThat(s.dtype()).isEqualTo(DType.INT8);
        assertThat(s.bytes()).containsExactly(-1, 0, -128);
        assertThat(v2(DType.UINT8, Scalar.ofLong(255), Map.of("_Unsigned", "false"))
                        .decode(ubytes)
                        .floats())
                .containsExactly(NAN_F, 0f, -128f);
        assertThat(v2(DType.INT8, null, Map.of("_Unsigned", "True")).isIdentity())
                .isTrue();
        assertThat(v2(DType.FLOAT32, null, Map.of("_Unsigned", "true")).isIdentity())
                .isTrue();
        assertThat(v2(DType.INT8, null, Map.of("_Unsigned", "false")).isIdentity())
                .isTrue();
        // Not under maskAndScale=false, as xarray.
        assertThat(CfDecoding.of(
                                "t",
                                DType.INT8,
                                null,
                                2,
                                Map.of("_Unsigned", "true"),
                                CfOptions.defaults().withMaskAndScale(false),
                                null)
                        .isIdentity())
                .isTrue();
    }

    /**
     * Units that are exactly a plural time unit make durations, int64 microseconds (NaT for missing ones), whenever
     * times are decoded; other spellings stay numbers. By hand.
     */
    @Test
    void durationUnitsDecodeToMicroseconds() {
        CfDecoding hours = v2(DType.INT32, null, Map.of("units", "hours"));
        assertThat(hours.isDuration()).isTrue();
        assertThat(hours.isTime()).isFalse();
        assertThat(hours.dtype()).isEqualTo(DType.INT64);
        assertThat(hours.decode(zeroToThree(DType.INT32)).longs())
                .containsExactly(0L, 3_600_000_000L, 7_200_000_000L, 10_800_000_000L);
        // A fill value masks first: NaT there.
        assertThat(v2(DType.INT32, Scalar.ofLong(2), Map.of("units", "seconds"))
                        .decode(zeroToThree(DType.INT32))
                        .longs())
                .containsExactly(0L, 1_000_000L, CfTimeUnits.NAT, 3_000_000L);
        // Fractions of a microsecond round to the nearest.
        Chunk ns = Chunk.wrap(DType.INT64, new int[] {4}, new long[] {1, 1500, -1, -1501});
        assertThat(v2(DType.INT64, null, Map.of("units", "nanoseconds"))
                        .decode(ns)
                        .longs())
                .containsExactly(0L, 2L, 0L, -2L);
        Chunk days = Chunk.wrap(DType.FLOAT64, new int[] {2}, new double[] {-1.25, Double.NaN});
        assertThat(v2(DType.FLOAT64, null, Map.of("units", "days")).decode(days).longs())
                .containsExactly(-108_000_000_000L, CfTimeUnits.NAT);
        assertThat(v2(DType.INT32, null, Map.of("units", "hour")).isIdentity()).isTrue();
        assertThat(v2(DType.INT32, null, Map.of("units", "Hours")).isIdentity()).isTrue();
        assertThat(CfDecoding.of(
                                "t",
                                DType.INT32,
                                null,
                                2,
                                Map.of("units", "hours"),
                                CfOptions.defaults().withDecodeTimes(false),
                                null)
                        .isIdentity())
                .isTrue();
        // A duration no long holds in microseconds fails, naming the array and the value.
        Chunk huge = Chunk.wrap(DType.INT64, new int[] {1}, new long[] {Long.MAX_VALUE / 1000});
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> v2(DType.INT64, null, Map.of("units", "days")).decode(huge))
                .hasMessageContaining("is no duration a long holds in microseconds");
    }

    @Test
    void floatFillValuesMaskAndNanMasksNothing() {
        assertThat(v2(DType.FLOAT32, Scalar.ofDouble(0.0), Map.of())
                        .decode(zeroToThree(DType.FLOAT32))
                        .floats())
                .containsExactly(NAN_F, 1f, 2f, 3f);
        assertThat(v2(DType.FLOAT64, Scalar.ofDouble(0.0), Map.of())
                        .decode(zeroToThree(DType.FLOAT64))
                        .doubles())
                .containsExactly(Double.NaN, 1.0, 2.0, 3.0);
        CfDecoding nan = v2(DType.FLOAT32, Scalar.ofDouble(Double.NaN), Map.of());
        assertThat(nan.isIdentity()).isTrue();
        assertThat(nan.canBeMissing()).as("a float holds NaN").isTrue();
        // netCDF's default float fill 9.96921e36, compared in float32 as numpy does.
        Chunk big = Chunk.wrap(DType.FLOAT32, new int[] {2}, new float[] {9.96921e36f, 1.5f});
        assertThat(v2(DType.FLOAT32, null, Map.of("_FillValue", 9.969209968386869e36))
                        .decode(big)
                        .floats())
                .containsExactly(NAN_F, 1.5f);
    }

    @Test
    void theZarrFillValueMasksByFormatOrOption() {
        Map<String, Object> none = Map.of();
        CfDecoding v3 = CfDecoding.of("t", DType.INT16, Scalar.ofLong(0), 3, none, CfOptions.defaults(), null);
        assertThat(v3.isIdentity()).as("Zarr v3: fill_value is no mask").isTrue();
        CfDecoding v3Masked = CfDecoding.of(
                "t",
                DType.INT16,
                Scalar.ofLong(0),
                3,
                none,
                CfOptions.defaults().withZarrFillValueAsMask(true),
                null);
        assertThat(v3Masked.decode(zeroToThree(DType.INT16)).floats()).containsExactly(NAN_F, 1f, 2f, 3f);
        CfDecoding v2Off = CfDecoding.of(
                "t",
                DType.INT16,
                Scalar.ofLong(0),
                2,
                none,
                CfOptions.defaults().withZarrFillValueAsMask(false),
                null);
        assertThat(v2Off.isIdentity()).isTrue();
        // v3 with an explicit _FillValue attribute (as xarray writes v3) masks it.
        assertThat(CfDecoding.of(
                                "t",
                                DType.INT16,
                                Scalar.ofLong(0),
                                3,
                                Map.of("_FillValue", 2L),
                                CfOptions.defaults(),
                                null)
                        .decode(zeroToThree(DType.INT16))
                        .floats())
                .containsExactly(0f, 1f, NAN_F, 3f);
    }

    @Test
    void booleans() {
        assertThat(v2(DType.BOOL, Scalar.ofBoolean(false), Map.of()).isIdentity())
                .as("bool arrays are never masked")
                .isTrue();
        CfDecoding encoded = v2(DType.INT8, null, Map.of("dtype", "bool"));
        assertThat(encoded.dtype()).isEqualTo(DType.BOOL);
        assertThat(encoded.decode(zeroToThree(DType.INT8)).booleans()).containsExactly(false, true, true, true);
    }

    /**
     * xarray masks, then casts to bool (BoolTypeArray: numpy's astype(bool)), so a masked value, NaN, is true. xarray
     * 2023.01 writes [True, False, True, False] with encoding _FillValue -1 as int8 with Zarr fill_value 1 (the fill
     * value cast to bool) and reads back [True, False, True, False]; an int8 0, 1, 2, 3 with fill value 0 reads as all
     * true (by numpy's rule: NaN != 0).
     */
    @Test
    void booleansWithAFillValueMaskThenCast() {
        CfDecoding filled = v2(DType.INT8, Scalar.ofLong(1), Map.of("dtype", "bool"));
        assertThat(filled.dtype()).isEqualTo(DType.BOOL);
        assertThat(filled.canBeMissing()).isFalse();
        Chunk written = Chunk.wrap(DType.INT8, new int[] {6}, new byte[] {1, 0, 1, 0, 2, -1});
        assertThat(filled.decode(written).booleans()).containsExactly(true, false, true, false, true, true);
        assertThat(v2(DType.INT8, Scalar.ofLong(0), Map.of("dtype", "bool"))
                        .decode(zeroToThree(DType.INT8))
                        .booleans())
                .containsExactly(true, true, true, true);
        boolean[] run = new boolean[3];
        filled.decodeRun(written, 2, run, 0, 3, new int[3]);
        assertThat(run).containsExactly(true, false, true);
    }

    /**
     * Masked int64 times decode from the stored integers, exactly: nanoseconds above 2^53 (xarray, through float64:
     * 1700000332277599488 and 1700000946957893376 ns, the same microseconds; by hand, 388 and 278 ns round down).
     */
    @Test
    void maskedInt64TimesAreExact() {
        CfDecoding d = v2(DType.INT64, Scalar.ofLong(-999), Map.of("units", "nanoseconds since 1970-01-01"));
        assertThat(d.isTime()).isTrue();
        assertThat(d.canBeMissing()).isTrue();
        Chunk raw = Chunk.wrap(
                DType.INT64, new int[] {3}, new long[] {1_700_000_332_277_599_388L, 1_700_000_946_957_893_278L, -999});
        assertThat(d.decode(raw).longs())
                .containsExactly(1_700_000_332_277_599L, 1_700_000_946_957_893L, CfTimeUnits.NAT);
        long[] t = new long[3];
        int[] missing = new int[3];
        assertThat(d.decodeRun(raw, 0, t, 0, 3, missing)).isEqualTo(1);
        assertThat(missing[0]).isEqualTo(2);
        // A coordinate tried for labels skips its fill values.
        CfDecoding c = CfDecoding.of(
                "c",
                DType.INT32,
                Scalar.ofLong(-1),
                2,
                Map.of("units", "days since 2000-01-01", "calendar", "360_day"),
                CfOptions.defaults(),
                Chunk.wrap(DType.INT32, new int[] {3}, new int[] {0, -1, 30}));
        assertThat(c.isTime()).isTrue();
        assertThat(c.decode(Chunk.wrap(DType.INT32, new int[] {3}, new int[] {0, -1, 30}))
                        .longs())
                .containsExactly(day(2000, 1, 1), CfTimeUnits.NAT, day(2000, 2, 1));
    }

    @Test
    void optionsTurnDecodingsOff() {
        Map<String, Object> attrs = Map.of("scale_factor", 0.01, "units", "hours since 1900-01-01");
        CfDecoding off = CfDecoding.of("t", DType.INT16, Scalar.ofLong(0), 2, attrs, CfOptions.none(), null);
        assertThat(off.isIdentity()).isTrue();
        CfDecoding noTimes = CfDecoding.of(
                "t",
                DType.INT16,
                Scalar.ofLong(0),
                2,
                attrs,
                CfOptions.defaults().withDecodeTimes(false),
                null);
        assertThat(noTimes.isTime()).isFalse();
        assertThat(noTimes.dtype()).isEqualTo(DType.FLOAT32);
        CfDecoding noMask = CfDecoding.of(
                "t",
                DType.INT16,
                Scalar.ofLong(0),
                2,
                attrs,
                CfOptions.defaults().withMaskAndScale(false),
                null);
        assertThat(noMask.isTime()).isTrue();
        assertThat(noMask.decode(zeroToThree(DType.INT16)).longs())
                .containsExactly(
                        day(1900, 1, 1),
                        day(1900, 1, 1) + 3_600_000_000L,
                        day(1900, 1, 1) + 7_200_000_000L,
                        day(1900, 1, 1) + 10_800_000_000L);
    }

    private static long day(int y, int m, int d) {
        return LocalDate.of(y, m, d).toEpochDay() * 86_400_000_000L;
    }

    @Test
    void timesMaskedAndScaledFirst() {
        // int64 days with fill -1: masked to float64, then NaN is a missing time.
        CfDecoding d = v2(DType.INT64, Scalar.ofLong(-1), Map.of("units", "days since 2000-01-01"));
        assertThat(d.isTime()).isTrue();
        assertThat(d.dtype()).isEqualTo(DType.INT64);
        assertThat(d.canBeMissing()).isTrue();
        Chunk raw = Chunk.wrap(DType.INT64, new int[] {3}, new long[] {0, -1, 31});
        assertThat(d.decode(raw).longs()).containsExactly(day(2000, 1, 1), CfTimeUnits.NAT, day(2000, 2, 1));
        // int64 hours without a fill value: exact, never missing.
        CfDecoding hours = v2(DType.INT64, null, Map.of("units", "hours since 1900-01-01", "calendar", "standard"));
        assertThat(hours.canBeMissing()).isFalse();
        assertThat(hours.decode(Chunk.wrap(DType.INT64, new int[] {1}, new long[] {1_053_096}))
                        .longs())
                .containsExactly(day(2020, 2, 20));
        // A value past year 9999 fails, naming the array, the value and the units.
        assertThatThrownBy(() -> hours.decode(Chunk.wrap(DType.INT64, new int[] {1}, new long[] {Long.MAX_VALUE / 4})))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("test")
                .hasMessageContaining(Long.toString(Long.MAX_VALUE / 4))
                .hasMessageContaining("hours since 1900-01-01")
                .hasMessageContaining("decodeTimes=false");
    }

    @Test
    void calendarsWithNonGregorianDates() {
        Map<String, Object> d360 = Map.of("units", "days since 2000-01-01", "calendar", "360_day");
        // A data variable stays numeric, its units kept.
        CfDecoding variable = v2(DType.INT32, null, d360);
        assertThat(variable.isTime()).isFalse();
        assertThat(variable.dtype()).isEqualTo(DType.INT32);
        assertThat(variable.keptTimeUnits().units()).isEqualTo("days since 2000-01-01");
        assertThat(variable.descriptiveAttributes()).containsEntry("calendar", "360_day");
        // A coordinate decodes when every value has a Gregorian label...
        Chunk monthly = Chunk.wrap(DType.INT32, new int[] {3}, new int[] {0, 30, 60});
        CfDecoding coord = CfDecoding.of("c", DType.INT32, null, 2, d360, CfOptions.defaults(), monthly);
        assertThat(coord.isTime()).isTrue();
        assertThat(coord.decode(monthly).longs()).containsExactly(day(2000, 1, 1), day(2000, 2, 1), day(2000, 3, 1));
        // ... and stays numeric when one has none (day 59 is February 30).
        Chunk daily = Chunk.wrap(DType.INT32, new int[] {2}, new int[] {0, 59});
        CfDecoding kept = CfDecoding.of("c", DType.INT32, null, 2, d360, CfOptions.defaults(), daily);
        assertThat(kept.isTime()).isFalse();
        assertThat(kept.keptTimeUnits()).isNotNull();
        assertThat(kept.decode(daily).ints()).containsExactly(0, 59);
        // noleap dates are all Gregorian: a data variable decodes.
        CfDecoding noleap = v2(DType.INT32, null, Map.of("units", "days since 2000-01-01", "calendar", "noleap"));
        assertThat(noleap.isTime()).isTrue();
        assertThat(noleap.decode(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {59, 365}))
                        .longs())
                .containsExactly(day(2000, 3, 1), day(2001, 1, 1));
    }

    @Test
    void malformedAttributesFailNamingThem() {
        assertThatThrownBy(() -> v2(DType.INT16, null, Map.of("scale_factor", "0.01")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("test")
                .hasMessageContaining("scale_factor 0.01")
                .hasMessageContaining("maskAndScale=false");
        assertThatThrownBy(() -> v2(DType.INT16, null, Map.of("missing_value", List.of(1L, "x"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("missing_value");
        assertThatThrownBy(() -> v2(DType.INT64, null, Map.of("units", "days since 2000-01-01", "calendar", 5L)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("calendar 5");
    }

    @Test
    void runsDecodeIntoABufferAndSayWhereValuesAreMissing() {
        // int16 with one fill value (the lookup's one-pass case), then two missing values, then uint8, float32, times.
        Chunk raw = Chunk.wrap(DType.INT16, new int[] {6}, new short[] {5, -32767, 7, -32767, 9, 11});
        CfDecoding packed = v2(DType.INT16, Scalar.ofLong(-32767), Map.of("scale_factor", 0.5, "add_offset", 1.0));
        float[] out = new float[8];
        int[] missing = new int[8];
        int k = packed.decodeRun(raw, 1, out, 2, 4, missing);
        assertThat(k).isEqualTo(2);
        assertThat(java.util.Arrays.copyOf(missing, k)).containsExactly(2, 4);
        assertThat(java.util.Arrays.copyOfRange(out, 2, 6)).containsExactly(NAN_F, 4.5f, NAN_F, 5.5f);
        assertThat(packed.decodeRun(raw, 1, out, 2, 4, null))
                .as("without a buffer for positions")
                .isZero();

        CfDecoding two = v2(DType.INT16, null, Map.of("missing_value", List.of(7L, 9L)));
        k = two.decodeRun(raw, 0, out, 0, 6, missing);
        assertThat(java.util.Arrays.copyOf(missing, k)).containsExactlyInAnyOrder(2, 4);
        assertThat(java.util.Arrays.copyOf(out, 6)).containsExactly(5f, -32767f, NAN_F, -32767f, NAN_F, 11f);

        Chunk bytes = Chunk.wrap(DType.UINT8, new int[] {3}, new byte[] {(byte) 255, 3, (byte) 200});
        k = v2(DType.UINT8, Scalar.ofLong(255), Map.of()).decodeRun(bytes, 0, out, 0, 3, missing);
        assertThat(java.util.Arrays.copyOf(missing, k)).containsExactly(0);
        assertThat(java.util.Arrays.copyOf(out, 3)).containsExactly(NAN_F, 3f, 200f);

        Chunk floats = Chunk.wrap(DType.FLOAT32, new int[] {3}, new float[] {Float.NaN, 2f, -1f});
        k = v2(DType.FLOAT32, Scalar.ofDouble(-1), Map.of("scale_factor", 2.0))
                .decodeRun(floats, 0, out, 0, 3, missing);
        assertThat(java.util.Arrays.copyOf(missing, k)).containsExactly(0, 2);
        assertThat(out[1]).isEqualTo(4f);

        long[] times = new long[3];
        k = v2(DType.INT64, Scalar.ofLong(-1), Map.of("units", "days since 2000-01-01"))
                .decodeRun(Chunk.wrap(DType.INT64, new int[] {3}, new long[] {1, -1, 0}), 0, times, 0, 3, missing);
        assertThat(java.util.Arrays.copyOf(missing, k)).containsExactly(1);
        assertThat(times).containsExactly(day(2000, 1, 2), CfTimeUnits.NAT, day(2000, 1, 1));
    }

    @Test
    void aFillValueDecodesToItsMissingValue() {
        CfDecoding d = v2(DType.INT16, Scalar.ofLong(-32767), Map.of("scale_factor", 0.5));
        assertThat(d.decode(Scalar.ofLong(-32767)).doubleValue()).isNaN();
        assertThat(d.decode(Scalar.ofLong(4)).doubleValue()).isEqualTo(2.0);
    }
}
