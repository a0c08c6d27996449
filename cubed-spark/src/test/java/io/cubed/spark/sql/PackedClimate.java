package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrGroup;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * A small CF-encoded Zarr v2 group as xarray writes ERA5-like data: {@code time} (int64 "hours since 1900-01-01",
 * every 6 hours from 2020-01-28T00:00, 40 steps in chunks of 8), {@code lat} (float64, descending 55 to 0, chunks of
 * 5), {@code lon} (float32, 0 to 27 by 3, chunks of 5), {@code t2m} (int16 packed with scale_factor 0.01, add_offset
 * 273.15 and the fill value -32767 on some cells) and {@code tp} (float32 with NaN on some cells). Each stored value is a
 * formula of its indexes, the reference of the tests.
 */
final class PackedClimate {
    static final int NT = 40;
    static final int NY = 12;
    static final int NX = 10;
    static final short FILL = -32767;
    /** 2020-01-28T00:00 in hours since 1900-01-01. */
    static final long FIRST_HOUR = java.time.Duration.between(
                    LocalDateTime.of(1900, 1, 1, 0, 0), LocalDateTime.of(2020, 1, 28, 0, 0))
            .toHours();

    private PackedClimate() {}

    static LocalDateTime time(int t) {
        return LocalDateTime.of(2020, 1, 28, 0, 0).plusHours(6L * t);
    }

    static double lat(int y) {
        return 55.0 - 5.0 * y;
    }

    static float lon(int x) {
        return 3.0f * x;
    }

    static short t2mStored(int t, int y, int x) {
        return (t + y + x) % 17 == 0 ? FILL : (short) (1000 + 37 * t - 150 * y + 11 * x);
    }

    /** The decoded t2m: NaN for the fill value, else stored * 0.01 + 273.15 in float32 (xarray's float type). */
    static float t2m(int t, int y, int x) {
        short s = t2mStored(t, y, x);
        return s == FILL ? Float.NaN : (float) s * 0.01f + 273.15f;
    }

    static float tp(int t, int y, int x) {
        return (t * 3 + y + x) % 11 == 0 ? Float.NaN : ((t * 7 + y * 5 + x) % 13) * 0.25f;
    }

    /** Writes the group at {@code url}. */
    static void write(String url) {
        ZarrGroup g = ZarrGroup.create(url, StoreOptions.empty());
        ZarrArray time = g.createArray(
                "time",
                ZarrCreateOptions.builder(new long[] {NT}, new int[] {8}, DType.INT64)
                        .fillValue(null)
                        .build());
        time.writeAttributes(Map.of(
                "_ARRAY_DIMENSIONS",
                List.of("time"),
                "units",
                "hours since 1900-01-01",
                "calendar",
                "proleptic_gregorian"));
        long[] tv = new long[NT];
        for (int t = 0; t < NT; t++) {
            tv[t] = FIRST_HOUR + 6L * t;
        }
        writeWhole(time, Chunk.wrap(DType.INT64, new int[] {NT}, tv));
        ZarrArray lat = g.createArray(
                "lat",
                ZarrCreateOptions.builder(new long[] {NY}, new int[] {5}, DType.FLOAT64)
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .build());
        lat.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("lat"), "units", "degrees_north"));
        double[] yv = new double[NY];
        for (int y = 0; y < NY; y++) {
            yv[y] = lat(y);
        }
        writeWhole(lat, Chunk.wrap(DType.FLOAT64, new int[] {NY}, yv));
        ZarrArray lon = g.createArray(
                "lon",
                ZarrCreateOptions.builder(new long[] {NX}, new int[] {5}, DType.FLOAT32)
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .build());
        lon.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("lon")));
        float[] xv = new float[NX];
        for (int x = 0; x < NX; x++) {
            xv[x] = lon(x);
        }
        writeWhole(lon, Chunk.wrap(DType.FLOAT32, new int[] {NX}, xv));

        long[] shape = {NT, NY, NX};
        int[] chunks = {8, 5, 5};
        ZarrArray t2m = g.createArray(
                "t2m",
                ZarrCreateOptions.builder(shape, chunks, DType.INT16)
                        .fillValue(Scalar.ofLong(FILL))
                        .build());
        t2m.writeAttributes(Map.of(
                "_ARRAY_DIMENSIONS",
                List.of("time", "lat", "lon"),
                "scale_factor",
                0.01,
                "add_offset",
                273.15,
                "units",
                "K",
                "long_name",
                "2 metre temperature"));
        ZarrArray tp = g.createArray(
                "tp",
                ZarrCreateOptions.builder(shape, chunks, DType.FLOAT32)
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .build());
        tp.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("time", "lat", "lon"), "units", "m"));
        Chunk t2mAll = Chunk.allocate(DType.INT16, NT, NY, NX);
        Chunk tpAll = Chunk.allocate(DType.FLOAT32, NT, NY, NX);
        for (int t = 0; t < NT; t++) {
            for (int y = 0; y < NY; y++) {
                for (int x = 0; x < NX; x++) {
                    int i = (t * NY + y) * NX + x;
                    t2mAll.shorts()[i] = t2mStored(t, y, x);
                    tpAll.floats()[i] = tp(t, y, x);
                }
            }
        }
        writeWhole(t2m, t2mAll);
        writeWhole(tp, tpAll);
    }

    /** Writes every chunk of {@code a} from {@code all}, the whole array. */
    private static void writeWhole(ZarrArray a, Chunk all) {
        long[] counts = a.grid().chunksPerAxis();
        long[] c = new long[counts.length];
        while (true) {
            long[] off = a.grid().chunkOffset(c);
            int[] shape = a.grid().chunkShapeAt(c);
            Chunk part = Chunk.allocate(a.dtype(), shape);
            int[] from = new int[off.length];
            for (int d = 0; d < off.length; d++) {
                from[d] = (int) off[d];
            }
            Chunk.copyRegion(all, from, part, new int[off.length], shape);
            a.writeChunk(part, c);
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
}
