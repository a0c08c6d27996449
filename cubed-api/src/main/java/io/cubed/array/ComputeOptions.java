package io.cubed.array;

import io.cubed.plan.ArrayNode;
import io.cubed.plan.FusionOptions;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrFormat;
import java.util.HashSet;
import java.util.Set;

/**
 * Per-computation choices for {@code compute}, {@code toZarr} and {@code Cubed.store}: whether to fuse blockwise
 * operations (default: the spec's {@link Spec#optimize()}), the most source arrays a fused task may read, and arrays
 * never or always to fuse (see {@link FusionOptions} and {@code docs/fusion.md}).
 */
public final class ComputeOptions {
    private final Boolean optimize;
    private final int maxSourceArrays;
    private final int maxInputBlocks;
    private final Set<ArrayNode> neverFuse;
    private final Set<ArrayNode> alwaysFuse;
    private final String resumeId;
    private final boolean deleteIntermediatesEarly;
    private final ZarrFormat zarrFormat;
    private final String writer;
    private final String resumeHint;
    private final java.util.function.UnaryOperator<io.cubed.storage.ChunkStore> targetSetUp;

    private ComputeOptions(Builder b) {
        this.optimize = b.optimize;
        this.maxSourceArrays = b.maxSourceArrays;
        this.maxInputBlocks = b.maxInputBlocks;
        this.neverFuse = Set.copyOf(b.neverFuse);
        this.alwaysFuse = Set.copyOf(b.alwaysFuse);
        this.resumeId = b.resumeId;
        this.deleteIntermediatesEarly = b.deleteIntermediatesEarly;
        this.zarrFormat = b.zarrFormat;
        this.writer = b.writer;
        this.resumeHint = b.resumeHint;
        this.targetSetUp = b.targetSetUp;
    }

    /** What sets up each target array the computation creates ({@link Builder#setUpTargets}); by default nothing. */
    java.util.function.UnaryOperator<io.cubed.storage.ChunkStore> targetSetUp() {
        return targetSetUp;
    }

    /** What the targets' incomplete marks say writes them, or null for the default. */
    String writer() {
        return writer;
    }

    /** How the targets' incomplete marks say to finish them, or null for the default. */
    String resumeHint() {
        return resumeHint;
    }

    /** The format targets are written in. */
    ZarrFormat zarrFormat() {
        return zarrFormat;
    }

    /** Options that change nothing: the spec decides. */
    public static ComputeOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The fusion options for a computation with {@code spec}. */
    FusionOptions fusion(Spec spec) {
        boolean on = optimize == null ? spec.optimize() : optimize;
        return new FusionOptions(on, maxSourceArrays, maxInputBlocks, neverFuse, alwaysFuse);
    }

    /** The id under which the computation can be resumed, or null. */
    String resumeId() {
        return resumeId;
    }

    boolean deleteIntermediatesEarly() {
        return deleteIntermediatesEarly;
    }

    /** Builder of {@link ComputeOptions}. */
    public static final class Builder {
        private Boolean optimize;
        private int maxSourceArrays = FusionOptions.DEFAULT_MAX_SOURCE_ARRAYS;
        private int maxInputBlocks = FusionOptions.DEFAULT_MAX_INPUT_BLOCKS;
        private final Set<ArrayNode> neverFuse = new HashSet<>();
        private final Set<ArrayNode> alwaysFuse = new HashSet<>();
        private String resumeId;
        private boolean deleteIntermediatesEarly;
        private ZarrFormat zarrFormat = ZarrFormat.v2();
        private String writer;
        private String resumeHint;
        private java.util.function.UnaryOperator<io.cubed.storage.ChunkStore> targetSetUp =
                java.util.function.UnaryOperator.identity();

        private Builder() {}

        /**
         * The Zarr format of the arrays written by {@code toZarr} and {@code Cubed.store}: {@link ZarrFormat#v2()}
         * (default), {@link ZarrFormat#v3()} or {@link ZarrFormat#v3Sharded} (each chunk of the array written is one
         * shard, written by one task). Intermediates are always Zarr v2.
         */
        public Builder zarrFormat(ZarrFormat format) {
            this.zarrFormat = java.util.Objects.requireNonNull(format, "format");
            return this;
        }

        /** Fuse blockwise operations (true) or run each as its own stage (false), whatever the spec says. */
        public Builder optimize(boolean optimize) {
            this.optimize = optimize;
            return this;
        }

        /** The most stored or virtual arrays one fused task may read (default 4, as Cubed). */
        public Builder maxSourceArrays(int max) {
            this.maxSourceArrays = max;
            return this;
        }

        /** About how many input chunks one fused task may read (default 16). */
        public Builder maxInputBlocks(int max) {
            this.maxInputBlocks = max;
            return this;
        }

        /** Always store these arrays (never compute them inside another operation's tasks). */
        public Builder neverFuse(CubedArray... arrays) {
            for (CubedArray a : arrays) {
                neverFuse.add(a.node());
            }
            return this;
        }

        /**
         * Compute these arrays inside their consumer's tasks whenever memory allows, even past the source-array limit
         * or when that computes some of their chunks more than once.
         */
        public Builder alwaysFuse(CubedArray... arrays) {
            for (CubedArray a : arrays) {
                alwaysFuse.add(a.node());
            }
            return this;
        }

        /**
         * Makes the computation resumable under {@code id}: intermediates go to {@code workDir/cubed-<id>/} and
         * survive a failure, and running the same arrays again with the same id (also from a new process) reuses the
         * arrays already written and skips every task whose output chunks all exist. Target arrays that exist are
         * reused instead of refused.
         */
        public Builder resume(String id) {
            this.resumeId = id;
            return this;
        }

        /**
         * Deletes each intermediate array as soon as every operation reading it has finished, instead of all of them
         * at the end: the storage a long plan needs at once stays small.
         */
        public Builder deleteIntermediatesEarly(boolean early) {
            this.deleteIntermediatesEarly = early;
            return this;
        }

        /**
         * What the targets' incomplete marks ({@link io.cubed.storage.zarr.IncompleteMark}) name as their writer, e.g.
         * {@code "cubed rechunk"}, and how they say to finish a target left incomplete, e.g. {@code "run the same
         * command with --resume"}; by default the computation and {@code ComputeOptions.resume}.
         */
        public Builder writtenBy(String writer, String resumeHint) {
            this.writer = writer;
            this.resumeHint = resumeHint;
            return this;
        }

        /**
         * Sets up each target array the computation creates, before its first chunk is written: {@code setUp} gets the
         * new array and returns it, or the array with new metadata, after writing its attributes, say a source's CF
         * attributes ({@code Attributes.copy(source, target)}). The new array's documents are not in the store yet:
         * what {@code setUp} writes of them, the dimension names and the incomplete mark are kept and then written
         * together, one {@code zarr.json} in Zarr v3 and one {@code .zattrs} before the {@code .zarray} in v2 (one
         * round trip each on an object store). A target that a resumed computation finds already created is not set
         * up again. By default nothing is done beyond the dimension names of the arrays that have them, which are
         * written after {@code setUp}.
         */
        public Builder setUpTargets(java.util.function.UnaryOperator<io.cubed.storage.ChunkStore> setUp) {
            this.targetSetUp = java.util.Objects.requireNonNull(setUp, "setUp");
            return this;
        }

        public ComputeOptions build() {
            return new ComputeOptions(this);
        }
    }
}
