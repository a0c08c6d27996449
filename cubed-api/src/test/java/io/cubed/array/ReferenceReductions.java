package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Independent reference reductions for tests: plain loops over a whole array held in one chunk, grouping elements by
 * output position and reducing each group directly (two-pass variance, first index for arg reductions). Shares no
 * code with the reduction kernels.
 */
final class ReferenceReductions {
    private ReferenceReductions() {}

    /** {@code f} of {@code a} over {@code axes} (null: all), as the reduction should compute it. */
    static Chunk reduce(ReduceFunction f, Chunk a, int[] axes, boolean keepdims, double correction) {
        int nd = a.ndim();
        boolean[] red = new boolean[nd];
        if (axes == null) {
            java.util.Arrays.fill(red, true);
        } else {
            for (int ax : axes) {
                red[ax < 0 ? ax + nd : ax] = true;
            }
        }
        int[] shape = a.shape();
        int[] outShape = new int[nd];
        for (int d = 0; d < nd; d++) {
            outShape[d] = red[d] ? 1 : shape[d];
        }
        int outSize = Chunk.elementCount(outShape);
        List<List<Integer>> groups = new ArrayList<>();
        for (int i = 0; i < outSize; i++) {
            groups.add(new ArrayList<>());
        }
        int[] coord = new int[nd];
        for (int i = 0; i < a.size(); i++) {
            int rest = i;
            for (int d = nd - 1; d >= 0; d--) {
                coord[d] = rest % shape[d];
                rest /= shape[d];
            }
            int o = 0;
            for (int d = 0; d < nd; d++) {
                o = o * outShape[d] + (red[d] ? 0 : coord[d]);
            }
            groups.get(o).add(i);
        }
        int argAxis = -1;
        if (f.isArg() && axes != null) {
            argAxis = axes[0] < 0 ? axes[0] + nd : axes[0];
        }
        DType rt = f.resultType(a.dtype(), null, "x");
        Chunk out = Chunk.allocate(rt, outShape);
        for (int o = 0; o < outSize; o++) {
            set(out, o, one(f, a, groups.get(o), argAxis, shape, correction));
        }
        if (!keepdims) {
            int k = 0;
            int[] sq = new int[nd];
            for (int d = 0; d < nd; d++) {
                if (!red[d]) {
                    sq[k++] = shape[d];
                }
            }
            out = Chunk.wrap(rt, java.util.Arrays.copyOf(sq, k), out.data());
        }
        return out;
    }

