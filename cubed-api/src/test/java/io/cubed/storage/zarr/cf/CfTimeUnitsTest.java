package io.cubed.storage.zarr.cf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Time units against dates counted by {@link LocalDateTime}; the accepted spellings and the labels of other calendars
 * are those xarray 2023.01 (with cftime 1.6) gives for the same attributes.
 */
class CfTimeUnitsTest {
    private static long micros(int y, int mo, int d, int h, int mi, int s, int micro) {
        return LocalDateTime.of(y, mo, d, h, mi, s, micro * 1000).toEpochSecond(ZoneOffset.UTC) * 1_000_000L + micro;
    }

    private static long micros(int y, int mo, int d) {
        return micros(y, mo, d, 0, 0, 0, 0);
    }

    private static long label(String units, String calendar, long value) {
        return CfTimeUnits.parse(units, calendar, "test").labelMicros(value);
    }

    @Test
    void hoursSince1900AsEra5StoresThem() {
        // The example: 1053096 hours after 1900-01-01 is 2020-02-20.
        assertThat(label("hours since 1900-01-01", null, 1_053_096)).isEqualTo(micros(2020, 2, 20));
        assertThat(label("hours since 1900-01-01 00:00:00.0", "gregorian", 1_053_096 + 13))
                .isEqualTo(micros(2020, 2, 20, 13, 0, 0, 0));
    }

    @Test
    void everyUnitSpellingXarrayAccepts() {
        String[][] units = {
            {"d", "day", "days", "D", "Days"},
            {"h", "hr", "hrs", "hour", "hours", "H"},
            {"min", "mins", "minute", "minutes"},
            {"s", "sec", "secs", "second", "seconds", "S"},
            {"ms", "msec", "msecs", "millisecond", "milliseconds"},
            {"microsecond", "microseconds"},
            {"nanosecond", "nanoseconds"}
        };
        long[] expected = {
            micros(1900, 1, 2),
            micros(1900, 1, 1, 1, 0, 0, 0),
            micros(1900, 1, 1, 0, 1, 0, 0),
            micros(1900, 1, 1, 0, 0, 1, 0),
            micros(1900, 1, 1, 0, 0, 0, 1000),
            micros(1900, 1, 1, 0, 0, 0, 1),
            micros(1900, 1, 1)
        };
        for (int i = 0; i < units.length; i++) {
            for (String u : units[i]) {
                assertThat(label(u + " since 1900-01-01", null, 1)).as(u).isEqualTo(expected[i]);
            }
        }
        for (String bad : new String[] {"us", "usec", "ns", "m", "weeks", "months", "years"}) {
            assertThatThrownBy(() -> CfTimeUnits.parse(bad + " since 1900-01-01", null, "s3a://b/era.zarr/time"))
                    .as(bad)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("s3a://b/era.zarr/time")
                    .hasMessageContaining("'" + bad + " since 1900-01-01'")
                    .hasMessageContaining("decodeTimes=false");
        }
    }

    @Test
    void referenceDatesAsPandasParsesThem() {
        assertThat(label("hours since 2000-01-01 00:00:00 +05:00", null, 0))
                .isEqualTo(micros(1999, 12, 31, 19, 0, 0, 0));
        assertThat(label("days since 1900-01-01 -03:30", null, 0)).isEqualTo(micros(1900, 1, 1, 3, 30, 0, 0));
        assertThat(label("days since 1900-01-01 00:00:00 -0330", null, 0)).isEqualTo(micros(1900, 1, 1, 3, 30, 0, 0));
        assertThat(label("hours since 2000-01-01T06:30:00Z", null, 1)).isEqualTo(micros(2000, 1, 1, 7, 30, 0, 0));
        assertThat(label("hours since 2000-1-1 6:3:0", null, 0)).isEqualTo(micros(2000, 1, 1, 6, 3, 0, 0));
        assertThat(label("hours since 2000-01-01 00:00:00 UTC", null, 1)).isEqualTo(micros(2000, 1, 1, 1, 0, 0, 0));
        assertThat(label("days since 2000-01-01 12:00:00.5", null, 1)).isEqualTo(micros(2000, 1, 2, 12, 0, 0, 500_000));
        assertThat(label("days since 19000101", null, 1)).isEqualTo(micros(1900, 1, 2));
        assertThat(label("days  since  1900-01-01T00", null, 1)).isEqualTo(micros(1900, 1, 2));
        for (String bad : new String[] {"days since garbage", "days since 2001-02-29", "days since 2000-01-01 25:00"}) {
            assertThatThrownBy(() -> CfTimeUnits.parse(bad, null, "t"))
                    .as(bad)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining(bad);
        }
        assertThat(CfTimeUnits.isTime("days since 2000-01-01")).isTrue();
        assertThat(CfTimeUnits.isTime("days after 2000")).isFalse();
        assertThat(CfTimeUnits.isTime("K")).isFalse();
    }

