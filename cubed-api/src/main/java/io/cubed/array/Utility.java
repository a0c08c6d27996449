package io.cubed.array;

import io.cubed.chunk.ReduceFunction;

/**
 * Utility functions of the Array API standard: {@code all} and {@code any} (true where all / any elements are nonzero;
 * NaN counts as nonzero). Building these runs nothing.
 */
public final class Utility {
    private Utility() {}

    /** True where every element is nonzero over every axis ({@code all}). */
    public static CubedArray all(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ALL, ReductionOptions.all());
    }

    /** True where every element is nonzero over the axes of {@code options} ({@code all}). */
    public static CubedArray all(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ALL, options);
    }

    /** True where some element is nonzero over every axis ({@code any}). */
    public static CubedArray any(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ANY, ReductionOptions.all());
    }

    /** True where some element is nonzero over the axes of {@code options} ({@code any}). */
    public static CubedArray any(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ANY, options);
    }
}
