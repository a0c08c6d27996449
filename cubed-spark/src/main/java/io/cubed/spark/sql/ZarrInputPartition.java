package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * The pieces of a Zarr table one Spark task reads: consecutive kept units (chunks, or inner chunks of shards), each
 * given by its {@link Span} along every dimension. Only the spans' boxes are read, and only their picked rows emitted.
 */
final class ZarrInputPartition implements InputPartition {
    private static final long serialVersionUID = 1L;

    /**
     * The selected part of one unit along one dimension: the elements {@code start .. start + length} (the bounding
     * range of what the filters keep), of which {@code picks} are kept (offsets from {@code start}, ascending; null
     * means all of them), with the coordinate values of that range (null when the column holds the index).
     */
    record Span(long start, int length, int[] picks, Chunk coordinates) implements Serializable {
        int count() {
            return picks == null ? length : picks.length;
        }

        int local(int p) {
            return picks == null ? p : picks[p];
        }
    }

    private final int index;
    private final List<Span[]> units;

    ZarrInputPartition(int index, List<Span[]> units) {
        this.index = index;
        this.units = List.copyOf(units);
    }

    int index() {
        return index;
    }

    List<Span[]> units() {
        return units;
    }
}
