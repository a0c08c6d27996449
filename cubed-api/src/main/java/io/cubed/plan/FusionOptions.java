package io.cubed.plan;

import io.cubed.error.InvalidArgumentException;
import java.util.Set;

/**
 * How the optimizer fuses blockwise operations (see {@code docs/fusion.md}): whether it runs at all, the most source
 * arrays one fused task may read (Cubed's {@code max_total_source_arrays}, default 4), and per-array overrides:
 * arrays in {@code neverFuse} are always stored; arrays in {@code alwaysFuse} are computed inside their consumer's
 * tasks whenever the memory bound allows, even beyond the source limit or when that computes chunks more than once.
 */
public record FusionOptions(boolean enabled, int maxSourceArrays, Set<ArrayNode> neverFuse, Set<ArrayNode> alwaysFuse) {
    /** Cubed's default limit of source arrays per fused task. */
    public static final int DEFAULT_MAX_SOURCE_ARRAYS = 4;

    public FusionOptions {
        if (maxSourceArrays < 1) {
            throw new InvalidArgumentException("maxSourceArrays must be at least 1, got " + maxSourceArrays);
        }
        neverFuse = Set.copyOf(neverFuse);
        alwaysFuse = Set.copyOf(alwaysFuse);
    }

    /** Fusion on, with the default limit and no overrides. */
    public static FusionOptions defaults() {
        return new FusionOptions(true, DEFAULT_MAX_SOURCE_ARRAYS, Set.of(), Set.of());
    }

    /** No fusion: every operation writes its output. */
    public static FusionOptions disabled() {
        return new FusionOptions(false, DEFAULT_MAX_SOURCE_ARRAYS, Set.of(), Set.of());
    }
}
