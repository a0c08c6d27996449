package io.cubed.storage.zarr;

import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreKeys;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** A Zarr v2 group: a {@code .zgroup} document, optional {@code .zattrs}, and arrays and groups below it. */
public final class ZarrGroup {
    /** Name of the group metadata document. */
    public static final String ZGROUP = ".zgroup";

    /** Name of the consolidated metadata document zarr-python 2 writes. */
    public static final String ZMETADATA = ".zmetadata";

    private final String url;
    private final StoreOptions options;
    private final Store store;
    private final Map<String, Object> consolidated;

    private ZarrGroup(String url, StoreOptions options, Store store) {
        this(url, options, store, null);
    }

    private ZarrGroup(String url, StoreOptions options, Store store, Map<String, Object> consolidated) {
        this.url = url;
        this.options = options;
        this.store = store;
        this.consolidated = consolidated;
    }

    /** Creates the group at {@code url} (writing {@code .zgroup}), or opens it when it exists already. */
    public static ZarrGroup create(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        if (store.exists(ZarrArray.ZARRAY)) {
            throw new StorageException("cannot create a group at " + url + ": an array is there");
        }
        if (!store.exists(ZGROUP)) {
            store.put(ZGROUP, "{\n    \"zarr_format\": 2\n}\n".getBytes(StandardCharsets.UTF_8));
        }
        return new ZarrGroup(url, options, store);
    }

    /** Opens the group at {@code url}; fails when there is no valid {@code .zgroup}. */
    public static ZarrGroup open(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        String where = ZarrArray.describe(url, ZGROUP);
        byte[] bytes = store.get(ZGROUP);
        if (bytes == null) {
            throw new StorageException("no Zarr group at " + url + ": " + where + " is missing");
        }
        Object json;
        try {
            json = Json.parse(bytes);
        } catch (Json.JsonException e) {
            throw new StorageException("malformed JSON in " + where + ": " + e.getMessage(), e);
        }
        if (!(json instanceof Map) || !Long.valueOf(2).equals(((Map<?, ?>) json).get("zarr_format"))) {
            throw new StorageException("malformed " + where + ": expected {\"zarr_format\": 2}");
        }
        return new ZarrGroup(url, options, store, readConsolidated(store, url));
    }

    /** The {@code metadata} map of {@code .zmetadata} (keys like {@code "a/.zarray"}), or null when there is none. */
    private static Map<String, Object> readConsolidated(Store store, String url) {
        byte[] bytes = store.get(ZMETADATA);
        if (bytes == null) {
            return null;
        }
        String where = ZarrArray.describe(url, ZMETADATA);
        Object json;
        try {
            json = Json.parse(bytes);
        } catch (Json.JsonException e) {
            throw new StorageException("malformed JSON in " + where + ": " + e.getMessage(), e);
        }
        if (!(json instanceof Map)
                || !Long.valueOf(1).equals(((Map<?, ?>) json).get("zarr_consolidated_format"))
                || !(((Map<?, ?>) json).get("metadata") instanceof Map)) {
            throw new StorageException(
                    "malformed " + where + ": expected {\"zarr_consolidated_format\": 1, " + "\"metadata\": {...}}");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) ((Map<?, ?>) json).get("metadata");
        return m;
    }

    /** True when the group has consolidated metadata ({@code .zmetadata}), which member listing and opening use. */
    public boolean isConsolidated() {
        return consolidated != null;
    }

    public String url() {
        return url;
    }

    /** URL of the member called {@code name}. */
    public String memberUrl(String name) {
        return ZarrArray.describe(url, StoreKeys.check(name));
    }

    /** Creates an array called {@code name} in this group. */
    public ZarrArray createArray(String name, ZarrCreateOptions create) {
        return ZarrArray.create(memberUrl(name), create, options);
    }

    /** Opens the array called {@code name} in this group. */
    public ZarrArray openArray(String name) {
        String key = name + "/" + ZarrArray.ZARRAY;
        if (consolidated != null && consolidated.get(key) instanceof Map) {
            String memberUrl = memberUrl(name);
            String where = url + " " + ZMETADATA + "[" + key + "]";
            byte[] json = Json.write(consolidated.get(key)).getBytes(StandardCharsets.UTF_8);
            return ZarrArray.withMetadata(
                    memberUrl, Stores.supplier(memberUrl, options), ZarrV2Metadata.parse(json, where));
        }
        return ZarrArray.open(memberUrl(name), options);
    }

    /** Creates (or opens) the sub-group called {@code name}. */
    public ZarrGroup createGroup(String name) {
        return create(memberUrl(name), options);
    }

    /** Names of the arrays directly in this group, sorted. */
    public List<String> arrayNames() {
        return childrenWith(ZarrArray.ZARRAY);
    }

    /** Names of the groups directly in this group, sorted. */
    public List<String> groupNames() {
        return childrenWith(ZGROUP);
    }

    private List<String> childrenWith(String document) {
        TreeSet<String> names = new TreeSet<>();
        if (consolidated != null) {
            for (String key : consolidated.keySet()) {
                String[] parts = key.split("/");
                if (parts.length == 2 && parts[1].equals(document)) {
                    names.add(parts[0]);
                }
            }
            return new ArrayList<>(names);
        }
        for (String key : store.list("")) {
            String[] parts = key.split("/");
            if (parts.length == 2 && parts[1].equals(document)) {
                names.add(parts[0]);
            }
        }
        return new ArrayList<>(names);
    }

    /** The group's {@code .zattrs} attributes, empty when there are none. */
    public Map<String, Object> attributes() {
        if (consolidated != null && consolidated.get(ZarrArray.ZATTRS) instanceof Map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> a = (Map<String, Object>) consolidated.get(ZarrArray.ZATTRS);
            return new LinkedHashMap<>(a);
        }
        return readAttributes(store, url);
    }

    /** Replaces the group's attributes. */
    public void writeAttributes(Map<String, ?> attributes) {
        store.put(ZarrArray.ZATTRS, Json.write(new LinkedHashMap<>(attributes)).getBytes(StandardCharsets.UTF_8));
    }

    static Map<String, Object> readAttributes(Store store, String url) {
        byte[] bytes = store.get(ZarrArray.ZATTRS);
        if (bytes == null) {
            return new LinkedHashMap<>();
        }
        String where = ZarrArray.describe(url, ZarrArray.ZATTRS);
        Object json;
        try {
            json = Json.parse(bytes);
        } catch (Json.JsonException e) {
            throw new StorageException("malformed JSON in " + where + ": " + e.getMessage(), e);
        }
        if (!(json instanceof Map)) {
            throw new StorageException("malformed " + where + ": expected a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) json;
        return m;
    }
}