    /** The value of one group: a Long (integer and bool results), Double, Boolean, or double[2] (complex). */
    private static Object one(ReduceFunction f, Chunk a, List<Integer> idx, int argAxis, int[] shape, double corr) {
        DType t = a.dtype();
        boolean nan = f.pythonName().startsWith("nan");
        List<Integer> use = new ArrayList<>();
        for (int i : idx) {
            if (!(nan && t.isFloating() && Double.isNaN(a.getDouble(i)))) {
                use.add(i);
            }
        }
        boolean integer = !t.isFloating() && !t.isComplex();
        switch (f) {
            case SUM:
            case NANSUM:
            case PROD:
            case NANPROD:
                boolean prod = f == ReduceFunction.PROD || f == ReduceFunction.NANPROD;
                if (t.isComplex()) {
                    double re = prod ? 1 : 0;
                    double im = 0;
                    for (int i : use) {
                        double xr = a.getDouble(i);
                        double xi = a.getImag(i);
                        if (prod) {
                            double r2 = re * xr - im * xi;
                            im = re * xi + im * xr;
                            re = r2;
                        } else {
                            re += xr;
                            im += xi;
                        }
                    }
                    return new double[] {re, im};
                }
                if (integer) {
                    long s = prod ? 1 : 0;
                    for (int i : use) {
                        s = prod ? s * a.getLong(i) : s + a.getLong(i);
                    }
                    return s;
                }
                double s = prod ? 1 : 0;
                for (int i : use) {
                    s = prod ? s * a.getDouble(i) : s + a.getDouble(i);
                }
                return s;
            case MIN:
            case MAX:
            case NANMIN:
            case NANMAX:
                boolean max = f == ReduceFunction.MAX || f == ReduceFunction.NANMAX;
                if (integer) {
                    long best = a.getLong(use.get(0));
                    for (int i : use) {
                        long v = a.getLong(i);
                        int c = t == DType.UINT64 ? Long.compareUnsigned(v, best) : Long.compare(v, best);
                        if (max ? c > 0 : c < 0) {
                            best = v;
                        }
                    }
                    return best;
                }
                if (use.isEmpty()) {
                    return Double.NaN;
                }
                double b = a.getDouble(use.get(0));
                for (int i : use) {
                    double v = a.getDouble(i);
                    if (Double.isNaN(v) || Double.isNaN(b)) {
                        b = Double.NaN;
                    } else if (max ? v > b : v < b) {
                        b = v;
                    }
                }
                return b;
            case MEAN:
            case NANMEAN:
                if (t.isComplex()) {
                    double re = 0;
                    double im = 0;
                    for (int i : use) {
                        re += a.getDouble(i);
                        im += a.getImag(i);
                    }
                    return new double[] {re / use.size(), im / use.size()};
                }
                double sum = 0;
                for (int i : use) {
                    sum += a.getDouble(i);
                }
                return sum / use.size();
            case VAR:
            case STD:
            case NANVAR:
            case NANSTD:
                double m = 0;
                for (int i : use) {
                    m += a.getDouble(i);
                }
                m /= use.size();
                double ss = 0;
                for (int i : use) {
                    double d = a.getDouble(i) - m;
                    ss += d * d;
                }
                double v = use.isEmpty() ? Double.NaN : ss / Math.max(use.size() - corr, 0);
                return f == ReduceFunction.STD || f == ReduceFunction.NANSTD ? Math.sqrt(v) : v;
            case ALL:
            case ANY:
            case COUNT_NONZERO:
                long nz = 0;
                for (int i : use) {
                    nz += a.getScalar(i).booleanValue() || Double.isNaN(a.getDouble(i)) ? 1 : 0;
                }
                if (f == ReduceFunction.COUNT_NONZERO) {
                    return nz;
                }
                return f == ReduceFunction.ALL ? nz == use.size() : nz > 0;
            default:
                boolean amax = f == ReduceFunction.ARGMAX || f == ReduceFunction.NANARGMAX;
                int best = -1;
                for (int i : use) {
                    if (best < 0) {
                        best = i;
                        continue;
                    }
                    if (integer) {
                        int c = t == DType.UINT64
                                ? Long.compareUnsigned(a.getLong(i), a.getLong(best))
                                : Long.compare(a.getLong(i), a.getLong(best));
                        if (amax ? c > 0 : c < 0) {
                            best = i;
                        }
                    } else {
                        double x = a.getDouble(i);
                        double y = a.getDouble(best);
                        if (!Double.isNaN(y) && (Double.isNaN(x) || (amax ? x > y : x < y))) {
                            best = i;
                        }
                    }
                }
                if (best < 0) {
                    return null;
                }
                if (argAxis < 0) {
                    return (long) best;
                }
                int stride = 1;
                for (int d = shape.length - 1; d > argAxis; d--) {
                    stride *= shape[d];
                }
                return (long) ((best / stride) % shape[argAxis]);
        }
    }

