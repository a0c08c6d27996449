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
}
