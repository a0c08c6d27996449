package io.cubed.primitive;

import java.util.ArrayList;
import java.util.List;

/**
 * Output chunk {@code o} reads the input chunks {@code o + from … o + to} along {@code axis} that exist (in order),
 * and the chunk with the same coordinate along the other axes: {@code (0, 1)} for {@code diff}, whose last output
 * element of a chunk needs the first input element of the next; {@code (-1, 0)} for a scan's {@code include_initial},
 * whose output is shifted by one element.
 */
public final class NeighbourKeyFunction implements KeyFunction {
    private static final long serialVersionUID = 1L;

    private final int axis;
    private final long chunksAlongAxis;
    private final int from;
    private final int to;

    /** Chunk {@code o} and the next one along {@code axis} ({@code from = 0, to = 1}). */
    public NeighbourKeyFunction(int axis, long chunksAlongAxis) {
        this(axis, chunksAlongAxis, 0, 1);
    }

    /** Chunks {@code o + from … o + to} along {@code axis}, those in {@code [0, chunksAlongAxis)}. */
    public NeighbourKeyFunction(int axis, long chunksAlongAxis, int from, int to) {
        this.axis = axis;
        this.chunksAlongAxis = chunksAlongAxis;
        this.from = from;
        this.to = to;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        List<long[]> keys = new ArrayList<>();
        for (int d = from; d <= to; d++) {
            long c = outputCoords[axis] + d;
            if (c >= 0 && c < chunksAlongAxis) {
                long[] k = outputCoords.clone();
                k[axis] = c;
                keys.add(k);
            }
        }
        return new long[][][] {keys.toArray(new long[0][])};
    }
}
