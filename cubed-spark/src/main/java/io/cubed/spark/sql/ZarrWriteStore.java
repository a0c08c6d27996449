package io.cubed.spark.sql;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.DimensionNames;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.Json;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrFormat;
import io.cubed.storage.zarr.ZarrGroup;
import io.cubed.storage.zarr.ZarrV3Array;
import io.cubed.storage.zarr.ZarrV3Group;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Zarr side of a DataFrame write: the coordinate arrays (written whole, one chunk each, by the driver), the
 * variables' arrays (metadata only, marked incomplete until every chunk is written) and, last, the group: its
 * consolidated metadata and then {@code .zgroup} (v3: the group's {@code zarr.json} with consolidated metadata), so
 * that no reader finds a group before its arrays are complete.
 */
final class ZarrWriteStore {
    private static final String BY = "spark df.write.format(\"zarr\")";

    private final ZarrWriteOptions o;
    private final String url;
    private final StoreOptions store;

    ZarrWriteStore(ZarrWriteOptions o) {
        this.o = o;
        this.url = o.path.endsWith("/") ? o.path.substring(0, o.path.length() - 1) : o.path;
        this.store = o.storeOptions;
    }

    /** Writes the coordinate array of {@code c}, with its dimension name and CF attributes; no fill value on v2. */
    void writeCoordinate(ZarrWriteCoordinate c) {
        long n = c.size();
        int chunk = (int) Math.max(1, n);
        DType dtype = c.column.dtype();
        Scalar fill = o.zarrFormat == 3 ? v3Fill(dtype) : null;
        // Its name and attributes go with its metadata: one write of zarr.json in v3, .zattrs and .zarray in v2.
        ChunkStore a = unwritten(c.column.name, new long[] {n}, new int[] {chunk}, dtype, fill);
        a = DimensionNames.write(a, List.of(c.column.name));
        a = Zarr.writeDocuments(withAttributes(a, c.column.cfAttributes()));
        if (n > 0) {
            a.writeChunk(c.toChunk(), 0);
        }
    }

    /** Creates the array of variable {@code v} over {@code dims}, marked incomplete; returns it for the tasks. */
    ChunkStore createVariable(ZarrWriteColumn v, List<ZarrWriteCoordinate> dims, long[] shape, int[] chunks) {
        Scalar fill = v.fill == null && o.zarrFormat == 3 ? Scalar.ofBoolean(false) : v.fill;
        List<String> names = new ArrayList<>();
        for (ZarrWriteCoordinate d : dims) {
            names.add(d.column.name);
        }
        Map<String, Object> attrs = new LinkedHashMap<>(v.cfAttributes());
        if (o.zarrFormat == 3 && v.fill != null && !v.kind.isFloating() && v.kind != ZarrWriteColumn.Kind.BOOL) {
            // Zarr v3's fill_value is no _FillValue to xarray (nor to the zarr source by default): say it, so that
            // cells
            // without a row read as missing there too. A NaN fill needs none (NaN is missing already), nor booleans,
            // which are never masked.
            attrs.put("_FillValue", v.fill.longValue());
        }
        return IncompleteMark.createMarked(
                () -> unwritten(v.name, shape, chunks, v.dtype(), fill),
                a -> withAttributes(DimensionNames.write(a, names), attrs),
                BY,
                "write the DataFrame again with mode overwrite");
    }

    /** Clears the marks of {@code variables}, then writes the group's consolidated metadata and the group last. */
    void finish(List<ChunkStore> variables) {
        for (ChunkStore v : variables) {
            IncompleteMark.clear(v);
        }
        if (o.zarrFormat == 3) {
            ZarrV3Group.create(url, store).consolidate();
            return;
        }
        Store s = Stores.open(url, store);
        Map<String, Object> meta = new TreeMap<>();
        Map<String, Object> group = Map.of("zarr_format", 2L);
        meta.put(ZarrGroup.ZGROUP, group);
        for (String name : s.listChildren("")) {
            String n = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
            for (String doc : List.of(ZarrArray.ZARRAY, ZarrArray.ZATTRS)) {
                byte[] b = s.get(n + "/" + doc);
                if (b != null) {
                    meta.put(n + "/" + doc, Json.parse(b));
                }
            }
        }
        Map<String, Object> consolidated = new LinkedHashMap<>();
        consolidated.put("metadata", meta);
        consolidated.put("zarr_consolidated_format", 1L);
        s.put(ZarrGroup.ZMETADATA, Json.write(consolidated).getBytes(StandardCharsets.UTF_8));
        s.put(ZarrGroup.ZGROUP, Json.write(group).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The array of a variable, not written until {@link IncompleteMark#createMarked} has set it up: its documents are
     * then written once each, with the dimension names, the CF attributes and the mark.
     */
    private ChunkStore unwritten(String name, long[] shape, int[] chunks, DType dtype, Scalar fill) {
        String at = url + "/" + name;
        if (o.zarrFormat == 2) {
            return ZarrArray.unwritten(
                    at,
                    ZarrCreateOptions.builder(shape, chunks, dtype)
                            .compressor(o.codec)
                            .fillValue(fill)
                            .build(),
                    store);
        }
        ZarrFormat f = ZarrFormat.v3();
        if (o.codecGiven) {
            f = f.withCompressor(o.codec);
        }
        return f.withFillValue(fill).unwritten(at, ChunkGrid.of(shape, chunks), dtype, false, store);
    }

    private static Scalar v3Fill(DType dtype) {
        return dtype.isFloating() ? Scalar.ofDouble(Double.NaN) : Scalar.zero();
    }

    private static ChunkStore withAttributes(ChunkStore a, Map<String, Object> extra) {
        if (extra.isEmpty()) {
            return a;
        }
        if (a instanceof ZarrV3Array v3) {
            Map<String, Object> attrs = new LinkedHashMap<>(v3.attributes());
            attrs.putAll(extra);
            return v3.writeAttributes(attrs);
        }
        ZarrArray v2 = (ZarrArray) a;
        Map<String, Object> attrs = new LinkedHashMap<>(v2.attributes());
        attrs.putAll(extra);
        v2.writeAttributes(attrs);
        return v2;
    }
}
