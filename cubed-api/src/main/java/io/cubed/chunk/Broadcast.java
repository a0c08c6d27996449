package io.cubed.chunk;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/** NumPy broadcasting of chunk shapes: shapes are aligned on the right and a length of 1 stretches. */
public final class Broadcast {
    private Broadcast() {}

    /** The broadcast shape of {@code a} and {@code b}, or null when a pair of aligned lengths differs and neither is 1. */
    public static int[] shapeOrNull(int[] a, int[] b) {
        int n = Math.max(a.length, b.length);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int da = i < n - a.length ? 1 : a[i - (n - a.length)];
            int db = i < n - b.length ? 1 : b[i - (n - b.length)];
            if (da == db || db == 1) {
                out[i] = da;
            } else if (da == 1) {
                out[i] = db;
            } else {
                return null;
            }
        }
        return out;
    }

    /**
     * The broadcast shape of {@code a} and {@code b}.
     *
     * @throws InvalidArgumentException naming both shapes when a pair of aligned lengths differs and neither is 1
     */
    static int[] shape(String function, int[] a, int[] b) {
        int[] out = shapeOrNull(a, b);
        if (out != null) {
            return out;
        }
        // Some pair of aligned lengths differs with neither 1: name the first.
        int n = Math.max(a.length, b.length);
        int i = 0;
        int da;
        int db;
        do {
            da = i < n - a.length ? 1 : a[i - (n - a.length)];
            db = i < n - b.length ? 1 : b[i - (n - b.length)];
            i++;
        } while (da == db || da == 1 || db == 1);
        throw new InvalidArgumentException(function + ": shapes " + Arrays.toString(a) + " and " + Arrays.toString(b)
                + " cannot be broadcast together (axis " + (i - 1) + ": " + da + " vs " + db + ")");
    }

    /** {@code c} itself when it already has {@code shape}, else a new chunk with {@code c} broadcast to {@code shape}. */
    static Chunk expand(Chunk c, int[] shape) {
        int[] src = c.shape();
        if (Arrays.equals(src, shape)) {
            return c;
        }
        int n = shape.length;
        Chunk out = Chunk.allocate(c.dtype(), shape);
        if (out.size() == 0) {
            return out;
        }
        int slots = c.dtype().slotsPerElement();
        // Source strides in elements for each output axis; 0 where the source is stretched or absent.
        int[] full = Chunk.strides(src);
        int[] stride = new int[n];
        for (int i = 0; i < n; i++) {
            int j = i - (n - src.length);
            stride[i] = j < 0 || src[j] == 1 ? 0 : full[j];
        }
        Object from = c.data();
        Object to = out.data();
        if (n == 0) {
            System.arraycopy(from, 0, to, 0, slots);
            return out;
        }
        int inner = shape[n - 1];
        int innerStride = stride[n - 1];
        int[] pos = new int[n];
        int dst = 0;
        int total = out.size();
        while (dst < total) {
            int s = 0;
            for (int i = 0; i < n - 1; i++) {
                s += pos[i] * stride[i];
            }
            if (innerStride != 0) {
                System.arraycopy(from, s * slots, to, dst * slots, inner * slots);
            } else {
                // One element stretched along the row: copy it once, then double the filled run.
                System.arraycopy(from, s * slots, to, dst * slots, slots);
                for (int filled = 1; filled < inner; filled *= 2) {
                    int len = Math.min(filled, inner - filled);
                    System.arraycopy(to, dst * slots, to, (dst + filled) * slots, len * slots);
                }
            }
            dst += inner;
            for (int axis = n - 2; axis >= 0; axis--) {
                if (++pos[axis] < shape[axis]) {
                    break;
                }
                pos[axis] = 0;
            }
        }
        return out;
    }
}
