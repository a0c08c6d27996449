package io.cubed.spark.sql;

import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The task of a DataFrame written as Zarr, over one partition of the DataFrame as it is (no exchange, no sort): rows
 * of the dimension columns followed by the variables. Each row's dimension values are looked up in the coordinates
 * ({@link ZarrWriteIndex}) and its values set in the open chunk holding its cell ({@link ZarrWriteChunk}); a chunk
 * whose every cell this task gives is written as the final chunk at once. At most {@code maxOpen} chunks are open:
 * opening one more first stages the least recently used as a <em>fragment</em> (its given cells and values) under
 * {@link #STAGING} in the output, as are the chunks still open when the rows end (a partition's boundary, a sparse
 * grid, input not clustered by chunk); {@link ZarrWriteMerge} then merges each chunk's fragments. Two rows for one cell
 * of this task are an error naming the values; across tasks the driver and the merge find them. Memory: {@code
 * maxOpen} chunks of every variable plus the codec's buffers of one chunk.
 */
final class ZarrWriteTask implements Function2<Integer, Iterator<InternalRow>, Iterator<ZarrWriteTask.Result>> {
    private static final long serialVersionUID = 1L;

    /** The folder of the output holding the fragments while a write runs. */
    static final String STAGING = ".zarr-write-fragments";

    private final ZarrWriteGrid grid;
    private final ZarrWriteColumn[] vars;
    private final ChunkStore[] arrays;
    private final int maxOpen;
    private final String url;
    private final StoreOptions storeOptions;

    ZarrWriteTask(
            ZarrWriteGrid grid,
            List<ZarrWriteColumn> vars,
            List<ChunkStore> arrays,
            int maxOpen,
            String url,
            StoreOptions storeOptions) {
        this.grid = grid;
        this.vars = vars.toArray(new ZarrWriteColumn[0]);
        this.arrays = arrays.toArray(new ChunkStore[0]);
        this.maxOpen = Math.max(1, maxOpen);
        this.url = url;
        this.storeOptions = storeOptions;
    }

    /** What a task did: its rows, the chunks it wrote whole (runs of linear ids) and the fragments it staged. */
    static final class Result implements Serializable {
        private static final long serialVersionUID = 1L;

        final int partition;
        final long rows;
        final long[] completeRuns; // [start, end) pairs of linear chunk ids, ascending
        final long[] fragmentChunks;
        final String[] fragmentKeys; // keys in the output's store, one per fragment

        Result(int partition, long rows, long[] completeRuns, long[] fragmentChunks, String[] fragmentKeys) {
            this.partition = partition;
            this.rows = rows;
            this.completeRuns = completeRuns;
            this.fragmentChunks = fragmentChunks;
            this.fragmentKeys = fragmentKeys;
        }
    }

    @Override
    public Iterator<Result> call(Integer partition, Iterator<InternalRow> rows) {
        int nd = grid.ndim();
        ZarrWriteIndex[] index = new ZarrWriteIndex[nd];
        for (int a = 0; a < nd; a++) {
            index[a] = new ZarrWriteIndex(grid.dims[a]);
        }
        int[] chunk = grid.chunk;
        long[] chunksAfter = grid.chunksAfter;
        int[] within = new int[nd];
        long[] coords = new long[nd];
        Map<Long, ZarrWriteChunk> open = new HashMap<>();
        Runs complete = new Runs();
        List<Long> fragmentChunks = new ArrayList<>();
        List<String> fragmentKeys = new ArrayList<>();
        ZarrWriteChunk current = null;
        long uses = 0;
        long count = 0;
        while (rows.hasNext()) {
            InternalRow row = rows.next();
            long id = 0;
            for (int a = 0; a < nd; a++) {
                if (row.isNullAt(a)) {
                    throw ZarrWriteIndex.isNull(grid.path, grid.dims[a].column);
                }
                long key = index[a].key(row, a);
                int i = index[a].find(key);
                if (i < 0) {
                    throw ZarrWriteIndex.notFound(grid.path, grid.dims[a].column, index[a].format(key));
                }
                int c = i / chunk[a];
                within[a] = i - c * chunk[a];
                id += c * chunksAfter[a];
            }
            if (current == null || current.id != id) {
                current = open.get(id);
                if (current == null) {
                    if (open.size() >= maxOpen) {
                        ZarrWriteChunk lru = null;
                        for (ZarrWriteChunk o : open.values()) {
                            if (lru == null || o.lastUse < lru.lastUse) {
                                lru = o;
                            }
                        }
                        open.remove(lru.id);
                        stage(lru, partition, fragmentChunks, fragmentKeys);
                    }
                    long rest = id;
                    for (int a = 0; a < nd; a++) {
                        coords[a] = rest / chunksAfter[a];
                        rest %= chunksAfter[a];
                    }
                    current = new ZarrWriteChunk(id, coords, grid.shape(coords), vars);
                    open.put(id, current);
                }
                current.lastUse = ++uses;
            }
            int offset = 0;
            for (int a = 0; a < nd; a++) {
                offset = offset * current.shape[a] + within[a];
            }
            if (!current.give(offset)) {
                throw grid.duplicate(current.coords, offset);
            }
            current.set(vars, row, nd, offset);
            count++;
            if (current.isComplete()) {
                for (int v = 0; v < vars.length; v++) {
                    arrays[v].writeChunk(current.buffers[v], current.coords);
                }
                complete.add(id);
                open.remove(id);
                current = null;
            }
        }
        List<ZarrWriteChunk> left = new ArrayList<>(open.values());
        left.sort((x, y) -> Long.compare(x.id, y.id));
        for (ZarrWriteChunk c : left) {
            stage(c, partition, fragmentChunks, fragmentKeys);
        }
        long[] fc = new long[fragmentChunks.size()];
        for (int i = 0; i < fc.length; i++) {
            fc[i] = fragmentChunks.get(i);
        }
        return List.of(new Result(partition, count, complete.toArray(), fc, fragmentKeys.toArray(new String[0])))
                .iterator();
    }

    /** Writes the given cells of {@code c} as a fragment: {@code STAGING/<chunk id>/<partition>-<n>}. */
    private void stage(ZarrWriteChunk c, int partition, List<Long> chunks, List<String> keys) {
        String key = STAGING + "/" + c.id + "/" + partition + "-" + keys.size();
        Store store = Stores.open(url, storeOptions);
        store.put(key, c.fragment());
        chunks.add(c.id);
        keys.add(key);
    }

    /** Ascending runs of chunk ids, as {@code [start, end)} pairs; ids added out of order start new runs. */
    static final class Runs {
        private long[] runs = new long[8];
        private int n;

        void add(long id) {
            if (n > 0 && runs[n - 1] == id) {
                runs[n - 1] = id + 1;
                return;
            }
            if (n + 2 > runs.length) {
                runs = java.util.Arrays.copyOf(runs, runs.length * 2);
            }
            runs[n++] = id;
            runs[n++] = id + 1;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(runs, n);
        }
    }
}
