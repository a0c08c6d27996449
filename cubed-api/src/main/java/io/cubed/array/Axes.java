package io.cubed.array;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/** Axis arguments of the manipulation functions: normalizing negative axes and refusing bad ones by name. */
final class Axes {
    private Axes() {}

    /** {@code axis} in {@code [-ndim, ndim)} as an index in {@code [0, ndim)}; names {@code op} and the array. */
    static int normalize(String op, String array, int axis, int ndim) {
        if (axis < -ndim || axis >= ndim) {
            throw new InvalidArgumentException(op + ": axis " + axis + " is out of range for " + array + " (rank "
                    + ndim + ", axes " + -ndim + ".." + (ndim - 1) + ")");
        }
        return axis < 0 ? axis + ndim : axis;
    }

    /** Each of {@code axes} normalized; a repeated axis is refused. */
    static int[] normalizeAll(String op, String array, int[] axes, int ndim) {
        int[] out = new int[axes.length];
        boolean[] seen = new boolean[ndim];
        for (int i = 0; i < axes.length; i++) {
            out[i] = normalize(op, array, axes[i], ndim);
            if (seen[out[i]]) {
                throw new InvalidArgumentException(
                        op + ": axis " + axes[i] + " is repeated in " + Arrays.toString(axes) + " for " + array);
            }
            seen[out[i]] = true;
        }
        return out;
    }

    static long product(long[] shape) {
        long n = 1;
        for (long s : shape) {
            n = Math.multiplyExact(n, s);
        }
        return n;
    }

    static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}
