package io.cubed.array;

import io.cubed.chunk.ReduceFunction;

/**
 * Searching functions of the Array API standard: the indexes of extremes ({@code argmax}, {@code argmin}, along one
 * axis or, without an axis, into the array flattened in C order; ties give the first occurrence), their NaN-aware
 * forms, and {@code count_nonzero}. Results are int64. Building these runs nothing.
 */
public final class Searching {
    private Searching() {}

    /** The index of the maximum (of the first NaN, if any) over every axis ({@code argmax}). */
    public static CubedArray argmax(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ARGMAX, ReductionOptions.all());
    }

    /** The index of the maximum (of the first NaN, if any) over the axes of {@code options} ({@code argmax}). */
    public static CubedArray argmax(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ARGMAX, options);
    }

    /** The index of the minimum (of the first NaN, if any) over every axis ({@code argmin}). */
    public static CubedArray argmin(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ARGMIN, ReductionOptions.all());
    }

    /** The index of the minimum (of the first NaN, if any) over the axes of {@code options} ({@code argmin}). */
    public static CubedArray argmin(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ARGMIN, options);
    }

    /** The index of the maximum ignoring NaN; an all-NaN slice fails the computation over every axis ({@code nanargmax}). */
    public static CubedArray nanargmax(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANARGMAX, ReductionOptions.all());
    }

    /** The index of the maximum ignoring NaN; an all-NaN slice fails the computation over the axes of {@code options} ({@code nanargmax}). */
    public static CubedArray nanargmax(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANARGMAX, options);
    }

    /** The index of the minimum ignoring NaN; an all-NaN slice fails the computation over every axis ({@code nanargmin}). */
    public static CubedArray nanargmin(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANARGMIN, ReductionOptions.all());
    }

    /** The index of the minimum ignoring NaN; an all-NaN slice fails the computation over the axes of {@code options} ({@code nanargmin}). */
    public static CubedArray nanargmin(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANARGMIN, options);
    }

    /** The number of nonzero elements over every axis ({@code count_nonzero}). */
    public static CubedArray countNonzero(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.COUNT_NONZERO, ReductionOptions.all());
    }

    /** The number of nonzero elements over the axes of {@code options} ({@code count_nonzero}). */
    public static CubedArray countNonzero(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.COUNT_NONZERO, options);
    }
}
