package io.cubed.jobs;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Two small Zarr groups as xarray writes them, for the {@code cubed sql} tests, and the formulas that wrote them for
 * the tests' reference loops: {@code era} (time 100..105 int64, lat 60, 45, 30, 15, 0 descending, lon 0, 90, 180, 270;
 * t2m float32 over time x lat x lon in chunks of 2 x 3 x 2, uneven at the edges) and {@code mask} (lsm int8 over lat x
 * lon, 1 on land).
 */
public final class SqlFixture {
    public static final long[] TIME = {100, 101, 102, 103, 104, 105};
    public static final double[] LAT = {60, 45, 30, 15, 0};
    public static final double[] LON = {0, 90, 180, 270};

    /** Floats get NaN as their fill value and integers none, as xarray's {@code to_zarr} writes them. */
    private static final Scalar NAN = Scalar.ofDouble(Double.NaN);

    private SqlFixture() {}

    /** t2m at the indexes (t, y, x): exact in float32 (quarters and eighths). */
    public static float t2m(int t, int y, int x) {
        return (float) (250 + 0.5 * t + 2 * y - 0.25 * x + 0.125 * ((t * y) % 3));
    }

    /** The land-sea mask at the indexes (y, x). */
    public static byte lsm(int y, int x) {
        return (byte) ((y + x) % 3 == 0 ? 1 : 0);
    }

    /** Writes the era group at {@code dir/era.zarr} and returns its path. */
    public static String writeEra(Path dir) {
        String url = dir.resolve("era.zarr").toString();
        ZarrGroup g = ZarrGroup.create(url, StoreOptions.empty());
        coordinates(g);
        ZarrArray time = g.createArray(
                "time",
                ZarrCreateOptions.builder(new long[] {TIME.length}, new int[] {TIME.length}, DType.INT64)
                        .fillValue(null)
                        .build());
        time.writeChunk(Chunk.wrap(DType.INT64, new int[] {TIME.length}, TIME.clone()), 0);
        time.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("time")));
        ZarrArray t2m = g.createArray(
                "t2m",
                ZarrCreateOptions.builder(
                                new long[] {TIME.length, LAT.length, LON.length}, new int[] {2, 3, 2}, DType.FLOAT32)
                        .fillValue(NAN)
                        .build());
        t2m.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("time", "lat", "lon")));
        ChunkGrid grid = t2m.grid();
        for (long i = 0; i < grid.numChunks(); i++) {
            long[] c = grid.chunkCoordsOf(i);
            int[] shape = grid.chunkShapeAt(c);
            long[] off = grid.chunkOffset(c);
            float[] v = new float[shape[0] * shape[1] * shape[2]];
            int k = 0;
            for (int t = 0; t < shape[0]; t++) {
                for (int y = 0; y < shape[1]; y++) {
                    for (int x = 0; x < shape[2]; x++) {
                        v[k++] = t2m((int) off[0] + t, (int) off[1] + y, (int) off[2] + x);
                    }
                }
            }
            t2m.writeChunk(Chunk.wrap(DType.FLOAT32, shape, v), c);
        }
        return url;
    }

    /** Writes the mask group at {@code dir/mask.zarr} and returns its path. */
    public static String writeMask(Path dir) {
        String url = dir.resolve("mask.zarr").toString();
        ZarrGroup g = ZarrGroup.create(url, StoreOptions.empty());
        coordinates(g);
        ZarrArray lsm = g.createArray(
                "lsm",
                ZarrCreateOptions.builder(
                                new long[] {LAT.length, LON.length}, new int[] {LAT.length, LON.length}, DType.INT8)
                        .fillValue(null)
                        .build());
        lsm.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("lat", "lon")));
        byte[] v = new byte[LAT.length * LON.length];
        for (int y = 0; y < LAT.length; y++) {
            for (int x = 0; x < LON.length; x++) {
                v[y * LON.length + x] = lsm(y, x);
            }
        }
        lsm.writeChunk(Chunk.wrap(DType.INT8, new int[] {LAT.length, LON.length}, v), 0, 0);
        return url;
    }

    private static void coordinates(ZarrGroup g) {
        ZarrArray lat = g.createArray(
                "lat",
                ZarrCreateOptions.builder(new long[] {LAT.length}, new int[] {LAT.length}, DType.FLOAT64)
                        .fillValue(NAN)
                        .build());
        lat.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {LAT.length}, LAT.clone()), 0);
        lat.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("lat")));
        ZarrArray lon = g.createArray(
                "lon",
                ZarrCreateOptions.builder(new long[] {LON.length}, new int[] {LON.length}, DType.FLOAT64)
                        .fillValue(NAN)
                        .build());
        lon.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {LON.length}, LON.clone()), 0);
        lon.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("lon")));
    }

    /** The data rows of a table {@code cubed sql} printed: the lines between the second and third border, split. */
    public static List<String[]> printedRows(String output) {
        List<String[]> rows = new ArrayList<>();
        int borders = 0;
        for (String line : output.lines().toList()) {
            if (line.startsWith("+-")) {
                borders++;
            } else if (line.startsWith("|") && borders == 2) {
                String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = cells[i].strip();
                }
                rows.add(cells);
            }
        }
        return rows;
    }

    /** The header cells of the printed table. */
    public static List<String> printedHeader(String output) {
        for (String line : output.lines().toList()) {
            if (line.startsWith("|")) {
                List<String> h = new ArrayList<>();
                for (String c : line.substring(1, line.length() - 1).split("\\|", -1)) {
                    h.add(c.strip());
                }
                return h;
            }
        }
        throw new AssertionError("no table in:\n" + output);
    }
}
