package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.Map;

/**
 * Options of a reduction: the axes to reduce (all by default; an empty list reduces none, as the standard's
 * {@code axis=()}), {@code keepdims}, {@code splitEvery} (input chunks combined per task and round, spread over the
 * reduced axes; 4 by default, as Cubed), the accumulation {@code dtype} of sum and prod, and the {@code correction}
 * (degrees of freedom) of var and std, and {@code includeInitial} of the cumulative functions. Immutable: each {@code with}-style method returns a new object.
 *
 * <pre>{@code Statistical.var(x, ReductionOptions.axis(0).keepdims(true).correction(1))}</pre>
 */
public final class ReductionOptions {
    /** Cubed's default number of chunks combined per task and round. */
    public static final int DEFAULT_SPLIT_EVERY = 4;

    private static final ReductionOptions ALL =
            new ReductionOptions(null, false, DEFAULT_SPLIT_EVERY, null, 0, false, null);

    private final int[] axes;
    private final boolean keepdims;
    private final int splitEvery;
    private final DType dtype;
    private final double correction;
    private final boolean includeInitial;
    private final Map<Integer, Integer> splitByAxis;

    private ReductionOptions(
            int[] axes,
            boolean keepdims,
            int splitEvery,
            DType dtype,
            double correction,
            boolean includeInitial,
            Map<Integer, Integer> splitByAxis) {
        this.axes = axes == null ? null : axes.clone();
        this.keepdims = keepdims;
        this.splitEvery = splitEvery;
        this.dtype = dtype;
        this.correction = correction;
        this.includeInitial = includeInitial;
        this.splitByAxis = splitByAxis == null ? null : Map.copyOf(splitByAxis);
    }

    /** Reduce every axis ({@code axis=None}). */
    public static ReductionOptions all() {
        return ALL;
    }

    /** Reduce {@code axes} (negative counts from the end; none given: no axis, {@code axis=()}). */
    public static ReductionOptions axis(int... axes) {
        return ALL.axes(axes);
    }

    /** These options reducing {@code axes} instead. */
    public ReductionOptions axes(int... newAxes) {
        return new ReductionOptions(newAxes, keepdims, splitEvery, dtype, correction, includeInitial, splitByAxis);
    }

    /** These options keeping the reduced axes as length 1 ({@code keepdims=True}) or not. */
    public ReductionOptions keepdims(boolean keep) {
        return new ReductionOptions(axes, keep, splitEvery, dtype, correction, includeInitial, splitByAxis);
    }

    /** These options combining {@code n} (at least 2) input chunks per task and round. */
    public ReductionOptions splitEvery(int n) {
        if (n < 2) {
            throw new InvalidArgumentException("splitEvery must be at least 2, got " + n);
        }
        return new ReductionOptions(axes, keepdims, n, dtype, correction, includeInitial, null);
    }

    /**
     * These options combining {@code byAxis.get(a)} (at least 2) chunks per task and round along reduced axis
     * {@code a} (negative counts from the end), 2 along reduced axes it does not name (Cubed's dict form).
     */
    public ReductionOptions splitEvery(Map<Integer, Integer> byAxis) {
        for (Map.Entry<Integer, Integer> e : byAxis.entrySet()) {
            if (e.getValue() == null || e.getValue() < 2) {
                throw new InvalidArgumentException(
                        "splitEvery must be at least 2 on every axis, got " + e.getValue() + " for axis " + e.getKey());
            }
        }
        return new ReductionOptions(axes, keepdims, splitEvery, dtype, correction, includeInitial, byAxis);
    }

    /** These options accumulating sum or prod in {@code type}. */
    public ReductionOptions dtype(DType type) {
        return new ReductionOptions(axes, keepdims, splitEvery, type, correction, includeInitial, splitByAxis);
    }

    /** These options removing {@code c} degrees of freedom in var and std (0: population, 1: sample). */
    public ReductionOptions correction(double c) {
        return new ReductionOptions(axes, keepdims, splitEvery, dtype, c, includeInitial, splitByAxis);
    }

    /**
     * These options making cumulativeSum and cumulativeProd start with the identity (0 or 1), one element longer along
     * the axis ({@code include_initial=True}), or not.
     */
    public ReductionOptions includeInitial(boolean include) {
        return new ReductionOptions(axes, keepdims, splitEvery, dtype, correction, include, splitByAxis);
    }

    /** The axes to reduce as given (a copy), or null for all. */
    public int[] axes() {
        return axes == null ? null : axes.clone();
    }

    public boolean keepdims() {
        return keepdims;
    }

    public int splitEvery() {
        return splitEvery;
    }

    /** The per-axis form of splitEvery, or null when one number is spread over the reduced axes. */
    public Map<Integer, Integer> splitEveryByAxis() {
        return splitByAxis;
    }

    /** The accumulation type of sum and prod, or null for the standard's default. */
    public DType dtype() {
        return dtype;
    }

    public double correction() {
        return correction;
    }

    public boolean includeInitial() {
        return includeInitial;
    }

    @Override
    public String toString() {
        return "ReductionOptions{axis=" + (axes == null ? "None" : Arrays.toString(axes)) + ", keepdims=" + keepdims
                + ", splitEvery=" + (splitByAxis == null ? splitEvery : splitByAxis)
                + (dtype == null ? "" : ", dtype=" + dtype) + ", correction="
                + correction + (includeInitial ? ", includeInitial" : "") + "}";
    }
}
