package io.cubed.storage.zarr;

import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;

/** Opens a Zarr array of either format version, detected from the metadata documents present. */
public final class Zarr {
    private Zarr() {}

    /** The format version of the array or group at {@code url}: 3 when it has {@code zarr.json}, 2 otherwise. */
    public static int version(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        return store.exists(ZarrV3Metadata.ZARR_JSON) ? 3 : 2;
    }

    /**
     * Opens the array at {@code url}: a {@link ZarrV3Array} when {@code zarr.json} is there, else a {@link
     * ZarrArray} ({@code .zarray}). Fails naming the URL when neither is.
     */
    public static ChunkStore open(String url, StoreOptions options) {
        io.cubed.storage.StoreSupplier supplier = Stores.supplier(url, options);
        Store store = supplier.open();
        // On an object store the documents are asked for at once, the v2 attributes too (every reader of an array
        // looks at them: the incomplete mark, dimension names): one round trip, no existence checks. Elsewhere the
        // attributes are read when first asked for.
        boolean atOnce = store.concurrency() > 1;
        java.util.concurrent.CompletableFuture<Store.Bytes> v3 = atOnce
                ? store.getAsync(ZarrV3Metadata.ZARR_JSON)
                : java.util.concurrent.CompletableFuture.completedFuture(bytes(store.get(ZarrV3Metadata.ZARR_JSON)));
        java.util.concurrent.CompletableFuture<Store.Bytes> v2 = atOnce ? store.getAsync(ZarrArray.ZARRAY) : null;
        java.util.concurrent.CompletableFuture<Store.Bytes> v2Attributes =
                atOnce ? store.getAsync(ZarrArray.ZATTRS) : null;
        Store.Bytes json = join(v3, url);
        if (json != null) {
            if (v2Attributes != null) {
                v2Attributes.cancel(false);
            }
            return ZarrV3Array.withMetadata(url, options, exact(json));
        }
        Store.Bytes zarray = v2 != null ? join(v2, url) : bytes(store.get(ZarrArray.ZARRAY));
        if (zarray != null) {
            if (v2Attributes == null) {
                return ZarrArray.withMetadata(url, options, exact(zarray));
            }
            Store.Bytes zattrs = join(v2Attributes, url);
            return ZarrArray.withDocuments(url, supplier, exact(zarray), zattrs == null ? null : exact(zattrs));
        }
        String hint = store.exists(ZarrGroup.ZGROUP) ? " (it is a Zarr v2 group, not an array)" : "";
        throw new StorageException("no Zarr array at " + url + ": " + MetadataDocuments.describe(url, ZarrArray.ZARRAY)
                + " is missing (Zarr v2), and so is " + MetadataDocuments.describe(url, ZarrV3Metadata.ZARR_JSON)
                + " (v3)"
                + hint);
    }

    private static Store.Bytes bytes(byte[] b) {
        return b == null ? null : new Store.Bytes(b, b.length);
    }

    private static byte[] exact(Store.Bytes b) {
        return b.length() == b.array().length ? b.array() : java.util.Arrays.copyOf(b.array(), b.length());
    }

    private static <T> T join(java.util.concurrent.CompletableFuture<T> f, String url) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted while reading the metadata of " + url, e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof StorageException s
                    ? s
                    : new StorageException("cannot read the metadata of " + url + ": " + c, c);
        }
    }

    /**
     * Number of stored chunks of a Zarr array of either version (shards, when sharded), by listing its store; chunks
     * never written (or left out as all fill value) are not counted.
     */
    public static long writtenChunkCount(ChunkStore array) {
        if (array instanceof ZarrArrayCore z) {
            return z.writtenChunkCount();
        }
        throw new io.cubed.error.InvalidArgumentException(array.url() + " is not a Zarr array");
    }

    /** What a Zarr node is: an array, a group, or nothing Zarr knows. */
    public enum NodeType {
        ARRAY,
        GROUP,
        NONE
    }

    /**
     * Whether {@code url} holds a Zarr array or group of either version ({@code .zarray}/{@code .zgroup}, or the
     * {@code node_type} of {@code zarr.json}); fails naming the document when {@code zarr.json} is malformed.
     */
    public static NodeType nodeType(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        byte[] v3 = store.get(ZarrV3Metadata.ZARR_JSON);
        if (v3 != null) {
            String where = MetadataDocuments.describe(url, ZarrV3Metadata.ZARR_JSON);
            Object type = MetadataDocuments.parseObject(v3, where).get("node_type");
            if ("array".equals(type)) {
                return NodeType.ARRAY;
            }
            if ("group".equals(type)) {
                return NodeType.GROUP;
            }
            throw new StorageException(
                    "malformed " + where + ": \"node_type\" must be \"array\" or \"group\", got " + type);
        }
        if (store.exists(ZarrArray.ZARRAY)) {
            return NodeType.ARRAY;
        }
        return store.exists(ZarrGroup.ZGROUP) ? NodeType.GROUP : NodeType.NONE;
    }

    /**
     * Why creating an array at {@code url} (with or without {@code overwrite}) would be refused, or null when it would
     * not: a group there, an array without {@code overwrite}, or anything that is not an array's (a non-empty directory
     * of other files). Reads only: for the checks a command makes before it writes or deletes anything.
     */
    public static String refusalToCreateArray(String url, StoreOptions options, boolean overwrite) {
        return examinePlace(url, options, overwrite).refusal();
    }

    /**
     * What creating an array at {@code url} would find there (reads only): why it would be refused, or null, and
     * whether an array of either version is there.
     */
    public static PlaceForArray examinePlace(String url, StoreOptions options, boolean overwrite) {
        Store store = Stores.supplier(url, options).open();
        ArrayCreation.Place p = ArrayCreation.examine(store, url, overwrite, true);
        return new PlaceForArray(p.refusal(), p.array(), p.holdsAny());
    }

    /**
     * What {@link #examinePlace} found: why an array may not be created there (null when it may), whether an array is
     * there, and whether anything is.
     */
    public record PlaceForArray(String refusal, boolean arrayExists, boolean holdsAny) {
        /** Whether nothing was there: an array may be created there without looking again. */
        public boolean isNew() {
            return refusal == null && !holdsAny;
        }
    }

    /**
     * Writes the documents of an array made by {@link ZarrFormat#unwritten} (or {@link ZarrArray#unwritten}) with
     * what it has been set up with since (attributes, dimension names): one {@code zarr.json} in Zarr v3, {@code
     * .zattrs} then {@code .zarray} in v2. Returns the array as written; any other array as it is.
     */
    public static ChunkStore writeDocuments(ChunkStore array) {
        return array instanceof ZarrArrayCore core ? core.writeDocuments() : array;
    }

    /** True when an array of either version is at {@code url}. */
    public static boolean arrayExists(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        if (store.concurrency() > 1) {
            // Both asked at once: one round trip on an object store.
            java.util.concurrent.CompletableFuture<Boolean> v3 =
                    io.cubed.storage.StoreThreads.supply(() -> store.exists(ZarrV3Metadata.ZARR_JSON));
            boolean v2 = store.exists(ZarrArray.ZARRAY);
            return join(v3, url) || v2;
        }
        return store.exists(ZarrArray.ZARRAY) || store.exists(ZarrV3Metadata.ZARR_JSON);
    }
}