    private static void set(Chunk out, int o, Object v) {
        if (v == null) {
            return;
        }
        switch (out.dtype()) {
            case BOOL:
                out.booleans()[o] = (Boolean) v;
                break;
            case INT64:
            case UINT64:
                out.longs()[o] = (Long) v;
                break;
            case INT8:
            case UINT8:
                out.bytes()[o] = (byte) (long) (Long) v;
                break;
            case INT16:
            case UINT16:
                out.shorts()[o] = (short) (long) (Long) v;
                break;
            case INT32:
            case UINT32:
                out.ints()[o] = (int) (long) (Long) v;
                break;
            case FLOAT32:
                out.floats()[o] = (float) (double) (Double) v;
                break;
            case FLOAT64:
                out.doubles()[o] = (Double) v;
                break;
            case COMPLEX64:
                out.floats()[2 * o] = (float) ((double[]) v)[0];
                out.floats()[2 * o + 1] = (float) ((double[]) v)[1];
                break;
            default:
                out.doubles()[2 * o] = ((double[]) v)[0];
                out.doubles()[2 * o + 1] = ((double[]) v)[1];
        }
    }

    /** A chunk of {@code shape} with random values of {@code t}: small integers, floats in [-5, 5), NaN at rate p. */
    static Chunk random(DType t, int[] shape, long seed, double nanRate) {
        Random r = new Random(seed);
        Chunk c = Chunk.allocate(t, shape);
        for (int i = 0; i < c.size(); i++) {
            switch (t) {
                case BOOL:
                    c.booleans()[i] = r.nextInt(4) != 0;
                    break;
                case INT8:
                case UINT8:
                    c.bytes()[i] = (byte) (r.nextInt(256) - 128);
                    break;
                case INT16:
                case UINT16:
                    c.shorts()[i] = (short) (r.nextInt(2000) - 1000);
                    break;
                case INT32:
                case UINT32:
                    c.ints()[i] = r.nextInt(100) - 50;
                    break;
                case INT64:
                case UINT64:
                    c.longs()[i] = r.nextLong();
                    break;
                case FLOAT32:
                    c.floats()[i] = r.nextDouble() < nanRate ? Float.NaN : (float) (r.nextDouble() * 10 - 5);
                    break;
                case FLOAT64:
                    c.doubles()[i] = r.nextDouble() < nanRate ? Double.NaN : r.nextDouble() * 10 - 5;
                    break;
                case COMPLEX64:
                    c.floats()[2 * i] = (float) (r.nextDouble() * 2 - 1);
                    c.floats()[2 * i + 1] = (float) (r.nextDouble() * 2 - 1);
                    break;
                default:
                    c.doubles()[2 * i] = r.nextDouble() * 2 - 1;
                    c.doubles()[2 * i + 1] = r.nextDouble() * 2 - 1;
            }
        }
        return c;
    }

    /**
     * Null when {@code actual} equals {@code expected} (type, shape; integers and bool exactly; floating point within
     * {@code relTol} of max(1, |expected|), NaN only where NaN is expected), else the first difference.
     */
    static String compare(Chunk expected, Chunk actual, double relTol) {
        if (expected.dtype() != actual.dtype()) {
            return "dtype " + actual.dtype() + ", expected " + expected.dtype();
        }
        if (!java.util.Arrays.equals(expected.shape(), actual.shape())) {
            return "shape " + java.util.Arrays.toString(actual.shape()) + ", expected "
                    + java.util.Arrays.toString(expected.shape());
        }
        DType t = expected.dtype();
        for (int i = 0; i < expected.size(); i++) {
            if (t.isFloating() || t.isComplex()) {
                double[][] pairs = {
                    {expected.getDouble(i), actual.getDouble(i)}, {expected.getImag(i), actual.getImag(i)}
                };
                for (double[] p : pairs) {
                    boolean ok = Double.isNaN(p[0])
                            ? Double.isNaN(p[1])
                            : p[0] == p[1] || Math.abs(p[0] - p[1]) <= relTol * Math.max(1, Math.abs(p[0]));
                    if (!ok) {
                        return "element " + i + ": " + actual.getScalar(i) + ", expected " + expected.getScalar(i);
                    }
                }
            } else if (!expected.getScalar(i).equals(actual.getScalar(i))) {
                return "element " + i + ": " + actual.getScalar(i) + ", expected " + expected.getScalar(i);
            }
        }
        return null;
    }
}
