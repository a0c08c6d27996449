package io.cubed.plan;

import io.cubed.error.InvalidArgumentException;
import java.util.Set;

/**
 * How the optimizer fuses blockwise operations (see {@code docs/fusion.md}): whether it runs at all, the most source
 * arrays one fused task may read (Cubed's {@code max_total_source_arrays}, default 4) and about how many of their
 * chunks (Cubed's {@code max_total_num_input_blocks}; default 16), and per-array overrides:
 * arrays in {@code neverFuse} are always stored; arrays in {@code alwaysFuse} are computed inside their consumer's
 * tasks whenever the memory bound allows, even beyond the source limit or when that computes chunks more than once.
 */
public record FusionOptions(
        boolean enabled, int maxSourceArrays, int maxInputBlocks, Set<ArrayNode> neverFuse, Set<ArrayNode> alwaysFuse) {
    /** Cubed's default limit of source arrays per fused task. */
    public static final int DEFAULT_MAX_SOURCE_ARRAYS = 4;

    /**
     * Default limit of input chunks one fused task reads: an elementwise chain of up to four sources fuses into the
     * first round of a reduction (fan-in 4), but later rounds are not folded into it.
     */
    public static final int DEFAULT_MAX_INPUT_BLOCKS = 16;

    public FusionOptions {
        if (maxSourceArrays < 1) {
            throw new InvalidArgumentException("maxSourceArrays must be at least 1, got " + maxSourceArrays);
        }
        if (maxInputBlocks < 1) {
            throw new InvalidArgumentException("maxInputBlocks must be at least 1, got " + maxInputBlocks);
        }
        neverFuse = Set.copyOf(neverFuse);
        alwaysFuse = Set.copyOf(alwaysFuse);
    }

    /** Fusion on, with the default limit and no overrides. */
    public static FusionOptions defaults() {
        return new FusionOptions(true, DEFAULT_MAX_SOURCE_ARRAYS, DEFAULT_MAX_INPUT_BLOCKS, Set.of(), Set.of());
    }

    /** No fusion: every operation writes its output. */
    public static FusionOptions disabled() {
        return new FusionOptions(false, DEFAULT_MAX_SOURCE_ARRAYS, DEFAULT_MAX_INPUT_BLOCKS, Set.of(), Set.of());
    }
}
