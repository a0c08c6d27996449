package io.cubed.chunk;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * Where the elements of one input chunk go in a reduction's state chunk: each axis is kept, reduced (to length 1) or
 * grouped (to {@code numGroups}, element {@code i} along it going to group {@code labels[i]}); arg reductions also get
 * each element's index, along one axis or flattened in C order over the whole array. Element offsets and the array
 * shape are in elements.
 */
public final class ReduceLayout {
    /** {@link #argAxis} value: no element indexes are needed. */
    public static final int NO_INDEX = -1;
    /** {@link #argAxis} value: indexes are C-order positions in the whole (flattened) array. */
    public static final int FLAT_INDEX = -2;

    private final boolean[] reduced;
    private final long[] chunkOffset;
    private final long[] arrayShape;
    private final int argAxis;
    private final int groupAxis;
    private final int[] labels;
    private final int numGroups;
    /** For a box of a chunk: its first element within the chunk, and the chunk's shape; null for a whole chunk. */
    private final int[] boxOffset;

    private final int[] chunkShape;

    private ReduceLayout(
            boolean[] reduced,
            long[] chunkOffset,
            long[] arrayShape,
            int argAxis,
            int groupAxis,
            int[] labels,
            int numGroups,
            int[] boxOffset,
            int[] chunkShape) {
        this.reduced = reduced.clone();
        this.chunkOffset = chunkOffset.clone();
        this.arrayShape = arrayShape.clone();
        this.argAxis = argAxis;
        this.groupAxis = groupAxis;
        this.labels = labels;
        this.numGroups = numGroups;
        this.boxOffset = boxOffset;
        this.chunkShape = chunkShape;
    }

    /**
     * This layout for a box of the chunk instead of the whole chunk: the box starts at element {@code boxOffset} of a
     * chunk of {@code chunkShape}, and its elements go where the chunk's elements at those positions go (the state keeps
     * the chunk's shape). For reading a chunk a few decoded blocks at a time; not for grouped layouts.
     */
    public ReduceLayout inBox(int[] boxOffset, int[] chunkShape) {
        if (groupAxis >= 0) {
            throw new InvalidArgumentException("a grouped reduction layout takes whole chunks, not boxes");
        }
        if (boxOffset.length != reduced.length || chunkShape.length != reduced.length) {
            throw new InvalidArgumentException("a box at " + Arrays.toString(boxOffset) + " of a chunk of shape "
                    + Arrays.toString(chunkShape) + " for a reduction layout of rank " + reduced.length);
        }
        return new ReduceLayout(
                reduced,
                chunkOffset,
                arrayShape,
                argAxis,
                groupAxis,
                labels,
                numGroups,
                boxOffset.clone(),
                chunkShape.clone());
    }

    /**
     * A chunk starting at element {@code chunkOffset} of an array of {@code arrayShape}, reduced along the axes where
     * {@code reduced} is true; {@code argAxis} is an axis, {@link #NO_INDEX} or {@link #FLAT_INDEX}.
     */
    public static ReduceLayout of(boolean[] reduced, long[] chunkOffset, long[] arrayShape, int argAxis) {
        return new ReduceLayout(reduced, chunkOffset, arrayShape, argAxis, -1, null, 0, null, null);
    }

