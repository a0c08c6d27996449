package io.cubed.storage.zarr;

import io.cubed.error.StorageException;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Zarr v3 array's {@code chunk_key_encoding}: {@code default} ({@code c/1/0}) or {@code v2} ({@code 1.0}), with its
 * separator {@code "/"} or {@code "."}. Immutable and serializable; names a stored chunk's key and tells one apart from
 * the array's other keys.
 */
final class V3ChunkKeyEncoding implements Serializable {
    private static final long serialVersionUID = 1L;

    private final boolean v2;
    private final String separator;

    /** The {@code v2} encoding when {@code v2}, else {@code default}; {@code separator} is checked by the caller. */
    V3ChunkKeyEncoding(boolean v2, String separator) {
        this.v2 = v2;
        this.separator = separator;
    }

    /**
     * The encoding a {@code chunk_key_encoding} says: an object with a {@code name} and an optional {@code
     * configuration}, or the short-hand name alone ({@code "default"}, {@code "v2"}), which v3.1 allows for an extension
     * without configuration; a missing separator is the encoding's own default. {@code where} (the document's URL) goes
     * into every error.
     */
    static V3ChunkKeyEncoding parse(Object json, String where) {
        if (json instanceof String) {
            json = Map.of("name", json);
        }
        if (!(json instanceof Map)) {
            throw new StorageException("malformed chunk_key_encoding " + MetadataDocuments.show(json) + " in " + where
                    + ": expected {\"name\": ..., \"configuration\": {...}} or a name");
        }
        Object name = ((Map<?, ?>) json).get("name");
        boolean v2;
        if ("default".equals(name)) {
            v2 = false;
        } else if ("v2".equals(name)) {
            v2 = true;
        } else {
            throw new StorageException("unsupported chunk_key_encoding " + name + " in " + where + ": expected "
                    + "\"default\" or \"v2\"");
        }
        Object kc = ((Map<?, ?>) json).get("configuration");
        Object sep = kc instanceof Map ? ((Map<?, ?>) kc).get("separator") : null;
        String separator = sep == null ? (v2 ? "." : "/") : String.valueOf(sep);
        if (!separator.equals(".") && !separator.equals("/")) {
            throw new StorageException("unsupported chunk key separator '" + separator + "' in " + where);
        }
        return new V3ChunkKeyEncoding(v2, separator);
    }

    /** The {@code chunk_key_encoding} object of {@code zarr.json}. */
    Map<String, Object> toJson() {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("separator", separator);
        Map<String, Object> keys = new LinkedHashMap<>();
        keys.put("name", v2 ? "v2" : "default");
        keys.put("configuration", conf);
        return keys;
    }

    /** True for the {@code v2} encoding. */
    boolean isV2() {
        return v2;
    }

    String separator() {
        return separator;
    }

    /** The key of the stored chunk at {@code coords}: {@code c/1/0} (default) or {@code 1.0} (v2). */
    String key(long... coords) {
        StringBuilder sb = new StringBuilder();
        if (!v2) {
            sb.append('c');
        }
        if (coords.length == 0) {
            return v2 ? "0" : "c";
        }
        for (int i = 0; i < coords.length; i++) {
            if (i > 0 || !v2) {
                if (sb.length() > 0) {
                    sb.append(separator);
                }
            }
            sb.append(coords[i]);
        }
        return sb.toString();
    }

    /**
     * True for a chunk key of an array of {@code rank} in this encoding, not {@code zarr.json} nor a key of a node
     * below the array.
     */
    boolean isKey(String key, int rank) {
        if (key.equals(ZarrV3Metadata.ZARR_JSON) || key.endsWith("/" + ZarrV3Metadata.ZARR_JSON)) {
            return false;
        }
        String body = key;
        if (!v2) {
            if (rank == 0) {
                return key.equals("c");
            }
            if (!key.startsWith("c" + separator)) {
                return false;
            }
            body = key.substring(2);
        }
        String[] parts = body.split(Pattern.quote(separator), -1);
        if (parts.length != Math.max(1, rank)) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || !p.chars().allMatch(Character::isDigit)) {
                return false;
            }
        }
        return true;
    }
}
