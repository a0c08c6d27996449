package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Compressor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The options of {@code df.write.format("zarr")}: {@code dims} (required: the dimension columns, outermost first),
 * {@code chunks} ({@code dim:size,...}; dimensions not named get a size from {@code chunkBytes}), {@code coords.DIM}
 * (the coordinate values of one dimension, comma-separated, in the order they are stored), {@code zarrFormat} (2 or
 * 3), {@code codec} ({@link Compressor#parseSpec}), {@code fillValue.COLUMN}, {@code partitions} (write tasks), {@code bufferBytes} (the chunks a write task
 * holds open) and any
 * {@code fs.*} / {@code cubed.store.*} setting of the store.
 */
final class ZarrWriteOptions {
    static final String DIMS = "dims";
    static final String CHUNKS = "chunks";
    static final String CHUNK_BYTES = "chunkBytes";
    static final String COORDS = "coords.";
    static final String FORMAT = "zarrFormat";
    static final String CODEC = "codec";
    static final String FILL = "fillValue.";
    static final String PARTITIONS = "partitions";
    static final String BUFFER_BYTES = "bufferBytes";

    /** The default bytes of one chunk of the widest variable when {@code chunks} does not give a dimension's size. */
    static final long DEFAULT_CHUNK_BYTES = 16L << 20;

    /** The default bytes of the chunks a write task holds open at once (at least one chunk of every variable). */
    static final long DEFAULT_BUFFER_BYTES = 256L << 20;

    private static final Set<String> KNOWN = Set.of(
            "path",
            DIMS.toLowerCase(Locale.ROOT),
            CHUNKS.toLowerCase(Locale.ROOT),
            CHUNK_BYTES.toLowerCase(Locale.ROOT),
            FORMAT.toLowerCase(Locale.ROOT),
            CODEC.toLowerCase(Locale.ROOT),
            PARTITIONS.toLowerCase(Locale.ROOT),
            BUFFER_BYTES.toLowerCase(Locale.ROOT));

    final String path;
    final List<String> dims;
    final Map<String, Integer> chunks;
    final long chunkBytes;
    final Map<String, String> coords;
    final int zarrFormat;
    final Compressor codec; // null: uncompressed
    final boolean codecGiven;
    final Map<String, String> fillValues;
    final int partitions; // 0: the DataFrame's partitions
    final long bufferBytes;
    final StoreOptions storeOptions;

    private ZarrWriteOptions(
            String path,
            List<String> dims,
            Map<String, Integer> chunks,
            long chunkBytes,
            Map<String, String> coords,
            int zarrFormat,
            Compressor codec,
            boolean codecGiven,
            Map<String, String> fillValues,
            int partitions,
            long bufferBytes,
            StoreOptions storeOptions) {
        this.path = path;
        this.dims = dims;
        this.chunks = chunks;
        this.chunkBytes = chunkBytes;
        this.coords = coords;
        this.zarrFormat = zarrFormat;
        this.codec = codec;
        this.codecGiven = codecGiven;
        this.fillValues = fillValues;
        this.partitions = partitions;
        this.bufferBytes = bufferBytes;
        this.storeOptions = storeOptions;
    }

    /** True when {@code options} are a write's: they name the dimension columns, which no read takes. */
    static boolean isWrite(Map<String, String> options) {
        return get(options, DIMS) != null;
    }

    /** Parses {@code options} (keys case-insensitive, as Spark passes them) over the session's store options. */
    static ZarrWriteOptions parse(Map<String, String> options, StoreOptions session) {
        String path = get(options, "path");
        if (path == null || path.isBlank()) {
            throw new InvalidArgumentException(
                    "zarr write: no path; use df.write.format(\"zarr\").option(\"dims\", \"time,lat,lon\").save(URI)");
        }
        String d = get(options, DIMS);
        if (d == null || d.isBlank()) {
            throw new InvalidArgumentException("zarr write to " + path
                    + ": the option dims is required: the dimension columns, outermost first, e.g. dims=time,lat,lon");
        }
        List<String> dims = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String s : d.split(",")) {
            String n = s.trim();
            if (n.isEmpty()) {
                throw new InvalidArgumentException("zarr write to " + path + ": dims='" + d + "' has an empty name");
            }
            if (!seen.add(n.toLowerCase(Locale.ROOT))) {
                throw new InvalidArgumentException(
                        "zarr write to " + path + ": dims='" + d + "' names " + n + " twice");
            }
            dims.add(n);
        }
        Map<String, Integer> chunks = new LinkedHashMap<>();
        String c = get(options, CHUNKS);
        if (c != null && !c.isBlank()) {
            for (String part : c.split(",")) {
                String[] kv = part.split(":", -1);
                String dim = kv[0].trim();
                if (kv.length != 2 || dim.isEmpty()) {
                    throw new InvalidArgumentException("zarr write to " + path + ": chunks='" + c + "': '" + part
                            + "' is not DIM:SIZE (e.g. chunks=time:24,lat:181,lon:360)");
                }
                String known = find(dims, dim);
                if (known == null) {
                    throw new InvalidArgumentException("zarr write to " + path + ": chunks='" + c + "' names " + dim
                            + ", which is not one of dims " + dims);
                }
                chunks.put(known, positive(path, CHUNKS + " of " + known, kv[1].trim()));
            }
        }
        long chunkBytes = size(options, path, CHUNK_BYTES, DEFAULT_CHUNK_BYTES);
        long bufferBytes = size(options, path, BUFFER_BYTES, DEFAULT_BUFFER_BYTES);
        int format = 2;
        String f = get(options, FORMAT);
        if (f != null) {
            if (!f.trim().equals("2") && !f.trim().equals("3")) {
                throw new InvalidArgumentException(
                        "zarr write to " + path + ": zarrFormat='" + f + "'; it is 2 (the default) or 3");
            }
            format = Integer.parseInt(f.trim());
        }
        String codecSpec = get(options, CODEC);
        Compressor codec = Compressor.defaultCompressor();
        if (codecSpec != null) {
            try {
                codec = Compressor.parseSpec(codecSpec);
            } catch (InvalidArgumentException e) {
                throw new InvalidArgumentException("zarr write to " + path + ": option " + e.getMessage(), e);
            }
        }
        int partitions = 0;
        String p = get(options, PARTITIONS);
        if (p != null) {
            partitions = positive(path, PARTITIONS, p.trim());
        }
        Map<String, String> coords = new LinkedHashMap<>();
        Map<String, String> fills = new LinkedHashMap<>();
        Map<String, String> store = new TreeMap<>(session.asMap());
        for (Map.Entry<String, String> e : options.entrySet()) {
            String lower = e.getKey().toLowerCase(Locale.ROOT);
            if (lower.startsWith(COORDS)) {
                String dim = find(dims, e.getKey().substring(COORDS.length()));
                if (dim == null) {
                    throw new InvalidArgumentException("zarr write to " + path + ": option " + e.getKey()
                            + " names no dimension; dims are " + dims);
                }
                coords.put(dim, e.getValue());
            } else if (lower.startsWith(FILL.toLowerCase(Locale.ROOT))) {
                fills.put(e.getKey().substring(FILL.length()), e.getValue());
            } else if (lower.startsWith("fs.")) {
                store.put(e.getKey(), e.getValue());
            } else if (lower.startsWith("cubed.store.")) {
                store.put(lower, e.getValue());
            } else if (!KNOWN.contains(lower)) {
                throw new InvalidArgumentException("zarr write to " + path + ": unknown option " + e.getKey()
                        + "; the options are dims, chunks, chunkBytes, coords.DIM, zarrFormat, codec, fillValue.COLUMN,"
                        + " partitions, bufferBytes, fs.* and cubed.store.*");
            }
        }
        return new ZarrWriteOptions(
                path,
                List.copyOf(dims),
                chunks,
                chunkBytes,
                coords,
                format,
                codec,
                codecSpec != null,
                fills,
                partitions,
                bufferBytes,
                StoreOptions.of(store));
    }

    private static long size(Map<String, String> options, String path, String name, long fallback) {
        String cb = get(options, name);
        if (cb == null) {
            return fallback;
        }
        long bytes;
        try {
            bytes = MemorySize.parse(cb).bytes();
        } catch (RuntimeException e) {
            throw new InvalidArgumentException(
                    "zarr write to " + path + ": " + name + "='" + cb + "' is not a size (e.g. 16MB)", e);
        }
        if (bytes <= 0) {
            throw new InvalidArgumentException("zarr write to " + path + ": " + name + " must be positive: " + cb);
        }
        return bytes;
    }

    private static String find(List<String> names, String name) {
        for (String n : names) {
            if (n.equalsIgnoreCase(name.trim())) {
                return n;
            }
        }
        return null;
    }

    private static int positive(String path, String what, String value) {
        try {
            int v = Integer.parseInt(value);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidArgumentException(
                "zarr write to " + path + ": " + what + " must be a positive integer, got '" + value + "'");
    }

    static String get(Map<String, String> options, String key) {
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                return e.getValue();
            }
        }
        return null;
    }
}