    /**
     * A chunk whose elements along {@code axis} go to groups {@code labels} (one per element of the chunk along the
     * axis, each in {@code [0, numGroups)}); the other axes are kept.
     *
     * @throws InvalidArgumentException when a label is outside {@code [0, numGroups)}
     */
    public static ReduceLayout groups(int ndim, int axis, int[] labels, int numGroups, long chunkOffsetAlongAxis) {
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= numGroups) {
                throw new InvalidArgumentException("group label " + labels[i] + " at position "
                        + (chunkOffsetAlongAxis + i) + " is outside [0, " + numGroups + ")");
            }
        }
        return new ReduceLayout(
                new boolean[ndim], new long[ndim], new long[ndim], NO_INDEX, axis, labels, numGroups, null, null);
    }

    public int argAxis() {
        return argAxis;
    }

    /** The state chunk's shape for an input chunk of {@code shape}: 1 on reduced axes, the groups on a grouped one. */
    public int[] stateShape(int[] shape) {
        int[] s = shape.clone();
        for (int a = 0; a < s.length; a++) {
            if (a == groupAxis) {
                s[a] = numGroups;
            } else if (reduced[a]) {
                s[a] = 1;
            }
        }
        return s;
    }

    /** Receives one run of input elements that map to state elements {@code out + j * outStride}. */
    interface RowSink {
        /**
         * Elements {@code src .. src + n - 1} (C order in the chunk) go to state elements {@code out + j * outStride};
         * element {@code j} has index {@code index + j * indexStride} (0 when no indexes are needed).
         */
        void row(int src, int n, int out, int outStride, long index, int indexStride);
    }

    /**
     * Calls {@code sink} for every run along the last axis of a chunk of {@code shape} that is longer than one element
     * (nothing when the chunk is empty).
     */
    void forEachRow(int[] shape, RowSink sink) {
        int nd = shape.length;
        if (reduced.length != nd) {
            throw new InvalidArgumentException(
                    "reduction layout of rank " + reduced.length + " for a chunk of shape " + Arrays.toString(shape));
        }
        if (nd == 0) {
            sink.row(0, 1, 0, 0, 0, 0);
            return;
        }
        for (int s : shape) {
            if (s == 0) {
                return;
            }
        }
        if (boxOffset != null) {
            for (int a = 0; a < nd; a++) {
                if (boxOffset[a] < 0 || boxOffset[a] + shape[a] > chunkShape[a]) {
                    throw new InvalidArgumentException("a box of shape " + Arrays.toString(shape) + " at "
                            + Arrays.toString(boxOffset) + " lies outside a chunk of shape "
                            + Arrays.toString(chunkShape));
                }
            }
        }
        int[] stateStride = Chunk.strides(stateShape(boxOffset == null ? shape : chunkShape));
        long[] arrayStride = new long[nd];
        long st = 1;
        for (int a = nd - 1; a >= 0; a--) {
            arrayStride[a] = st;
            st *= Math.max(1, arrayShape[a]);
        }
        // Rows run along the last axis longer than one element: trailing axes of length 1 (the contracted axis of a
        // matmul's partial products, say) would otherwise make rows of one element each. Flat indexes need the array
        // stride of the row axis, so arg reductions over every axis keep the last axis.
        int last = nd - 1;
        if (argAxis != FLAT_INDEX) {
            while (last > 0 && shape[last] == 1) {
                last--;
            }
        }
        int len = shape[last];
        boolean perElement = groupAxis == last;
        int outStride = reduced[last] ? 0 : stateStride[last];
        int indexStride = argAxis == FLAT_INDEX || argAxis == last ? 1 : 0;
        int[] coord = new int[nd];
        int src = 0;
        while (true) {
            coord[last] = 0;
            if (perElement) {
                int base = outIndex(coord, stateStride, last);
                for (int j = 0; j < len; j++) {
                    sink.row(src + j, 1, base + labels[j] * stateStride[last], 0, 0, 0);
                }
            } else {
                int out = outIndex(coord, stateStride, nd);
                sink.row(src, len, out, outStride, index(coord, arrayStride), indexStride);
            }
            src += len;
            if (!Chunk.nextIndex(coord, shape, last)) {
                return;
            }
        }
    }

    private int outIndex(int[] coord, int[] stateStride, int axes) {
        int out = 0;
        for (int a = 0; a < axes; a++) {
            if (a == groupAxis) {
                out += labels[coord[a]] * stateStride[a];
            } else if (!reduced[a]) {
                out += (coord[a] + (boxOffset == null ? 0 : boxOffset[a])) * stateStride[a];
            }
        }
        return out;
    }

    private long index(int[] coord, long[] arrayStride) {
        if (argAxis == NO_INDEX) {
            return 0;
        }
        if (argAxis == FLAT_INDEX) {
            long i = 0;
            for (int a = 0; a < coord.length; a++) {
                i += (chunkOffset[a] + (boxOffset == null ? 0 : boxOffset[a]) + coord[a]) * arrayStride[a];
            }
            return i;
        }
        return chunkOffset[argAxis] + (boxOffset == null ? 0 : boxOffset[argAxis]) + coord[argAxis];
    }
}
