package io.cubed.primitive;

/**
 * Output chunk {@code o} reads input chunk {@code o} and, where it exists, the next chunk along {@code axis}: the
 * key function of {@code diff}, whose last output element of a chunk needs the first input element of the next.
 */
public final class NeighbourKeyFunction implements KeyFunction {
    private static final long serialVersionUID = 1L;

    private final int axis;
    private final long chunksAlongAxis;

    public NeighbourKeyFunction(int axis, long chunksAlongAxis) {
        this.axis = axis;
        this.chunksAlongAxis = chunksAlongAxis;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        if (outputCoords[axis] + 1 >= chunksAlongAxis) {
            return new long[][][] {{outputCoords.clone()}};
        }
        long[] next = outputCoords.clone();
        next[axis]++;
        return new long[][][] {{outputCoords.clone(), next}};
    }
}
