package io.cubed.storage.zarr;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.RegroupedChunkStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Names of an array's dimensions as Zarr stores them: {@code dimension_names} in a Zarr v3 {@code zarr.json}, and
 * xarray's {@code _ARRAY_DIMENSIONS} attribute in Zarr v2 (which xarray, and this class, also read on v3).
 */
public final class DimensionNames {
    /** The xarray attribute naming a Zarr v2 array's dimensions. */
    public static final String ARRAY_DIMENSIONS = "_ARRAY_DIMENSIONS";

    private DimensionNames() {}

    /**
     * The dimension names of {@code array} (a Zarr array of either version, or a regrouped view of one), or null when it
     * names none (or not all of them); fails naming the document when the names are malformed.
     */
    public static List<String> read(ChunkStore array) {
        ChunkStore a = array instanceof RegroupedChunkStore r ? r.source() : array;
        int nd = a.grid().ndim();
        if (a instanceof ZarrV3Array v3) {
            List<String> dn = v3.metadata().dimensionNames();
            if (dn != null && dn.stream().allMatch(n -> n != null)) {
                return check(dn, a.url() + "/zarr.json dimension_names", nd);
            }
            return fromAttribute(v3.attributes().get(ARRAY_DIMENSIONS), a.url() + "/zarr.json", nd);
        }
        if (a instanceof ZarrArray v2) {
            return fromAttribute(v2.attributes().get(ARRAY_DIMENSIONS), a.url() + "/.zattrs", nd);
        }
        return null;
    }

    /**
     * Writes {@code names} to {@code array}: {@code _ARRAY_DIMENSIONS} in the attributes of a v2 array (keeping the
     * others), {@code dimension_names} of a v3 array. Returns the array with its new metadata; other stores as they
     * are.
     */
    public static ChunkStore write(ChunkStore array, List<String> names) {
        check(names, "dimension names for " + array.url(), array.grid().ndim());
        if (array instanceof ZarrV3Array v3) {
            return v3.writeDimensionNames(names);
        }
        if (array instanceof ZarrArray v2) {
            Map<String, Object> attrs = new LinkedHashMap<>(v2.attributes());
            attrs.put(ARRAY_DIMENSIONS, new ArrayList<>(names));
            v2.writeAttributes(attrs);
        }
        return array;
    }

    /** {@code names} when they name each of {@code ndim} dimensions once, with non-empty names; else a clear error. */
    public static List<String> check(List<String> names, String what, int ndim) {
        if (names.size() != ndim) {
            throw new InvalidArgumentException(
                    what + ": " + names + " names " + names.size() + " dimensions, but the array has " + ndim);
        }
        java.util.Set<String> seen = new HashSet<>();
        for (String n : names) {
            if (n == null || n.isEmpty()) {
                throw new InvalidArgumentException(what + ": " + names + " has an empty name");
            }
            if (!seen.add(n)) {
                throw new InvalidArgumentException(what + ": " + names + " names '" + n + "' twice");
            }
        }
        return List.copyOf(names);
    }

    private static List<String> fromAttribute(Object value, String where, int nd) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(x -> x instanceof String)) {
            throw new StorageException("malformed " + ARRAY_DIMENSIONS + " in " + where + ": expected a list of " + nd
                    + " names, got " + value);
        }
        List<String> out = new ArrayList<>();
        list.forEach(o -> out.add((String) o));
        try {
            return check(out, "malformed " + ARRAY_DIMENSIONS + " in " + where, nd);
        } catch (InvalidArgumentException e) {
            throw new StorageException(e.getMessage(), e);
        }
    }
}
