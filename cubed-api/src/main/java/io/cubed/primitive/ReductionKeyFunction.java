package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * The key function of one round of a tree reduction: output chunk {@code o} reads, along each reduced axis {@code a},
 * the input chunks {@code [o·split[a], min((o + 1)·split[a], n[a]))} and, along the other axes, the chunk with the
 * output's coordinate. Every input gets the same list (the fields of a reduction state are separate arrays with the
 * same grid), except inputs with an axis map, whose keys are the main keys projected onto the mapped axes (a group
 * label array along one axis). Output axes dropped by the last round ({@code keepdims=false}) count as coordinate 0.
 */
public final class ReductionKeyFunction implements KeyFunction {
    private static final long serialVersionUID = 1L;

    private final long[] inChunksPerAxis;
    private final int[] split;
    private final int[] outputAxis;
    private final int[][] axisMaps;

    /**
     * {@code inChunksPerAxis}: chunks of the (main) input along each axis; {@code split[a]}: input chunks per output
     * chunk along axis {@code a} (1 on kept axes); {@code outputAxis[a]}: the output axis of input axis {@code a}, or
     * -1 when the output has dropped it; {@code axisMaps[j]}: for input {@code j}, the main axes its axes follow
     * (null: all of them).
     */
    public ReductionKeyFunction(long[] inChunksPerAxis, int[] split, int[] outputAxis, int[][] axisMaps) {
        if (split.length != inChunksPerAxis.length || outputAxis.length != inChunksPerAxis.length) {
            throw new InvalidArgumentException("reduction keys: split " + Arrays.toString(split) + " and output axes "
                    + Arrays.toString(outputAxis) + " must have one entry per input axis");
        }
        for (int s : split) {
            if (s < 1) {
                throw new InvalidArgumentException(
                        "reduction keys: split must be at least 1, got " + Arrays.toString(split));
            }
        }
        this.inChunksPerAxis = inChunksPerAxis.clone();
        this.split = split.clone();
        this.outputAxis = outputAxis.clone();
        this.axisMaps = new int[axisMaps.length][];
        for (int j = 0; j < axisMaps.length; j++) {
            this.axisMaps[j] = axisMaps[j] == null ? null : axisMaps[j].clone();
        }
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        int nd = inChunksPerAxis.length;
        long[] lo = new long[nd];
        long[] count = new long[nd];
        long total = 1;
        for (int a = 0; a < nd; a++) {
            long o = outputAxis[a] >= 0 ? outputCoords[outputAxis[a]] : 0;
            lo[a] = o * split[a];
            count[a] = Math.max(0, Math.min(lo[a] + split[a], inChunksPerAxis[a]) - lo[a]);
            total *= count[a];
        }
        long[][] main = new long[Math.toIntExact(total)][];
        for (int k = 0; k < main.length; k++) {
            long[] key = new long[nd];
            long rest = k;
            for (int a = nd - 1; a >= 0; a--) {
                key[a] = lo[a] + rest % count[a];
                rest /= count[a];
            }
            main[k] = key;
        }
        long[][][] keys = new long[axisMaps.length][][];
        for (int j = 0; j < keys.length; j++) {
            if (axisMaps[j] == null) {
                keys[j] = main;
                continue;
            }
            long[][] projected = new long[main.length][];
            for (int k = 0; k < main.length; k++) {
                projected[k] = new long[axisMaps[j].length];
                for (int b = 0; b < axisMaps[j].length; b++) {
                    projected[k][b] = main[k][axisMaps[j][b]];
                }
            }
            keys[j] = projected;
        }
        return keys;
    }

    @Override
    public String toString() {
        return "ReductionKeyFunction{split=" + Arrays.toString(split) + "}";
    }
}
