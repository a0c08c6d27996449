package io.cubed.grid;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * A regular chunk grid: an array of {@code shape} elements cut into chunks of {@code chunkShape} elements, the last
 * chunk along each axis clipped to the array's edge. Element indexes are {@code long}; chunk coordinates count chunks,
 * not elements. Immutable; array arguments are copied and the hash is computed once. Serializable: chunk stores carry
 * their grid into Spark tasks.
 */
public final class ChunkGrid implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] shape;
    private final int[] chunkShape;
    private final long[] chunksPerAxis;
    private final int hash;

    private ChunkGrid(long[] shape, int[] chunkShape) {
        if (shape.length != chunkShape.length) {
            throw new InvalidArgumentException("chunks " + Arrays.toString(chunkShape) + " have rank "
                    + chunkShape.length + " but shape " + Arrays.toString(shape) + " has rank " + shape.length);
        }
        this.shape = shape.clone();
        this.chunkShape = chunkShape.clone();
        this.chunksPerAxis = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] < 0) {
                throw new InvalidArgumentException(
                        "shape " + Arrays.toString(shape) + " has a negative length on axis " + i);
            }
            if (chunkShape[i] < 1) {
                throw new InvalidArgumentException("chunks " + Arrays.toString(chunkShape) + " must be at least 1 on "
                        + "every axis (axis " + i + " is " + chunkShape[i] + ")");
            }
            chunksPerAxis[i] = ceilDiv(shape[i], chunkShape[i]);
        }
        if (Arrays.stream(shape).noneMatch(s -> s == 0)) {
            long elements = 1;
            for (long s : shape) {
                if (elements > Long.MAX_VALUE / s) {
                    throw new InvalidArgumentException("shape " + Arrays.toString(shape) + " has more elements than "
                            + "an array can hold (" + Long.MAX_VALUE + ")");
                }
                elements *= s;
            }
        }
        this.hash = 31 * Arrays.hashCode(this.shape) + Arrays.hashCode(this.chunkShape);
    }

    /** A regular grid; {@code chunkShape} must have the rank of {@code shape} and be at least 1 on every axis. */
    public static ChunkGrid of(long[] shape, int[] chunkShape) {
        return new ChunkGrid(shape, chunkShape);
    }

    public int ndim() {
        return shape.length;
    }

    /** The array's shape in elements (a copy). */
    public long[] shape() {
        return shape.clone();
    }

    public long shape(int axis) {
        return shape[axis];
    }

    /** The full chunk shape in elements (a copy); edge chunks may be smaller, see {@link #chunkShapeAt}. */
    public int[] chunkShape() {
        return chunkShape.clone();
    }

    public int chunkShape(int axis) {
        return chunkShape[axis];
    }

    /** Number of chunks along each axis (a copy); 0 along a zero-length axis. */
    public long[] chunksPerAxis() {
        return chunksPerAxis.clone();
    }

    public long chunksPerAxis(int axis) {
        return chunksPerAxis[axis];
    }

    /** Total number of chunks: the product of {@link #chunksPerAxis()}; 1 for a 0-d array. */
    public long numChunks() {
        long n = 1;
        for (long c : chunksPerAxis) {
            n = Math.multiplyExact(n, c);
        }
        return n;
    }

    /** Total number of elements; 1 for a 0-d array. */
    public long size() {
        long n = 1;
        for (long s : shape) {
            n = Math.multiplyExact(n, s);
        }
        return n;
    }

    /** Number of elements in a full (unclipped) chunk. */
    public long chunkSize() {
        long n = 1;
        for (int c : chunkShape) {
            n *= c;
        }
        return n;
    }

    /** Index of the first element of the chunk at {@code chunkCoords}, per axis. */
    public long[] chunkOffset(long... chunkCoords) {
        checkCoords(chunkCoords);
        long[] offset = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            offset[i] = chunkCoords[i] * chunkShape[i];
        }
        return offset;
    }

    /** Shape in elements of the chunk at {@code chunkCoords}, clipped at the array's edge. */
    public int[] chunkShapeAt(long... chunkCoords) {
        checkCoords(chunkCoords);
        int[] s = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            s[i] = (int) Math.min(chunkShape[i], shape[i] - chunkCoords[i] * chunkShape[i]);
        }
        return s;
    }

    /** Throws if {@code chunkCoords} does not name a chunk of this grid. */
    public void checkCoords(long... chunkCoords) {
        if (chunkCoords.length != shape.length) {
            throw new InvalidArgumentException("chunk coordinates " + Arrays.toString(chunkCoords) + " have rank "
                    + chunkCoords.length + " but the array has rank " + shape.length);
        }
        for (int i = 0; i < shape.length; i++) {
            if (chunkCoords[i] < 0 || chunkCoords[i] >= chunksPerAxis[i]) {
                throw new InvalidArgumentException("chunk coordinates " + Arrays.toString(chunkCoords)
                        + " are outside the grid of " + Arrays.toString(chunksPerAxis) + " chunks");
            }
        }
    }

    /**
     * The chunk coordinates of the {@code index}-th chunk in C order (last axis fastest), for {@code 0 <= index <
     * numChunks()}.
     */
    public long[] chunkCoordsOf(long index) {
        long[] coords = new long[shape.length];
        for (int i = shape.length - 1; i >= 0; i--) {
            coords[i] = index % chunksPerAxis[i];
            index /= chunksPerAxis[i];
        }
        return coords;
    }

    /** The C-order index of the chunk at {@code chunkCoords} (checked): the inverse of {@link #chunkCoordsOf}. */
    public long chunkIndexOf(long... chunkCoords) {
        checkCoords(chunkCoords);
        long index = 0;
        for (int i = 0; i < chunkCoords.length; i++) {
            index = index * chunksPerAxis[i] + chunkCoords[i];
        }
        return index;
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ChunkGrid)) {
            return false;
        }
        ChunkGrid g = (ChunkGrid) o;
        return hash == g.hash && Arrays.equals(shape, g.shape) && Arrays.equals(chunkShape, g.chunkShape);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "ChunkGrid{shape=" + Arrays.toString(shape) + ", chunks=" + Arrays.toString(chunkShape) + "}";
    }
}
