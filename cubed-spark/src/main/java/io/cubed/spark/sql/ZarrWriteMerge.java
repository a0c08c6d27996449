package io.cubed.spark.sql;

import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * The second stage of a DataFrame written as Zarr, over the chunks the write tasks staged fragments of only: each
 * chunk starts as the fill value, gets the cells of each of its fragments, and is written as the final chunk of every
 * variable. A cell in two fragments (two rows for one cell, in different tasks) is an error naming its dimension
 * values. Returns the chunks written. Memory: one chunk of every variable and one fragment.
 */
final class ZarrWriteMerge implements FlatMapFunction<Iterator<ZarrWriteMerge.Item>, Long> {
    private static final long serialVersionUID = 1L;

    private final ZarrWriteGrid grid;
    private final ZarrWriteColumn[] vars;
    private final ChunkStore[] arrays;
    private final String url;
    private final StoreOptions storeOptions;

    ZarrWriteMerge(
            ZarrWriteGrid grid, List<ZarrWriteColumn> vars, List<ChunkStore> arrays, String url, StoreOptions o) {
        this.grid = grid;
        this.vars = vars.toArray(new ZarrWriteColumn[0]);
        this.arrays = arrays.toArray(new ChunkStore[0]);
        this.url = url;
        this.storeOptions = o;
    }

    /** One chunk to merge: its linear id and the keys of its fragments. */
    static final class Item implements Serializable {
        private static final long serialVersionUID = 1L;

        final long chunk;
        final String[] keys;

        Item(long chunk, String[] keys) {
            this.chunk = chunk;
            this.keys = keys.clone();
        }
    }

    @Override
    public Iterator<Long> call(Iterator<Item> items) {
        Store store = Stores.open(url, storeOptions);
        long written = 0;
        while (items.hasNext()) {
            Item item = items.next();
            long[] coords = grid.coords(item.chunk);
            ZarrWriteChunk c = new ZarrWriteChunk(item.chunk, coords, grid.shape(coords), vars);
            for (String key : item.keys) {
                byte[] b = store.get(key);
                if (b == null) {
                    throw new StorageException("zarr write to " + grid.path + ": the staged fragment " + key
                            + " is missing (was the output changed while it was written?)");
                }
                int twice = c.merge(b);
                if (twice >= 0) {
                    throw grid.duplicate(coords, twice);
                }
            }
            for (int v = 0; v < vars.length; v++) {
                arrays[v].writeChunk(c.buffers[v], coords);
            }
            written++;
        }
        return List.of(written).iterator();
    }

    /** The first cell of a fragment (for the message when the chunk was also written whole by a task). */
    static int firstCell(byte[] fragment) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(fragment).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        in.getInt();
        return in.getInt() > 0 ? in.getInt() : 0;
    }
}
