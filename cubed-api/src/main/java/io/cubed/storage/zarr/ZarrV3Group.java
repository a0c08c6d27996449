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
import java.util.TreeSet;

/**
 * A Zarr v3 group: a {@code zarr.json} with {@code "node_type": "group"} and attributes, and arrays and groups below
 * it. When the group's {@code zarr.json} holds consolidated metadata (as zarr-python 3's {@code consolidate_metadata}
 * writes: {@code "consolidated_metadata": {"kind": "inline", "metadata": {path: zarr.json object}}}), members are
 * listed and arrays opened from it without reading or listing the store.
 */
public final class ZarrV3Group {
    private final String url;
    private final StoreOptions options;
    private final Store store;
    private final Map<String, Object> attributes;
    private final Map<String, Map<?, ?>> consolidated;

    private ZarrV3Group(
            String url,
            StoreOptions options,
            Store store,
            Map<String, Object> attributes,
            Map<String, Map<?, ?>> consolidated) {
        this.url = url;
        this.options = options;
        this.store = store;
        this.attributes = attributes;
        this.consolidated = consolidated;
    }

    /** Opens the v3 group at {@code url}; fails when there is no group {@code zarr.json}. */
    public static ZarrV3Group open(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        String where = MetadataDocuments.describe(url, ZarrV3Metadata.ZARR_JSON);
        byte[] bytes = store.get(ZarrV3Metadata.ZARR_JSON);
        if (bytes == null) {
            throw new StorageException("no Zarr v3 group at " + url + ": " + where + " is missing");
        }
        return withMetadata(url, options, store, MetadataDocuments.parseObject(bytes, where));
    }

    /** The v3 group at {@code url} whose {@code zarr.json} the caller has read and parsed into {@code m}. */
    static ZarrV3Group withMetadata(String url, StoreOptions options, Map<?, ?> m) {
        return withMetadata(url, options, Stores.supplier(url, options).open(), m);
    }

