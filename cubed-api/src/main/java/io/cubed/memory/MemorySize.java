package io.cubed.memory;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A non-negative number of bytes, parsed from strings such as {@code "2GB"}, {@code "500 MB"}, {@code "1.5e9"} or
 * {@code "4GiB"}. As in Cubed, {@code kB}, {@code MB}, {@code GB}, {@code TB} are SI units (powers of 1000); {@code
 * KiB}, {@code MiB}, {@code GiB}, {@code TiB} are powers of 1024. A bare number is bytes.
 */
public final class MemorySize implements Comparable<MemorySize>, Serializable {
    private static final long serialVersionUID = 1L;
    private static final Pattern FORMAT =
            Pattern.compile("\\s*([0-9]+(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)\\s*([a-zA-Z]*)\\s*");

    private final long bytes;

    private MemorySize(long bytes) {
        this.bytes = bytes;
    }

    /** {@code bytes} bytes; negative values are refused. */
    public static MemorySize ofBytes(long bytes) {
        if (bytes < 0) {
            throw new InvalidArgumentException("memory size must not be negative, got " + bytes + " bytes");
        }
        return new MemorySize(bytes);
    }

    /** Parses a size such as {@code "2GB"}; see the class comment for the units. */
    public static MemorySize parse(String text) {
        Matcher m = FORMAT.matcher(text);
        if (!m.matches()) {
            throw new InvalidArgumentException("cannot read memory size '" + text + "': expected a number with an "
                    + "optional unit (B, kB, MB, GB, TB, KiB, MiB, GiB, TiB), e.g. \"2GB\"");
        }
        long unit = unit(m.group(2), text);
        BigDecimal value = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        if (value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new InvalidArgumentException("memory size '" + text + "' is too large");
        }
        return new MemorySize(value.longValue());
    }

    private static long unit(String u, String text) {
        switch (u.toLowerCase(Locale.ROOT)) {
            case "":
            case "b":
                return 1;
            case "k":
            case "kb":
                return 1000L;
            case "m":
            case "mb":
                return 1000L * 1000;
            case "g":
            case "gb":
                return 1000L * 1000 * 1000;
            case "t":
            case "tb":
                return 1000L * 1000 * 1000 * 1000;
            case "kib":
                return 1L << 10;
            case "mib":
                return 1L << 20;
            case "gib":
                return 1L << 30;
            case "tib":
                return 1L << 40;
            default:
                throw new InvalidArgumentException("unknown unit '" + u + "' in memory size '" + text + "'; expected "
                        + "B, kB, MB, GB, TB, KiB, MiB, GiB or TiB");
        }
    }

    public long bytes() {
        return bytes;
    }

    /** {@code bytes} as a short SI string, e.g. {@code "2.0 GB"}, {@code "310.5 MB"}, {@code "89 bytes"}. */
    public static String format(long bytes) {
        if (bytes < 1000) {
            return bytes + " bytes";
        }
        String[] units = {"kB", "MB", "GB", "TB", "PB", "EB"};
        double v = bytes;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    @Override
    public int compareTo(MemorySize o) {
        return Long.compare(bytes, o.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemorySize && ((MemorySize) o).bytes == bytes;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bytes);
    }

    @Override
    public String toString() {
        return format(bytes);
    }
}
