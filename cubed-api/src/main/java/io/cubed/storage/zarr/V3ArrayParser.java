package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reading and checking a Zarr v3 array's {@code zarr.json} object: format and node type, extensions (refused unless
 * {@code "must_understand": false}), shape and regular chunk grid, chunk key encoding, data type and fill value,
 * codecs checked against the chunk shape, no storage transformers, attributes and dimension names.
 */
final class V3ArrayParser {
    private V3ArrayParser() {}

    /**
     * The fields the specification makes mandatory in an array's {@code zarr.json}. None has a default: a missing
     * {@code chunk_key_encoding}, say, could name keys other than the writer's, and the array would read as fill value.
     */
    private static final List<String> REQUIRED = List.of(
            "zarr_format",
            "node_type",
            "shape",
            "data_type",
            "chunk_grid",
            "chunk_key_encoding",
            "fill_value",
            "codecs");

    /** The top-level fields of an array's {@code zarr.json} that Cubed understands: the required ones and three more. */
    private static final Set<String> KNOWN = java.util.stream.Stream.concat(
                    REQUIRED.stream(),
                    java.util.stream.Stream.of("attributes", "storage_transformers", "dimension_names"))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** Parses an already-parsed {@code zarr.json} object of an array (also used for consolidated metadata). */
    static ZarrV3Metadata parse(Map<?, ?> m, String where) {
        // The format and the node type first: a group's document is not an array's with fields missing.
        for (String field : REQUIRED) {
            if (!m.containsKey(field)) {
                throw new StorageException("malformed " + where + ": the required field \"" + field + "\" is missing");
            }
            if (field.equals("zarr_format") && !Long.valueOf(3).equals(m.get(field))) {
                throw new StorageException("unsupported zarr_format " + MetadataDocuments.show(m.get(field)) + " in "
                        + where + ": expected the integer 3");
            }
            if (field.equals("node_type") && !"array".equals(m.get(field))) {
                throw new StorageException(
                        "no Zarr array at " + where + ": node_type is " + MetadataDocuments.show(m.get(field)));
            }
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!KNOWN.contains(String.valueOf(e.getKey())) && !mayIgnore(e.getValue())) {
                throw new StorageException("unsupported extension \"" + e.getKey() + "\" in " + where + ": Cubed does "
                        + "not understand it and it does not say \"must_understand\": false");
            }
        }
        long[] shape = longList(m.get("shape"), "shape", where);
        DType dtype = V3DataTypes.parse(m.get("data_type"), where);
        int[] chunks = chunkShape(m.get("chunk_grid"), shape, where);
        V3ChunkKeyEncoding keys = V3ChunkKeyEncoding.parse(m.get("chunk_key_encoding"), where);
        Scalar fill = V3DataTypes.fillValue(m.get("fill_value"), dtype, where);
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
        List<String> dims = dimensionNames(m.get("dimension_names"), shape.length, where);
        return new ZarrV3Metadata(
                shape,
                chunks,
                dtype,
                fill,
                codecs,
                keys,
                Json.write(attrs == null ? new LinkedHashMap<>() : attrs),
                dims);
    }

    /**
     * The {@code dimension_names} of an array of {@code rank}: null when absent, else a list of one string or null per
     * dimension, as the specification requires.
     */
    private static List<String> dimensionNames(Object dn, int rank, String where) {
        if (dn == null) {
            return null;
        }
        if (!(dn instanceof List) || ((List<?>) dn).size() != rank) {
            throw new StorageException("malformed " + where + ": \"dimension_names\" must be a list of " + rank
                    + " names (strings or null), one per dimension, got " + MetadataDocuments.show(dn));
        }
        List<String> dims = new ArrayList<>();
        for (Object d : (List<?>) dn) {
            if (d != null && !(d instanceof String)) {
                throw new StorageException("malformed " + where + ": \"dimension_names\" " + MetadataDocuments.show(dn)
                        + " holds " + MetadataDocuments.show(d) + ", which is neither a string nor null");
            }
            dims.add((String) d);
        }
        return dims;
    }

    /** The chunk shape of a {@code "regular"} {@code chunk_grid}, checked against {@code shape}. */
    private static int[] chunkShape(Object grid, long[] shape, String where) {
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
        return MetadataDocuments.checkedChunks(shape, chunkLongs, "chunk_shape", where);
    }

    /** True for an extension that the spec lets a reader ignore: an object with {@code "must_understand": false}. */
    static boolean mayIgnore(Object value) {
        return value instanceof Map && Boolean.FALSE.equals(((Map<?, ?>) value).get("must_understand"));
    }

    /** Checks rank-dependent codec parameters (transpose order, sharding inner chunk shape) against the chunk shape. */
    static void checkCodecs(List<V3Codec> codecs, int[] chunks, DType dtype, String where) {
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
                int[] per = V3Codecs.chunksPerShard(s, shape, where);
                // The chains a sharding codec holds, as those of an array (the records themselves do not check them).
                V3Codec.checkOrder(s.codecs(), where + " (sharding codecs)");
                checkCodecs(s.codecs(), s.chunkShapeArray(), dtype, where);
                V3Codec.checkOrder(s.indexCodecs(), where + " (sharding index_codecs)");
                try {
                    V3Codec.checkIndexCodecs(s.indexCodecs());
                } catch (StorageException e) {
                    throw new StorageException("bad sharding codec in " + where + ": " + e.getMessage(), e);
                }
                int[] indexShape = Arrays.copyOf(per, per.length + 1);
                indexShape[per.length] = 2;
                checkCodecs(s.indexCodecs(), indexShape, DType.UINT64, where + " (sharding index_codecs)");
            }
        }
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
}
