package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.ChunkStore;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the coordinate arrays of a table whole on the driver, their chunks' reads in flight together. */
final class CoordinateReads {
    private CoordinateReads() {}

    /** At most this many bytes of coordinate chunks in flight at once. */
    private static final long MAX_COORDINATE_IO_BYTES = 64L << 20;

    /**
     * The values of each 1-d array of {@code arrays}, read whole on the driver: on object stores the reads of all their
     * chunks (a sharded array's runs of inner chunks) start together, through a {@link ChunkIo} slot bound to this
     * thread.
     */
    static Map<String, Chunk> readWhole(Map<String, ChunkStore> arrays) {
        long budget = 0;
        for (ChunkStore c : arrays.values()) {
            budget += c.regionInFlightBytes(new int[] {(int) c.grid().shape()[0]});
        }
        Map<String, Chunk> out = new LinkedHashMap<>();
        if (budget <= 0) {
            arrays.forEach((d, c) -> out.put(d, whole(c)));
            return out;
        }
        ChunkIo io = new ChunkIo(Math.min(budget, MAX_COORDINATE_IO_BYTES));
        try (ChunkIo.Binding bound = io.bind()) {
            io.readAheadFor(0, () -> {
                for (ChunkStore c : arrays.values()) {
                    c.readRegionAhead(new long[] {0}, new int[] {(int) c.grid().shape()[0]});
                }
            });
            arrays.forEach((d, c) -> out.put(d, whole(c)));
        } finally {
            io.finishTask(0);
        }
        return out;
    }

    private static Chunk whole(ChunkStore c) {
        return c.readRegion(new long[] {0}, new int[] {(int) c.grid().shape()[0]});
    }
}
