package io.cubed.spark.sql;

import io.cubed.storage.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The driver's step between a write's two stages: from what each task reports ({@link ZarrWriteTask.Result}), the
 * chunks to merge with their fragments' keys. A chunk written whole by one task and given by another task too (whole
 * or as a fragment) has a cell given twice, which is an error naming its dimension values (read from the fragment).
 */
final class ZarrWriteFragments {
    private ZarrWriteFragments() {}

    static List<ZarrWriteMerge.Item> toMerge(ZarrWriteGrid grid, List<ZarrWriteTask.Result> results, Store store) {
        // Every run of whole chunks, by start; an overlap is a chunk written whole twice.
        List<long[]> runs = new ArrayList<>();
        for (ZarrWriteTask.Result r : results) {
            for (int i = 0; i < r.completeRuns.length; i += 2) {
                runs.add(new long[] {r.completeRuns[i], r.completeRuns[i + 1]});
            }
        }
        runs.sort((x, y) -> Long.compare(x[0], y[0]));
        long[] starts = new long[runs.size()];
        long[] ends = new long[runs.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = runs.get(i)[0];
            ends[i] = runs.get(i)[1];
            if (i > 0 && starts[i] < ends[i - 1]) {
                throw grid.duplicate(grid.coords(starts[i]), 0);
            }
        }
        Map<Long, List<String>> byChunk = new TreeMap<>();
        for (ZarrWriteTask.Result r : results) {
            for (int i = 0; i < r.fragmentChunks.length; i++) {
                long id = r.fragmentChunks[i];
                int at = Arrays.binarySearch(starts, id);
                int run = at >= 0 ? at : -at - 2;
                if (run >= 0 && id < ends[run]) {
                    byte[] b = store.get(r.fragmentKeys[i]);
                    throw grid.duplicate(grid.coords(id), b == null ? 0 : ZarrWriteMerge.firstCell(b));
                }
                byChunk.computeIfAbsent(id, k -> new ArrayList<>()).add(r.fragmentKeys[i]);
            }
        }
        List<ZarrWriteMerge.Item> items = new ArrayList<>();
        for (Map.Entry<Long, List<String>> e : byChunk.entrySet()) {
            items.add(new ZarrWriteMerge.Item(e.getKey(), e.getValue().toArray(new String[0])));
        }
        return items;
    }
}
