package io.cubed.chunk;

import io.cubed.dtype.DType;
import java.util.Arrays;

/**
 * {@code min}, {@code max}, {@code nanmin} and {@code nanmax}: integers compared in 64 bits (uint64 without sign),
 * floating point in double. {@code min}/{@code max} propagate NaN; the NaN-aware forms skip it and give NaN only where
 * every element is NaN (as NumPy, without its warning).
 */
final class MinMaxReducer extends Reducer {
    private static final long serialVersionUID = 1L;

    private final boolean max;
    private final boolean nan;
    private final boolean unsigned64;
    private final Domain domain;

    MinMaxReducer(ReduceFunction f, DType input, String what, boolean max) {
        super(f, input, input, what);
        this.max = max;
        this.nan = skipsNan();
        this.unsigned64 = input == DType.UINT64;
        this.domain = Domain.of(input);
    }

    @Override
    public DType[] stateTypes() {
        return new DType[] {domain.stateType};
    }

    @Override
    void fillIdentity(Chunk[] state) {
        if (domain == Domain.LONG) {
            long id;
            if (unsigned64) {
                id = max ? 0 : -1L;
            } else {
                id = max ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            Arrays.fill(state[0].longs(), id);
        } else {
            double id = nan ? Double.NaN : max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            Arrays.fill(state[0].doubles(), id);
        }
    }

    private long pick(long a, long x) {
        int c = unsigned64 ? Long.compareUnsigned(x, a) : Long.compare(x, a);
        return (max ? c > 0 : c < 0) ? x : a;
    }

    /** The better of the current {@code a} and a new {@code x}, with the NaN rule of this reduction. */
    private double pick(double a, double x) {
        boolean better = max ? x > a : x < a;
        if (nan) {
            return better || Double.isNaN(a) ? x : a;
        }
        return better || Double.isNaN(x) ? x : a;
    }

    /** True: the state's elements take the layout's rows one element at a time. */
    @Override
    public boolean acceptsBoxes() {
        return true;
    }

    @Override
    public void accumulate(Chunk[] state, Chunk x, ReduceLayout layout) {
        RowReader r = new RowReader();
        if (domain == Domain.LONG) {
            long[] acc = state[0].longs();
            layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                long[] v = r.longs(x, src, n);
                int o = r.offset;
                if (os == 0) {
                    long t = acc[out];
                    for (int j = 0; j < n; j++) {
                        t = pick(t, v[o + j]);
                    }
                    acc[out] = t;
                } else {
                    for (int j = 0; j < n; j++) {
                        acc[out + j] = pick(acc[out + j], v[o + j]);
                    }
                }
            });
        } else {
            double[] acc = state[0].doubles();
            layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                double[] v = r.doubles(x, src, n);
                int o = r.offset;
                if (os == 0) {
                    double t = acc[out];
                    for (int j = 0; j < n; j++) {
                        t = pick(t, v[o + j]);
                    }
                    acc[out] = t;
                } else {
                    for (int j = 0; j < n; j++) {
                        acc[out + j] = pick(acc[out + j], v[o + j]);
                    }
                }
            });
        }
    }

    @Override
    public void combine(Chunk[] state, Chunk[] other) {
        if (domain == Domain.LONG) {
            long[] a = state[0].longs();
            long[] b = other[0].longs();
            for (int i = 0; i < a.length; i++) {
                a[i] = pick(a[i], b[i]);
            }
        } else {
            double[] a = state[0].doubles();
            double[] b = other[0].doubles();
            for (int i = 0; i < a.length; i++) {
                a[i] = pick(a[i], b[i]);
            }
        }
    }

    @Override
    public Chunk aggregate(Chunk[] state) {
        DType t = resultType();
        Object data = domain == Domain.LONG
                ? Casting.fromLongs(state[0].longs(), t)
                : Casting.fromDoubles(state[0].doubles(), t);
        return Chunk.wrap(t, state[0].shape(), data);
    }
}