    private static ZarrV3Group withMetadata(String url, StoreOptions options, Store store, Map<?, ?> m) {
        String where = MetadataDocuments.describe(url, ZarrV3Metadata.ZARR_JSON);
        if (!Long.valueOf(3).equals(m.get("zarr_format")) || !"group".equals(m.get("node_type"))) {
            throw new StorageException("no Zarr v3 group at " + url + ": " + where + " has zarr_format "
                    + m.get("zarr_format") + " and node_type " + m.get("node_type"));
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (!k.equals("zarr_format")
                    && !k.equals("node_type")
                    && !k.equals("attributes")
                    && !k.equals("consolidated_metadata")
                    && !V3ArrayParser.mayIgnore(e.getValue())) {
                throw new StorageException("unsupported extension \"" + k + "\" in " + where);
            }
        }
        Object attrs = m.get("attributes");
        if (attrs != null && !(attrs instanceof Map)) {
            throw new StorageException("malformed " + where + ": \"attributes\" must be an object");
        }
        Map<String, Map<?, ?>> cons = null;
        Object cm = m.get("consolidated_metadata");
        if (cm instanceof Map) {
            Object kind = ((Map<?, ?>) cm).get("kind");
            Object md = ((Map<?, ?>) cm).get("metadata");
            if (!"inline".equals(kind) || !(md instanceof Map)) {
                throw new StorageException("malformed consolidated_metadata in " + where + ": expected kind \"inline\" "
                        + "and a \"metadata\" object");
            }
            cons = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) md).entrySet()) {
                if (!(e.getValue() instanceof Map)) {
                    throw new StorageException("malformed consolidated_metadata in " + where + ": entry " + e.getKey()
                            + " is not an object");
                }
                cons.put(String.valueOf(e.getKey()), (Map<?, ?>) e.getValue());
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> a = attrs == null ? new LinkedHashMap<>() : (Map<String, Object>) attrs;
        return new ZarrV3Group(url, options, store, a, cons);
    }

    /** Creates a v3 group at {@code url} (or opens the one there). */
    public static ZarrV3Group create(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        byte[] existing = store.get(ZarrV3Metadata.ZARR_JSON);
        if (existing != null) {
            return open(url, options);
        }
        if (store.exists(ZarrArray.ZARRAY) || store.exists(ZarrGroup.ZGROUP)) {
            throw new StorageException("cannot create a v3 group at " + url + ": a Zarr v2 node is there");
        }
        store.put(ZarrV3Metadata.ZARR_JSON, groupJson(new LinkedHashMap<>(), null));
        return new ZarrV3Group(url, options, store, new LinkedHashMap<>(), null);
    }

    private static byte[] groupJson(Map<String, ?> attributes, Map<String, Object> consolidated) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("zarr_format", 3L);
        m.put("node_type", "group");
        m.put("attributes", new LinkedHashMap<>(attributes));
        if (consolidated != null) {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("kind", "inline");
            cm.put("must_understand", false);
            cm.put("metadata", consolidated);
            m.put("consolidated_metadata", cm);
        }
        return Json.write(m).getBytes(StandardCharsets.UTF_8);
    }

    public String url() {
        return url;
    }

    /** True when the group's metadata came with consolidated metadata of its members. */
    public boolean isConsolidated() {
        return consolidated != null;
    }

    public Map<String, Object> attributes() {
        return new LinkedHashMap<>(attributes);
    }

    /** Replaces the attributes (keeps consolidated metadata as it was). */
    public ZarrV3Group writeAttributes(Map<String, ?> attributes) {
        Map<String, Object> cons = consolidated == null ? null : new LinkedHashMap<>(consolidated);
        store.put(ZarrV3Metadata.ZARR_JSON, groupJson(attributes, cons));
        return new ZarrV3Group(url, options, store, new LinkedHashMap<>(attributes), consolidated);
    }

    /** URL of the member at {@code path} (a name, or a '/'-separated path below this group). */
    public String memberUrl(String path) {
        return MetadataDocuments.describe(url, StoreKeys.check(path));
    }

    /** Names of the arrays directly in this group, sorted. */
    public List<String> arrayNames() {
        return children("array");
    }

    /** Names of the groups directly in this group, sorted. */
    public List<String> groupNames() {
        return children("group");
    }

    private List<String> children(String nodeType) {
        TreeSet<String> names = new TreeSet<>();
        if (consolidated != null) {
            for (Map.Entry<String, Map<?, ?>> e : consolidated.entrySet()) {
                if (!e.getKey().contains("/") && nodeType.equals(e.getValue().get("node_type"))) {
                    names.add(e.getKey());
                }
            }
            return new ArrayList<>(names);
        }
        for (String name : GroupMembers.withDocument(store.list(""), ZarrV3Metadata.ZARR_JSON)) {
            String key = name + "/" + ZarrV3Metadata.ZARR_JSON;
            Map<?, ?> m = MetadataDocuments.parseObject(store.get(key), memberUrl(key));
            if (nodeType.equals(m.get("node_type"))) {
                names.add(name);
            }
        }
        return new ArrayList<>(names);
    }

    /**
     * The arrays directly in this group, by name, sorted: from the consolidated metadata when the group has it (no
     * request), else from one listing of the group's names ({@link Store#listChildren}) and one read of every name's
     * {@code zarr.json}, all in flight together ({@link Store#getAll}).
     */
    public Map<String, ZarrV3Array> arrays() {
        return consolidated != null ? arrays(arrayNames()) : read(members(store.listChildren("")));
    }

    /**
     * The arrays among the members called {@code names}, by name, in that order: from the consolidated metadata when
     * the group has it, else with one read of every name's {@code zarr.json}, all in flight together; a name that is
     * not an array of the group is left out.
     */
    public Map<String, ZarrV3Array> arrays(java.util.Collection<String> names) {
        if (consolidated == null) {
            return read(members(names));
        }
        Map<String, ZarrV3Array> out = new LinkedHashMap<>();
        for (String n : members(names)) {
            Map<?, ?> m = consolidated.get(n);
            if (m != null && "array".equals(m.get("node_type"))) {
                out.put(n, openArray(n));
            }
        }
        return out;
    }

    /** The names that may name a member: valid keys of one part, not a metadata document's name. */
    private static List<String> members(java.util.Collection<String> names) {
        return GroupMembers.candidates(names, Set.of(ZarrV3Metadata.ZARR_JSON));
    }

    /** The arrays among {@code names}: their {@code zarr.json} read together. */
    private Map<String, ZarrV3Array> read(List<String> names) {
        List<String> keys = new ArrayList<>();
        for (String n : names) {
            keys.add(n + "/" + ZarrV3Metadata.ZARR_JSON);
        }
        List<byte[]> values = store.getAll(keys);
        Map<String, ZarrV3Array> out = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            if (values.get(i) == null) {
                continue;
            }
            String memberUrl = memberUrl(names.get(i));
            String where = memberUrl(keys.get(i));
            Map<?, ?> m = MetadataDocuments.parseObject(values.get(i), where);
            if ("array".equals(m.get("node_type"))) {
                out.put(
                        names.get(i),
                        new ZarrV3Array(memberUrl, Stores.supplier(memberUrl, options), V3ArrayParser.parse(m, where)));
            }
        }
        return out;
    }

    /** Opens the array at {@code path}; from the consolidated metadata when there is one (no metadata read). */
    public ZarrV3Array openArray(String path) {
        String memberUrl = memberUrl(path);
        if (consolidated != null && consolidated.containsKey(path)) {
            String where = url + " consolidated_metadata[" + path + "]";
            return new ZarrV3Array(
                    memberUrl, Stores.supplier(memberUrl, options), V3ArrayParser.parse(consolidated.get(path), where));
        }
        return ZarrV3Array.open(memberUrl, options);
    }

    /** Opens the group at {@code path}. */
    public ZarrV3Group openGroup(String path) {
        return open(memberUrl(path), options);
    }

    /** Creates the array at {@code name} with {@code metadata}. */
    public ZarrV3Array createArray(String name, ZarrV3Metadata metadata, boolean overwrite) {
        return ZarrV3Array.create(memberUrl(name), metadata, overwrite, options);
    }

    /** Creates (or opens) the sub-group {@code name}. */
    public ZarrV3Group createGroup(String name) {
        return create(memberUrl(name), options);
    }

    /**
     * Writes consolidated metadata into this group's {@code zarr.json}: every array and group below it, keyed by path,
     * as zarr-python 3 does. Returns the group reopened.
     */
    public ZarrV3Group consolidate() {
        Map<String, Object> all = new java.util.TreeMap<>();
        for (String key : store.list("")) {
            if (key.endsWith("/" + ZarrV3Metadata.ZARR_JSON)) {
                String path = key.substring(0, key.length() - ZarrV3Metadata.ZARR_JSON.length() - 1);
                all.put(path, MetadataDocuments.parseObject(store.get(key), memberUrl(key)));
            }
        }
        store.put(ZarrV3Metadata.ZARR_JSON, groupJson(attributes, new LinkedHashMap<>(all)));
        return open(url, options);
    }
}
