package io.cubed.chunk;

import io.cubed.dtype.DType;

/**
 * {@code mean} and {@code nanmean}: the state is the count of elements (int64) and their total (float64, or complex128
 * for complex input); the result is total / count, NaN where the count is 0, in the input's type.
 */
final class MeanReducer extends Reducer {
    private static final long serialVersionUID = 1L;

    private final boolean nan;
    private final boolean complex;

    MeanReducer(ReduceFunction f, DType input, String what) {
        super(f, input, input, what);
        this.nan = skipsNan();
        this.complex = input.isComplex();
    }

    @Override
    public DType[] stateTypes() {
        return new DType[] {DType.INT64, complex ? DType.COMPLEX128 : DType.FLOAT64};
    }

    /** True: the state's elements take the layout's rows one element at a time. */
    @Override
    public boolean acceptsBoxes() {
        return true;
    }

    @Override
    public void accumulate(Chunk[] state, Chunk x, ReduceLayout layout) {
        RowReader r = new RowReader();
        long[] count = state[0].longs();
        double[] total = state[1].doubles();
        if (complex) {
            layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                double[] v = r.complex(x, src, n);
                int o = r.offset;
                for (int j = 0; j < n; j++) {
                    int k = out + j * os;
                    count[k]++;
                    total[2 * k] += v[o + 2 * j];
                    total[2 * k + 1] += v[o + 2 * j + 1];
                }
            });
            return;
        }
        layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
            double[] v = r.doubles(x, src, n);
            int o = r.offset;
            if (os == 0) {
                total[out] += SumProdReducer.sum(v, o, n, nan);
                count[out] += nan ? countNotNan(v, o, n) : n;
            } else if (!nan) {
                r.addRun(total, out, v, o, n);
                for (int j = 0; j < n; j++) {
                    count[out + j]++;
                }
            } else {
                for (int j = 0; j < n; j++) {
                    double e = v[o + j];
                    boolean skip = nan && Double.isNaN(e);
                    total[out + j] += skip ? 0 : e;
                    count[out + j] += skip ? 0 : 1;
                }
            }
        });
    }

    static int countNotNan(double[] v, int o, int n) {
        int c = 0;
        for (int j = 0; j < n; j++) {
            double e = v[o + j];
            c += !Double.isNaN(e) ? 1 : 0;
        }
        return c;
    }

    @Override
    public void combine(Chunk[] state, Chunk[] other) {
        long[] ca = state[0].longs();
        long[] cb = other[0].longs();
        for (int i = 0; i < ca.length; i++) {
            ca[i] += cb[i];
        }
        double[] ta = state[1].doubles();
        double[] tb = other[1].doubles();
        for (int i = 0; i < ta.length; i++) {
            ta[i] += tb[i];
        }
    }

    @Override
    public Chunk aggregate(Chunk[] state) {
        long[] count = state[0].longs();
        double[] total = state[1].doubles();
        double[] out = new double[total.length];
        int slots = complex ? 2 : 1;
        for (int i = 0; i < out.length; i++) {
            out[i] = total[i] / count[i / slots];
        }
        return Chunk.wrap(resultType(), state[0].shape(), Casting.fromDoubles(out, resultType()));
    }
}
