package io.cubed.storage.zarr;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One entry of a Zarr v3 {@code codecs} list: {@code transpose} (array to array), {@code bytes} and {@code
 * sharding_indexed} (array to bytes), {@code gzip}, {@code zstd}, {@code blosc} and {@code crc32c} (bytes to bytes).
 * {@link V3Codecs} runs a list of them.
 */
public sealed interface V3Codec extends Serializable
        permits V3Codec.Transpose,
                V3Codec.Bytes,
                V3Codec.Sharding,
                V3Codec.Gzip,
                V3Codec.Zstd,
                V3Codec.Blosc,
                V3Codec.Crc32c {

    /** Where a codec sits in the chain. */
    enum Kind {
        ARRAY_TO_ARRAY,
        ARRAY_TO_BYTES,
        BYTES_TO_BYTES
    }

    Kind kind();

    /** The JSON form, {@code {"name": ..., "configuration": {...}}}. */
    Map<String, Object> toJson();

    /** {@code transpose}: stored axis {@code i} is array axis {@code order.get(i)}. */
    record Transpose(List<Integer> order) implements V3Codec {
        public Transpose {
            order = List.copyOf(order);
            boolean[] seen = new boolean[order.size()];
            for (int a : order) {
                if (a < 0 || a >= seen.length || seen[a]) {
                    throw new InvalidArgumentException(
                            "transpose order " + order + " is not a permutation of 0.." + (seen.length - 1));
                }
                seen[a] = true;
            }
        }

        int[] orderArray() {
            return order.stream().mapToInt(Integer::intValue).toArray();
        }

        @Override
        public Kind kind() {
            return Kind.ARRAY_TO_ARRAY;
        }

        @Override
        public Map<String, Object> toJson() {
            List<Object> o = new ArrayList<>();
            for (int a : order) {
                o.add((long) a);
            }
            return named("transpose", "order", o);
        }
    }

    /** {@code bytes}: the elements in C order, little- or big-endian (no endian for one-byte types). */
    record Bytes(boolean bigEndian) implements V3Codec {
        @Override
        public Kind kind() {
            return Kind.ARRAY_TO_BYTES;
        }

        @Override
        public Map<String, Object> toJson() {
            return named("bytes", "endian", bigEndian ? "big" : "little");
        }

        /** The byte order of the elements. */
        public java.nio.ByteOrder byteOrder() {
            return bigEndian ? java.nio.ByteOrder.BIG_ENDIAN : java.nio.ByteOrder.LITTLE_ENDIAN;
        }
    }

    /**
     * {@code sharding_indexed}: a stored chunk (a shard) holds a grid of inner chunks of {@code chunkShape}, each encoded
     * with {@code codecs}, and an index of (offset, nbytes) pairs encoded with {@code indexCodecs}, at the end of the
     * shard or at its start.
     */
    record Sharding(List<Integer> chunkShape, List<V3Codec> codecs, List<V3Codec> indexCodecs, boolean indexAtEnd)
            implements V3Codec {
        public Sharding {
            chunkShape = List.copyOf(chunkShape);
            codecs = List.copyOf(codecs);
            indexCodecs = List.copyOf(indexCodecs);
            for (int c : chunkShape) {
                if (c < 1) {
                    throw new InvalidArgumentException(
                            "sharding inner chunk_shape " + chunkShape + " must be positive");
                }
            }
        }

        int[] chunkShapeArray() {
            return chunkShape.stream().mapToInt(Integer::intValue).toArray();
        }

        @Override
        public Kind kind() {
            return Kind.ARRAY_TO_BYTES;
        }

        @Override
        public Map<String, Object> toJson() {
            Map<String, Object> conf = new LinkedHashMap<>();
            List<Object> shape = new ArrayList<>();
            for (int c : chunkShape) {
                shape.add((long) c);
            }
            conf.put("chunk_shape", shape);
            conf.put("codecs", toJsonList(codecs));
            conf.put("index_codecs", toJsonList(indexCodecs));
            conf.put("index_location", indexAtEnd ? "end" : "start");
            return withConf("sharding_indexed", conf);
        }
    }

    /** {@code gzip} at {@code level} 0-9. */
    record Gzip(int level) implements V3Codec {
        public Gzip {
            range("gzip level", level, 0, 9);
        }

        @Override
        public Kind kind() {
            return Kind.BYTES_TO_BYTES;
        }

        @Override
        public Map<String, Object> toJson() {
            return named("gzip", "level", (long) level);
        }
    }

    /** {@code zstd} at {@code level}, with or without a content checksum. */
    record Zstd(int level, boolean checksum) implements V3Codec {
        public Zstd {
            range("zstd level", level, -131072, 22);
        }

        @Override
        public Kind kind() {
            return Kind.BYTES_TO_BYTES;
        }

        @Override
        public Map<String, Object> toJson() {
            Map<String, Object> conf = new LinkedHashMap<>();
            conf.put("level", (long) level);
            conf.put("checksum", checksum);
            return withConf("zstd", conf);
        }
    }

    /** {@code blosc} with its v3 configuration; {@code typesize} matters only when shuffling. */
    record Blosc(BloscCname cname, int clevel, BloscShuffle shuffle, int typesize, int blocksize) implements V3Codec {
        public Blosc {
            range("blosc clevel", clevel, 0, 9);
            range("blosc typesize", typesize, 1, 255);
            range("blosc blocksize", blocksize, 0, Integer.MAX_VALUE);
            if (shuffle == BloscShuffle.AUTOSHUFFLE) {
                throw new InvalidArgumentException("blosc shuffle must be noshuffle, shuffle or bitshuffle in Zarr v3");
            }
        }

        @Override
        public Kind kind() {
            return Kind.BYTES_TO_BYTES;
        }

        @Override
        public Map<String, Object> toJson() {
            Map<String, Object> conf = new LinkedHashMap<>();
            conf.put("cname", cname.jsonName());
            conf.put("clevel", (long) clevel);
            conf.put("shuffle", shuffle.name().toLowerCase(Locale.ROOT));
            conf.put("typesize", (long) typesize);
            conf.put("blocksize", (long) blocksize);
            return withConf("blosc", conf);
        }
    }

    /** {@code crc32c}: appends the CRC-32C of the bytes, little-endian; checked on read. */
    record Crc32c() implements V3Codec {
        @Override
        public Kind kind() {
            return Kind.BYTES_TO_BYTES;
        }

        @Override
        public Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", "crc32c");
            return m;
        }
    }

    /** The JSON list of {@code codecs}. */
    static List<Object> toJsonList(List<V3Codec> codecs) {
        List<Object> l = new ArrayList<>();
        for (V3Codec c : codecs) {
            l.add(c.toJson());
        }
        return l;
    }

    /**
     * Parses a {@code codecs} list and checks its order (array-to-array codecs, exactly one array-to-bytes codec, then
     * bytes-to-bytes codecs); {@code itemSize} is the element size in bytes (for {@code bytes}' endian and blosc's
     * typesize) and {@code where} names the metadata document in errors.
     */
    static List<V3Codec> parseList(Object json, int itemSize, String where) {
        if (!(json instanceof List) || ((List<?>) json).isEmpty()) {
            throw new StorageException("malformed " + where + ": \"codecs\" must be a non-empty list, got " + json);
        }
        List<V3Codec> out = new ArrayList<>();
        for (Object c : (List<?>) json) {
            out.add(parse(c, itemSize, where));
        }
        checkOrder(out, where);
        return out;
    }

    /**
     * Checks that a shard's {@code index_codecs} give an index of a size known in advance, as the specification
     * requires: {@code transpose}, {@code bytes} and {@code crc32c}, no compressor and no sharding.
     */
    static void checkIndexCodecs(List<V3Codec> index) {
        for (V3Codec c : index) {
            if (!(c instanceof Transpose || c instanceof Bytes || c instanceof Crc32c)) {
                throw new StorageException("index_codecs must be transpose, bytes and crc32c (a fixed-size index), "
                        + "got " + c.toJson().get("name"));
            }
        }
    }

    /** Checks that {@code codecs} is array-to-array*, one array-to-bytes, bytes-to-bytes*. */
    static void checkOrder(List<V3Codec> codecs, String where) {
        int stage = 0;
        int arrayToBytes = 0;
        for (V3Codec c : codecs) {
            int s = c.kind().ordinal();
            if (s < stage) {
                throw new StorageException(
                        "bad codecs in " + where + ": " + c.toJson().get("name") + " comes after a "
                                + "codec of a later kind (expected array-to-array codecs, one array-to-bytes codec, then "
                                + "bytes-to-bytes codecs)");
            }
            stage = s;
            if (c.kind() == Kind.ARRAY_TO_BYTES) {
                arrayToBytes++;
            }
        }
        if (arrayToBytes != 1) {
            throw new StorageException(
                    "bad codecs in " + where + ": expected exactly one array-to-bytes codec (bytes or "
                            + "sharding_indexed), found " + arrayToBytes);
        }
    }

    private static V3Codec parse(Object json, int itemSize, String where) {
        String name;
        Map<?, ?> conf;
        if (json instanceof String) {
            name = (String) json;
            conf = Map.of();
        } else if (json instanceof Map && ((Map<?, ?>) json).get("name") instanceof String) {
            Map<?, ?> m = (Map<?, ?>) json;
            name = (String) m.get("name");
            Object c = m.get("configuration");
            if (c != null && !(c instanceof Map)) {
                throw new StorageException(
                        "malformed codec " + json + " in " + where + ": \"configuration\" must be an object");
            }
            conf = c == null ? Map.of() : (Map<?, ?>) c;
        } else {
            throw new StorageException("malformed codec " + json + " in " + where + ": expected {\"name\": ..., "
                    + "\"configuration\": {...}}");
        }
        try {
            switch (name) {
                case "transpose":
                    Object order = conf.get("order");
                    if (!(order instanceof List)) {
                        throw new StorageException("transpose needs an \"order\" list, got " + order);
                    }
                    List<Integer> o = new ArrayList<>();
                    for (Object x : (List<?>) order) {
                        o.add(toInt(x, "transpose order"));
                    }
                    return new Transpose(o);
                case "bytes":
                    Object endian = conf.get("endian");
                    if (endian == null) {
                        if (itemSize > 1) {
                            throw new StorageException("bytes needs \"endian\" for " + itemSize + "-byte elements");
                        }
                        return new Bytes(false);
                    }
                    if (!"little".equals(endian) && !"big".equals(endian)) {
                        throw new StorageException("bytes \"endian\" must be \"little\" or \"big\", got " + endian);
                    }
                    return new Bytes("big".equals(endian));
                case "sharding_indexed":
                    Object shape = conf.get("chunk_shape");
                    if (!(shape instanceof List)) {
                        throw new StorageException("sharding_indexed needs a \"chunk_shape\" list, got " + shape);
                    }
                    List<Integer> cs = new ArrayList<>();
                    for (Object x : (List<?>) shape) {
                        cs.add(toInt(x, "sharding chunk_shape"));
                    }
                    Object loc = conf.get("index_location");
                    if (loc != null && !"end".equals(loc) && !"start".equals(loc)) {
                        throw new StorageException("index_location must be \"start\" or \"end\", got " + loc);
                    }
                    List<V3Codec> inner = parseList(conf.get("codecs"), itemSize, where + " (sharding codecs)");
                    Object ic = conf.get("index_codecs");
                    List<V3Codec> index = parseList(ic, 8, where + " (sharding index_codecs)");
                    checkIndexCodecs(index);
                    return new Sharding(cs, inner, index, loc == null || "end".equals(loc));
                case "gzip":
                    return new Gzip(toInt(conf.get("level"), "gzip level"));
                case "zstd":
                    Object level = conf.get("level");
                    return new Zstd(
                            level == null ? 0 : toInt(level, "zstd level"), Boolean.TRUE.equals(conf.get("checksum")));
                case "blosc":
                    Object cname = conf.get("cname");
                    Object shuffle = conf.get("shuffle");
                    BloscShuffle sh = shuffle == null
                            ? (itemSize > 1 ? BloscShuffle.SHUFFLE : BloscShuffle.BITSHUFFLE)
                            : BloscShuffle.valueOf(String.valueOf(shuffle).toUpperCase(Locale.ROOT));
                    Object typesize = conf.get("typesize");
                    Object blocksize = conf.get("blocksize");
                    return new Blosc(
                            BloscCname.fromJsonName(cname == null ? "zstd" : String.valueOf(cname)),
                            conf.get("clevel") == null ? 5 : toInt(conf.get("clevel"), "blosc clevel"),
                            sh,
                            typesize == null ? Math.max(1, itemSize) : toInt(typesize, "blosc typesize"),
                            blocksize == null ? 0 : toInt(blocksize, "blosc blocksize"));
                case "crc32c":
                    return new Crc32c();
                default:
                    throw new StorageException("unknown codec '" + name + "' in " + where + ": Cubed reads transpose, "
                            + "bytes, sharding_indexed, gzip, zstd, blosc and crc32c");
            }
        } catch (InvalidArgumentException | IllegalArgumentException e) {
            throw new StorageException("bad codec " + json + " in " + where + ": " + e.getMessage(), e);
        } catch (StorageException e) {
            if (e.getMessage().contains(where)) {
                throw e;
            }
            throw new StorageException("bad codec " + json + " in " + where + ": " + e.getMessage(), e);
        }
    }

    private static int toInt(Object x, String what) {
        if (!(x instanceof Long) || (Long) x < Integer.MIN_VALUE || (Long) x > Integer.MAX_VALUE) {
            throw new StorageException(what + " must be an integer, got " + x);
        }
        return (int) (long) (Long) x;
    }

    private static void range(String what, int v, int min, int max) {
        if (v < min || v > max) {
            throw new InvalidArgumentException(what + " must be in [" + min + ", " + max + "], got " + v);
        }
    }

    private static Map<String, Object> named(String name, String key, Object value) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put(key, value);
        return withConf(name, conf);
    }

    private static Map<String, Object> withConf(String name, Map<String, Object> conf) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("configuration", conf);
        return m;
    }
}