    @Test
    void floatingValuesRoundToTheNearestMicrosecond() {
        CfTimeUnits days = CfTimeUnits.parse("days since 2000-01-01", null, "t");
        assertThat(days.labelMicros(1.5)).isEqualTo(micros(2000, 1, 2, 12, 0, 0, 0));
        assertThat(days.labelMicros(-0.25)).isEqualTo(micros(1999, 12, 31, 18, 0, 0, 0));
        assertThat(days.labelMicros(Double.NaN)).isEqualTo(CfTimeUnits.NAT);
        // float32(0.1) days is 8640.000128746033 s.
        assertThat(days.labelMicros((double) 0.1f)).isEqualTo(micros(2000, 1, 1) + 8_640_000_129L);
        CfTimeUnits ns = CfTimeUnits.parse("nanoseconds since 1970-01-01", null, "t");
        assertThat(ns.labelMicros(1499)).isEqualTo(1);
        assertThat(ns.labelMicros(1500)).isEqualTo(2);
        assertThat(ns.labelMicros(-1500)).isEqualTo(-1);
        assertThat(ns.labelMicros(2500.0)).isEqualTo(3);
    }

    @Test
    void timesOutsideSparksTimestampsHaveNoLabel() {
        CfTimeUnits days = CfTimeUnits.parse("days since 0001-01-01", null, "t");
        assertThat(days.labelMicros(0)).isEqualTo(CfTimeUnits.MIN_MICROS);
        assertThat(days.labelMicros(-1)).isEqualTo(CfTimeUnits.UNREPRESENTABLE);
        assertThat(days.labelMicros(Long.MAX_VALUE / 2)).isEqualTo(CfTimeUnits.UNREPRESENTABLE);
        assertThat(days.labelMicros(Long.MIN_VALUE + 5)).isEqualTo(CfTimeUnits.UNREPRESENTABLE);
        assertThat(days.labelMicros(1e300)).isEqualTo(CfTimeUnits.UNREPRESENTABLE);
        CfTimeUnits end = CfTimeUnits.parse("seconds since 9999-12-31 23:59:59", null, "t");
        assertThat(end.labelMicros(0)).isEqualTo(CfTimeUnits.MAX_MICROS - 999_999);
        assertThat(end.labelMicros(1)).isEqualTo(CfTimeUnits.UNREPRESENTABLE);
    }

