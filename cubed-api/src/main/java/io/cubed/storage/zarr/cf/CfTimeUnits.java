package io.cubed.storage.zarr.cf;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.time.LocalDate;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CF time units ({@code "hours since 1900-01-01 00:00:00"}) on a CF calendar, turning encoded numbers into the
 * date and time they label, as microseconds since 1970-01-01T00:00 on the proleptic Gregorian calendar (a naive,
 * UTC time: a reference date with a time zone offset is moved to UTC, as xarray does). A value of a calendar other
 * than the proleptic Gregorian keeps its year, month, day and time of day; a label that is not a Gregorian date
 * (February 30 of a 360-day year), or lies outside years 1 to 9999 (Spark's timestamps), has no such time: {@link
 * #UNREPRESENTABLE}. Fractions of a microsecond are rounded to the nearest.
 */
public final class CfTimeUnits implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The value a missing time (NaN, or a fill value) decodes to, as numpy's {@code NaT}. */
    public static final long NAT = Long.MIN_VALUE;

    /** What {@link #labelMicros} gives for a value whose label is no timestamp of years 1 to 9999. */
    public static final long UNREPRESENTABLE = Long.MIN_VALUE + 1;

    /** 0001-01-01T00:00:00, in microseconds since 1970-01-01. */
    public static final long MIN_MICROS = LocalDate.of(1, 1, 1).toEpochDay() * 86_400_000_000L;

    /** 9999-12-31T23:59:59.999999, in microseconds since 1970-01-01. */
    public static final long MAX_MICROS = (LocalDate.of(9999, 12, 31).toEpochDay() + 1) * 86_400_000_000L - 1;

    private static final long DAY_MICROS = 86_400_000_000L;

    private static final Pattern UNITS = Pattern.compile("^\\s*(\\S+)\\s+since\\s+(.+?)\\s*$");

    private static final Pattern DATE = Pattern.compile("^([+-]?\\d{1,6})-(\\d{1,2})-(\\d{1,2})"
            + "(?:(?:T|\\s+)(\\d{1,2})(?::(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?)?)?"
            + "\\s*(Z|UTC|GMT|[+-]\\d{1,2}(?::?\\d{2})?)?$");

    private static final Pattern COMPACT_DATE = Pattern.compile("^(\\d{4})(\\d{2})(\\d{2})$");

    private final String units;
    private final String calendarName;
    private final CfCalendar calendar;
    /** Microseconds per unit, or 0 for nanoseconds. */
    private final long microsPerUnit;
    /** The reference instant: microseconds of the calendar's day numbers ({@link CfCalendar#day}) in UTC. */
    private final long referenceMicros;

    private CfTimeUnits(
            String units, String calendarName, CfCalendar calendar, long microsPerUnit, long referenceMicros) {
        this.units = units;
        this.calendarName = calendarName;
        this.calendar = calendar;
        this.microsPerUnit = microsPerUnit;
        this.referenceMicros = referenceMicros;
    }

    /**
     * The units that make an array of durations, as xarray's {@code CFTimedeltaCoder} tells them: exactly these
     * words, in lower case and plural.
     */
    public static final java.util.Set<String> DURATION_UNITS =
            java.util.Set.of("days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds");

    /** True when a CF {@code units} attribute names times ("UNIT since DATE"), as xarray tells them. */
    public static boolean isTime(String units) {
        return units != null && units.contains("since");
    }

    /** True when a CF {@code units} attribute names durations ({@link #DURATION_UNITS}). */
    public static boolean isDuration(String units) {
        return DURATION_UNITS.contains(units);
    }

    /**
     * Durations in {@code units}, one of {@link #DURATION_UNITS}: values decode to microseconds (numpy's {@code
     * timedelta64}, rounded to the microsecond), with no calendar and no range but a long's.
     */
    public static CfTimeUnits duration(String units) {
        if (!isDuration(units)) {
            throw new IllegalArgumentException("'" + units + "' names no CF durations: " + DURATION_UNITS);
        }
        return new CfTimeUnits(units, null, null, microsPerUnit(units), 0);
    }

    /** True for {@link #duration} units: values are lengths of time, not dates. */
    public boolean isDuration() {
        return calendar == null;
    }

    /**
     * Parses time units and a {@code calendar} attribute (null when absent) of the array {@code what}; fails, naming
     * the array, the attribute and what it takes, when either cannot be decoded.
     */
    public static CfTimeUnits parse(String units, String calendarName, String what) {
        CfCalendar calendar = CfCalendar.parse(calendarName);
        if (calendar == null) {
            throw unreadable(
                    what,
                    units,
                    calendarName,
                    "calendar '" + calendarName + "' is none of standard,"
                            + " gregorian, proleptic_gregorian, noleap, 365_day, all_leap, 366_day, 360_day, julian");
        }
        Matcher m = UNITS.matcher(units);
        if (!m.matches()) {
            throw unreadable(what, units, calendarName, "expected 'UNIT since DATE'");
        }
        long perUnit = microsPerUnit(m.group(1));
        if (perUnit < 0) {
            throw unreadable(
                    what,
                    units,
                    calendarName,
                    "the unit '" + m.group(1) + "' is none of days, hours,"
                            + " minutes, seconds, milliseconds, microseconds, nanoseconds (months and years have no fixed"
                            + " length)");
        }
        long reference = reference(m.group(2), calendar, what, units, calendarName);
        return new CfTimeUnits(units, calendarName, calendar, perUnit, reference);
    }

    private static InvalidArgumentException unreadable(String what, String units, String calendar, String why) {
        return new InvalidArgumentException("CF time decoding: " + what + " has units '" + units + "'"
                + (calendar == null ? "" : " and calendar '" + calendar + "'") + ", which cannot be decoded: " + why
                + "; read it undecoded with the option decodeTimes=false");
    }

    private static long microsPerUnit(String unit) {
        switch (unit.toLowerCase(Locale.ROOT)) {
            case "d":
            case "day":
            case "days":
                return DAY_MICROS;
            case "h":
            case "hr":
            case "hrs":
            case "hour":
            case "hours":
                return 3_600_000_000L;
            case "min":
            case "mins":
            case "minute":
            case "minutes":
                return 60_000_000L;
            case "s":
            case "sec":
            case "secs":
            case "second":
            case "seconds":
                return 1_000_000L;
            case "ms":
            case "msec":
            case "msecs":
            case "millisecond":
            case "milliseconds":
                return 1_000L;
            case "microsecond":
            case "microseconds":
                return 1L;
            case "nanosecond":
            case "nanoseconds":
                return 0L;
            default:
                return -1L;
        }
    }

    private static long reference(String text, CfCalendar calendar, String what, String units, String cal) {
        Matcher m = DATE.matcher(text);
        Matcher compact = COMPACT_DATE.matcher(text);
        long year;
        int month;
        int day;
        long timeMicros = 0;
        long offsetMicros = 0;
        if (m.matches()) {
            year = Long.parseLong(m.group(1));
            month = Integer.parseInt(m.group(2));
            day = Integer.parseInt(m.group(3));
            int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
            if (hour > 23 || minute > 59 || second > 59) {
                throw unreadable(what, units, cal, "the reference time of '" + text + "' is not a time of day");
            }
            long fraction = 0;
            if (m.group(7) != null && !m.group(7).isEmpty()) {
                String digits = (m.group(7) + "000000").substring(0, 6);
                fraction = Long.parseLong(digits);
            }
            timeMicros = ((hour * 60L + minute) * 60L + second) * 1_000_000L + fraction;
            offsetMicros = offsetMicros(m.group(8));
        } else if (compact.matches()) {
            year = Long.parseLong(compact.group(1));
            month = Integer.parseInt(compact.group(2));
            day = Integer.parseInt(compact.group(3));
        } else {
            throw unreadable(
                    what,
                    units,
                    cal,
                    "the reference date '" + text + "' is not YYYY-MM-DD [hh:mm:ss[.f]]" + " [time zone]");
        }
        if (!calendar.isValid(year, month, day)) {
            throw unreadable(what, units, cal, "the reference date '" + text + "' is not a date of the calendar");
        }
        try {
            return Math.addExact(
                    Math.multiplyExact(calendar.day(year, month, day), DAY_MICROS), timeMicros - offsetMicros);
        } catch (ArithmeticException e) {
            throw unreadable(what, units, cal, "the reference date '" + text + "' is out of range");
        }
    }

    /** A time zone suffix ({@code Z}, {@code UTC}, {@code +05:00}, {@code -0330}, {@code +5}) in microseconds. */
    private static long offsetMicros(String zone) {
        if (zone == null || zone.equals("Z") || zone.equals("UTC") || zone.equals("GMT")) {
            return 0;
        }
        int sign = zone.charAt(0) == '-' ? -1 : 1;
        String digits = zone.substring(1).replace(":", "");
        int hours;
        int minutes = 0;
        if (digits.length() <= 2) {
            hours = Integer.parseInt(digits);
        } else {
            hours = Integer.parseInt(digits.substring(0, digits.length() - 2));
            minutes = Integer.parseInt(digits.substring(digits.length() - 2));
        }
        return sign * (hours * 60L + minutes) * 60_000_000L;
    }

    /** The units attribute, as given. */
    public String units() {
        return units;
    }

    /** The calendar attribute, as given, or null when the array has none. */
    public String calendarName() {
        return calendarName;
    }

    public CfCalendar calendar() {
        return calendar;
    }

    /**
     * The label of {@code value} (a whole number of units) in microseconds since 1970-01-01T00:00, or {@link
     * #UNREPRESENTABLE}.
     */
    public long labelMicros(long value) {
        long offset;
        if (microsPerUnit == 0) {
            offset = Math.floorDiv(value, 1000L) + (Math.floorMod(value, 1000L) >= 500 ? 1 : 0);
        } else {
            offset = value * microsPerUnit;
            if (Math.multiplyHigh(value, microsPerUnit) != (offset >> 63)) {
                return UNREPRESENTABLE;
            }
        }
        long instant = referenceMicros + offset;
        if (((referenceMicros ^ instant) & (offset ^ instant)) < 0) {
            return UNREPRESENTABLE;
        }
        return label(instant);
    }

    /** The label of {@code value} units (NaN: {@link #NAT}) in microseconds, or {@link #UNREPRESENTABLE}. */
    public long labelMicros(double value) {
        if (Double.isNaN(value)) {
            return NAT;
        }
        if (value == Math.rint(value) && Math.abs(value) < 0x1p53) {
            return labelMicros((long) value);
        }
        double offset = microsPerUnit == 0 ? value / 1000.0 : value * microsPerUnit;
        if (!(Math.abs(offset) < 0x1p62)) {
            return UNREPRESENTABLE;
        }
        long instant = referenceMicros + Math.round(offset);
        return label(instant);
    }

    private long label(long instant) {
        if (calendar == null) {
            return instant; // a duration
        }
        if (calendar == CfCalendar.PROLEPTIC_GREGORIAN) {
            return instant < MIN_MICROS || instant > MAX_MICROS ? UNREPRESENTABLE : instant;
        }
        long[] ymd = calendar.date(Math.floorDiv(instant, DAY_MICROS));
        long timeOfDay = Math.floorMod(instant, DAY_MICROS);
        if (ymd[0] < 1
                || ymd[0] > 9999
                || !CfCalendar.PROLEPTIC_GREGORIAN.isValid(ymd[0], (int) ymd[1], (int) ymd[2])) {
            return UNREPRESENTABLE;
        }
        return LocalDate.of((int) ymd[0], (int) ymd[1], (int) ymd[2]).toEpochDay() * DAY_MICROS + timeOfDay;
    }

    @Override
    public String toString() {
        return "'" + units + "'" + (calendarName == null ? "" : " (calendar " + calendarName + ")");
    }
}
