package io.cubed.storage.zarr;

import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a new array of either version may go: a place that is new or empty; never over a group of either version, nor
 * over anything that is not a Zarr array; over an existing array of either version only when the caller says
 * overwrite, which clears the place first (otherwise readers could take the old version's document over the new
 * one's). A place holding other files (a user's directory given by mistake, the working directory named by an empty
 * path) is refused with or without overwrite: overwriting an array deletes everything below it, and nothing there may
 * be anything but the array's.
 */
final class ArrayCreation {
    private ArrayCreation() {}

    /**
     * Names one level below an array that belong to it: its metadata documents, and its chunks' keys or the first part
     * of them (v2 {@code 0.1} or {@code 0/1}, v3 {@code c/0/1}, {@code c.0.1} or the v2 encoding's).
     */
    private static final Pattern OWN_NAME = Pattern.compile("\\.zarray|\\.zattrs|zarr\\.json|(c|[0-9]+)(\\.[0-9]+)*");

    /** How many of the names not the array's a refusal shows. */
    private static final int SHOWN = 3;

    /**
     * Makes {@code store}, the node at {@code url}, ready for a new array's metadata document: fails when a group is
     * there, or an array and not {@code overwrite}, or anything that is not an array's (one listing of the names
     * there); deletes everything there when an array is (or only chunks without metadata are) and {@code overwrite}.
     * With {@code probeZarrJson} (a v2 array's creation, where a {@code zarr.json} is seldom there) it asks whether
     * {@code zarr.json} exists before reading it; a v3 array's creation reads it at once.
     */
    static void clear(Store store, String url, boolean overwrite, boolean probeZarrJson) {
        Place place = examine(store, url, overwrite, probeZarrJson);
        if (place.refusal() != null) {
            throw new StorageException(place.refusal());
        }
        if (place.holdsAny()) {
            store.deletePrefix("");
        }
    }

    /**
     * What {@link #clear} would find at {@code url}: why it would refuse the place (null when it would not), and whether
     * anything is there to delete. Reads only (the checks of a command made before it writes).
     */
    record Place(String refusal, boolean holdsAny, boolean array) {}

    static Place examine(Store store, String url, boolean overwrite, boolean probeZarrJson) {
        // A new place, the usual case, is one request on an object store: nothing listed below it. Only a place that
        // holds something is asked what (a listing of a large array pages through all its chunks; the existence
        // checks refuse a group or an array, when not overwriting, without it).
        if (store.isObjectStore() && !store.holdsAnyBelow("")) {
            return new Place(null, false, false);
        }
        if (store.exists(ZarrGroup.ZGROUP)) {
            return new Place("cannot create an array at " + url + ": a Zarr group is there", true, false);
        }
        byte[] v3 =
                !probeZarrJson || store.exists(ZarrV3Metadata.ZARR_JSON) ? store.get(ZarrV3Metadata.ZARR_JSON) : null;
        if (v3 != null && "group".equals(MetadataDocuments.parseObject(v3, url).get("node_type"))) {
            return new Place("cannot create an array at " + url + ": a Zarr group is there", true, false);
        }
        boolean array = v3 != null || store.exists(ZarrArray.ZARRAY);
        if (array && !overwrite) {
            return new Place(
                    "cannot create an array at " + url + ": an array already exists there "
                            + "(set overwrite to replace it)",
                    true,
                    true);
        }
        List<String> names = store.listChildren("");
        List<String> foreign = new ArrayList<>();
        for (String name : names) {
            if (!OWN_NAME.matcher(name).matches()) {
                foreign.add(name);
            }
        }
        if (!foreign.isEmpty()) {
            return new Place(
                    (array ? "cannot replace the array at " : "cannot create an array at ") + url + ": "
                            + (array
                                    ? "besides the array, it holds "
                                    : "it is not empty and not a Zarr array: it holds ")
                            + shown(foreign) + "; choose a new or empty place, or move "
                            + (foreign.size() == 1 ? "that" : "those") + " away",
                    true,
                    array);
        }
        if (!names.isEmpty() && !array && !overwrite) {
            return new Place(
                    "cannot create an array at " + url + ": it holds chunks (" + shown(names)
                            + ") but no array metadata (set overwrite to delete them)",
                    true,
                    false);
        }
        return new Place(null, !names.isEmpty(), array);
    }

    /** {@code 'a', 'b', 'c' and 4 more}. */
    private static String shown(List<String> names) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(SHOWN, names.size()); i++) {
            s.append(i == 0 ? "" : ", ").append('\'').append(names.get(i)).append('\'');
        }
        if (names.size() > SHOWN) {
            s.append(" and ").append(names.size() - SHOWN).append(" more");
        }
        return s.toString();
    }
}
