package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The contents of a Zarr v3 array's {@code zarr.json}: shape, data type, regular chunk grid, chunk key encoding, fill
 * value, codecs, attributes and dimension names. Immutable and serializable, so tasks carry it.
 *
 * <p>Unknown top-level fields are refused unless they are objects with {@code "must_understand": false}, as the v3
 * specification says; non-empty {@code storage_transformers} are refused.
 */
public final class ZarrV3Metadata implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Name of the v3 metadata document of arrays and groups. */
    public static final String ZARR_JSON = "zarr.json";

    private static final Set<String> KNOWN = Set.of(
            "zarr_format",
            "node_type",
            "shape",
            "data_type",
            "chunk_grid",
            "chunk_key_encoding",
            "fill_value",
            "codecs",
            "attributes",
            "storage_transformers",
            "dimension_names");

    private final long[] shape;
    private final int[] chunks;
    private final DType dtype;
    private final Scalar fillValue;
    private final List<V3Codec> codecs;
    private final boolean v2KeyEncoding;
    private final String separator;
    private final String attributesJson;
    private final List<String> dimensionNames;

    private ZarrV3Metadata(
            long[] shape,
            int[] chunks,
            DType dtype,
            Scalar fillValue,
            List<V3Codec> codecs,
            boolean v2KeyEncoding,
            String separator,
            String attributesJson,
            List<String> dimensionNames) {
        this.shape = shape.clone();
        this.chunks = chunks.clone();
        this.dtype = dtype;
        this.fillValue = fillValue;
        this.codecs = List.copyOf(codecs);
        this.v2KeyEncoding = v2KeyEncoding;
        this.separator = separator;
        this.attributesJson = attributesJson;
        this.dimensionNames = dimensionNames == null ? null : new ArrayList<>(dimensionNames);
    }

    /**
     * Metadata for a new array: {@code chunks} is the stored chunk (the shard, when {@code codecs} shard), {@code
     * codecs} the chain, with the {@code default} chunk key encoding and separator {@code "/"}.
     */
    public static ZarrV3Metadata create(
            long[] shape, int[] chunks, DType dtype, Scalar fillValue, List<V3Codec> codecs) {
        return create(shape, chunks, dtype, fillValue, codecs, false, "/");
    }

    /** As {@link #create(long[], int[], DType, Scalar, List)} with a chunk key encoding: v2 style or default. */
    public static ZarrV3Metadata create(
            long[] shape,
            int[] chunks,
            DType dtype,
            Scalar fillValue,
            List<V3Codec> codecs,
            boolean v2KeyEncoding,
            String separator) {
        if (shape.length != chunks.length) {
            throw new InvalidArgumentException(
                    "chunks " + Arrays.toString(chunks) + " must have the rank of shape " + Arrays.toString(shape));
        }
        for (int c : chunks) {
            if (c < 1) {
                throw new InvalidArgumentException("chunks " + Arrays.toString(chunks) + " must be positive");
            }
        }
        if (!".".equals(separator) && !"/".equals(separator)) {
            throw new InvalidArgumentException("chunk key separator must be \".\" or \"/\", got '" + separator + "'");
        }
        try {
            V3Codec.checkOrder(codecs, "new array");
            checkCodecs(codecs, chunks, dtype, "new array");
        } catch (StorageException e) {
            throw new InvalidArgumentException(e.getMessage(), e);
        }
        return new ZarrV3Metadata(
                shape,
                chunks,
                dtype,
                fillValue == null ? Scalar.zero() : fillValue,
                codecs,
                v2KeyEncoding,
                separator,
                "{}",
                null);
    }

    /** The codecs zarr-python 3 writes by default: little-endian bytes, then zstd level 0. */
    public static List<V3Codec> defaultCodecs() {
        return List.of(new V3Codec.Bytes(false), new V3Codec.Zstd(0, false));
    }

    /**
     * A sharding chain: shards of inner chunks of {@code innerChunks}, each encoded with little-endian bytes then
     * {@code compressors} (may be empty), and the index (at the end) with bytes and crc32c, as zarr-python 3 writes.
     */
    public static List<V3Codec> sharding(int[] innerChunks, List<V3Codec> compressors) {
        List<V3Codec> inner = new ArrayList<>();
        inner.add(new V3Codec.Bytes(false));
        inner.addAll(compressors);
        List<Integer> shape = new ArrayList<>();
        for (int c : innerChunks) {
            shape.add(c);
        }
        return List.of(
                new V3Codec.Sharding(shape, inner, List.of(new V3Codec.Bytes(false), new V3Codec.Crc32c()), true));
    }

    /** Parses the {@code zarr.json} of an array; {@code where} (its URL) goes into every error. */
    public static ZarrV3Metadata parse(byte[] json, String where) {
        Map<?, ?> m = parseObject(json, where);
        return parse(m, where);
    }

    static Map<?, ?> parseObject(byte[] json, String where) {
        Object root;
        try {
            root = Json.parse(json);
        } catch (Json.JsonException e) {
            throw new StorageException("malformed JSON in " + where + ": " + e.getMessage(), e);
        }
        if (!(root instanceof Map)) {
            throw new StorageException("malformed " + where + ": expected a JSON object");
        }
        return (Map<?, ?>) root;
    }

    /** Parses an already-parsed {@code zarr.json} object of an array (also used for consolidated metadata). */
    static ZarrV3Metadata parse(Map<?, ?> m, String where) {
        if (!Long.valueOf(3).equals(m.get("zarr_format"))) {
            throw new StorageException(
                    "unsupported zarr_format " + m.get("zarr_format") + " in " + where + ": expected 3");
        }
        if (!"array".equals(m.get("node_type"))) {
            throw new StorageException("no Zarr array at " + where + ": node_type is " + m.get("node_type"));
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!KNOWN.contains(String.valueOf(e.getKey())) && !mayIgnore(e.getValue())) {
                throw new StorageException("unsupported extension \"" + e.getKey() + "\" in " + where + ": Cubed does "
                        + "not understand it and it does not say \"must_understand\": false");
            }
        }
        long[] shape = longList(m.get("shape"), "shape", where);
        DType dtype = dataType(m.get("data_type"), where);
        Object grid = m.get("chunk_grid");
        if (!(grid instanceof Map) || !"regular".equals(((Map<?, ?>) grid).get("name"))) {
            throw new StorageException("unsupported chunk_grid " + grid + " in " + where + ": Cubed reads the "
                    + "\"regular\" chunk grid");
        }
        Object conf = ((Map<?, ?>) grid).get("configuration");
        long[] chunkLongs =
                longList(conf instanceof Map ? ((Map<?, ?>) conf).get("chunk_shape") : null, "chunk_shape", where);
        if (chunkLongs.length != shape.length) {
            throw new StorageException("malformed " + where + ": shape " + Arrays.toString(shape) + " and chunk_shape "
                    + Arrays.toString(chunkLongs) + " have different ranks");
        }
        int[] chunks = new int[chunkLongs.length];
        for (int i = 0; i < chunks.length; i++) {
            if (shape[i] < 0 || chunkLongs[i] < 1 || chunkLongs[i] > Integer.MAX_VALUE) {
                throw new StorageException("malformed " + where + ": shape " + Arrays.toString(shape) + " and "
                        + "chunk_shape " + Arrays.toString(chunkLongs) + " must be non-negative and at least 1");
            }
            chunks[i] = (int) chunkLongs[i];
        }
        boolean v2Keys;
        String separator;
        Object cke = m.get("chunk_key_encoding");
        if (cke == null) {
            v2Keys = false;
            separator = "/";
        } else {
            if (!(cke instanceof Map)) {
                throw new StorageException("malformed chunk_key_encoding " + cke + " in " + where);
            }
            Object name = ((Map<?, ?>) cke).get("name");
            if ("default".equals(name)) {
                v2Keys = false;
            } else if ("v2".equals(name)) {
                v2Keys = true;
            } else {
                throw new StorageException("unsupported chunk_key_encoding " + name + " in " + where + ": expected "
                        + "\"default\" or \"v2\"");
            }
            Object kc = ((Map<?, ?>) cke).get("configuration");
            Object sep = kc instanceof Map ? ((Map<?, ?>) kc).get("separator") : null;
            separator = sep == null ? (v2Keys ? "." : "/") : String.valueOf(sep);
            if (!separator.equals(".") && !separator.equals("/")) {
                throw new StorageException("unsupported chunk key separator '" + separator + "' in " + where);
            }
        }
        Scalar fill = fillValue(m.get("fill_value"), dtype, where);
        List<V3Codec> codecs = V3Codec.parseList(m.get("codecs"), dtype.itemSizeBytes(), where);
        checkCodecs(codecs, chunks, dtype, where);
        Object st = m.get("storage_transformers");
        if (st != null && !(st instanceof List && ((List<?>) st).isEmpty())) {
            throw new StorageException("unsupported storage_transformers " + st + " in " + where);
        }
        Object attrs = m.get("attributes");
        if (attrs != null && !(attrs instanceof Map)) {
            throw new StorageException("malformed " + where + ": \"attributes\" must be an object");
        }
        List<String> dims = null;
        Object dn = m.get("dimension_names");
        if (dn instanceof List) {
            dims = new ArrayList<>();
            for (Object d : (List<?>) dn) {
                dims.add(d == null ? null : String.valueOf(d));
            }
        }
        return new ZarrV3Metadata(
                shape,
                chunks,
                dtype,
                fill,
                codecs,
                v2Keys,
                separator,
                Json.write(attrs == null ? new LinkedHashMap<>() : attrs),
                dims);
    }

    /** True for an extension that the spec lets a reader ignore: an object with {@code "must_understand": false}. */
    static boolean mayIgnore(Object value) {
        return value instanceof Map && Boolean.FALSE.equals(((Map<?, ?>) value).get("must_understand"));
    }

    /** Checks rank-dependent codec parameters (transpose order, sharding inner chunk shape) against the chunk shape. */
    private static void checkCodecs(List<V3Codec> codecs, int[] chunks, DType dtype, String where) {
        int[] shape = chunks;
        for (V3Codec c : codecs) {
            if (c instanceof V3Codec.Transpose t) {
                if (t.order().size() != shape.length) {
                    throw new StorageException("transpose order " + t.order() + " in " + where + " does not match "
                            + "the array rank " + shape.length);
                }
                int[] o = t.orderArray();
                int[] s = new int[o.length];
                for (int k = 0; k < o.length; k++) {
                    s[k] = shape[o[k]];
                }
                shape = s;
            } else if (c instanceof V3Codec.Sharding s) {
                V3Codecs.chunksPerShard(s, shape, where);
                checkCodecs(s.codecs(), s.chunkShapeArray(), dtype, where);
            }
        }
    }

    private static DType dataType(Object json, String where) {
        if (json instanceof String) {
            switch ((String) json) {
                case "bool":
                    return DType.BOOL;
                case "int8":
                    return DType.INT8;
                case "int16":
                    return DType.INT16;
                case "int32":
                    return DType.INT32;
                case "int64":
                    return DType.INT64;
                case "uint8":
                    return DType.UINT8;
                case "uint16":
                    return DType.UINT16;
                case "uint32":
                    return DType.UINT32;
                case "uint64":
                    return DType.UINT64;
                case "float32":
                    return DType.FLOAT32;
                case "float64":
                    return DType.FLOAT64;
                case "complex64":
                    return DType.COMPLEX64;
                case "complex128":
                    return DType.COMPLEX128;
                default:
                    break;
            }
        }
        throw new StorageException("unsupported data_type " + json + " in " + where + ": Cubed reads bool, int8-64, "
                + "uint8-64, float32/64 and complex64/128");
    }

    /** The v3 name of {@code dtype}, e.g. {@code "float64"}. */
    static String dataTypeName(DType dtype) {
        return dtype.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static Scalar fillValue(Object json, DType dtype, String where) {
        if (json == null) {
            throw new StorageException("malformed " + where + ": fill_value is required in Zarr v3");
        }
        if (dtype == DType.BOOL && !(json instanceof Boolean)) {
            throw new StorageException(
                    "bad fill_value " + json + " for data_type bool in " + where + ": expected " + "true or false");
        }
        switch (dtype.kind()) {
            case FLOAT:
                return Scalar.ofDouble(floatValue(json, dtype.itemSizeBytes(), dtype, where));
            case COMPLEX:
                if (!(json instanceof List) || ((List<?>) json).size() != 2) {
                    throw new StorageException("bad fill_value " + json + " for data_type " + dataTypeName(dtype)
                            + " in " + where + ": expected [real, imaginary]");
                }
                List<?> l = (List<?>) json;
                int half = dtype.itemSizeBytes() / 2;
                return Scalar.ofComplex(
                        floatValue(l.get(0), half, dtype, where), floatValue(l.get(1), half, dtype, where));
            case SIGNED:
            case UNSIGNED:
                if (!(json instanceof Long || json instanceof BigInteger)) {
                    throw new StorageException("bad fill_value " + json + " for data_type " + dataTypeName(dtype)
                            + " in " + where + ": expected an integer");
                }
                return FillValues.parse(json, dtype, where);
            default:
                return FillValues.parse(json, dtype, where);
        }
    }

    /** A float fill value: a number, "NaN", "Infinity", "-Infinity" or the hex bits ("0x7fc00000"). */
    private static double floatValue(Object json, int size, DType dtype, String where) {
        if (json instanceof String s && s.startsWith("0x")) {
            if (s.length() != 2 + 2 * size) {
                throw new StorageException("bad fill_value " + json + " for data_type " + dataTypeName(dtype) + " in "
                        + where + ": a hex fill value needs " + 2 * size + " hex digits");
            }
            try {
                long bits = Long.parseUnsignedLong(s.substring(2), 16);
                return size == 4 ? Float.intBitsToFloat((int) bits) : Double.longBitsToDouble(bits);
            } catch (NumberFormatException e) {
                throw new StorageException(
                        "bad fill_value " + json + " for data_type " + dataTypeName(dtype) + " in " + where, e);
            }
        }
        if (json instanceof Number || "NaN".equals(json) || "Infinity".equals(json) || "-Infinity".equals(json)) {
            Scalar s = FillValues.parse(json, DType.FLOAT64, where);
            return s.doubleValue();
        }
        throw new StorageException("bad fill_value " + json + " for data_type " + dataTypeName(dtype) + " in " + where
                + ": expected a number, \"NaN\", \"Infinity\", \"-Infinity\" or hex bits such as \"0x7fc00000\"");
    }

    private static long[] longList(Object v, String key, String where) {
        if (!(v instanceof List)) {
            throw new StorageException("malformed " + where + ": \"" + key + "\" must be a list of integers, got " + v);
        }
        List<?> l = (List<?>) v;
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(l.get(i) instanceof Long)) {
                throw new StorageException(
                        "malformed " + where + ": \"" + key + "\" must be a list of integers, got " + v);
            }
            out[i] = (Long) l.get(i);
        }
        return out;
    }

    /** The {@code zarr.json} object (attributes included). */
    Map<String, Object> toJsonMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("zarr_format", 3L);
        m.put("node_type", "array");
        List<Object> s = new ArrayList<>();
        for (long x : shape) {
            s.add(x);
        }
        m.put("shape", s);
        m.put("data_type", dataTypeName(dtype));
        List<Object> c = new ArrayList<>();
        for (int x : chunks) {
            c.add((long) x);
        }
        Map<String, Object> gridConf = new LinkedHashMap<>();
        gridConf.put("chunk_shape", c);
        Map<String, Object> grid = new LinkedHashMap<>();
        grid.put("name", "regular");
        grid.put("configuration", gridConf);
        m.put("chunk_grid", grid);
        Map<String, Object> keyConf = new LinkedHashMap<>();
        keyConf.put("separator", separator);
        Map<String, Object> keys = new LinkedHashMap<>();
        keys.put("name", v2KeyEncoding ? "v2" : "default");
        keys.put("configuration", keyConf);
        m.put("chunk_key_encoding", keys);
        m.put("fill_value", FillValues.toJson(fillValue, dtype));
        m.put("codecs", V3Codec.toJsonList(codecs));
        m.put("attributes", Json.parse(attributesJson));
        if (dimensionNames != null) {
            m.put("dimension_names", new ArrayList<Object>(dimensionNames));
        }
        return m;
    }

    /** The {@code zarr.json} text. */
    public String toJson() {
        return Json.write(toJsonMap());
    }

    /**
     * This metadata with {@code dimension_names} (null removes them); each name may be null (an unnamed dimension), and
     * there must be one per dimension.
     */
    public ZarrV3Metadata withDimensionNames(List<String> names) {
        if (names != null && names.size() != shape.length) {
            throw new InvalidArgumentException("dimension_names " + names + " must name each of the " + shape.length
                    + " dimensions of shape " + Arrays.toString(shape));
        }
        return new ZarrV3Metadata(
                shape, chunks, dtype, fillValue, codecs, v2KeyEncoding, separator, attributesJson, names);
    }

    /** This metadata with other attributes. */
    ZarrV3Metadata withAttributes(Map<String, ?> attributes) {
        return new ZarrV3Metadata(
                shape,
                chunks,
                dtype,
                fillValue,
                codecs,
                v2KeyEncoding,
                separator,
                Json.write(new LinkedHashMap<>(attributes)),
                dimensionNames);
    }

    public long[] shape() {
        return shape.clone();
    }

    /** The stored chunk shape (the shard shape of a sharded array). */
    public int[] chunks() {
        return chunks.clone();
    }

    public DType dtype() {
        return dtype;
    }

    public Scalar fillValue() {
        return fillValue;
    }

    public List<V3Codec> codecs() {
        return codecs;
    }

    /** The attributes. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> attributes() {
        return (Map<String, Object>) Json.parse(attributesJson);
    }

    /** True for the {@code v2} chunk key encoding ({@code 1.0}), false for {@code default} ({@code c/1/0}). */
    public boolean v2KeyEncoding() {
        return v2KeyEncoding;
    }

    /** The chunk key separator, {@code "/"} or {@code "."}. */
    public String separator() {
        return separator;
    }

    /** The dimension names, or null when the array has none. */
    public List<String> dimensionNames() {
        return dimensionNames == null ? null : new ArrayList<>(dimensionNames);
    }

    /** The sharding codec when the chain is exactly one {@code sharding_indexed} codec, else null. */
    public V3Codec.Sharding shardingOnly() {
        return codecs.size() == 1 && codecs.get(0) instanceof V3Codec.Sharding s ? s : null;
    }

    /** The grid of stored chunks (shards when sharded). */
    public ChunkGrid grid() {
        return ChunkGrid.of(shape, chunks);
    }

    /** The store key of the stored chunk at {@code coords}: {@code c/1/0} (default) or {@code 1.0} (v2). */
    public String chunkKey(long... coords) {
        StringBuilder sb = new StringBuilder();
        if (!v2KeyEncoding) {
            sb.append('c');
        }
        if (coords.length == 0) {
            return v2KeyEncoding ? "0" : "c";
        }
        for (int i = 0; i < coords.length; i++) {
            if (i > 0 || !v2KeyEncoding) {
                if (sb.length() > 0) {
                    sb.append(separator);
                }
            }
            sb.append(coords[i]);
        }
        return sb.toString();
    }

    /** Equal when the {@code zarr.json} documents are (attributes and dimension names included). */
    @Override
    public boolean equals(Object o) {
        return o instanceof ZarrV3Metadata m && toJson().equals(m.toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return "ZarrV3Metadata{shape=" + Arrays.toString(shape) + ", chunks=" + Arrays.toString(chunks) + ", dtype="
                + dataTypeName(dtype) + ", fill_value=" + FillValues.toJson(fillValue, dtype) + ", codecs="
                + V3Codec.toJsonList(codecs) + "}";
    }
}
