package io.cubed.array;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.Objects;

/**
 * The keyword arguments of the standard's {@code fft} functions: for the one-axis transforms ({@code fft},
 * {@code rfft}, ...) the length {@code n} (default: the input's, or {@code 2(m − 1)} for {@code irfft} and
 * {@code hfft}) and the {@code axis} (default −1); for the n-d ones ({@code fftn}, ...) the lengths {@code s} (−1:
 * the input's) and the {@code axes} (default: the last {@code s.length} axes, or all); and the {@link FftNorm} of
 * both (default {@code BACKWARD}). A one-axis function refuses {@code s} and {@code axes}, an n-d one {@code n} and
 * {@code axis}. Immutable: each method returns new options.
 *
 * <pre>{@code Fft.rfft(x, FftOptions.defaults().n(64).axis(0).norm(FftNorm.ORTHO))}</pre>
 */
public final class FftOptions {
    private static final FftOptions DEFAULTS = new FftOptions(null, null, null, null, FftNorm.BACKWARD);

    private final Long n;
    private final Integer axis;
    private final long[] s;
    private final int[] axes;
    private final FftNorm norm;

    private FftOptions(Long n, Integer axis, long[] s, int[] axes, FftNorm norm) {
        this.n = n;
        this.axis = axis;
        this.s = s == null ? null : s.clone();
        this.axes = axes == null ? null : axes.clone();
        this.norm = Objects.requireNonNull(norm, "norm");
    }

    /** No {@code n}, {@code s} or {@code axes}, axis −1, norm {@code BACKWARD}. */
    public static FftOptions defaults() {
        return DEFAULTS;
    }

    /** These options with transform length {@code length} (at least 1) for a one-axis transform. */
    public FftOptions n(long length) {
        if (length < 1) {
            throw new InvalidArgumentException("fft: n must be at least 1, got " + length);
        }
        return new FftOptions(length, axis, s, axes, norm);
    }

    /** These options transforming {@code a} (negative counts from the end) in a one-axis transform. */
    public FftOptions axis(int a) {
        return new FftOptions(n, a, s, axes, norm);
    }

    /** These options with lengths {@code lengths} (each at least 1, or −1 for the input's) for an n-d transform. */
    public FftOptions s(long... lengths) {
        for (long l : lengths) {
            if (l < 1 && l != -1) {
                throw new InvalidArgumentException(
                        "fft: every entry of s must be at least 1 (or -1), got " + Arrays.toString(lengths));
            }
        }
        return new FftOptions(n, axis, lengths, axes, norm);
    }

    /** These options transforming {@code list} (negative counts from the end) in an n-d transform. */
    public FftOptions axes(int... list) {
        return new FftOptions(n, axis, s, list, norm);
    }

    /** These options with normalization {@code mode}. */
    public FftOptions norm(FftNorm mode) {
        return new FftOptions(n, axis, s, axes, mode);
    }

    /** The transform length given, or null for the default. */
    public Long n() {
        return n;
    }

    /** The axis given, or null for −1. */
    public Integer axis() {
        return axis;
    }

    /** The n-d lengths given (a copy), or null. */
    public long[] s() {
        return s == null ? null : s.clone();
    }

    /** The n-d axes given (a copy), or null. */
    public int[] axes() {
        return axes == null ? null : axes.clone();
    }

    public FftNorm norm() {
        return norm;
    }

    @Override
    public String toString() {
        return "FftOptions{" + (n == null ? "" : "n=" + n + ", ") + (axis == null ? "" : "axis=" + axis + ", ")
                + (s == null ? "" : "s=" + Arrays.toString(s) + ", ")
                + (axes == null ? "" : "axes=" + Arrays.toString(axes) + ", ") + "norm=" + norm.pythonName() + "}";
    }
}
