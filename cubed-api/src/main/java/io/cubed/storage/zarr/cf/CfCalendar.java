package io.cubed.storage.zarr.cf;

import java.time.LocalDate;
import java.util.Locale;

/**
 * The calendars of the CF conventions, as day arithmetic: {@link #day} numbers a date of the calendar (consecutive
 * days get consecutive numbers; numbers of different calendars are not comparable) and {@link #date} gives it back.
 * {@code standard} and {@code gregorian} are read as the proleptic Gregorian calendar, as pandas and Spark count
 * dates (CF's {@code standard} switches to the Julian calendar before 1582-10-15; dates that old read here as
 * proleptic Gregorian ones).
 */
public enum CfCalendar {
    /** {@code standard}, {@code gregorian}, {@code proleptic_gregorian}, or no {@code calendar} attribute. */
    PROLEPTIC_GREGORIAN,
    /** {@code noleap}, {@code 365_day}: every year has 365 days. */
    NOLEAP,
    /** {@code all_leap}, {@code 366_day}: every year has 366 days. */
    ALL_LEAP,
    /** {@code 360_day}: twelve months of 30 days. */
    DAY_360,
    /** {@code julian}: a leap year every fourth year. */
    JULIAN;

    private static final int[] NOLEAP_DAYS_BEFORE = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365};
    private static final int[] LEAP_DAYS_BEFORE = {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366};

    /**
     * The calendar a CF {@code calendar} attribute names (case ignored; null: the default, proleptic Gregorian), or
     * null when it names none of them.
     */
    public static CfCalendar parse(String name) {
        if (name == null) {
            return PROLEPTIC_GREGORIAN;
        }
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "standard":
            case "gregorian":
            case "proleptic_gregorian":
                return PROLEPTIC_GREGORIAN;
            case "noleap":
            case "365_day":
                return NOLEAP;
            case "all_leap":
            case "366_day":
                return ALL_LEAP;
            case "360_day":
                return DAY_360;
            case "julian":
                return JULIAN;
            default:
                return null;
        }
    }

    /**
     * True when every date of this calendar is also a date of the proleptic Gregorian calendar, so that any value
     * decodes to a timestamp with the same year, month and day (false for {@code all_leap}, {@code 360_day} and
     * {@code julian}, whose February 29 of 2100 or February 30 Spark's timestamps do not have).
     */
    public boolean everyDateIsGregorian() {
        return this == PROLEPTIC_GREGORIAN || this == NOLEAP;
    }

    /** True when {@code year-month-day} is a date of this calendar. */
    public boolean isValid(long year, int month, int day) {
        if (month < 1 || month > 12 || day < 1) {
            return false;
        }
        return day <= monthLength(year, month);
    }

    private int monthLength(long year, int month) {
        switch (this) {
            case DAY_360:
                return 30;
            case NOLEAP:
                return NOLEAP_DAYS_BEFORE[month] - NOLEAP_DAYS_BEFORE[month - 1];
            case ALL_LEAP:
                return LEAP_DAYS_BEFORE[month] - LEAP_DAYS_BEFORE[month - 1];
            case JULIAN:
                return Math.floorMod(year, 4) == 0
                        ? LEAP_DAYS_BEFORE[month] - LEAP_DAYS_BEFORE[month - 1]
                        : NOLEAP_DAYS_BEFORE[month] - NOLEAP_DAYS_BEFORE[month - 1];
            default:
                return LocalDate.of(2001, month, 1)
                        .withYear(Math.toIntExact(year))
                        .lengthOfMonth();
        }
    }

    /**
     * The day number of {@code year-month-day}, a valid date of this calendar; for the proleptic Gregorian calendar
     * it is the day since 1970-01-01 ({@link LocalDate#toEpochDay}).
     */
    public long day(long year, int month, int day) {
        switch (this) {
            case NOLEAP:
                return Math.multiplyExact(year, 365) + NOLEAP_DAYS_BEFORE[month - 1] + day - 1;
            case ALL_LEAP:
                return Math.multiplyExact(year, 366) + LEAP_DAYS_BEFORE[month - 1] + day - 1;
            case DAY_360:
                return Math.multiplyExact(year, 360) + (month - 1) * 30L + day - 1;
            case JULIAN:
                // Years counted from March, so that the leap day ends a year: 4 years are 1461 days.
                long y = month <= 2 ? year - 1 : year;
                int m = month <= 2 ? month + 9 : month - 3;
                return Math.multiplyExact(y, 365) + Math.floorDiv(y, 4) + (153 * m + 2) / 5 + day - 1;
            default:
                return LocalDate.of(Math.toIntExact(year), month, day).toEpochDay();
        }
    }

    /** The date {@code {year, month, day}} of day number {@code n} (the inverse of {@link #day}). */
    public long[] date(long n) {
        switch (this) {
            case NOLEAP:
                return fromYearDays(Math.floorDiv(n, 365), (int) Math.floorMod(n, 365), NOLEAP_DAYS_BEFORE);
            case ALL_LEAP:
                return fromYearDays(Math.floorDiv(n, 366), (int) Math.floorMod(n, 366), LEAP_DAYS_BEFORE);
            case DAY_360: {
                int doy = (int) Math.floorMod(n, 360);
                return new long[] {Math.floorDiv(n, 360), doy / 30 + 1, doy % 30 + 1};
            }
            case JULIAN: {
                long y = Math.floorDiv(Math.addExact(Math.multiplyExact(n, 4), 3), 1461);
                int doy = (int) (n - (365 * y + Math.floorDiv(y, 4)));
                int m = (5 * doy + 2) / 153;
                int d = doy - (153 * m + 2) / 5 + 1;
                int month = m < 10 ? m + 3 : m - 9;
                return new long[] {month <= 2 ? y + 1 : y, month, d};
            }
            default: {
                LocalDate date = LocalDate.ofEpochDay(n);
                return new long[] {date.getYear(), date.getMonthValue(), date.getDayOfMonth()};
            }
        }
    }

    private static long[] fromYearDays(long year, int doy, int[] before) {
        int month = 1;
        while (before[month] <= doy) {
            month++;
        }
        return new long[] {year, month, doy - before[month - 1] + 1};
    }
}
