package io.cubed.storage.zarr;

import io.cubed.storage.ChunkStore;
import io.cubed.storage.RegroupedChunkStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An array's own attributes carried to a copy of it, in either Zarr version: what a user or xarray wrote there (CF
 * {@code units}, {@code scale_factor}, {@code _FillValue}, titles) goes with the data, as zarr-python's {@code
 * copy_store} carries {@code .zattrs}, and the dimension names take the copy's form ({@code _ARRAY_DIMENSIONS} in v2,
 * {@code dimension_names} in v3). Cubed's own incomplete mark is not carried.
 */
public final class Attributes {
    private Attributes() {}

    /**
     * Writes {@code source}'s attributes and dimension names to {@code target} (a Zarr array of either version,
     * replacing its attributes); returns the target with its new metadata. Nothing happens for stores that are not Zarr
     * arrays.
     */
    public static ChunkStore copy(ChunkStore source, ChunkStore target) {
        ChunkStore src = source instanceof RegroupedChunkStore r ? r.source() : source;
        Map<String, Object> attrs = new LinkedHashMap<>(of(src));
        attrs.remove(IncompleteMark.ATTRIBUTE);
        List<String> names = null;
        if (src instanceof ZarrV3Array || src instanceof ZarrArray) {
            try {
                names = DimensionNames.read(src);
            } catch (RuntimeException e) {
                names = null; // Malformed names stay the attribute they are.
            }
        }
        if (names != null && names.size() != target.grid().ndim()) {
            names = null;
        }
        if (target instanceof ZarrV3Array v3) {
            if (names != null) {
                attrs.remove(DimensionNames.ARRAY_DIMENSIONS);
            }
            ZarrV3Array written = v3.writeAttributes(attrs);
            return names == null ? written : DimensionNames.write(written, names);
        }
        if (target instanceof ZarrArray v2) {
            if (names != null) {
                attrs.put(DimensionNames.ARRAY_DIMENSIONS, new ArrayList<>(names));
            }
            v2.writeAttributes(attrs);
        }
        return target;
    }

    /**
     * The metadata of {@code array} that says how its chunks are laid out and coded, without attributes or dimension
     * names: for asking whether an array there is the one a copy would create, whatever the attributes it carried.
     */
    public static Object layout(ChunkStore array) {
        if (array instanceof ZarrV3Array v3) {
            return v3.metadata().withAttributes(Map.of()).withDimensionNames(null);
        }
        return ((ZarrArray) array).metadata();
    }

    /** The same for metadata about to be written. */
    public static Object layout(Object metadata) {
        return metadata instanceof ZarrV3Metadata m ? m.withAttributes(Map.of()).withDimensionNames(null) : metadata;
    }

    /** The attributes of a Zarr array of either version (a copy); none for other stores. */
    public static Map<String, Object> of(ChunkStore array) {
        if (array instanceof ZarrV3Array v3) {
            return v3.attributes();
        }
        if (array instanceof ZarrArray v2) {
            return v2.attributes();
        }
        return Map.of();
    }
}
