package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * Kernels of sort and argsort on chunks, along one axis: each lane (the elements along the axis at one position of
 * the other axes) is handled on its own. Elements are ordered by a key of {@link #keyWords} longs compared
 * lexicographically, then by their original index (int64, the position along the whole array's axis), which makes the
 * order total and stable: equal elements keep their original order, in both directions.
 *
 * <p>The keys follow NumPy's sort order: integers and bool by value, floats with {@code -0.0} equal to {@code 0.0}
 * and NaN after +∞, complex numbers lexicographically by real then imaginary part with NumPy's placement of NaN
 * ({@code R+Rj < R+nanj < nan+Rj < nan+nanj}, each group ordered by its non-NaN part). Descending inverts every key
 * word (so NaN comes first, as NumPy's sort of the flipped array flipped back) but keeps ties in ascending index.
 */
public final class Sorts {
    private Sorts() {}

    /** Lanes shorter than this are sorted by insertion. */
    private static final int INSERTION = 16;

    /** Number of long words in an element's key: 3 for complex (NaN pattern, real, imaginary), 1 otherwise. */
    public static int keyWords(DType t) {
        return t.isComplex() ? 3 : 1;
    }

    /** Bytes of key and working memory a kernel here uses per element of one lane (keys, permutation, merge buffer). */
    public static long laneBytesPerElement(DType t) {
        return 8L * keyWords(t) + 8;
    }

    /**
     * Sorts every lane of {@code x} along {@code axis}: returns the sorted values (x's type and shape) and each
     * element's original index along the axis (int64, {@code offset} + its position in the chunk). Ties keep their
     * order in the chunk.
     */
    public static Chunk[] sortLanes(Chunk x, int axis, boolean descending, long offset) {
        checkAxis(x, axis);
        int[] shape = x.shape();
        int len = shape[axis];
        int inner = inner(shape, axis);
        int outer = x.size() == 0 ? 0 : x.size() / (len * inner);
        int w = keyWords(x.dtype());
        int slots = x.dtype().slotsPerElement();
        Chunk values = Chunk.allocate(x.dtype(), shape);
        long[] index = new long[x.size()];
        long[] keys = new long[len * w];
        int[] perm = new int[len];
        int[] buffer = new int[len];
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                int base = o * len * inner + i;
                for (int k = 0; k < len; k++) {
                    key(x, base + k * inner, descending, keys, k * w);
                    perm[k] = k;
                }
                mergeSort(perm, buffer, 0, len, keys, w);
                for (int k = 0; k < len; k++) {
                    int dst = base + k * inner;
                    System.arraycopy(x.data(), (base + perm[k] * inner) * slots, values.data(), dst * slots, slots);
                    index[dst] = offset + perm[k];
                }
            }
        }
        return new Chunk[] {values, Chunk.wrap(DType.INT64, shape, index)};
    }

    /**
     * One merge-split of a merge network: {@code low} and {@code high} are two chunks (values and int64 indices) whose
     * lanes are each sorted, equal in shape except along {@code axis}; returns the lower part of each merged lane (as
     * long as {@code low}'s lanes) when {@code keepLower}, else the upper part (as long as {@code high}'s lanes), as
     * values and indices. Only the kept part is merged: from the front for the lower, from the back for the upper.
     */
    public static Chunk[] mergeSplit(
            Chunk lowValues,
            Chunk lowIndex,
            Chunk highValues,
            Chunk highIndex,
            int axis,
            boolean descending,
            boolean keepLower) {
        checkAxis(lowValues, axis);
        int[] la = lowValues.shape();
        int[] lb = highValues.shape();
        int na = la[axis];
        int nb = lb[axis];
        la[axis] = 0;
        lb[axis] = 0;
        if (!Arrays.equals(la, lb)
                || lowValues.dtype() != highValues.dtype()
                || !Arrays.equals(lowIndex.shape(), lowValues.shape())
                || !Arrays.equals(highIndex.shape(), highValues.shape())) {
            throw new InvalidArgumentException("merge of sorted chunks: shapes " + Arrays.toString(lowValues.shape())
                    + " and " + Arrays.toString(highValues.shape()) + " (indices "
                    + Arrays.toString(lowIndex.shape()) + ", " + Arrays.toString(highIndex.shape())
                    + ") differ beyond axis " + axis);
        }
        Chunk keptValues = keepLower ? lowValues : highValues;
        int[] shape = keptValues.shape();
        int kept = shape[axis];
        int inner = inner(shape, axis);
        int outer = keptValues.size() == 0 ? 0 : keptValues.size() / (kept * inner);
        int w = keyWords(lowValues.dtype());
        int slots = lowValues.dtype().slotsPerElement();
        Chunk values = Chunk.allocate(lowValues.dtype(), shape);
        long[] index = new long[values.size()];
        long[] ka = new long[na * w];
        long[] kb = new long[nb * w];
        long[] ia = lowIndex.longs();
        long[] ib = highIndex.longs();
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                int baseA = o * na * inner + i;
                int baseB = o * nb * inner + i;
                int baseOut = o * kept * inner + i;
                for (int k = 0; k < na; k++) {
                    key(lowValues, baseA + k * inner, descending, ka, k * w);
                }
                for (int k = 0; k < nb; k++) {
                    key(highValues, baseB + k * inner, descending, kb, k * w);
                }
                if (keepLower) {
                    int a = 0;
                    int b = 0;
                    for (int t = 0; t < kept; t++) {
                        int pa = baseA + a * inner;
                        int pb = baseB + b * inner;
                        boolean fromA = b == nb || (a < na && compare(ka, a * w, ia[pa], kb, b * w, ib[pb], w) < 0);
                        int dst = baseOut + t * inner;
                        if (fromA) {
                            System.arraycopy(lowValues.data(), pa * slots, values.data(), dst * slots, slots);
                            index[dst] = ia[pa];
                            a++;
                        } else {
                            System.arraycopy(highValues.data(), pb * slots, values.data(), dst * slots, slots);
                            index[dst] = ib[pb];
                            b++;
                        }
                    }
                } else {
                    int a = na - 1;
                    int b = nb - 1;
                    for (int t = kept - 1; t >= 0; t--) {
                        int pa = baseA + a * inner;
                        int pb = baseB + b * inner;
                        boolean fromA = b < 0 || (a >= 0 && compare(ka, a * w, ia[pa], kb, b * w, ib[pb], w) > 0);
                        int dst = baseOut + t * inner;
                        if (fromA) {
                            System.arraycopy(lowValues.data(), pa * slots, values.data(), dst * slots, slots);
                            index[dst] = ia[pa];
                            a--;
                        } else {
                            System.arraycopy(highValues.data(), pb * slots, values.data(), dst * slots, slots);
                            index[dst] = ib[pb];
                            b--;
                        }
                    }
                }
            }
        }
        return new Chunk[] {values, Chunk.wrap(DType.INT64, shape, index)};
    }

    /**
     * Writes the {@link #keyWords} key words of element {@code flat} of {@code c} to {@code dst} from {@code at};
     * inverted for a descending order.
     */
    public static void key(Chunk c, int flat, boolean descending, long[] dst, int at) {
        DType t = c.dtype();
        switch (t.kind()) {
            case FLOAT:
                dst[at] = Selection.floatKey(c.getDouble(flat));
                break;
            case COMPLEX: {
                double re = c.getDouble(flat);
                double im = c.getImag(flat);
                boolean nanRe = Double.isNaN(re);
                boolean nanIm = Double.isNaN(im);
                dst[at] = (nanRe ? 2 : 0) + (nanIm ? 1 : 0);
                dst[at + 1] = nanRe ? 0 : Selection.floatKey(re);
                dst[at + 2] = nanIm ? 0 : Selection.floatKey(im);
                break;
            }
            default: {
                long v = c.getLong(flat);
                dst[at] = t == DType.UINT64 ? v ^ Long.MIN_VALUE : v;
            }
        }
        if (descending) {
            int w = keyWords(t);
            for (int j = 0; j < w; j++) {
                dst[at + j] = ~dst[at + j];
            }
        }
    }

    /** Compares element (key at {@code ka[a..]}, index {@code xa}) with element ({@code kb[b..]}, {@code xb}). */
    static int compare(long[] ka, int a, long xa, long[] kb, int b, long xb, int w) {
        for (int j = 0; j < w; j++) {
            int c = Long.compare(ka[a + j], kb[b + j]);
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(xa, xb);
    }

    /** Compares the keys of lane positions {@code p} and {@code q} (no tie break: the sort is stable). */
    private static int compareKeys(long[] keys, int p, int q, int w) {
        for (int j = 0; j < w; j++) {
            int c = Long.compare(keys[p * w + j], keys[q * w + j]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Stable merge sort of {@code perm[from..to)} (lane positions) by their keys, using {@code buffer}. */
    private static void mergeSort(int[] perm, int[] buffer, int from, int to, long[] keys, int w) {
        if (to - from <= INSERTION) {
            for (int i = from + 1; i < to; i++) {
                int v = perm[i];
                int j = i - 1;
                while (j >= from && compareKeys(keys, perm[j], v, w) > 0) {
                    perm[j + 1] = perm[j];
                    j--;
                }
                perm[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(perm, buffer, from, mid, keys, w);
        mergeSort(perm, buffer, mid, to, keys, w);
        if (compareKeys(keys, perm[mid - 1], perm[mid], w) <= 0) {
            return;
        }
        System.arraycopy(perm, from, buffer, from, to - from);
        int a = from;
        int b = mid;
        for (int t = from; t < to; t++) {
            if (b == to || (a < mid && compareKeys(keys, buffer[a], buffer[b], w) <= 0)) {
                perm[t] = buffer[a++];
            } else {
                perm[t] = buffer[b++];
            }
        }
    }

    private static int inner(int[] shape, int axis) {
        int n = 1;
        for (int a = axis + 1; a < shape.length; a++) {
            n *= shape[a];
        }
        return n;
    }

    private static void checkAxis(Chunk c, int axis) {
        if (axis < 0 || axis >= c.ndim()) {
            throw new InvalidArgumentException(
                    "sort: axis " + axis + " is not an axis of a chunk of shape " + Arrays.toString(c.shape()));
        }
    }
}
