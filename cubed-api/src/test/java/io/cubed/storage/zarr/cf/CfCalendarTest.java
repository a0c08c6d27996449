package io.cubed.storage.zarr.cf;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.Calendar;
import java.util.Date;
import java.util.GregorianCalendar;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/**
 * The CF calendars' day arithmetic against independent references: {@link LocalDate} for the proleptic Gregorian
 * calendar, {@link GregorianCalendar} switched to Julian forever for the Julian one, and hand-counted dates for the
 * fixed-length calendars.
 */
class CfCalendarTest {
    @Test
    void namesAsCfGivesThem() {
        assertThat(CfCalendar.parse(null)).isEqualTo(CfCalendar.PROLEPTIC_GREGORIAN);
        assertThat(CfCalendar.parse("Standard")).isEqualTo(CfCalendar.PROLEPTIC_GREGORIAN);
        assertThat(CfCalendar.parse("gregorian")).isEqualTo(CfCalendar.PROLEPTIC_GREGORIAN);
        assertThat(CfCalendar.parse("proleptic_gregorian")).isEqualTo(CfCalendar.PROLEPTIC_GREGORIAN);
        assertThat(CfCalendar.parse("365_day")).isEqualTo(CfCalendar.NOLEAP);
        assertThat(CfCalendar.parse("noleap")).isEqualTo(CfCalendar.NOLEAP);
        assertThat(CfCalendar.parse("366_day")).isEqualTo(CfCalendar.ALL_LEAP);
        assertThat(CfCalendar.parse("all_leap")).isEqualTo(CfCalendar.ALL_LEAP);
        assertThat(CfCalendar.parse("360_day")).isEqualTo(CfCalendar.DAY_360);
        assertThat(CfCalendar.parse("julian")).isEqualTo(CfCalendar.JULIAN);
        assertThat(CfCalendar.parse("none")).isNull();
        assertThat(CfCalendar.parse("lunar")).isNull();
    }

    @Test
    void prolepticGregorianIsLocalDate() {
        for (long n = -800_000; n <= 3_000_000; n += 997) {
            LocalDate d = LocalDate.ofEpochDay(n);
            assertThat(CfCalendar.PROLEPTIC_GREGORIAN.date(n))
                    .containsExactly(d.getYear(), d.getMonthValue(), d.getDayOfMonth());
            assertThat(CfCalendar.PROLEPTIC_GREGORIAN.day(d.getYear(), d.getMonthValue(), d.getDayOfMonth()))
                    .isEqualTo(n);
        }
        assertThat(CfCalendar.PROLEPTIC_GREGORIAN.isValid(2000, 2, 29)).isTrue();
        assertThat(CfCalendar.PROLEPTIC_GREGORIAN.isValid(1900, 2, 29)).isFalse();
    }

    @Test
    void julianMatchesAJulianGregorianCalendar() {
        GregorianCalendar julian = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
        julian.setGregorianChange(new Date(Long.MAX_VALUE));
        // Julian 1969-12-19 is 1970-01-01 of the Gregorian calendar: day 0 of java's epoch.
        long epoch = CfCalendar.JULIAN.day(1969, 12, 19);
        for (long n = -700_000; n <= 700_000; n += 331) {
            julian.clear();
            julian.setTimeInMillis(n * 86_400_000L);
            long year = julian.get(Calendar.ERA) == GregorianCalendar.BC
                    ? 1 - julian.get(Calendar.YEAR)
                    : julian.get(Calendar.YEAR);
            int month = julian.get(Calendar.MONTH) + 1;
            int day = julian.get(Calendar.DAY_OF_MONTH);
            assertThat(CfCalendar.JULIAN.date(n + epoch)).as("day %d", n).containsExactly(year, month, day);
            assertThat(CfCalendar.JULIAN.day(year, month, day) - epoch).isEqualTo(n);
        }
        // The Gregorian reform: Julian 1582-10-05 is Gregorian 1582-10-15.
        assertThat(CfCalendar.JULIAN.day(1582, 10, 5) - epoch)
                .isEqualTo(LocalDate.of(1582, 10, 15).toEpochDay());
        assertThat(CfCalendar.JULIAN.isValid(1900, 2, 29)).isTrue();
        assertThat(CfCalendar.JULIAN.isValid(1901, 2, 29)).isFalse();
    }

    @Test
    void fixedLengthCalendars() {
        CfCalendar noleap = CfCalendar.NOLEAP;
        assertThat(noleap.date(noleap.day(2000, 2, 28) + 1)).containsExactly(2000, 3, 1);
        assertThat(noleap.day(2001, 1, 1) - noleap.day(2000, 1, 1)).isEqualTo(365);
        assertThat(noleap.date(noleap.day(2000, 12, 31) + 1)).containsExactly(2001, 1, 1);
        assertThat(noleap.date(noleap.day(1, 1, 1) - 1)).containsExactly(0, 12, 31);
        assertThat(noleap.isValid(2000, 2, 29)).isFalse();

        CfCalendar allLeap = CfCalendar.ALL_LEAP;
        assertThat(allLeap.date(allLeap.day(2001, 2, 28) + 1)).containsExactly(2001, 2, 29);
        assertThat(allLeap.day(2002, 1, 1) - allLeap.day(2001, 1, 1)).isEqualTo(366);

        CfCalendar d360 = CfCalendar.DAY_360;
        assertThat(d360.isValid(2001, 2, 30)).isTrue();
        assertThat(d360.isValid(2001, 1, 31)).isFalse();
        assertThat(d360.date(d360.day(2000, 12, 30) + 1)).containsExactly(2001, 1, 1);
        assertThat(d360.date(d360.day(2000, 1, 1) + 59)).containsExactly(2000, 2, 30);

        for (CfCalendar c : CfCalendar.values()) {
            for (long n = -400_000; n <= 400_000; n += 173) {
                long[] ymd = c.date(n);
                assertThat(c.isValid(ymd[0], (int) ymd[1], (int) ymd[2]))
                        .as("%s day %d", c, n)
                        .isTrue();
                assertThat(c.day(ymd[0], (int) ymd[1], (int) ymd[2]))
                        .as("%s day %d", c, n)
                        .isEqualTo(n);
            }
        }
    }

    @Test
    void whichCalendarsHaveOnlyGregorianDates() {
        assertThat(CfCalendar.PROLEPTIC_GREGORIAN.everyDateIsGregorian()).isTrue();
        assertThat(CfCalendar.NOLEAP.everyDateIsGregorian()).isTrue();
        assertThat(CfCalendar.ALL_LEAP.everyDateIsGregorian()).isFalse();
        assertThat(CfCalendar.DAY_360.everyDateIsGregorian()).isFalse();
        assertThat(CfCalendar.JULIAN.everyDateIsGregorian()).isFalse();
    }
}
