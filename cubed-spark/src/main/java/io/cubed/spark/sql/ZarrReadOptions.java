package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.cf.CfOptions;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options of {@code spark.read.format("zarr")}: {@code path}, {@code variables} (comma-separated names; default
 * every data variable), {@code chunksPerPartition} (units per Spark partition; default: as many as reach the target
 * size), {@code maxPartitionBytes} (the target; default {@code spark.sql.files.maxPartitionBytes}), {@code batchRows}
 * (rows per columnar batch, default 4096), the CF decoding ({@code decodeCf}, default true; finer: {@code
 * maskAndScale}, {@code decodeTimes}, {@code zarrFillValueAsMask}, as xarray's arguments), {@code nanAsNull} (NaN of
 * floating columns as SQL NULL, default true), any {@code fs.*} Hadoop file system setting for the store (added to the
 * session's Hadoop configuration), and Cubed's store options ({@code cubed.store.concurrency}: requests in flight per
 * Spark task, {@code cubed.store.s3.client}, …).
 */
record ZarrReadOptions(
        String path,
        List<String> variables,
        int chunksPerPartition,
        long maxPartitionBytes,
        int batchRows,
        CfOptions cf,
        boolean nanAsNull,
        StoreOptions storeOptions)
        implements Serializable {
    static final String PATH = "path";
    static final String VARIABLES = "variables";
    static final String CHUNKS_PER_PARTITION = "chunksPerPartition";
    static final String MAX_PARTITION_BYTES = "maxPartitionBytes";
    static final String BATCH_ROWS = "batchRows";
    static final String DECODE_CF = "decodeCf";
    static final String MASK_AND_SCALE = "maskAndScale";
    static final String DECODE_TIMES = "decodeTimes";
    static final String ZARR_FILL_VALUE_AS_MASK = "zarrFillValueAsMask";
    static final String NAN_AS_NULL = "nanAsNull";

    /** The id of arrays registered by {@link ArrayFrames#toDataFrame}, or null for a stored array or group. */
    static String registeredId(Map<String, String> options) {
        return get(options, ArrayFrames.DATASET_OPTION);
    }

    /** Parses {@code options} (case-insensitive keys, as Spark passes them) over the session's store options. */
    static ZarrReadOptions parse(Map<String, String> options, StoreOptions session, long defaultMaxPartitionBytes) {
        String path = get(options, PATH);
        if ((path == null || path.isBlank()) && get(options, ArrayFrames.DATASET_OPTION) == null) {
            throw new InvalidArgumentException(
                    "zarr data source: no path; use spark.read.format(\"zarr\").load(\"URI of a Zarr array or group\")");
        }
        List<String> variables = null;
        String v = get(options, VARIABLES);
        if (v != null) {
            variables = new ArrayList<>();
            for (String s : v.split(",")) {
                if (!s.isBlank()) {
                    variables.add(s.trim());
                }
            }
            if (variables.isEmpty()) {
                throw new InvalidArgumentException("zarr data source: the option variables='" + v
                        + "' names no variable; give comma-separated names, e.g. variables=t2m,tp");
            }
        }
        int chunks = positiveInt(options, CHUNKS_PER_PARTITION, 0);
        long maxBytes = defaultMaxPartitionBytes;
        String mb = get(options, MAX_PARTITION_BYTES);
        if (mb != null) {
            try {
                maxBytes = MemorySize.parse(mb).bytes();
            } catch (RuntimeException e) {
                throw new InvalidArgumentException(
                        "zarr data source: the option " + MAX_PARTITION_BYTES + "='" + mb
                                + "' is not a size (e.g. 128MB): " + e.getMessage(),
                        e);
            }
            if (maxBytes <= 0) {
                throw new InvalidArgumentException(
                        "zarr data source: the option " + MAX_PARTITION_BYTES + " must be positive, got " + mb);
            }
        }
        int batch = positiveInt(options, BATCH_ROWS, 4096);
        boolean decode = bool(options, DECODE_CF, true);
        CfOptions cf = CfOptions.defaults()
                .withMaskAndScale(bool(options, MASK_AND_SCALE, decode))
                .withDecodeTimes(bool(options, DECODE_TIMES, decode))
                .withZarrFillValueAsMask(
                        get(options, ZARR_FILL_VALUE_AS_MASK) == null
                                ? null
                                : bool(options, ZARR_FILL_VALUE_AS_MASK, true));
        boolean nanAsNull = bool(options, NAN_AS_NULL, true);
        Map<String, String> store = new TreeMap<>(session.asMap());
        options.forEach((k, val) -> {
            String lower = k.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("fs.")) {
                store.put(k, val);
            } else if (lower.startsWith("cubed.store.")) {
                // Spark passes option names in lower case: Cubed's store options are all lower case too.
                store.put(lower, val);
            }
        });
        return new ZarrReadOptions(path, variables, chunks, maxBytes, batch, cf, nanAsNull, StoreOptions.of(store));
    }

    private static String get(Map<String, String> options, String key) {
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    private static boolean bool(Map<String, String> options, String key, boolean dflt) {
        String s = get(options, key);
        if (s == null) {
            return dflt;
        }
        switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new InvalidArgumentException(
                        "zarr data source: the option " + key + " must be true or false, got '" + s + "'");
        }
    }

    private static int positiveInt(Map<String, String> options, String key, int dflt) {
        String s = get(options, key);
        if (s == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(s.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidArgumentException(
                "zarr data source: the option " + key + " must be a whole number of at least 1, got '" + s + "'");
    }
}
