package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows of a reduction layout: runs along the last axis longer than one element, mapped to the right state elements. */
class ReduceLayoutTest {
    /** Every row as {src, n, out, outStride, index, indexStride}. */
    private static List<long[]> rows(ReduceLayout layout, int... shape) {
        List<long[]> rows = new ArrayList<>();
        layout.forEachRow(shape, (src, n, out, os, idx, is) -> rows.add(new long[] {src, n, out, os, idx, is}));
        return rows;
    }

    @Test
    void trailingAxesOfOneElementDoNotMakeRowsOfOne() {
        // A matmul's partial products: chunks of (i, j, 1), summed over the last axis.
        ReduceLayout sumLast = ReduceLayout.of(
                new boolean[] {false, false, true}, new long[] {0, 0, 2}, new long[] {3, 4, 5}, ReduceLayout.NO_INDEX);
        List<long[]> r = rows(sumLast, 3, 4, 1);
        assertThat(r).hasSize(3);
        for (int i = 0; i < 3; i++) {
            // Row i: elements 4i..4i+3 go to state elements 4i + j (the state is (3, 4, 1)).
            assertThat(r.get(i)).containsExactly(4L * i, 4, 4L * i, 1, 0, 0);
        }
        // Reduced over the middle axis with two trailing ones: rows along axis 1, all into state element i.
        ReduceLayout sumMiddle = ReduceLayout.of(
                new boolean[] {false, true, false, false}, new long[4], new long[] {2, 5, 1, 1}, ReduceLayout.NO_INDEX);
        r = rows(sumMiddle, 2, 5, 1, 1);
        assertThat(r).hasSize(2);
        assertThat(r.get(0)).containsExactly(0, 5, 0, 0, 0, 0);
        assertThat(r.get(1)).containsExactly(5, 5, 1, 0, 0, 0);
        // An arg reduction along axis 1 of a (2, 3, 1) chunk at offset (0, 6, 0): indexes 6, 7, 8 along each row.
        ReduceLayout arg =
                ReduceLayout.of(new boolean[] {false, true, false}, new long[] {0, 6, 0}, new long[] {2, 9, 1}, 1);
        r = rows(arg, 2, 3, 1);
        assertThat(r).hasSize(2);
        assertThat(r.get(1)).containsExactly(3, 3, 1, 0, 6, 1);
        // Flat indexes keep the last axis, whatever its length: 6 rows of one element with their flat indexes.
        ReduceLayout flat = ReduceLayout.of(
                new boolean[] {true, true, true}, new long[] {0, 0, 0}, new long[] {2, 3, 4}, ReduceLayout.FLAT_INDEX);
        r = rows(flat, 2, 3, 1);
        assertThat(r).hasSize(6);
        assertThat(r.get(5)).containsExactly(5, 1, 0, 0, 20, 1);
        // All axes of one element: one row of one element.
        assertThat(rows(sumLast, 1, 1, 1)).hasSize(1);
    }

    @Test
    void sumsOverChunksWithTrailingOnesEqualAPlainLoop() {
        Chunk x = Chunk.allocate(io.cubed.dtype.DType.FLOAT64, 3, 4, 1);
        for (int k = 0; k < 12; k++) {
            x.doubles()[k] = k * 1.5 - 4;
        }
        Reducer sum = Reducer.of(ReduceFunction.SUM, io.cubed.dtype.DType.FLOAT64, null, 0, "x");
        Chunk[] state = sum.identity(new int[] {3, 1, 1});
        sum.accumulate(
                state,
                x,
                ReduceLayout.of(
                        new boolean[] {false, true, true}, new long[3], new long[] {3, 4, 1}, ReduceLayout.NO_INDEX));
        for (int i = 0; i < 3; i++) {
            double s = 0;
            for (int j = 0; j < 4; j++) {
                s += x.doubles()[i * 4 + j];
            }
            assertThat(state[0].doubles()[i]).isEqualTo(s);
        }
    }

    @Test
    void sumsAndMeansAlongALeadingAxisEqualAPlainLoop() {
        // Rows of 40 (copied to a buffer before adding, when the accumulators start at 0) and of 5 (added in place),
        // reduced along axis 0 of a matrix and of a 3-d chunk (accumulator rows at offsets 0, 40, 80), with a NaN.
        int[][] shapes = {{6, 40}, {6, 5}, {4, 3, 40}};
        for (int[] shape : shapes) {
            int n = Chunk.elementCount(shape);
            Chunk x = Chunk.allocate(io.cubed.dtype.DType.FLOAT64, shape);
            double[] xd = x.doubles();
            for (int k = 0; k < n; k++) {
                xd[k] = (k % 13) * 0.75 - 3 + k * 1e-3;
            }
            xd[n / 2] = Double.NaN;
            boolean[] reduced = new boolean[shape.length];
            reduced[0] = true;
            long[] arrayShape = new long[shape.length];
            int[] stateShape = shape.clone();
            stateShape[0] = 1;
            for (int a = 0; a < shape.length; a++) {
                arrayShape[a] = shape[a];
            }
            ReduceLayout layout = ReduceLayout.of(reduced, new long[shape.length], arrayShape, ReduceLayout.NO_INDEX);
            int rest = n / shape[0];
            for (ReduceFunction f :
                    new ReduceFunction[] {ReduceFunction.SUM, ReduceFunction.MEAN, ReduceFunction.NANSUM}) {
                Reducer r = Reducer.of(f, io.cubed.dtype.DType.FLOAT64, null, 0, "x");
                Chunk[] state = r.identity(stateShape);
                r.accumulate(state, x, layout);
                r.accumulate(state, x, layout); // twice: the second adds onto the first
                double[] got = r.aggregate(state).doubles();
                for (int j = 0; j < rest; j++) {
                    double s = 0;
                    int count = 0;
                    for (int pass = 0; pass < 2; pass++) {
                        for (int i = 0; i < shape[0]; i++) {
                            double e = xd[i * rest + j];
                            if (f == ReduceFunction.NANSUM && Double.isNaN(e)) {
                                continue;
                            }
                            s += e;
                            count++;
                        }
                    }
                    double expected = f == ReduceFunction.MEAN ? s / count : s;
                    assertThat(Double.valueOf(got[j]))
                            .as("%s of %s, element %d", f, java.util.Arrays.toString(shape), j)
                            .isEqualTo(Double.valueOf(expected));
                }
            }
        }
    }
}
