package io.cubed.array;

import io.cubed.chunk.ReduceFunction;

/**
 * Statistical functions of the Array API standard and their NaN-aware forms (NumPy's {@code nan*}), as tree
 * reductions with bounded memory (see {@link Reduction} and docs/reductions.md). Result types follow the standard: sum
 * and prod of bool and signed integers give int64, of unsigned integers uint64; mean, var and std need floating-point
 * input. Building these runs nothing.
 */
public final class Statistical {
    private Statistical() {}

    /** The sum over every axis ({@code sum}). */
    public static CubedArray sum(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.SUM, ReductionOptions.all());
    }

    /** The sum over the axes of {@code options} ({@code sum}). */
    public static CubedArray sum(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.SUM, options);
    }

    /** The product over every axis ({@code prod}). */
    public static CubedArray prod(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.PROD, ReductionOptions.all());
    }

    /** The product over the axes of {@code options} ({@code prod}). */
    public static CubedArray prod(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.PROD, options);
    }

    /** The minimum (NaN if any element is NaN) over every axis ({@code min}). */
    public static CubedArray min(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.MIN, ReductionOptions.all());
    }

    /** The minimum (NaN if any element is NaN) over the axes of {@code options} ({@code min}). */
    public static CubedArray min(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.MIN, options);
    }

    /** The maximum (NaN if any element is NaN) over every axis ({@code max}). */
    public static CubedArray max(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.MAX, ReductionOptions.all());
    }

    /** The maximum (NaN if any element is NaN) over the axes of {@code options} ({@code max}). */
    public static CubedArray max(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.MAX, options);
    }

    /** The arithmetic mean over every axis ({@code mean}). */
    public static CubedArray mean(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.MEAN, ReductionOptions.all());
    }

    /** The arithmetic mean over the axes of {@code options} ({@code mean}). */
    public static CubedArray mean(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.MEAN, options);
    }

    /** The variance with the options' {@code correction} over every axis ({@code var}). */
    public static CubedArray var(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.VAR, ReductionOptions.all());
    }

    /** The variance with the options' {@code correction} over the axes of {@code options} ({@code var}). */
    public static CubedArray var(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.VAR, options);
    }

    /** The standard deviation with the options' {@code correction} over every axis ({@code std}). */
    public static CubedArray std(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.STD, ReductionOptions.all());
    }

    /** The standard deviation with the options' {@code correction} over the axes of {@code options} ({@code std}). */
    public static CubedArray std(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.STD, options);
    }

    /** The sum ignoring NaN over every axis ({@code nansum}). */
    public static CubedArray nansum(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANSUM, ReductionOptions.all());
    }

    /** The sum ignoring NaN over the axes of {@code options} ({@code nansum}). */
    public static CubedArray nansum(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANSUM, options);
    }

    /** The product ignoring NaN over every axis ({@code nanprod}). */
    public static CubedArray nanprod(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANPROD, ReductionOptions.all());
    }

    /** The product ignoring NaN over the axes of {@code options} ({@code nanprod}). */
    public static CubedArray nanprod(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANPROD, options);
    }

    /** The mean ignoring NaN (NaN where all are NaN) over every axis ({@code nanmean}). */
    public static CubedArray nanmean(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANMEAN, ReductionOptions.all());
    }

    /** The mean ignoring NaN (NaN where all are NaN) over the axes of {@code options} ({@code nanmean}). */
    public static CubedArray nanmean(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANMEAN, options);
    }

    /** The minimum ignoring NaN (NaN where all are NaN) over every axis ({@code nanmin}). */
    public static CubedArray nanmin(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANMIN, ReductionOptions.all());
    }

    /** The minimum ignoring NaN (NaN where all are NaN) over the axes of {@code options} ({@code nanmin}). */
    public static CubedArray nanmin(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANMIN, options);
    }

    /** The maximum ignoring NaN (NaN where all are NaN) over every axis ({@code nanmax}). */
    public static CubedArray nanmax(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANMAX, ReductionOptions.all());
    }

    /** The maximum ignoring NaN (NaN where all are NaN) over the axes of {@code options} ({@code nanmax}). */
    public static CubedArray nanmax(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANMAX, options);
    }

    /** The variance ignoring NaN over every axis ({@code nanvar}). */
    public static CubedArray nanvar(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANVAR, ReductionOptions.all());
    }

    /** The variance ignoring NaN over the axes of {@code options} ({@code nanvar}). */
    public static CubedArray nanvar(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANVAR, options);
    }

    /** The standard deviation ignoring NaN over every axis ({@code nanstd}). */
    public static CubedArray nanstd(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANSTD, ReductionOptions.all());
    }

    /** The standard deviation ignoring NaN over the axes of {@code options} ({@code nanstd}). */
    public static CubedArray nanstd(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANSTD, options);
    }

    /**
     * The running sum along the options' axis (required unless {@code x} is 1-d), in the type sum would give or the
     * options' dtype ({@code cumulative_sum}); a blocked scan, see docs/reductions.md.
     */
    public static CubedArray cumulativeSum(CubedArray x, ReductionOptions options) {
        return Scan.cumulative(x, false, options);
    }

    /** The running sum of a 1-d array ({@code cumulative_sum}). */
    public static CubedArray cumulativeSum(CubedArray x) {
        return Scan.cumulative(x, false, ReductionOptions.all());
    }

    /** The running product along the options' axis ({@code cumulative_prod}), typed as prod. */
    public static CubedArray cumulativeProd(CubedArray x, ReductionOptions options) {
        return Scan.cumulative(x, true, options);
    }

    /** The running product of a 1-d array ({@code cumulative_prod}). */
    public static CubedArray cumulativeProd(CubedArray x) {
        return Scan.cumulative(x, true, ReductionOptions.all());
    }
}
