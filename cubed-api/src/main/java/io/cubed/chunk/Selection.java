package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;

/**
 * Kernels for the searching and set functions on chunks: {@link #where}, and {@link #sortKeys}, which turns the
 * elements of a chunk into longs whose signed order is the order of the values, so searching and membership are
 * binary searches on {@code long[]}.
 */
public final class Selection {
    private Selection() {}

    /** The key of NaN (every NaN): larger than the key of +∞. */
    public static final long NAN_KEY = Double.doubleToLongBits(Double.NaN);

    /**
     * {@code x} where {@code cond} is true, else {@code y}, as {@code dtype}, broadcast NumPy-style; {@code cond} must
     * be bool and {@code x}, {@code y} castable to {@code dtype}.
     */
    public static Chunk where(Chunk cond, Chunk x, Chunk y, DType dtype) {
        if (cond.dtype() != DType.BOOL) {
            throw new InvalidArgumentException("where: the condition must be bool, not " + cond.dtype());
        }
        int[] shape = Broadcast.shape("where", Broadcast.shape("where", cond.shape(), x.shape()), y.shape());
        Chunk c = Broadcast.expand(cond, shape);
        Chunk a = Broadcast.expand(Elementwise.astype(x, dtype), shape);
        Chunk b = Broadcast.expand(Elementwise.astype(y, dtype), shape);
        Chunk out = Chunk.allocate(dtype, shape);
        int slots = dtype.slotsPerElement();
        boolean[] m = c.booleans();
        for (int i = 0; i < m.length; i++) {
            System.arraycopy(m[i] ? a.data() : b.data(), i * slots, out.data(), i * slots, slots);
        }
        return out;
    }

    /**
     * The elements of {@code c} compared as {@code common} (the promoted type of the operands) as order-preserving
     * longs: integers and bool as their values, uint64 with the sign bit flipped, floats by their bits arranged so that
     * {@code -0.0} equals {@code 0.0} and NaN ({@link #NAN_KEY}) sorts after +∞ (NumPy's sort order). Complex types
     * have no order and are refused.
     */
    public static long[] sortKeys(Chunk c, DType common) {
        long[] keys = new long[c.size()];
        switch (common.kind()) {
            case FLOAT:
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = floatKey(c.getDouble(i));
                }
                break;
            case COMPLEX:
                throw new InvalidArgumentException("complex values have no order; compare real and imaginary parts");
            default:
                boolean unsigned64 = common == DType.UINT64;
                for (int i = 0; i < keys.length; i++) {
                    long v = c.getLong(i);
                    keys[i] = unsigned64 ? v ^ Long.MIN_VALUE : v;
                }
        }
        return keys;
    }

    /** The order-preserving key of a double (see {@link #sortKeys}). */
    public static long floatKey(double v) {
        long bits = Double.doubleToLongBits(v == 0 ? 0.0 : v);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /** The number of {@code sorted[from..to)} below {@code key} (or at most {@code key} when {@code right}). */
    public static int rank(long[] sorted, int from, int to, long key, boolean right) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key || (right && sorted[mid] == key)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - from;
    }
}
