package io.cubed.storage.zarr;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Zarr array or group of either version, read for a reader that opens a node and its members together (the Spark
 * SQL data source) in few round trips: {@link #read} asks for every document that can say what the node is at once —
 * {@code zarr.json}, {@code .zarray}, {@code .zgroup} and {@code .zmetadata}, one round trip on an object store, and
 * no existence checks (a missing document is a read that finds nothing) — and a group's arrays come from its
 * consolidated metadata, else from one listing and one round of reads ({@link ZarrGroup#arrays}, {@link
 * ZarrV3Group#arrays}).
 */
public final class ZarrNode {
    /** The documents {@link #read} asks for, in this order. */
    private static final List<String> DOCUMENTS =
            List.of(ZarrV3Metadata.ZARR_JSON, ZarrArray.ZARRAY, ZarrGroup.ZGROUP, ZarrGroup.ZMETADATA);

    private final String url;
    private final Zarr.NodeType type;
    private final ChunkStore array;
    private final ZarrGroup v2;
    private final ZarrV3Group v3;

    private ZarrNode(String url, Zarr.NodeType type, ChunkStore array, ZarrGroup v2, ZarrV3Group v3) {
        this.url = url;
        this.type = type;
        this.array = array;
        this.v2 = v2;
        this.v3 = v3;
    }

    /**
     * What is at {@code url}: a v3 node when {@code zarr.json} is there (its {@code node_type} says which), else a v2
     * array ({@code .zarray}), else a v2 group ({@code .zgroup}, with {@code .zmetadata} when consolidated), else
     * {@link Zarr.NodeType#NONE}. Fails naming the document when one of these is malformed.
     */
    public static ZarrNode read(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        List<byte[]> docs = store.getAll(DOCUMENTS);
        byte[] zarrJson = docs.get(0);
        if (zarrJson != null) {
            String where = MetadataDocuments.describe(url, ZarrV3Metadata.ZARR_JSON);
            Map<?, ?> m = MetadataDocuments.parseObject(zarrJson, where);
            Object nodeType = m.get("node_type");
            if ("array".equals(nodeType)) {
                return new ZarrNode(
                        url, Zarr.NodeType.ARRAY, ZarrV3Array.withMetadata(url, options, zarrJson), null, null);
            }
            if ("group".equals(nodeType)) {
                return new ZarrNode(url, Zarr.NodeType.GROUP, null, null, ZarrV3Group.withMetadata(url, options, m));
            }
            throw new StorageException(
                    "malformed " + where + ": \"node_type\" must be \"array\" or \"group\", got " + nodeType);
        }
        if (docs.get(1) != null) {
            return new ZarrNode(
                    url, Zarr.NodeType.ARRAY, ZarrArray.withMetadata(url, options, docs.get(1)), null, null);
        }
        if (docs.get(2) != null) {
            return new ZarrNode(
                    url,
                    Zarr.NodeType.GROUP,
                    null,
                    ZarrGroup.withDocuments(url, options, docs.get(2), docs.get(3)),
                    null);
        }
        return new ZarrNode(url, Zarr.NodeType.NONE, null, null, null);
    }

    public String url() {
        return url;
    }

    public Zarr.NodeType type() {
        return type;
    }

    /** The Zarr format version: 2 or 3 (2 for {@link Zarr.NodeType#NONE}). */
    public int version() {
        return v3 != null || array instanceof ZarrV3Array ? 3 : 2;
    }

    /**
     * The array, opened from the metadata {@link #read} read; a v2 array reads its {@code .zattrs} when its attributes
     * are first asked for.
     */
    public ChunkStore array() {
        if (type != Zarr.NodeType.ARRAY) {
            throw new InvalidArgumentException(url + " is not a Zarr array but " + type);
        }
        return array;
    }

    /** True when the group's metadata came with consolidated metadata of its members. */
    public boolean isConsolidated() {
        return v2 != null ? v2.isConsolidated() : v3 != null && v3.isConsolidated();
    }

    /** The arrays directly in the group, by name, sorted ({@link ZarrGroup#arrays()}, {@link ZarrV3Group#arrays()}). */
    public Map<String, ChunkStore> arrays() {
        return new LinkedHashMap<>(requireGroup().v2 != null ? v2.arrays() : v3.arrays());
    }

    /**
     * The arrays of the group among its members called {@code names}, in that order, without listing the group
     * ({@link ZarrGroup#arrays(Collection)}, {@link ZarrV3Group#arrays(Collection)}).
     */
    public Map<String, ChunkStore> arrays(Collection<String> names) {
        return new LinkedHashMap<>(requireGroup().v2 != null ? v2.arrays(names) : v3.arrays(names));
    }

    private ZarrNode requireGroup() {
        if (type != Zarr.NodeType.GROUP) {
            throw new InvalidArgumentException(url + " is not a Zarr group but " + type);
        }
        return this;
    }

    @Override
    public String toString() {
        return "ZarrNode{" + url + ", " + type + ", v" + version() + "}";
    }
}
