package io.cubed.chunk;

import io.cubed.dtype.DType;

/**
 * {@code var}, {@code std} and their NaN-aware forms. The state is count (int64), mean and M2 (the sum of squared
 * deviations from the mean, float64). Each input chunk is reduced in two passes (count and sum, then squared
 * deviations from the chunk's own mean), and states are merged with the parallel formula of Chan, Golub and LeVeque:
 * {@code δ = μb − μa, n = na + nb, μ = μa + δ·nb/n, M2 = M2a + M2b + δ²·na·nb/n}. Both steps are stable for data with
 * a large mean. The result is {@code M2 / max(n − correction, 0)} (its square root for std), as NumPy computes it.
 *
 * <p>The NaN-aware forms skip only the elements that are NaN themselves, as NumPy's {@code nanvar}: an infinite
 * element is kept, so its deviation from the mean ({@code ±inf} or NaN) is NaN or infinite and makes M2 (and the
 * result) NaN, in the chunk and through every merge (a NaN M2 stays NaN).
 */
final class VarReducer extends Reducer {
    private static final long serialVersionUID = 1L;

    private final boolean nan;
    private final double correction;
    private final boolean std;

    VarReducer(ReduceFunction f, DType input, String what, double correction, boolean std) {
        super(f, input, input, what);
        this.nan = skipsNan();
        this.correction = correction;
        this.std = std;
    }

    @Override
    public DType[] stateTypes() {
        return new DType[] {DType.INT64, DType.FLOAT64, DType.FLOAT64};
    }

    /** True: each box's counts, means and squared deviations are merged into the state, as a whole chunk's are. */
    @Override
    public boolean acceptsBoxes() {
        return true;
    }

    @Override
    public void accumulate(Chunk[] state, Chunk x, ReduceLayout layout) {
        int m = state[0].size();
        long[] cnt = new long[m];
        double[] mean = new double[m];
        double[] m2 = new double[m];
        RowReader r = new RowReader();
        int[] shape = x.shape();
        layout.forEachRow(shape, (src, n, out, os, idx, is) -> {
            double[] v = r.doubles(x, src, n);
            int o = r.offset;
            if (os == 0) {
                mean[out] += SumProdReducer.sum(v, o, n, nan);
                cnt[out] += nan ? MeanReducer.countNotNan(v, o, n) : n;
            } else {
                for (int j = 0; j < n; j++) {
                    double e = v[o + j];
                    boolean skip = nan && Double.isNaN(e);
                    mean[out + j] += skip ? 0 : e;
                    cnt[out + j] += skip ? 0 : 1;
                }
            }
        });
        for (int i = 0; i < m; i++) {
            mean[i] = cnt[i] == 0 ? 0 : mean[i] / cnt[i];
        }
        layout.forEachRow(shape, (src, n, out, os, idx, is) -> {
            double[] v = r.doubles(x, src, n);
            int o = r.offset;
            if (os == 0) {
                double mu = mean[out];
                double s = 0;
                for (int j = 0; j < n; j++) {
                    double e = v[o + j];
                    double d = e - mu;
                    s += nan && Double.isNaN(e) ? 0 : d * d;
                }
                m2[out] += s;
            } else {
                for (int j = 0; j < n; j++) {
                    double e = v[o + j];
                    double d = e - mean[out + j];
                    m2[out + j] += nan && Double.isNaN(e) ? 0 : d * d;
                }
            }
        });
        merge(state, cnt, mean, m2);
    }

    @Override
    public void combine(Chunk[] state, Chunk[] other) {
        merge(state, other[0].longs(), other[1].doubles(), other[2].doubles());
    }

    private static void merge(Chunk[] state, long[] nb, double[] mb, double[] m2b) {
        long[] na = state[0].longs();
        double[] ma = state[1].doubles();
        double[] m2a = state[2].doubles();
        for (int i = 0; i < na.length; i++) {
            if (nb[i] == 0) {
                continue;
            }
            if (na[i] == 0) {
                na[i] = nb[i];
                ma[i] = mb[i];
                m2a[i] = m2b[i];
                continue;
            }
            double n = (double) na[i] + nb[i];
            double delta = mb[i] - ma[i];
            ma[i] += delta * (nb[i] / n);
            m2a[i] += m2b[i] + delta * delta * ((double) na[i] * nb[i] / n);
            na[i] += nb[i];
        }
    }

    @Override
    public Chunk aggregate(Chunk[] state) {
        long[] n = state[0].longs();
        double[] m2 = state[2].doubles();
        double[] out = new double[n.length];
        for (int i = 0; i < out.length; i++) {
            double v = n[i] == 0 ? Double.NaN : m2[i] / Math.max(n[i] - correction, 0);
            out[i] = std ? Math.sqrt(v) : v;
        }
        return Chunk.wrap(resultType(), state[0].shape(), Casting.fromDoubles(out, resultType()));
    }
}
