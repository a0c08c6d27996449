package io.cubed.storage.zarr.cf;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
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
 * #UNREPRESENTABLE}.
 *
 * <p>Fractions of a microsecond are rounded as xarray rounds them, from the exact value (no floating-point step in
 * between): on the standard calendars (pandas' nanoseconds) the exact label, reference date to the nanosecond
 * included, is rounded once to the nearest microsecond, ties up (towards the later time); on the other calendars
 * (cftime) the reference date keeps whole microseconds (cftime drops finer digits) and the value times the unit is
 * rounded to the nearest microsecond, ties to even (numpy's {@code rint}). Durations round as the standard
 * calendars. Whole values (integers, and floats holding whole numbers) are counted in integers.
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
    /**
     * The reference instant, whole microseconds of the calendar's day numbers ({@link CfCalendar#day}) in UTC (rounded
     * down: {@link #referenceNanos} holds the rest).
     */
    private final long referenceMicros;
    /** Nanoseconds of the reference instant after {@link #referenceMicros}, 0 to 999 (standard calendars only). */
    private final int referenceNanos;
    /** True when ties round to even (cftime's calendars), false when they round up (pandas' nanoseconds). */
    private final boolean tiesToEven;

    private CfTimeUnits(
            String units,
            String calendarName,
            CfCalendar calendar,
            long microsPerUnit,
            long referenceMicros,
            int referenceNanos) {
        this.units = units;
        this.calendarName = calendarName;
        this.calendar = calendar;
        this.microsPerUnit = microsPerUnit;
        this.tiesToEven = calendar != null && calendar != CfCalendar.PROLEPTIC_GREGORIAN;
        this.referenceMicros = referenceMicros;
        this.referenceNanos = tiesToEven ? 0 : referenceNanos;
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
        return new CfTimeUnits(units, null, null, microsPerUnit(units), 0, 0);
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
        long[] reference = reference(m.group(2), calendar, what, units, calendarName);
        return new CfTimeUnits(units, calendarName, calendar, perUnit, reference[0], (int) reference[1]);
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

    /**
     * The reference instant of a DATE, in microseconds of the calendar's day numbers in UTC (rounded down) and the
     * nanoseconds after them: a fraction of a second to the nanosecond, as pandas reads it (finer digits are dropped);
     * {@link CfTimeUnits} keeps only the whole microseconds on cftime's calendars.
     */
    private static long[] reference(String text, CfCalendar calendar, String what, String units, String cal) {
        Matcher m = DATE.matcher(text);
        Matcher compact = COMPACT_DATE.matcher(text);
        long year;
        int month;
        int day;
        long timeNanos = 0;
        long offsetNanos = 0;
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
                String digits = (m.group(7) + "000000000").substring(0, 9);
                fraction = Long.parseLong(digits);
            }
            timeNanos = ((hour * 60L + minute) * 60L + second) * 1_000_000_000L + fraction;
            offsetNanos = offsetMicros(m.group(8)) * 1000L;
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
            long micros = Math.addExact(
                    Math.multiplyExact(calendar.day(year, month, day), DAY_MICROS),
                    Math.floorDiv(timeNanos - offsetNanos, 1000L));
            return new long[] {micros, Math.floorMod(timeNanos - offsetNanos, 1000L)};
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
     * #UNREPRESENTABLE}. Exact: integer arithmetic throughout.
     */
    public long labelMicros(long value) {
        long offset;
        int nanos = referenceNanos;
        if (microsPerUnit == 0) {
            long rest = Math.floorMod(value, 1000L) + nanos; // 0 .. 1998
            offset = Math.floorDiv(value, 1000L) + rest / 1000;
            nanos = (int) (rest % 1000);
        } else {
            offset = value * microsPerUnit;
            if (Math.multiplyHigh(value, microsPerUnit) != (offset >> 63)) {
                return UNREPRESENTABLE;
            }
        }
        // The sub-microsecond rest (of the reference, or of nanoseconds) rounds to the nearest.
        if (nanos > 500 || (nanos == 500 && (!tiesToEven || Math.floorMod(offset, 2L) != 0))) {
            offset++;
            if (offset == Long.MIN_VALUE) {
                return UNREPRESENTABLE;
            }
        }
        long instant = referenceMicros + offset;
        if (((referenceMicros ^ instant) & (offset ^ instant)) < 0) {
            return UNREPRESENTABLE;
        }
        return label(instant);
    }

    /**
     * The label of {@code value} units (NaN: {@link #NAT}) in microseconds, or {@link #UNREPRESENTABLE}: the exact
     * value of the double times the unit, rounded once to the nearest microsecond (see the class comment), not the
     * floating-point product (which can round 0.487 µs to 0.5 and then up).
     */
    public long labelMicros(double value) {
        if (Double.isNaN(value)) {
            return NAT;
        }
        if (Double.isInfinite(value)) {
            return UNREPRESENTABLE;
        }
        if (value == Math.rint(value) && Math.abs(value) < 0x1p63) {
            return labelMicros((long) value);
        }
        long offset;
        if (referenceNanos == 0) {
            offset = microsPerUnit == 0
                    ? nearest(value / 1000.0, Math.signum(Math.fma(-(value / 1000.0), 1000.0, value)), value)
                    : nearest(
                            value * microsPerUnit,
                            Math.signum(Math.fma(value, microsPerUnit, -(value * microsPerUnit))),
                            value);
        } else {
            offset = exactNearest(value);
        }
        if (offset == UNREPRESENTABLE || Math.abs(offset) >= (1L << 62)) {
            return UNREPRESENTABLE;
        }
        return label(referenceMicros + offset);
    }

    /**
     * The nearest integer to the exact number {@code p + e}, where {@code p} is the double nearest to it and {@code
     * sign} is the sign of the rest {@code e} (an error smaller than half an ulp of {@code p}); {@code value} is the
     * value it is made from, for the exact computation when {@code p} has no fraction bits.
     */
    private long nearest(double p, double sign, double value) {
        if (!(Math.abs(p) < 0x1p52)) {
            return exactNearest(value);
        }
        double floor = Math.floor(p);
        double d = p - floor - 0.5; // exact: a multiple of p's ulp
        boolean up;
        if (d != 0) {
            // |d| is at least an ulp of p, more than the rest can move it.
            up = d > 0;
        } else if (sign != 0) {
            up = sign > 0;
        } else {
            up = !tiesToEven || (((long) floor) & 1) != 0;
        }
        return (long) floor + (up ? 1 : 0);
    }

    /** The exact value of {@code value} units plus the reference's nanoseconds, to the nearest microsecond. */
    private long exactNearest(double value) {
        BigDecimal exact = microsPerUnit == 0
                ? new BigDecimal(value).movePointLeft(3)
                : new BigDecimal(value).multiply(BigDecimal.valueOf(microsPerUnit));
        exact = exact.add(BigDecimal.valueOf(referenceNanos).movePointLeft(3));
        if (exact.abs().compareTo(BigDecimal.valueOf(1L << 62)) >= 0) {
            return UNREPRESENTABLE;
        }
        BigDecimal floor = exact.setScale(0, RoundingMode.FLOOR);
        int half = exact.subtract(floor).compareTo(new BigDecimal("0.5"));
        long f = floor.longValueExact();
        boolean up = half > 0 || (half == 0 && (!tiesToEven || (f & 1) != 0));
        return f + (up ? 1 : 0);
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
