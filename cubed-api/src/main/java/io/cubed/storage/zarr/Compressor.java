package io.cubed.storage.zarr;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscCodec;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import io.cubed.storage.zarr.codec.Codec;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The compressor of a Zarr v2 array, as its numcodecs configuration: the {@code "compressor"} object of {@code
 * .zarray}. Each variant validates its parameters and makes the {@link Codec} that does the work.
 */
public sealed interface Compressor extends Serializable
        permits Compressor.Zlib, Compressor.Gzip, Compressor.Zstd, Compressor.Lz4, Compressor.Bz2, Compressor.Blosc {

    CodecId id();

    /** The codec for chunks whose elements are {@code typeSizeBytes} bytes wide (Blosc shuffles by element). */
    Codec codec(int typeSizeBytes);

    /**
     * Checks, once per compressor and JVM, that this JVM can run the codec (its library, e.g. zstd-jni or lz4-java,
     * is on the class path and loads): a round trip of a few bytes; called before an array's metadata is written, so
     * that a codec that cannot run leaves nothing behind. {@code url} names the array in the error.
     */
    default void requireUsable(String url) {
        if (UsableCodecs.CHECKED.contains(this)) {
            return;
        }
        try {
            Codec c = codec(8);
            byte[] probe = new byte[256];
            byte[] back = c.decode(c.encode(probe), probe.length);
            if (!java.util.Arrays.equals(back, probe)) {
                throw new StorageException("the " + id().jsonId() + " codec does not round-trip in this JVM");
            }
        } catch (LinkageError e) {
            throw new StorageException(
                    "cannot write " + url + " with the " + id().jsonId() + " codec: its library"
                            + " cannot be loaded in this JVM (" + e
                            + "); run with bin/cubed or spark-submit, or add the"
                            + " codec's jar (zstd-jni, lz4-java) to the class path",
                    e);
        }
        UsableCodecs.CHECKED.add(this);
    }

    /** The numcodecs configuration, e.g. {@code {"id": "zlib", "level": 1}}. */
    Map<String, Object> toJson();

    /**
     * The compressor Cubed writes new arrays with unless told otherwise: Blosc with LZ4 and byte shuffle at level 5,
     * zarr-python 2's own default, which zarr-python 2 and 3 read and which decodes fastest (see docs/zarr.md).
     */
    static Compressor defaultCompressor() {
        return new Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0);
    }

    /** zlib at {@code level} 0-9. */
    record Zlib(int level) implements Compressor {
        public Zlib {
            checkRange("zlib level", level, 0, 9);
        }

        @Override
        public CodecId id() {
            return CodecId.ZLIB;
        }

        @Override
        public Codec codec(int typeSizeBytes) {
            return new SimpleCodecs.ZlibCodec(level);
        }

        @Override
        public Map<String, Object> toJson() {
            return json(CodecId.ZLIB, "level", level);
        }
    }

    /** gzip at {@code level} 0-9. */
    record Gzip(int level) implements Compressor {
        public Gzip {
            checkRange("gzip level", level, 0, 9);
        }

        @Override
        public CodecId id() {
            return CodecId.GZIP;
        }

        @Override
        public Codec codec(int typeSizeBytes) {
            return new SimpleCodecs.GzipCodec(level);
        }

        @Override
        public Map<String, Object> toJson() {
            return json(CodecId.GZIP, "level", level);
        }
    }

    /** Zstandard at {@code level} (-131072 to 22), optionally with a content checksum. */
    record Zstd(int level, boolean checksum) implements Compressor {
        public Zstd {
            checkRange("zstd level", level, -131072, 22);
        }

        @Override
        public CodecId id() {
            return CodecId.ZSTD;
        }

        @Override
        public Codec codec(int typeSizeBytes) {
            return new SimpleCodecs.ZstdCodec(level, checksum);
        }

        @Override
        public Map<String, Object> toJson() {
            Map<String, Object> m = json(CodecId.ZSTD, "level", level);
            if (checksum) {
                m.put("checksum", true);
            }
            return m;
        }
    }

    /**
     * LZ4 in numcodecs framing at {@code acceleration} (at least 1; higher is faster and compresses a little less, and
     * every reader decodes alike), as numcodecs writes it ({@link io.cubed.storage.zarr.codec.Lz4Blocks}).
     */
    record Lz4(int acceleration) implements Compressor {
        public Lz4 {
            checkRange("lz4 acceleration", acceleration, 1, Integer.MAX_VALUE);
        }

        @Override
        public CodecId id() {
            return CodecId.LZ4;
        }

        @Override
        public Codec codec(int typeSizeBytes) {
            return new SimpleCodecs.Lz4Codec(acceleration);
        }

        @Override
        public Map<String, Object> toJson() {
            return json(CodecId.LZ4, "acceleration", acceleration);
        }
    }

    /** bzip2 at {@code level} 1-9. */
    record Bz2(int level) implements Compressor {
        public Bz2 {
            checkRange("bz2 level", level, 1, 9);
        }

        @Override
        public CodecId id() {
            return CodecId.BZ2;
        }

        @Override
        public Codec codec(int typeSizeBytes) {
            return new SimpleCodecs.Bz2Codec(level);
        }

        @Override
        public Map<String, Object> toJson() {
            return json(CodecId.BZ2, "level", level);
        }
    }

    /** Blosc 1 with internal codec {@code cname}, {@code clevel} 0-9, a shuffle, and {@code blocksize} bytes (0: auto). */
    record Blosc(BloscCname cname, int clevel, BloscShuffle shuffle, int blocksize) implements Compressor {
        public Blosc {
            checkRange("blosc clevel", clevel, 0, 9);
            checkRange("blosc blocksize", blocksize, 0, Integer.MAX_VALUE);
        }

        @Override
        public CodecId id() {
            return CodecId.BLOSC;
        }

        @Override
        public Codec codec(int typeSizeBytes) {
            return new BloscCodec(cname, clevel, shuffle, blocksize, typeSizeBytes);
        }

        @Override
        public Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", CodecId.BLOSC.jsonId());
            m.put("cname", cname.jsonName());
            m.put("clevel", clevel);
            m.put("shuffle", shuffle.code());
            m.put("blocksize", blocksize);
            return m;
        }

        // equals and hashCode written out: the record's generated ones spin about 60 method-handle classes at their
        // first call, in every command that writes Blosc (docs/cloud.md, "Start-up").
        @Override
        public boolean equals(Object o) {
            return o instanceof Blosc b
                    && b.cname == cname
                    && b.clevel == clevel
                    && b.shuffle == shuffle
                    && b.blocksize == blocksize;
        }

        @Override
        public int hashCode() {
            return ((cname.hashCode() * 31 + clevel) * 31 + shuffle.hashCode()) * 31 + blocksize;
        }
    }

    /**
     * Parses a compact compressor spec as used on command lines and in configuration: {@code none}, {@code
     * zlib[:LEVEL]}, {@code gzip[:LEVEL]}, {@code zstd[:LEVEL]}, {@code lz4[:ACCELERATION]}, {@code bz2[:LEVEL]}, or
     * {@code blosc[:CNAME[:CLEVEL[:SHUFFLE]]]} with SHUFFLE {@code noshuffle} (or 0), {@code shuffle} (1), {@code
     * bitshuffle} (2) or {@code autoshuffle} (-1), numcodecs' names and codes; returns {@code null} for {@code none}.
     * A bad spec is an {@link InvalidArgumentException} that names the part at fault and the values allowed.
     */
    public static Compressor parseSpec(String spec) {
        String[] p = spec.trim().toLowerCase(java.util.Locale.ROOT).split(":", -1);
        String name = p[0];
        int max = name.equals("blosc") ? 4 : name.equals("none") ? 1 : 2;
        if (p.length > max) {
            throw new InvalidArgumentException("codec '" + spec + "' has " + (p.length - 1) + " parameters but " + name
                    + " takes " + (max - 1) + (name.equals("blosc") ? " (blosc:CNAME:CLEVEL:SHUFFLE)" : ""));
        }
        try {
            switch (name) {
                case "none":
                    return null;
                case "zlib":
                    return new Zlib(intPart(spec, p, 1, "level", 1, 0, 9));
                case "gzip":
                    return new Gzip(intPart(spec, p, 1, "level", 1, 0, 9));
                case "zstd":
                    return new Zstd(intPart(spec, p, 1, "level", 1, -131072, 22), false);
                case "lz4":
                    return new Lz4(intPart(spec, p, 1, "acceleration", 1, 1, Integer.MAX_VALUE));
                case "bz2":
                    return new Bz2(intPart(spec, p, 1, "level", 1, 1, 9));
                case "blosc":
                    return new Blosc(
                            bloscCname(spec, p), intPart(spec, p, 2, "clevel", 5, 0, 9), bloscShuffle(spec, p), 0);
                default:
                    break;
            }
        } catch (StorageException e) {
            throw new InvalidArgumentException("codec '" + spec + "': " + e.getMessage(), e);
        }
        throw new InvalidArgumentException("unknown codec '" + name + "' in '" + spec + "'; expected none, "
                + "zlib[:LEVEL], gzip[:LEVEL], zstd[:LEVEL], lz4[:ACCELERATION], bz2[:LEVEL] or"
                + " blosc[:CNAME[:CLEVEL[:SHUFFLE]]]");
    }

    /** Part {@code i} of a spec as a whole number within {@code [min, max]}, {@code absent} when not given. */
    private static int intPart(String spec, String[] p, int i, String what, int absent, int min, int max) {
        if (p.length <= i || p[i].isEmpty()) {
            return absent;
        }
        String range = max == Integer.MAX_VALUE ? "at least " + min : "from " + min + " to " + max;
        int v;
        try {
            v = Integer.parseInt(p[i].trim());
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(
                    "codec '" + spec + "': " + p[0] + " " + what + " '" + p[i] + "' is not a whole number " + range, e);
        }
        if (v < min || v > max) {
            throw new InvalidArgumentException(
                    "codec '" + spec + "': " + p[0] + " " + what + " must be " + range + ", got " + v);
        }
        return v;
    }

    private static BloscCname bloscCname(String spec, String[] p) {
        if (p.length <= 1 || p[1].isEmpty()) {
            return BloscCname.LZ4;
        }
        for (BloscCname c : BloscCname.values()) {
            if (c.jsonName().equals(p[1].trim())) {
                return c;
            }
        }
        throw new InvalidArgumentException("codec '" + spec + "': unknown Blosc compressor '" + p[1]
                + "'; expected blosclz, lz4, lz4hc, zlib or zstd");
    }

    private static BloscShuffle bloscShuffle(String spec, String[] p) {
        if (p.length <= 3 || p[3].isEmpty()) {
            return BloscShuffle.SHUFFLE;
        }
        String s = p[3].trim();
        for (BloscShuffle b : BloscShuffle.values()) {
            if (b.name().toLowerCase(java.util.Locale.ROOT).equals(s)
                    || Integer.toString(b.code()).equals(s)) {
                return b;
            }
        }
        throw new InvalidArgumentException("codec '" + spec + "': unknown Blosc shuffle '" + p[3]
                + "'; expected noshuffle (0), shuffle (1), bitshuffle (2) or autoshuffle (-1)");
    }

    /**
     * Reads a numcodecs configuration; {@code where} (the metadata URL) goes into error messages. Unknown ids and
     * malformed parameters are {@link StorageException}s.
     */
    static Compressor fromJson(Map<?, ?> json, String where) {
        Object id = json.get("id");
        if (!(id instanceof String)) {
            throw new StorageException("compressor in " + where + " has no string \"id\": " + json);
        }
        try {
            switch (CodecId.fromJsonId((String) id)) {
                case ZLIB:
                    return new Zlib(intParam(json, "level", 1, where));
                case GZIP:
                    return new Gzip(intParam(json, "level", 1, where));
                case ZSTD:
                    return new Zstd(intParam(json, "level", 1, where), Boolean.TRUE.equals(json.get("checksum")));
                case LZ4:
                    return new Lz4(intParam(json, "acceleration", 1, where));
                case BZ2:
                    return new Bz2(intParam(json, "level", 1, where));
                case BLOSC:
                    Object cname = json.get("cname");
                    return new Blosc(
                            BloscCname.fromJsonName(cname == null ? "lz4" : String.valueOf(cname)),
                            intParam(json, "clevel", 5, where),
                            BloscShuffle.fromCode(intParam(json, "shuffle", 1, where)),
                            intParam(json, "blocksize", 0, where));
            }
        } catch (InvalidArgumentException | StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            // The Blosc enums reject an unknown cname or shuffle code with plain Java exceptions; name the config.
            throw new StorageException("bad compressor " + json + " in " + where + ": " + e.getMessage(), e);
        }
        throw new AssertionError(id);
    }

    private static int intParam(Map<?, ?> json, String key, int dflt, String where) {
        Object v = json.get(key);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Long || v instanceof Integer)) {
            throw new StorageException(
                    "compressor parameter \"" + key + "\" in " + where + " must be an integer, got " + v);
        }
        long l = ((Number) v).longValue();
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
            throw new StorageException("compressor parameter \"" + key + "\" in " + where + " is out of range: " + v);
        }
        return (int) l;
    }

    private static void checkRange(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidArgumentException(what + " must be in [" + min + ", " + max + "], got " + value);
        }
    }

    private static Map<String, Object> json(CodecId id, String key, int value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id.jsonId());
        m.put(key, value);
        return m;
    }
}
