package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.ChunkStore;
import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The task of a DataFrame written as Zarr: its rows come sorted by {@code key} (column 0: the chunk's linear index
 * times the cells of a chunk, plus the cell's C-order offset in a whole chunk), every row of a chunk in this task
 * (the write clusters them so), followed by one column per variable. It fills one chunk per variable at a time (cells
 * no row gives keep the fill value), writes them when the key passes to the next chunk, and returns {@code {chunks
 * written, rows}}. Two rows with one key are an error naming the dimension values. Memory: one chunk of every
 * variable, plus the codec's buffers of one chunk.
 */
final class ZarrWriteTask implements FlatMapFunction<Iterator<InternalRow>, long[]>, Serializable {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final ZarrWriteCoordinate[] dims;
    private final ZarrWriteColumn[] vars;
    private final ChunkStore[] arrays;
    private final int[] chunk;

    ZarrWriteTask(
            String path,
            List<ZarrWriteCoordinate> dims,
            List<ZarrWriteColumn> vars,
            List<ChunkStore> arrays,
            int[] chunk) {
        this.path = path;
        this.dims = dims.toArray(new ZarrWriteCoordinate[0]);
        this.vars = vars.toArray(new ZarrWriteColumn[0]);
        this.arrays = arrays.toArray(new ChunkStore[0]);
        this.chunk = chunk.clone();
    }

    @Override
    public Iterator<long[]> call(Iterator<InternalRow> rows) {
        int nd = dims.length;
        long cells = 1;
        long[] chunkCounts = new long[nd];
        for (int a = 0; a < nd; a++) {
            cells *= chunk[a];
            chunkCounts[a] = (dims[a].size() + chunk[a] - 1) / chunk[a];
        }
        long current = -1;
        long previousKey = -1;
        long written = 0;
        long count = 0;
        Chunk[] buffers = new Chunk[vars.length];
        long[] coords = new long[nd];
        int[] shape = new int[nd];
        boolean edge = false;
        while (rows.hasNext()) {
            InternalRow row = rows.next();
            long key = row.getLong(0);
            if (key == previousKey) {
                throw duplicate(key, cells);
            }
            previousKey = key;
            long id = key / cells;
            if (id != current) {
                if (current >= 0) {
                    written += flush(buffers, coords);
                }
                current = id;
                long rest = id;
                edge = false;
                for (int a = nd - 1; a >= 0; a--) {
                    coords[a] = rest % chunkCounts[a];
                    rest /= chunkCounts[a];
                    shape[a] = (int) Math.min(chunk[a], dims[a].size() - coords[a] * chunk[a]);
                    edge |= shape[a] != chunk[a];
                }
                for (int v = 0; v < vars.length; v++) {
                    buffers[v] = vars[v].fill == null
                            ? Chunk.allocate(vars[v].dtype(), shape)
                            : Chunk.full(vars[v].dtype(), vars[v].fill, shape);
                }
            }
            int offset = (int) (key % cells);
            if (edge) {
                offset = clippedOffset(offset, shape);
            }
            for (int v = 0; v < vars.length; v++) {
                if (!row.isNullAt(v + 1)) {
                    set(buffers[v], vars[v], row, v + 1, offset);
                }
            }
            count++;
        }
        if (current >= 0) {
            written += flush(buffers, coords);
        }
        return List.of(new long[] {written, count}).iterator();
    }

    /** The offset in a chunk of {@code shape} of the cell at {@code offset} in a whole chunk (C order both). */
    private int clippedOffset(int offset, int[] shape) {
        int out = 0;
        int stride = 1;
        for (int a = chunk.length - 1; a >= 0; a--) {
            int o = offset % chunk[a];
            offset /= chunk[a];
            out += o * stride;
            stride *= shape[a];
        }
        return out;
    }

    private static void set(Chunk c, ZarrWriteColumn col, InternalRow row, int i, int offset) {
        switch (col.kind) {
            case BOOL:
                c.booleans()[offset] = row.getBoolean(i);
                break;
            case INT8:
                c.bytes()[offset] = row.getByte(i);
                break;
            case INT16:
                c.shorts()[offset] = row.getShort(i);
                break;
            case INT32:
            case DATE:
                c.ints()[offset] = row.getInt(i);
                break;
            case INT64:
                c.longs()[offset] = row.getLong(i);
                break;
            case FLOAT32:
                c.floats()[offset] = row.getFloat(i);
                break;
            case FLOAT64:
                c.doubles()[offset] = row.getDouble(i);
                break;
            default: // timestamps: microseconds, written in the column's unit (which divides every value)
                c.longs()[offset] = row.getLong(i) / col.unitMicros;
                break;
        }
    }

    private long flush(Chunk[] buffers, long[] coords) {
        for (int v = 0; v < vars.length; v++) {
            arrays[v].writeChunk(buffers[v], coords);
            buffers[v] = null;
        }
        return vars.length;
    }

    private InvalidArgumentException duplicate(long key, long cells) {
        long id = key / cells;
        long offset = key % cells;
        int nd = dims.length;
        long[] index = new long[nd];
        long[] counts = new long[nd];
        for (int a = 0; a < nd; a++) {
            counts[a] = (dims[a].size() + chunk[a] - 1) / chunk[a];
        }
        for (int a = nd - 1; a >= 0; a--) {
            index[a] = (id % counts[a]) * chunk[a] + offset % chunk[a];
            id /= counts[a];
            offset /= chunk[a];
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
