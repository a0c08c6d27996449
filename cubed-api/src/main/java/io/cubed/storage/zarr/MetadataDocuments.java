package io.cubed.storage.zarr;

import io.cubed.error.StorageException;
import java.util.Map;

/**
 * A node's metadata documents ({@code .zarray}, {@code .zgroup}, {@code .zattrs}, {@code .zmetadata}, {@code
 * zarr.json}): the URL that messages name a document or chunk key by, and a document's bytes parsed as one JSON
 * object, with the same error messages for every document of either version.
 */
final class MetadataDocuments {
    private MetadataDocuments() {}

    /** The URL of {@code key} in the node at {@code url}, as messages name it: {@code url/key}. */
    static String describe(String url, String key) {
        return (url.endsWith("/") ? url : url + "/") + key;
    }

    /**
     * A JSON value as an error message shows it: on one line ({@code ["x", 3]}, {@code "3"}), so that a string reads
     * apart from a number. {@link Json#write} escapes line breaks inside strings, so every one it writes is layout.
     */
    static String show(Object json) {
        return Json.write(json)
                .strip()
                .replaceAll("([\\[{])\n\\s*", "$1")
                .replaceAll("\n\\s*([\\]}])", "$1")
                .replaceAll(",\n\\s*", ", ");
    }

    /** {@code bytes} parsed as JSON; fails naming {@code where} when they are not JSON. */
    static Object parse(byte[] bytes, String where) {
        try {
            return Json.parse(bytes);
        } catch (Json.JsonException e) {
            throw new StorageException("malformed JSON in " + where + ": " + e.getMessage(), e);
        }
    }

    /** {@code bytes} parsed as a JSON object; fails naming {@code where} when they are not JSON or not an object. */
    static Map<?, ?> parseObject(byte[] bytes, String where) {
        Object root = parse(bytes, where);
        if (!(root instanceof Map)) {
            throw new StorageException("malformed " + where + ": expected a JSON object");
        }
        return (Map<?, ?>) root;
    }

    /**
     * The chunk lengths {@code chunkLongs} (the document's {@code chunksKey}) as ints, checked against {@code shape}:
     * lengths of at least 1 that fit an int, axes of non-negative length, and a shape whose element count a long
     * holds; a failed check names the document and the values.
     */
    static int[] checkedChunks(long[] shape, long[] chunkLongs, String chunksKey, String where) {
        int[] chunks = new int[chunkLongs.length];
        for (int i = 0; i < chunks.length; i++) {
            if (shape[i] < 0) {
                throw new StorageException("malformed " + where + ": shape " + java.util.Arrays.toString(shape)
                        + " has a negative length on axis " + i);
            }
            if (chunkLongs[i] < 1 || chunkLongs[i] > Integer.MAX_VALUE) {
                throw new StorageException("malformed " + where + ": " + chunksKey + " "
                        + java.util.Arrays.toString(chunkLongs) + " must be from 1 to " + Integer.MAX_VALUE
                        + " on every axis (axis " + i + " is " + chunkLongs[i] + ")");
            }
            chunks[i] = (int) chunkLongs[i];
        }
        long elements = 1;
        for (long s : shape) {
            if (s == 0) {
                return chunks;
            }
            elements = elements > Long.MAX_VALUE / s ? -1 : elements * s;
            if (elements < 0) {
                break;
            }
        }
        if (elements < 0) {
            throw new StorageException("malformed " + where + ": shape " + java.util.Arrays.toString(shape)
                    + " has more elements than an array can hold (" + Long.MAX_VALUE + ")");
        }
        return chunks;
    }
}
