package io.cubed.jobs;

import java.util.Locale;

/** Formats byte counts and rates for people (SI units, as Cubed uses). */
final class Sizes {
    private Sizes() {}

    /** {@code bytes} as e.g. {@code "8.4 MB"}. */
    static String format(double bytes) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
        int u = 0;
        while (bytes >= 1000 && u < units.length - 1) {
            bytes /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    }

    /** {@code bytes} moved in {@code nanos} as e.g. {@code "412.0 MB/s"}. */
    static String rate(double bytes, long nanos) {
        return format(bytes / Math.max(1e-9, nanos / 1e9)) + "/s";
    }
}
