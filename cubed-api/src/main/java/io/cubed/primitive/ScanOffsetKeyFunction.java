package io.cubed.primitive;

/**
 * The key function of the last step of a blocked scan: output chunk {@code o} reads scanned chunk {@code o} (input 0)
 * and, unless it is the first chunk along {@code axis}, the chunk of the running totals (input 1, {@code perChunk}
 * totals per chunk along the axis) holding the total of every chunk before it, element {@code o[axis] - 1}.
 */
public final class ScanOffsetKeyFunction implements KeyFunction {
    private static final long serialVersionUID = 1L;

    private final int axis;
    private final int perChunk;

    public ScanOffsetKeyFunction(int axis, int perChunk) {
        this.axis = axis;
        this.perChunk = perChunk;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long[][] scanned = {outputCoords.clone()};
        if (outputCoords[axis] == 0) {
            return new long[][][] {scanned, new long[0][]};
        }
        long[] total = outputCoords.clone();
        total[axis] = (outputCoords[axis] - 1) / perChunk;
        return new long[][][] {scanned, {total}};
    }
}
