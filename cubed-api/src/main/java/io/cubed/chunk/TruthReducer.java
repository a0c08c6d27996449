package io.cubed.chunk;

import io.cubed.dtype.DType;
import java.util.Arrays;

/**
 * {@code all}, {@code any} and {@code count_nonzero}: each element counts as true when it is nonzero (NaN is nonzero;
 * a complex number when either part is). The state is bool for all/any, the int64 count for count_nonzero.
 */
final class TruthReducer extends Reducer {
    private static final long serialVersionUID = 1L;

    TruthReducer(ReduceFunction f, DType input, String what) {
        super(f, input, f == ReduceFunction.COUNT_NONZERO ? DType.INT64 : DType.BOOL, what);
    }

    private boolean counts() {
        return function() == ReduceFunction.COUNT_NONZERO;
    }

    @Override
    public DType[] stateTypes() {
        return new DType[] {counts() ? DType.INT64 : DType.BOOL};
    }

    @Override
    void fillIdentity(Chunk[] state) {
        if (function() == ReduceFunction.ALL) {
            Arrays.fill(state[0].booleans(), true);
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
        if (counts()) {
            long[] c = state[0].longs();
            layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
                boolean[] t = r.truth(x, src, n);
                for (int j = 0; j < n; j++) {
                    c[out + j * os] += t[j] ? 1 : 0;
                }
            });
            return;
        }
        boolean all = function() == ReduceFunction.ALL;
        boolean[] acc = state[0].booleans();
        layout.forEachRow(x.shape(), (src, n, out, os, idx, is) -> {
            if (os == 0 && acc[out] != all) {
                return; // already decided: a false for all, a true for any
            }
            boolean[] t = r.truth(x, src, n);
            for (int j = 0; j < n; j++) {
                int k = out + j * os;
                acc[k] = all ? acc[k] && t[j] : acc[k] || t[j];
            }
        });
    }

    @Override
    public void combine(Chunk[] state, Chunk[] other) {
        if (counts()) {
            long[] a = state[0].longs();
            long[] b = other[0].longs();
            for (int i = 0; i < a.length; i++) {
                a[i] += b[i];
            }
            return;
        }
        boolean all = function() == ReduceFunction.ALL;
        boolean[] a = state[0].booleans();
        boolean[] b = other[0].booleans();
        for (int i = 0; i < a.length; i++) {
            a[i] = all ? a[i] && b[i] : a[i] || b[i];
        }
    }

    @Override
    public Chunk aggregate(Chunk[] state) {
        return state[0];
    }
}
