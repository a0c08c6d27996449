package io.cubed.jobs.sql;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The formats {@code cubed sql --output} writes: the Spark data source each one names, the writer options it starts
 * from ({@code --option KEY=VALUE} overrides them), and whether it is one of Spark's own file formats (always able to
 * write, and counting the rows it writes) or a data source whose write support is checked before the query runs.
 */
enum OutputFormat {
    CSV("csv", Map.of("header", "true"), true),
    PARQUET("parquet", Map.of(), true),
    JSON("json", Map.of(), true),
    ZARR("zarr", Map.of(), false);

    private final String source;
    private final Map<String, String> defaults;
    private final boolean sparkFileFormat;

    OutputFormat(String source, Map<String, String> defaults, boolean sparkFileFormat) {
        this.source = source;
        this.defaults = defaults;
        this.sparkFileFormat = sparkFileFormat;
    }

    /** The name of the Spark data source: {@code df.write().format(source())}. */
    String source() {
        return source;
    }

    /** The writer options this format starts from (a header line for CSV). */
    Map<String, String> defaults() {
        return defaults;
    }

    /** True for Spark's own file formats, which every Spark has; false for a data source to check first. */
    boolean sparkFileFormat() {
        return sparkFileFormat;
    }

    /** The names the command line takes, e.g. "csv, parquet, json or zarr". */
    static String names() {
        String[] n = Arrays.stream(values()).map(f -> f.source).toArray(String[]::new);
        return String.join(", ", Arrays.copyOf(n, n.length - 1)) + " or " + n[n.length - 1];
    }

    /** The format named {@code name} (any case), or an error naming {@code flag}, the value and the formats. */
    static OutputFormat parse(String flag, String name) {
        for (OutputFormat f : values()) {
            if (f.source.equalsIgnoreCase(name.trim())) {
                return f;
            }
        }
        throw new InvalidArgumentException("sql: " + flag + " '" + name + "' must be " + names());
    }

    /** The format a path's suffix names ({@code out.csv}, {@code out.parquet/}, …), or null. */
    static OutputFormat ofSuffix(String path) {
        String p = path;
        while (p.endsWith("/") && p.length() > 1) {
            p = p.substring(0, p.length() - 1);
        }
        int dot = p.lastIndexOf('.');
        if (dot < 0 || dot < p.lastIndexOf('/')) {
            return null;
        }
        String suffix = p.substring(dot + 1).toLowerCase(Locale.ROOT);
        for (OutputFormat f : values()) {
            if (f.source.equals(suffix)) {
                return f;
            }
        }
        return null;
    }
}
