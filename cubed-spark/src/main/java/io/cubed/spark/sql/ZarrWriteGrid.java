package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.util.List;

/**
 * The chunk grid of a DataFrame written as Zarr, as its tasks use it: chunk coordinates from a chunk's linear id (C
 * order over the chunk grid), the shape of a chunk (clipped at the edges), and the message naming the dimension values
 * of a cell given twice.
 */
final class ZarrWriteGrid implements Serializable {
    private static final long serialVersionUID = 1L;

    final String path;
    final ZarrWriteCoordinate[] dims;
    final int[] chunk;
    final long[] chunkCounts;
    final long[] chunksAfter; // chunks of the grid in the dimensions after each: the strides of a chunk's linear id

    ZarrWriteGrid(String path, List<ZarrWriteCoordinate> dims, int[] chunk) {
        this.path = path;
        this.dims = dims.toArray(new ZarrWriteCoordinate[0]);
        this.chunk = chunk.clone();
        int nd = chunk.length;
        this.chunkCounts = new long[nd];
        this.chunksAfter = new long[nd];
        long after = 1;
        for (int a = nd - 1; a >= 0; a--) {
            chunkCounts[a] = (this.dims[a].size() + chunk[a] - 1) / chunk[a];
            chunksAfter[a] = after;
            after *= chunkCounts[a];
        }
    }

    int ndim() {
        return chunk.length;
    }

    long chunkCount() {
        long n = 1;
        for (long c : chunkCounts) {
            n *= c;
        }
        return n;
    }

    /** The chunk coordinates of the chunk with linear id {@code id}. */
    long[] coords(long id) {
        long[] c = new long[chunk.length];
        for (int a = 0; a < c.length; a++) {
            c[a] = id / chunksAfter[a];
            id %= chunksAfter[a];
        }
        return c;
    }

    /** The shape of the chunk at {@code coords}: the chunk shape, clipped at the grid's edges. */
    int[] shape(long[] coords) {
        int[] s = new int[chunk.length];
        for (int a = 0; a < s.length; a++) {
            s[a] = (int) Math.min(chunk[a], dims[a].size() - coords[a] * chunk[a]);
        }
        return s;
    }

    /** Two rows for the cell at C-order {@code offset} in the chunk at {@code coords}: the error naming its values. */
    InvalidArgumentException duplicate(long[] coords, int offset) {
        int[] shape = shape(coords);
        int nd = chunk.length;
        long[] index = new long[nd];
        for (int a = nd - 1; a >= 0; a--) {
            index[a] = coords[a] * chunk[a] + offset % shape[a];
            offset /= shape[a];
        }
        StringBuilder names = new StringBuilder();
        StringBuilder values = new StringBuilder();
        for (int a = 0; a < nd; a++) {
            names.append(a == 0 ? "" : ", ").append(dims[a].column.name);
            values.append(a == 0 ? "" : ", ").append(dims[a].format((int) index[a]));
        }
        return new InvalidArgumentException("zarr write to " + path + ": two rows have (" + names + ") = (" + values
                + "); each cell of the grid takes one row at most (aggregate or drop the duplicates first)");
    }
}
