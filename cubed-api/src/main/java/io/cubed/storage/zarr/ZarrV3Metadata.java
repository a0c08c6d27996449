package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The contents of a Zarr v3 array's {@code zarr.json}: shape, data type, regular chunk grid, chunk key encoding, fill
 * value, codecs, attributes and dimension names. Immutable and serializable, so tasks carry it.
 *
 * <p>Unknown top-level fields are refused unless they are objects with {@code "must_understand": false}, as the v3
 * specification says; non-empty {@code storage_transformers} are refused. Parsing and its checks are {@code
 * V3ArrayParser}'s, data type names and fill values {@code V3DataTypes}'s, chunk keys {@code V3ChunkKeyEncoding}'s.
 */
public final class ZarrV3Metadata implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Name of the v3 metadata document of arrays and groups. */
    public static final String ZARR_JSON = "zarr.json";

    private final long[] shape;
    private final int[] chunks;
    private final DType dtype;
    private final Scalar fillValue;
    private final List<V3Codec> codecs;
    private final V3ChunkKeyEncoding keys;
    private final String attributesJson;
    private final List<String> dimensionNames;

    /** The metadata of these parts; {@code attributesJson} is a JSON object, {@code dimensionNames} may be null. */
    ZarrV3Metadata(
            long[] shape,
            int[] chunks,
            DType dtype,
            Scalar fillValue,
            List<V3Codec> codecs,
            V3ChunkKeyEncoding keys,
            String attributesJson,
            List<String> dimensionNames) {
        this.shape = shape.clone();
        this.chunks = chunks.clone();
        this.dtype = dtype;
        this.fillValue = fillValue;
        this.codecs = List.copyOf(codecs);
        this.keys = keys;
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
        Scalar given = fillValue == null ? Scalar.zero() : fillValue;
        try {
            V3Codec.checkOrder(codecs, "new array");
            V3ArrayParser.checkCodecs(codecs, chunks, dtype, "new array");
            // What zarr.json will say must be a fill value of the data type (a readable document), not 200 for int8.
            V3DataTypes.fillValue(V3DataTypes.fillToJson(given, dtype), dtype, "new array");
        } catch (StorageException e) {
            throw new InvalidArgumentException(e.getMessage(), e);
        }
        // And the value itself, not only its JSON: 1.5 or NaN would be written as the integer 1 or 0.
        Scalar fill = FillValues.forNewArray(given, dtype);
        return new ZarrV3Metadata(
                shape, chunks, dtype, fill, codecs, new V3ChunkKeyEncoding(v2KeyEncoding, separator), "{}", null);
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
        return V3ArrayParser.parse(MetadataDocuments.parseObject(json, where), where);
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
        m.put("data_type", V3DataTypes.name(dtype));
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
        m.put("chunk_key_encoding", keys.toJson());
        m.put("fill_value", V3DataTypes.fillToJson(fillValue, dtype));
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
        return new ZarrV3Metadata(shape, chunks, dtype, fillValue, codecs, keys, attributesJson, names);
    }

    /** This metadata with other attributes. */
    ZarrV3Metadata withAttributes(Map<String, ?> attributes) {
        return new ZarrV3Metadata(
                shape,
                chunks,
                dtype,
                fillValue,
                codecs,
                keys,
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
        return keys.isV2();
    }

    /** The chunk key separator, {@code "/"} or {@code "."}. */
    public String separator() {
        return keys.separator();
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
        return keys.key(coords);
    }

    /** True for a key of this array's stored chunks (not {@code zarr.json} nor a key of a node below the array). */
    boolean isChunkKey(String key) {
        return keys.isKey(key, shape.length);
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
                + V3DataTypes.name(dtype) + ", fill_value=" + V3DataTypes.fillToJson(fillValue, dtype) + ", codecs="
                + V3Codec.toJsonList(codecs) + "}";
    }
}
