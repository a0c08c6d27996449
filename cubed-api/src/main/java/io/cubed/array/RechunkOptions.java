package io.cubed.array;

import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link Manipulation#rechunk} produces: chunks for every axis, or for some axes (the others keep their chunks),
 * or {@linkplain Builder#auto automatic} sizing of the axes not given so that a chunk is about a number of bytes; plus
 * planner settings ({@code minMem} in bytes, the maximum number of stages).
 */
public final class RechunkOptions {
    private final int[] chunks;
    private final Map<Integer, Integer> perAxis;
    private final MemorySize autoChunkSize;
    private final long minMemBytes;
    private final int maxStages;

    private RechunkOptions(Builder b) {
        this.chunks = b.chunks == null ? null : b.chunks.clone();
        this.perAxis = Map.copyOf(b.perAxis);
        this.autoChunkSize = b.autoChunkSize;
        this.minMemBytes = b.minMemBytes;
        this.maxStages = b.maxStages;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Options with chunks for every axis ({@code -1}: the whole axis). */
    public static RechunkOptions chunks(int... chunks) {
        return builder().chunks(chunks).build();
    }

    int[] chunks() {
        return chunks == null ? null : chunks.clone();
    }

    Map<Integer, Integer> perAxis() {
        return perAxis;
    }

    MemorySize autoChunkSize() {
        return autoChunkSize;
    }

    /** {@code minMem} in bytes, or -1 for the planner's default. */
    long minMemBytes() {
        return minMemBytes;
    }

    int maxStages() {
        return maxStages;
    }

    /** Builder of {@link RechunkOptions}. */
    public static final class Builder {
        private int[] chunks;
        private final Map<Integer, Integer> perAxis = new TreeMap<>();
        private MemorySize autoChunkSize;
        private long minMemBytes = -1;
        private int maxStages = io.cubed.primitive.RechunkPlanner.DEFAULT_MAX_STAGES;

        private Builder() {}

        /** Chunks for every axis, in elements ({@code -1}: the whole axis). */
        public Builder chunks(int... chunks) {
            this.chunks = chunks.clone();
            return this;
        }

        /** The chunk length along {@code axis} ({@code -1}: the whole axis); axes not given keep theirs. */
        public Builder axis(int axis, int chunk) {
            perAxis.put(axis, chunk);
            return this;
        }

        /** Chunk lengths for some axes, as {@link #axis} for each entry. */
        public Builder axes(Map<Integer, Integer> chunksByAxis) {
            perAxis.putAll(chunksByAxis);
            return this;
        }

        /**
         * Sizes the axes not given by {@link #axis} automatically: their current chunks are scaled by one common
         * factor (each clipped to its axis) so that a chunk holds about {@code chunkSize} bytes, as Dask's "auto".
         */
        public Builder auto(MemorySize chunkSize) {
            this.autoChunkSize = chunkSize;
            return this;
        }

        /** As {@link #auto(MemorySize)} with a size such as {@code "100MB"}. */
        public Builder auto(String chunkSize) {
            return auto(MemorySize.parse(chunkSize));
        }

        /** The smallest piece in bytes a copy task should copy from one input chunk before stages stop being added. */
        public Builder minMem(long bytes) {
            this.minMemBytes = bytes;
            return this;
        }

        /** The maximum number of copy stages. */
        public Builder maxStages(int stages) {
            this.maxStages = stages;
            return this;
        }

        public RechunkOptions build() {
            if (chunks != null && (!perAxis.isEmpty() || autoChunkSize != null)) {
                throw new InvalidArgumentException(
                        "rechunk: give chunks for every axis, or per-axis chunks and/or auto, not both");
            }
            return new RechunkOptions(this);
        }
    }
}
