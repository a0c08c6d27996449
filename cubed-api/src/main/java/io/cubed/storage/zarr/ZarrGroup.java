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
import java.util.Set;

/** A Zarr v2 group: a {@code .zgroup} document, optional {@code .zattrs}, and arrays and groups below it. */
public final class ZarrGroup {
    /** Name of the group metadata document. */
    public static final String ZGROUP = ".zgroup";

    /** Name of the consolidated metadata document zarr-python 2 writes. */
    public static final String ZMETADATA = ".zmetadata";

    /** The metadata documents that name no member of a v2 group (a v3 node's {@code zarr.json} included). */
    private static final Set<String> DOCUMENTS =
            Set.of(ZGROUP, ZarrArray.ZARRAY, ZarrArray.ZATTRS, ZMETADATA, ZarrV3Metadata.ZARR_JSON);

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
        byte[] bytes = store.get(ZGROUP);
        if (bytes == null) {
            throw new StorageException(
                    "no Zarr group at " + url + ": " + MetadataDocuments.describe(url, ZGROUP) + " is missing");
        }
        checkZgroup(bytes, url);
        return new ZarrGroup(url, options, store, readConsolidated(store.get(ZMETADATA), url));
    }

    /**
     * The group at {@code url} whose {@code .zgroup} and {@code .zmetadata} the caller has read ({@code zmetadata} null
     * when there is none); fails when either is malformed.
     */
    static ZarrGroup withDocuments(String url, StoreOptions options, byte[] zgroup, byte[] zmetadata) {
        checkZgroup(zgroup, url);
        Store store = Stores.supplier(url, options).open();
        return new ZarrGroup(url, options, store, readConsolidated(zmetadata, url));
    }

    private static void checkZgroup(byte[] bytes, String url) {
        String where = MetadataDocuments.describe(url, ZGROUP);
        Object json = MetadataDocuments.parse(bytes, where);
        if (!(json instanceof Map) || !Long.valueOf(2).equals(((Map<?, ?>) json).get("zarr_format"))) {
            throw new StorageException("malformed " + where + ": expected {\"zarr_format\": 2}");
        }
    }

    /**
     * The {@code metadata} map of {@code .zmetadata} holding {@code bytes} (keys like {@code "a/.zarray"}), or null
     * when there is none.
     */
    private static Map<String, Object> readConsolidated(byte[] bytes, String url) {
        if (bytes == null) {
            return null;
        }
        String where = MetadataDocuments.describe(url, ZMETADATA);
        Object json = MetadataDocuments.parse(bytes, where);
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
        return MetadataDocuments.describe(url, StoreKeys.check(name));
    }

    /** Creates an array called {@code name} in this group. */
    public ZarrArray createArray(String name, ZarrCreateOptions create) {
        return ZarrArray.create(memberUrl(name), create, options);
    }

    /**
     * Opens the array called {@code name} in this group: from {@code .zmetadata} when it has the array, attributes
     * included (none when it has no {@code .zattrs} of it, as zarr-python consolidates every one), else from its
     * {@code .zarray}.
     */
    public ZarrArray openArray(String name) {
        ZarrArray a = consolidatedArray(name);
        return a != null ? a : ZarrArray.open(memberUrl(name), options);
    }

    /** The array called {@code name} from {@code .zmetadata}, or null when it does not hold one. */
    private ZarrArray consolidatedArray(String name) {
        String key = name + "/" + ZarrArray.ZARRAY;
        if (consolidated == null || !(consolidated.get(key) instanceof Map)) {
            return null;
        }
        String memberUrl = memberUrl(name);
        String where = url + " " + ZMETADATA + "[" + key + "]";
        byte[] json = Json.write(consolidated.get(key)).getBytes(StandardCharsets.UTF_8);
        Object attrs = consolidated.get(name + "/" + ZarrArray.ZATTRS);
        if (attrs != null && !(attrs instanceof Map)) {
            throw new StorageException("malformed " + url + " " + ZMETADATA + "[" + name + "/" + ZarrArray.ZATTRS
                    + "]: expected a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> attributes = attrs == null ? Map.of() : (Map<String, Object>) attrs;
        return ZarrArray.withMetadata(
                memberUrl, Stores.supplier(memberUrl, options), ZarrV2Metadata.parse(json, where), attributes);
    }

    /**
     * The arrays directly in this group, by name, sorted, with their attributes: from {@code .zmetadata} when the group
     * has it (no request), else from one listing of the group's names ({@link Store#listChildren}) and one read of
     * every name's {@code .zarray} and {@code .zattrs}, all in flight together ({@link Store#getAll}).
     */
    public Map<String, ZarrArray> arrays() {
        return consolidated != null ? arrays(arrayNames()) : read(members(store.listChildren("")));
    }

    /**
     * The arrays among the members called {@code names}, by name, in that order, with their attributes: from {@code
     * .zmetadata} when the group has it, else with one read of every name's {@code .zarray} and {@code .zattrs}, all in
     * flight together; a name that is not an array of the group is left out.
     */
    public Map<String, ZarrArray> arrays(java.util.Collection<String> names) {
        if (consolidated == null) {
            return read(members(names));
        }
        Map<String, ZarrArray> out = new LinkedHashMap<>();
        for (String n : members(names)) {
            ZarrArray a = consolidatedArray(n);
            if (a != null) {
                out.put(n, a);
            }
        }
        return out;
    }

    /** The names that may name a member: valid keys of one part, not a metadata document's name. */
    private static List<String> members(java.util.Collection<String> names) {
        return GroupMembers.candidates(names, DOCUMENTS);
    }

    /** The arrays among {@code names}: their {@code .zarray} and {@code .zattrs} read together. */
    private Map<String, ZarrArray> read(List<String> names) {
        List<String> keys = new ArrayList<>();
        for (String n : names) {
            keys.add(n + "/" + ZarrArray.ZARRAY);
            keys.add(n + "/" + ZarrArray.ZATTRS);
        }
        List<byte[]> values = store.getAll(keys);
        Map<String, ZarrArray> out = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            byte[] zarray = values.get(2 * i);
            if (zarray != null) {
                String memberUrl = memberUrl(names.get(i));
                out.put(
                        names.get(i),
                        ZarrArray.withDocuments(
                                memberUrl, Stores.supplier(memberUrl, options), zarray, values.get(2 * i + 1)));
            }
        }
        return out;
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
        return GroupMembers.withDocument(consolidated != null ? consolidated.keySet() : store.list(""), document);
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
        return parseAttributes(store.get(ZarrArray.ZATTRS), url);
    }

    /** The attributes in {@code bytes}, the {@code .zattrs} of the node at {@code url}; empty when null. */
    static Map<String, Object> parseAttributes(byte[] bytes, String url) {
        if (bytes == null) {
            return new LinkedHashMap<>();
        }
        String where = MetadataDocuments.describe(url, ZarrArray.ZATTRS);
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) MetadataDocuments.parseObject(bytes, where);
        return m;
    }
}
