package io.cubed.primitive;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The back key function of a blockwise operation: for the chunk coordinates of one output chunk, the chunk
 * coordinates of the input chunks it reads, as {@code keys[input][k][axis]}. Serializable; tasks evaluate it.
 */
@FunctionalInterface
public interface KeyFunction extends Serializable {
    /** The input chunks read for output chunk {@code outputCoords}: one list of chunk coordinates per input. */
    long[][][] inputKeys(long[] outputCoords);

    /**
     * The input chunks read by a task computing every output chunk of {@code region}: by default, per input, the
     * union of {@link #inputKeys(long[])} over the region's chunks in C order, each chunk once.
     */
    default long[][][] inputKeys(TaskRegion region) {
        if (region.isSingleChunk()) {
            return inputKeys(region.first());
        }
        List<List<long[]>> union = new ArrayList<>();
        List<Set<List<Long>>> seen = new ArrayList<>();
        for (long k = 0; k < region.numChunks(); k++) {
            long[][][] keys = inputKeys(region.chunk(k));
            for (int j = 0; j < keys.length; j++) {
                if (union.size() <= j) {
                    union.add(new ArrayList<>());
                    seen.add(new HashSet<>());
                }
                for (long[] key : keys[j]) {
                    if (seen.get(j).add(Arrays.stream(key).boxed().toList())) {
                        union.get(j).add(key);
                    }
                }
            }
        }
        long[][][] out = new long[union.size()][][];
        for (int j = 0; j < out.length; j++) {
            out[j] = union.get(j).toArray(new long[0][]);
        }
        return out;
    }

    /**
     * The input chunks a task computing {@code region} reads, as the task holds them: by default the list of {@link
     * #inputKeys(TaskRegion)}; a key function whose keys form a box of chunk coordinates may return {@link
     * TaskKeys#box} instead, which holds them in a fixed amount of memory.
     */
    default TaskKeys taskKeys(TaskRegion region) {
        return TaskKeys.listed(region.isSingleChunk() ? inputKeys(region.first()) : inputKeys(region));
    }
}
