package io.cubed.array;

import io.cubed.dtype.DType;
import java.util.Objects;

/**
 * Options of {@link Blockwise#mapBlocks}: the output dtype, axes of the first input the function drops (each must be
 * a single chunk), positions of new length-1 axes in the output, an output chunk shape for the same number of chunks,
 * and extra memory per task in bytes the function needs beyond its input and output chunks.
 */
public final class MapBlocksOptions {
    private final DType dtype;
    private final int[] dropAxis;
    private final int[] newAxis;
    private final long[] outputShape;
    private final int[] outputChunks;
    private final long extraMemBytes;
    private final long tileMemBytes;

    private MapBlocksOptions(Builder b) {
        this.dtype = b.dtype;
        this.dropAxis = b.dropAxis.clone();
        this.newAxis = b.newAxis.clone();
        this.outputShape = b.outputShape == null ? null : b.outputShape.clone();
        this.outputChunks = b.outputChunks == null ? null : b.outputChunks.clone();
        this.extraMemBytes = b.extraMemBytes;
        this.tileMemBytes = b.tileMemBytes;
    }

    /** Options producing {@code dtype}. */
    public static Builder builder(DType dtype) {
        return new Builder(dtype);
    }

    public DType dtype() {
        return dtype;
    }

    int[] dropAxis() {
        return dropAxis.clone();
    }

    int[] newAxis() {
        return newAxis.clone();
    }

    long[] outputShape() {
        return outputShape == null ? null : outputShape.clone();
    }

    int[] outputChunks() {
        return outputChunks == null ? null : outputChunks.clone();
    }

    long extraMemBytes() {
        return extraMemBytes;
    }

    /**
     * For this package's elementwise functions: what one evaluation on the tiles of a chunk holds besides its operands
     * ({@link io.cubed.primitive.ElementwiseChunkFunction#tileWorkingBytes}); −1 when not given.
     */
    long tileMemBytes() {
        return tileMemBytes;
    }

    /** Builder of {@link MapBlocksOptions}. */
    public static final class Builder {
        private final DType dtype;
        private int[] dropAxis = new int[0];
        private int[] newAxis = new int[0];
        private long[] outputShape;
        private int[] outputChunks;
        private long extraMemBytes;
        private long tileMemBytes = -1;

        private Builder(DType dtype) {
            this.dtype = Objects.requireNonNull(dtype, "dtype");
        }

        /** Axes of the first input that the function removes; each must lie in one chunk. */
        public Builder dropAxis(int... axes) {
            this.dropAxis = axes.clone();
            return this;
        }

        /** Positions in the output of new axes of length 1. */
        public Builder newAxis(int... axes) {
            this.newAxis = axes.clone();
            return this;
        }

        /**
         * The output's shape and chunk shape, when the function changes chunk sizes; the output must have as many
         * chunks per axis as it would otherwise.
         */
        public Builder output(long[] shape, int[] chunks) {
            this.outputShape = shape.clone();
            this.outputChunks = chunks.clone();
            return this;
        }

        /** Memory in bytes the function needs per task beyond its input and output chunks. */
        public Builder extraMemBytes(long bytes) {
            this.extraMemBytes = bytes;
            return this;
        }

        /** What an elementwise function holds on the tiles of a chunk ({@link MapBlocksOptions#tileMemBytes}). */
        Builder tileMemBytes(long bytes) {
            this.tileMemBytes = bytes;
            return this;
        }

        public MapBlocksOptions build() {
            return new MapBlocksOptions(this);
        }
    }
}
