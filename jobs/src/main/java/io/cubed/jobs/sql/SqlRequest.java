package io.cubed.jobs.sql;

import io.cubed.error.InvalidArgumentException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What {@code cubed sql} was asked, checked: the query, the tables (name to path, in the order given) with the reader
 * options of each, the {@code --conf} settings, the Spark threads, the rows to print and where to write the result.
 * Built from the command line's words by {@link #parse}, which refuses bad input with a message naming the flag and
 * the value, before Spark starts.
 */
record SqlRequest(
        String query,
        Map<String, String> tables,
        Map<String, Map<String, String>> readerOptions,
        Map<String, String> writerOptions,
        Map<String, String> conf,
        int threads,
        int limit,
        Output output) {

    /** Where and how the result is written: {@code --output}, {@code --format}, {@code --mode overwrite}. */
    record Output(String path, OutputFormat format, boolean overwrite) {}

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * Checks and gathers the command line's values: {@code tables} as NAME=PATH, {@code options} as TABLE.KEY=VALUE
     * (one table's reader) or KEY=VALUE (every table's reader and the writer), {@code conf} as KEY=VALUE.
     */
    static SqlRequest parse(
            String query,
            List<String> tables,
            List<String> options,
            List<String> conf,
            int threads,
            int limit,
            String output,
            String format,
            String mode,
            String dims) {
        if (query == null || query.isBlank()) {
            throw new InvalidArgumentException("sql: the query is empty");
        }
        positive("--threads", threads);
        positive("--limit", limit);
        Map<String, String> named = new LinkedHashMap<>();
        for (String t : tables) {
            String[] kv = pair("--table", t, "NAME=PATH", "era=/data/era5.zarr");
            if (!NAME.matcher(kv[0]).matches()) {
                throw new InvalidArgumentException("sql: --table " + t + ": the name '" + kv[0] + "' is not a table"
                        + " name for SQL; use letters, digits and _, starting with a letter or _");
            }
            String clash = find(named, kv[0]);
            if (clash != null) {
                throw new InvalidArgumentException("sql: --table " + t + ": the table '" + clash
                        + "' is given twice (table names are not case-sensitive in SQL)");
            }
            named.put(kv[0], kv[1]);
        }
        Map<String, Map<String, String>> readers = new LinkedHashMap<>();
        named.keySet().forEach(n -> readers.put(n, new TreeMap<>()));
        Map<String, String> general = new TreeMap<>();
        for (String o : options) {
            String[] kv = pair("--option", o, "[TABLE.]KEY=VALUE", "era.variables=t2m");
            int dot = kv[0].indexOf('.');
            String table = dot > 0 ? find(named, kv[0].substring(0, dot)) : null;
            if (table != null && dot < kv[0].length() - 1) {
                readers.get(table).put(kv[0].substring(dot + 1), kv[1]);
            } else {
                general.put(kv[0], kv[1]);
            }
        }
        Map<String, String> settings = new TreeMap<>();
        Map<String, String> storeSettings = new TreeMap<>();
        for (String c : conf) {
            String[] kv = pair("--conf", c, "KEY=VALUE", "fs.s3a.endpoint=http://127.0.0.1:9000");
            settings.put(kv[0], kv[1]);
            if (!kv[0].startsWith("spark.")) {
                storeSettings.put(kv[0], kv[1]);
            }
        }
        // Every reader gets the --conf store settings (fs.*, cubed.store.*), then the general options, then its own.
        for (Map.Entry<String, Map<String, String>> e : readers.entrySet()) {
            Map<String, String> merged = new TreeMap<>(storeSettings);
            merged.putAll(general);
            merged.putAll(e.getValue());
            e.setValue(Collections.unmodifiableMap(merged));
        }
        Output out = output(output, format, mode);
        Map<String, String> writer = out == null ? Map.of() : writerOptions(out.format(), general);
        if (out != null && out.format() == OutputFormat.ZARR) {
            writer = zarrWriterOptions(out.path(), writer, dims);
        } else if (dims != null) {
            throw new InvalidArgumentException("sql: --dims " + dims + " names the dimensions of a Zarr output; give"
                    + " it with --output PATH.zarr (or --format zarr)");
        }
        return new SqlRequest(
                query.strip(),
                Collections.unmodifiableMap(named),
                Collections.unmodifiableMap(readers),
                writer,
                Collections.unmodifiableMap(settings),
                threads,
                limit,
                out);
    }

    private static Output output(String path, String format, String mode) {
        boolean overwrite = false;
        if (mode != null) {
            String m = mode.trim().toLowerCase(Locale.ROOT);
            if (m.equals("overwrite")) {
                overwrite = true;
            } else if (!m.equals("error")) {
                throw new InvalidArgumentException("sql: --mode '" + mode + "' must be error (refuse an existing"
                        + " output, the default) or overwrite (replace it)");
            }
        }
        if (path == null) {
            if (format != null) {
                throw new InvalidArgumentException(
                        "sql: --format " + format + " needs --output PATH, where the result is written");
            }
            if (mode != null) {
                throw new InvalidArgumentException("sql: --mode " + mode + " needs --output PATH");
            }
            return null;
        }
        if (path.isBlank()) {
            throw new InvalidArgumentException("sql: --output is empty; give the path to write the result to");
        }
        OutputFormat f = format != null ? OutputFormat.parse("--format", format) : OutputFormat.ofSuffix(path);
        if (f == null) {
            throw new InvalidArgumentException("sql: --output " + path + ": give --format " + OutputFormat.names()
                    + " (the path's suffix names none)");
        }
        return new Output(path, f, overwrite);
    }

    private static Map<String, String> writerOptions(OutputFormat format, Map<String, String> general) {
        Map<String, String> w = new TreeMap<>(format.defaults());
        w.putAll(general);
        return Collections.unmodifiableMap(w);
    }

    /**
     * The options of a Zarr output: {@code --dims} (or {@code --option dims=...}), which a Zarr output needs: the
     * result's columns that index the grid, outermost first; every other column becomes a variable.
     */
    private static Map<String, String> zarrWriterOptions(String path, Map<String, String> writer, String dims) {
        String given = null;
        for (Map.Entry<String, String> e : writer.entrySet()) {
            if (e.getKey().equalsIgnoreCase("dims")) {
                given = e.getValue();
            }
        }
        if (dims != null && given != null && !dims.equals(given)) {
            throw new InvalidArgumentException(
                    "sql: --dims " + dims + " and --option dims=" + given + " differ; give" + " one");
        }
        String d = dims != null ? dims : given;
        if (d == null || d.isBlank()) {
            throw new InvalidArgumentException("sql: --output " + path + " is Zarr, which needs the result's dimension"
                    + " columns: give --dims, outermost first (e.g. --dims time,lat,lon); every other column becomes"
                    + " a variable over them");
        }
        Map<String, String> w = new TreeMap<>(writer);
        w.keySet().removeIf(k -> k.equalsIgnoreCase("dims"));
        w.put("dims", d);
        return Collections.unmodifiableMap(w);
    }

    /** The name in {@code names} equal to {@code name} but for case, or null. */
    private static String find(Map<String, String> names, String name) {
        for (String n : names.keySet()) {
            if (n.equalsIgnoreCase(name)) {
                return n;
            }
        }
        return null;
    }

    private static String[] pair(String flag, String value, String form, String example) {
        int eq = value.indexOf('=');
        // Only a table's path cannot be empty: an option may be set to "" (CSV's nullValue=, say).
        boolean noValue = flag.equals("--table") && value.substring(eq + 1).isBlank();
        if (eq <= 0 || noValue || value.substring(0, eq).isBlank()) {
            throw new InvalidArgumentException(
                    "sql: " + flag + " '" + value + "' must be " + form + ", e.g. " + flag + " " + example);
        }
        return new String[] {value.substring(0, eq).trim(), value.substring(eq + 1)};
    }

    private static void positive(String flag, int value) {
        if (value < 1) {
            throw new InvalidArgumentException("sql: " + flag + " must be a positive whole number, got " + value);
        }
    }
}
