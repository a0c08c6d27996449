package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;

/**
 * {@code sum}, {@code prod} and their NaN-aware forms, accumulated in the result type's domain: integers in 64 bits
 * wrapping around (then narrowed to the result type), real floating point in double (float32 sums are rounded once at
 * the end), complex in pairs of doubles.
 */
final class SumProdReducer extends Reducer {
    private static final long serialVersionUID = 1L;

    private final boolean prod;
    private final boolean nan;
    private final Domain domain;

    SumProdReducer(ReduceFunction f, DType input, DType result, String what, boolean prod) {
        super(f, input, result, what);
        this.prod = prod;
        this.nan = skipsNan();
        this.domain = Domain.of(result);
    }

    @Override
    public DType[] stateTypes() {
        return new DType[] {domain.stateType};
    }

    @Override
    void fillIdentity(Chunk[] state) {
        if (prod) {
            state[0].fill(Scalar.ofLong(1));
        }
    }

    /** True: the state's elements take the layout's rows one element at a time. */
    @Override
    public boolean acceptsBoxes() {
        return true;
    }

    @Override
    public void accumulate(Chunk[] state, Chunk x, ReduceLayout layout) {
        RowReader r = new RowReader();
        switch (domain) {
            case LONG:
                long[] la = state[0].longs();
                layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                    long[] v = r.longs(x, src, n);
                    int o = r.offset;
                    if (os == 0) {
                        la[out] = prod ? la[out] * product(v, o, n) : la[out] + sum(v, o, n);
                    } else if (prod) {
                        for (int j = 0; j < n; j++) {
                            la[out + j] *= v[o + j];
                        }
                    } else {
                        for (int j = 0; j < n; j++) {
                            la[out + j] += v[o + j];
                        }
                    }
                });
                break;
            case DOUBLE:
                double[] da = state[0].doubles();
                layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                    double[] v = r.doubles(x, src, n);
                    int o = r.offset;
                    if (os == 0) {
                        da[out] = prod ? da[out] * product(v, o, n, nan) : da[out] + sum(v, o, n, nan);
                    } else if (prod) {
                        for (int j = 0; j < n; j++) {
                            double e = v[o + j];
                            da[out + j] *= nan && Double.isNaN(e) ? 1 : e;
                        }
                    } else if (!nan) {
                        r.addRun(da, out, v, o, n);
                    } else {
                        for (int j = 0; j < n; j++) {
                            double e = v[o + j];
                            da[out + j] += Double.isNaN(e) ? 0 : e;
                        }
                    }
                });
                break;
            default:
                double[] ca = state[0].doubles();
                layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                    double[] v = r.complex(x, src, n);
                    int o = r.offset;
                    for (int j = 0; j < n; j++) {
                        int k = 2 * (out + j * os);
                        if (prod) {
                            multiplyInto(ca, k, v[o + 2 * j], v[o + 2 * j + 1]);
                        } else {
                            ca[k] += v[o + 2 * j];
                            ca[k + 1] += v[o + 2 * j + 1];
                        }
                    }
                });
        }
    }

    private static void multiplyInto(double[] a, int k, double re, double im) {
        double r = a[k] * re - a[k + 1] * im;
        double i = a[k] * im + a[k + 1] * re;
        a[k] = r;
        a[k + 1] = i;
    }

    static long sum(long[] v, int o, int n) {
        long s = 0;
        for (int j = 0; j < n; j++) {
            s += v[o + j];
        }
        return s;
    }

    static long product(long[] v, int o, int n) {
        long p = 1;
        for (int j = 0; j < n; j++) {
            p *= v[o + j];
        }
        return p;
    }

    /** The sum of a run, in four interleaved partial sums (faster, and rounding errors grow more slowly). */
    static double sum(double[] v, int o, int n, boolean skipNan) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        if (skipNan) {
            for (; j + 3 < n; j += 4) {
                double a = v[o + j];
                double b = v[o + j + 1];
                double c = v[o + j + 2];
                double d = v[o + j + 3];
                s0 += !Double.isNaN(a) ? a : 0;
                s1 += !Double.isNaN(b) ? b : 0;
                s2 += !Double.isNaN(c) ? c : 0;
                s3 += !Double.isNaN(d) ? d : 0;
            }
            for (; j < n; j++) {
                double a = v[o + j];
                s0 += !Double.isNaN(a) ? a : 0;
            }
        } else {
            for (; j + 3 < n; j += 4) {
                s0 += v[o + j];
                s1 += v[o + j + 1];
                s2 += v[o + j + 2];
                s3 += v[o + j + 3];
            }
            for (; j < n; j++) {
                s0 += v[o + j];
            }
        }
        return (s0 + s1) + (s2 + s3);
    }

    static double product(double[] v, int o, int n, boolean skipNan) {
        double p = 1;
        for (int j = 0; j < n; j++) {
            double a = v[o + j];
            p *= skipNan && Double.isNaN(a) ? 1 : a;
        }
        return p;
    }

    @Override
    public void combine(Chunk[] state, Chunk[] other) {
        switch (domain) {
            case LONG:
                long[] la = state[0].longs();
                long[] lb = other[0].longs();
                for (int i = 0; i < la.length; i++) {
                    la[i] = prod ? la[i] * lb[i] : la[i] + lb[i];
                }
                break;
            case DOUBLE:
                double[] da = state[0].doubles();
                double[] db = other[0].doubles();
                for (int i = 0; i < da.length; i++) {
                    da[i] = prod ? da[i] * db[i] : da[i] + db[i];
                }
                break;
            default:
                double[] ca = state[0].doubles();
                double[] cb = other[0].doubles();
                for (int i = 0; i < ca.length; i += 2) {
                    if (prod) {
                        multiplyInto(ca, i, cb[i], cb[i + 1]);
                    } else {
                        ca[i] += cb[i];
                        ca[i + 1] += cb[i + 1];
                    }
                }
        }
    }

    @Override
    public Chunk aggregate(Chunk[] state) {
        DType rt = resultType();
        Object data = domain == Domain.LONG
                ? Casting.fromLongs(state[0].longs(), rt)
                : Casting.fromDoubles(state[0].doubles(), rt);
        return Chunk.wrap(rt, state[0].shape(), data);
    }
}
