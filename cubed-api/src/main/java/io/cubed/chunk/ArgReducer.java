package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * {@code argmin}, {@code argmax} and their NaN-aware forms. The state is the index of the best element so far (int64,
 * -1 before any) and its value (int64 for integers, uint64 compared without sign; float64 for floats). Ties go to the
 * smaller index, so the result is the first occurrence in any grouping of chunks. {@code argmin}/{@code argmax} treat
 * NaN as the extreme (the first NaN wins, as NumPy); the NaN-aware forms skip NaN, and a slice of only NaN fails with
 * NumPy's "All-NaN slice encountered".
 */
final class ArgReducer extends Reducer {
    private static final long serialVersionUID = 1L;

    private final boolean max;
    private final boolean nan;
    private final boolean unsigned64;
    private final Domain domain;

    ArgReducer(ReduceFunction f, DType input, String what) {
        super(f, input, DType.INT64, what);
        this.max = f == ReduceFunction.ARGMAX || f == ReduceFunction.NANARGMAX;
        this.nan = skipsNan();
        this.unsigned64 = input == DType.UINT64;
        this.domain = Domain.of(input);
    }

    @Override
    public DType[] stateTypes() {
        return new DType[] {DType.INT64, domain.stateType};
    }

    @Override
    void fillIdentity(Chunk[] state) {
        Arrays.fill(state[0].longs(), -1L);
    }

    private boolean better(long x, long i, long cv, long ci) {
        if (ci < 0) {
            return true;
        }
        if (x == cv) {
            return i < ci;
        }
        int c = unsigned64 ? Long.compareUnsigned(x, cv) : Long.compare(x, cv);
        return max ? c > 0 : c < 0;
    }

    private static boolean better(double x, long i, double cv, long ci, boolean max) {
        if (ci < 0) {
            return true;
        }
        if (Double.isNaN(cv)) {
            return Double.isNaN(x) && i < ci;
        }
        if (Double.isNaN(x)) {
            return true;
        }
        if (x == cv) {
            return i < ci;
        }
        return max ? x > cv : x < cv;
    }

    /** True: the state's elements take the layout's rows one element at a time (ties go to the lower index whatever the order). */
    @Override
    public boolean acceptsBoxes() {
        return true;
    }

    @Override
    public void accumulate(Chunk[] state, Chunk x, ReduceLayout layout) {
        if (layout.argAxis() == ReduceLayout.NO_INDEX) {
            throw new InvalidArgumentException(function().pythonName() + " needs element indexes in its layout");
        }
        RowReader r = new RowReader();
        long[] ind = state[0].longs();
        if (domain == Domain.LONG) {
            long[] val = state[1].longs();
            layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                long[] v = r.longs(x, src, n);
                int o = r.offset;
                for (int j = 0; j < n; j++) {
                    int k = out + j * os;
                    long i = idx + (long) j * is;
                    if (better(v[o + j], i, val[k], ind[k])) {
                        val[k] = v[o + j];
                        ind[k] = i;
                    }
                }
            });
            return;
        }
        double[] val = state[1].doubles();
        layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
            double[] v = r.doubles(x, src, n);
            int o = r.offset;
            for (int j = 0; j < n; j++) {
                double e = v[o + j];
                if (nan && Double.isNaN(e)) {
                    continue;
                }
                int k = out + j * os;
                long i = idx + (long) j * is;
                if (better(e, i, val[k], ind[k], max)) {
                    val[k] = e;
                    ind[k] = i;
                }
            }
        });
    }

    @Override
    public void combine(Chunk[] state, Chunk[] other) {
        long[] ia = state[0].longs();
        long[] ib = other[0].longs();
        if (domain == Domain.LONG) {
            long[] va = state[1].longs();
            long[] vb = other[1].longs();
            for (int k = 0; k < ia.length; k++) {
                if (ib[k] >= 0 && better(vb[k], ib[k], va[k], ia[k])) {
                    va[k] = vb[k];
                    ia[k] = ib[k];
                }
            }
            return;
        }
        double[] va = state[1].doubles();
        double[] vb = other[1].doubles();
        for (int k = 0; k < ia.length; k++) {
            if (ib[k] >= 0 && better(vb[k], ib[k], va[k], ia[k], max)) {
                va[k] = vb[k];
                ia[k] = ib[k];
            }
        }
    }

    @Override
    public Chunk aggregate(Chunk[] state) {
        long[] ind = state[0].longs();
        for (int k = 0; k < ind.length; k++) {
            if (ind[k] < 0) {
                throw new InvalidArgumentException(function().pythonName() + " of " + what()
                        + ": All-NaN slice encountered (element " + k + " of the result chunk has no non-NaN value)");
            }
        }
        return Chunk.wrap(DType.INT64, state[0].shape(), ind);
    }
}
