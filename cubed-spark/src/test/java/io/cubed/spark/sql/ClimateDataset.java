package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrGroup;
import io.cubed.storage.zarr.ZarrV3Group;
import io.cubed.storage.zarr.ZarrV3Metadata;
import java.util.List;
import java.util.Map;

/**
 * A small climate-like dataset written as an xarray-style Zarr group (fill values as xarray writes them): coordinates {@code time} (int64, 0, 1, ...),
 * {@code lat} (float64, descending from 60) and {@code lon} (float32, ascending from 0 in steps of 15), and the
 * variables {@code flag} (uint8), {@code t2m} (float64) and {@code tp} (float32) over (time, lat, lon), each value a
 * formula of its indexes (the reference of the tests).
 */
public final class ClimateDataset {
    final int nt;
    final int ny;
    final int nx;
    final int[] chunks;

    public ClimateDataset(int nt, int ny, int nx, int... chunks) {
        this.nt = nt;
        this.ny = ny;
        this.nx = nx;
        this.chunks = chunks;
    }

    public static long time(int t) {
        return t;
    }

    public static double lat(int y) {
        return 60.0 - 5.0 * y;
    }

    public static float lon(int x) {
        return 15.0f * x;
    }

    public static double t2m(int t, int y, int x) {
        return 250.0 + t + 0.25 * y + 0.001 * x;
    }

    public static float tp(int t, int y, int x) {
        return ((t * 31 + y * 7 + x) % 13) / 4.0f;
    }

    public static short flag(int t, int y, int x) {
        return (short) ((t * 37 + y * 11 + x * 3) % 256);
    }

    /** Writes the dataset as Zarr v2 (with {@code _ARRAY_DIMENSIONS}) at {@code url}. */
    public void writeV2(String url, StoreOptions options) {
        ZarrGroup g = ZarrGroup.create(url, options);
        write(
                g.createArray(
                        "time",
                        ZarrCreateOptions.builder(new long[] {nt}, new int[] {nt}, DType.INT64)
                                .fillValue(xarrayFill(DType.INT64))
                                .build()),
                List.of("time"));
        write(
                g.createArray(
                        "lat",
                        ZarrCreateOptions.builder(new long[] {ny}, new int[] {ny}, DType.FLOAT64)
                                .fillValue(xarrayFill(DType.FLOAT64))
                                .build()),
                List.of("lat"));
        write(
                g.createArray(
                        "lon",
                        ZarrCreateOptions.builder(new long[] {nx}, new int[] {nx}, DType.FLOAT32)
                                .fillValue(xarrayFill(DType.FLOAT32))
                                .build()),
                List.of("lon"));
        long[] shape = {nt, ny, nx};
        for (String v : List.of("t2m", "tp", "flag")) {
            write(
                    g.createArray(
                            v,
                            ZarrCreateOptions.builder(shape, chunks, dtypeOf(v))
                                    .fillValue(xarrayFill(dtypeOf(v)))
                                    .build()),
                    List.of("time", "lat", "lon"));
        }
    }

    /** Writes the dataset as Zarr v3 with {@code dimension_names}, the variables sharded in 2 x 2 x 2 inner chunks. */
    public void writeV3Sharded(String url, StoreOptions options) {
        ZarrV3Group g = ZarrV3Group.create(url, options);
        for (String c : List.of("time", "lat", "lon")) {
            int n = c.equals("time") ? nt : c.equals("lat") ? ny : nx;
            DType dt = c.equals("time") ? DType.INT64 : c.equals("lat") ? DType.FLOAT64 : DType.FLOAT32;
            write(
                    g.createArray(
                            c,
                            ZarrV3Metadata.create(
                                            new long[] {n},
                                            new int[] {n},
                                            dt,
                                            Scalar.zero(),
                                            ZarrV3Metadata.defaultCodecs())
                                    .withDimensionNames(List.of(c)),
                            false),
                    null);
        }
        long[] shape = {nt, ny, nx};
        int[] shard = {chunks[0] * 2, chunks[1] * 2, chunks[2] * 2};
        for (String v : List.of("t2m", "tp", "flag")) {
            ZarrV3Metadata md = ZarrV3Metadata.create(
                            shape, shard, dtypeOf(v), Scalar.zero(), ZarrV3Metadata.sharding(chunks, List.of()))
                    .withDimensionNames(List.of("time", "lat", "lon"));
            write(g.createArray(v, md, false), null);
        }
    }

    /**
     * The Zarr v2 fill value xarray writes for a variable without one: NaN for floats, none ({@code null}) for
     * integers. A fill value that elements take (zarr-python's default 0) reads as missing, as xarray reads it.
     */
    static Scalar xarrayFill(DType dtype) {
        return dtype.isFloating() ? Scalar.ofDouble(Double.NaN) : null;
    }

    static DType dtypeOf(String variable) {
        switch (variable) {
            case "t2m":
                return DType.FLOAT64;
            case "tp":
                return DType.FLOAT32;
            case "flag":
                return DType.UINT8;
            default:
                throw new IllegalArgumentException(variable);
        }
    }

    /** Writes every chunk of {@code a} from the formulas; names its dimensions in the v2 attributes when given. */
    private void write(ChunkStore a, List<String> dims) {
        if (dims != null && a instanceof io.cubed.storage.zarr.ZarrArray z) {
            z.writeAttributes(Map.of("_ARRAY_DIMENSIONS", dims));
        }
        String name = a.url().substring(a.url().lastIndexOf('/') + 1);
        ChunkGrid grid = a.grid();
        long[] counts = grid.chunksPerAxis();
        long[] c = new long[grid.ndim()];
        while (true) {
            int[] shape = grid.chunkShapeAt(c);
            long[] off = grid.chunkOffset(c);
            Chunk chunk = Chunk.allocate(a.dtype(), shape);
            for (int i = 0; i < chunk.size(); i++) {
                int[] idx = new int[shape.length];
                int r = i;
                for (int d = shape.length - 1; d >= 0; d--) {
                    idx[d] = (int) (off[d] + r % shape[d]);
                    r /= shape[d];
                }
                set(chunk, i, name, idx);
            }
            a.writeChunk(chunk, c);
            int d = c.length - 1;
            while (d >= 0 && ++c[d] == counts[d]) {
                c[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    private static void set(Chunk chunk, int i, String name, int[] idx) {
        switch (name) {
            case "time" -> chunk.longs()[i] = time(idx[0]);
            case "lat" -> chunk.doubles()[i] = lat(idx[0]);
            case "lon" -> chunk.floats()[i] = lon(idx[0]);
            case "t2m" -> chunk.doubles()[i] = t2m(idx[0], idx[1], idx[2]);
            case "tp" -> chunk.floats()[i] = tp(idx[0], idx[1], idx[2]);
            case "flag" -> chunk.bytes()[i] = (byte) flag(idx[0], idx[1], idx[2]);
            default -> throw new IllegalArgumentException(name);
        }
    }
}