    @Test
    void otherCalendarsKeepTheirLabels() {
        // xarray with cftime: days 0, 59, 365 since 2000-01-01.
        assertThat(label("days since 2000-01-01", "noleap", 59)).isEqualTo(micros(2000, 3, 1));
        assertThat(label("days since 2000-01-01", "365_day", 365)).isEqualTo(micros(2001, 1, 1));
        assertThat(label("days since 2000-01-01", "360_day", 365)).isEqualTo(micros(2001, 1, 6));
        assertThat(label("days since 2000-01-01", "360_day", 59)).isEqualTo(CfTimeUnits.UNREPRESENTABLE); // 02-30
        assertThat(label("days since 2000-01-01", "julian", 59)).isEqualTo(micros(2000, 2, 29));
        assertThat(label("days since 2000-01-01", "julian", 365)).isEqualTo(micros(2000, 12, 31));
        assertThat(label("days since 1900-02-28", "julian", 1)).isEqualTo(CfTimeUnits.UNREPRESENTABLE); // 02-29
        assertThat(label("days since 2001-02-28", "all_leap", 1)).isEqualTo(CfTimeUnits.UNREPRESENTABLE);
        assertThat(label("hours since 2001-02-28 12:00", "all_leap", 48)).isEqualTo(micros(2001, 3, 1, 12, 0, 0, 0));
        assertThat(label("days since 2000-02-30", "360_day", 1)).isEqualTo(micros(2000, 3, 1));
        assertThatThrownBy(() -> CfTimeUnits.parse("days since 2000-01-01", "lunar", "s3a://b/t"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("s3a://b/t")
                .hasMessageContaining("calendar 'lunar'")
                .hasMessageContaining("decodeTimes=false");
    }

    /**
     * Whole values count in integers: a float64 holding a whole number of nanoseconds above 2^53 converts exactly
     * (not through value / 1000.0, which made ...599.488 µs ...599.5 and then ...600). By hand: 488 ns is under half a
     * microsecond.
     */
    @Test
    void wholeNanosecondsAbove2To53AreExact() {
        CfTimeUnits ns = CfTimeUnits.parse("nanoseconds since 1970-01-01", null, "t");
        assertThat(ns.labelMicros(1_700_000_332_277_599_388L)).isEqualTo(1_700_000_332_277_599L);
        assertThat(ns.labelMicros(1.700000332277599488e18)).isEqualTo(1_700_000_332_277_599L);
        assertThat(ns.labelMicros(1.700000946957893376e18)).isEqualTo(1_700_000_946_957_893L);
        assertThat(ns.labelMicros(1_700_000_946_957_893_500L)).isEqualTo(1_700_000_946_957_894L); // a tie: up
    }

    /**
     * Fractional values round from the exact value of the double, once: 1984.553798956869 days is exactly
     * 171465448229873.4867... µs (Python's fractions.Fraction), which the float64 product rounds to ...873.5. cftime
     * 1.6.2 (xarray 2023.01, noleap) gives 2006-06-09 13:17:28.229873.
     */
    @Test
    void fractionalValuesRoundFromTheirExactValue() {
        assertThat(CfTimeUnits.parse("days since 2001-01-01", "noleap", "t").labelMicros(1984.553798956869))
                .isEqualTo(micros(2006, 6, 9, 13, 17, 28, 229_873));
        // The standard calendar counts 2004-02-29: a day earlier.
        assertThat(CfTimeUnits.parse("days since 2001-01-01", null, "t").labelMicros(1984.553798956869))
                .isEqualTo(micros(2006, 6, 8, 13, 17, 28, 229_873));
        // Durations, exact products by hand (Fraction(v) * 86400e6 or * 3600e6), to the nearest microsecond.
        CfTimeUnits days = CfTimeUnits.duration("days");
        assertThat(days.labelMicros(6.100058474907604)).isEqualTo(527_045_052_232L); // ...232.017
        assertThat(days.labelMicros(0.25000000001)).isEqualTo(21_600_000_001L); // ...000.864
        assertThat(CfTimeUnits.duration("hours").labelMicros(59.78789818629)).isEqualTo(215_236_433_471L); // .644
        assertThat(CfTimeUnits.duration("hours").labelMicros(1.0000001)).isEqualTo(3_600_000_360L);
        // A fractional nanosecond value: 2.5e20 ns has no fraction, 1500.5 ns is 1.5005 µs.
        assertThat(CfTimeUnits.duration("nanoseconds").labelMicros(1500.5)).isEqualTo(2L);
        assertThat(CfTimeUnits.duration("nanoseconds").labelMicros(1499.5)).isEqualTo(1L);
        assertThat(CfTimeUnits.duration("nanoseconds").labelMicros(-1500.5)).isEqualTo(-2L);
    }

    /**
     * Ties: pandas' nanoseconds (standard calendars) are shown to the nearest microsecond, ties up; cftime rounds the
     * value times the unit with numpy's rint, ties to even. cftime 1.6.2: 2.5, 3.5 and -2.5 microseconds since
     * 2000-01-01 (noleap) are .000002, .000004 and 1999-12-31 23:59:59.999998; xarray on the standard calendar gives
     * 2500 and 3500 ns.
     */
    @Test
    void tiesRoundAsPandasOrCftime() {
        CfTimeUnits noleap = CfTimeUnits.parse("microseconds since 2000-01-01", "noleap", "t");
        assertThat(noleap.labelMicros(2.5)).isEqualTo(micros(2000, 1, 1) + 2);
        assertThat(noleap.labelMicros(3.5)).isEqualTo(micros(2000, 1, 1) + 4);
        assertThat(noleap.labelMicros(-2.5)).isEqualTo(micros(2000, 1, 1) - 2);
        CfTimeUnits standard = CfTimeUnits.parse("microseconds since 2000-01-01", "standard", "t");
        assertThat(standard.labelMicros(2.5)).isEqualTo(micros(2000, 1, 1) + 3);
        assertThat(standard.labelMicros(3.5)).isEqualTo(micros(2000, 1, 1) + 4);
        assertThat(standard.labelMicros(-2.5)).isEqualTo(micros(2000, 1, 1) - 2);
    }

    /**
     * A reference date's fraction of a second: pandas reads it to the nanosecond (xarray: 2000-01-01T00:00:00.123456789
     * and 00:00:07.123456789), shown rounded to the nearest microsecond, carried into the next second or day; cftime
     * keeps whole microseconds (xarray with noleap: .123456, and 23:59:59.999999 for .9999996).
     */
    @Test
    void referenceFractionsRoundToTheNearestMicrosecond() {
        assertThat(label("seconds since 2000-01-01 00:00:00.123456789", null, 0))
                .isEqualTo(micros(2000, 1, 1, 0, 0, 0, 123_457));
        assertThat(label("seconds since 2000-01-01 00:00:00.123456789", null, 7))
                .isEqualTo(micros(2000, 1, 1, 0, 0, 7, 123_457));
        assertThat(label("seconds since 2000-01-01 00:00:00.1234564999", null, 0))
                .isEqualTo(micros(2000, 1, 1, 0, 0, 0, 123_456));
        assertThat(label("seconds since 2000-01-01 23:59:59.9999996", null, 0)).isEqualTo(micros(2000, 1, 2));
        assertThat(label("seconds since 2000-01-01 23:59:59.9999996", "noleap", 0))
                .isEqualTo(micros(2000, 1, 1, 23, 59, 59, 999_999));
        assertThat(label("seconds since 2000-01-01 00:00:00.123456789", "noleap", 7))
                .isEqualTo(micros(2000, 1, 1, 0, 0, 7, 123_456));
        // With nanoseconds and fractional values the exact sum rounds once: 0.0000004 s + 100 ns is 0.5 µs, a tie.
        assertThat(label("nanoseconds since 2000-01-01 00:00:00.0000004", null, 100))
                .isEqualTo(micros(2000, 1, 1) + 1);
        assertThat(label("nanoseconds since 2000-01-01 00:00:00.0000004", null, 99))
                .isEqualTo(micros(2000, 1, 1));
        assertThat(CfTimeUnits.parse("seconds since 2000-01-01 00:00:00.0000004", null, "t")
                        .labelMicros(0.0000001))
                .isEqualTo(micros(2000, 1, 1)); // the double 1e-7 is 4.5e-24 under 1e-7: 0.4 + 0.0999... µs
        assertThat(CfTimeUnits.parse("seconds since 2000-01-01 00:00:00.0000004", null, "t")
                        .labelMicros(1.5))
                .isEqualTo(micros(2000, 1, 1, 0, 0, 1, 500_000));
    }
}
