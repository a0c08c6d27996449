package io.cubed.storage.zarr;

import io.cubed.error.StorageException;
import io.cubed.storage.Store;

/**
 * Where a new array of either version may go: never over a group of either version, and over an existing array of
 * either version only when the caller says overwrite, which clears the place first (otherwise readers could take the
 * old version's document over the new one's).
 */
final class ArrayCreation {
    private ArrayCreation() {}

    /**
     * Makes {@code store}, the node at {@code url}, ready for a new array's metadata document: fails when a group is
     * there, or an array and not {@code overwrite}; deletes everything there when an array is and {@code overwrite}.
     * With {@code probeZarrJson} (a v2 array's creation, where a {@code zarr.json} is seldom there) it asks whether
     * {@code zarr.json} exists before reading it; a v3 array's creation reads it at once.
     */
    static void clear(Store store, String url, boolean overwrite, boolean probeZarrJson) {
        if (store.exists(ZarrGroup.ZGROUP)) {
            throw new StorageException("cannot create an array at " + url + ": a Zarr group is there");
        }
        byte[] v3 =
                !probeZarrJson || store.exists(ZarrV3Metadata.ZARR_JSON) ? store.get(ZarrV3Metadata.ZARR_JSON) : null;
        if (v3 != null && "group".equals(MetadataDocuments.parseObject(v3, url).get("node_type"))) {
            throw new StorageException("cannot create an array at " + url + ": a Zarr group is there");
        }
        if (v3 != null || store.exists(ZarrArray.ZARRAY)) {
            if (!overwrite) {
                throw new StorageException("cannot create an array at " + url + ": an array already exists there "
                        + "(set overwrite to replace it)");
            }
            store.deletePrefix("");
        }
    }
}
