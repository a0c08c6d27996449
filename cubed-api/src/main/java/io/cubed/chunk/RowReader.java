package io.cubed.chunk;

import io.cubed.dtype.DType;

/**
 * Reads runs of a chunk's elements as doubles, longs or interleaved complex doubles without copying the chunk: the
 * chunk's own array when its type already is the working type, otherwise a reused buffer of one run. After each call
 * {@link #offset} is where the run starts in the returned array. Not thread-safe; one per task.
 */
final class RowReader {
    int offset;
    private double[] doubleBuffer = new double[0];
    private long[] longBuffer = new long[0];
    private boolean[] boolBuffer = new boolean[0];
    /**
     * The run copy of {@link #addRun}, kept per thread: reducers make a reader per chunk or box, and a fresh copy per
     * box allocated a row per box (a mean over tiles of 8 rows: a row of every 8).
     */
    private static final ThreadLocal<double[]> RUN_COPY = ThreadLocal.withInitial(() -> new double[0]);

    /** Longest run whose copy is kept per thread (512 kB of doubles); longer runs get a copy of their own. */
    static final int MAX_KEPT_RUN = 1 << 16;

    /**
     * {@code acc[at + j] += v[o + j]} for {@code j < n}, the sum of a run into a row of accumulators (a reduction along
     * a leading axis). When the accumulators start at 0 (every reduction of a matrix along its first axis), a long run
     * is first copied to a buffer indexed from 0: C2 (JDK 17) does not vectorise a loop over arrays indexed at
     * different offsets, and the copied run's loop ran 1.5-1.7 times as fast (8 MiB chunk, rows of 1024, AMD machine
     * type; copying the accumulators too, for other offsets, gained nothing). The sums are the same, in the same
     * order.
     */
    void addRun(double[] acc, int at, double[] v, int o, int n) {
        if (at != 0 || n < 16) {
            for (int j = 0; j < n; j++) {
                acc[at + j] += v[o + j];
            }
            return;
        }
        double[] r;
        if (n > MAX_KEPT_RUN) {
            r = new double[n];
        } else {
            r = RUN_COPY.get();
            if (r.length < n) {
                r = new double[Math.max(n, Math.min(MAX_KEPT_RUN, 2 * r.length))];
                RUN_COPY.set(r);
            }
        }
        System.arraycopy(v, o, r, 0, n);
        for (int j = 0; j < n; j++) {
            acc[j] += r[j];
        }
    }

    /** Elements {@code src .. src + n - 1} as doubles (integers converted, uint64 unsigned, bool 0/1). */
    double[] doubles(Chunk x, int src, int n) {
        if (x.dtype() == DType.FLOAT64) {
            offset = src;
            return x.doubles();
        }
        if (doubleBuffer.length < n) {
            doubleBuffer = new double[n];
        }
        double[] b = doubleBuffer;
        offset = 0;
        switch (x.dtype()) {
            case FLOAT32:
                float[] f = x.floats();
                for (int j = 0; j < n; j++) {
                    b[j] = f[src + j];
                }
                break;
            case INT64:
                long[] l = x.longs();
                for (int j = 0; j < n; j++) {
                    b[j] = l[src + j];
                }
                break;
            default:
                for (int j = 0; j < n; j++) {
                    b[j] = x.getDouble(src + j);
                }
        }
        return b;
    }

    /** Elements {@code src .. src + n - 1} as longs (signed extended, unsigned zero-extended, floats truncated). */
    long[] longs(Chunk x, int src, int n) {
        if (x.dtype() == DType.INT64 || x.dtype() == DType.UINT64) {
            offset = src;
            return x.longs();
        }
        if (longBuffer.length < n) {
            longBuffer = new long[n];
        }
        long[] b = longBuffer;
        offset = 0;
        switch (x.dtype()) {
            case INT32:
                int[] iv = x.ints();
                for (int j = 0; j < n; j++) {
                    b[j] = iv[src + j];
                }
                break;
            case UINT8:
                byte[] ub = x.bytes();
                for (int j = 0; j < n; j++) {
                    b[j] = ub[src + j] & 0xFFL;
                }
                break;
            case INT8:
                byte[] sb = x.bytes();
                for (int j = 0; j < n; j++) {
                    b[j] = sb[src + j];
                }
                break;
            default:
                for (int j = 0; j < n; j++) {
                    b[j] = x.getLong(src + j);
                }
        }
        return b;
    }

    /** Elements {@code src .. src + n - 1} as interleaved (real, imaginary) doubles; real types get imaginary 0. */
    double[] complex(Chunk x, int src, int n) {
        if (x.dtype() == DType.COMPLEX128) {
            offset = 2 * src;
            return x.doubles();
        }
        if (doubleBuffer.length < 2 * n) {
            doubleBuffer = new double[2 * n];
        }
        double[] b = doubleBuffer;
        offset = 0;
        for (int j = 0; j < n; j++) {
            b[2 * j] = x.getDouble(src + j);
            b[2 * j + 1] = x.getImag(src + j);
        }
        return b;
    }

    /** Whether each element is nonzero (NaN is nonzero; complex when either part is), from index 0 of a buffer. */
    boolean[] truth(Chunk x, int src, int n) {
        if (boolBuffer.length < n) {
            boolBuffer = new boolean[n];
        }
        boolean[] buffer = boolBuffer;
        switch (x.dtype().kind()) {
            case BOOL:
                System.arraycopy(x.booleans(), src, buffer, 0, n);
                break;
            case FLOAT:
                double[] d = doubles(x, src, n);
                for (int j = 0; j < n; j++) {
                    buffer[j] = d[offset + j] != 0;
                }
                break;
            case COMPLEX:
                double[] c = complex(x, src, n);
                for (int j = 0; j < n; j++) {
                    buffer[j] = c[offset + 2 * j] != 0 || c[offset + 2 * j + 1] != 0;
                }
                break;
            default:
                long[] l = longs(x, src, n);
                for (int j = 0; j < n; j++) {
                    buffer[j] = l[offset + j] != 0;
                }
        }
        return buffer;
    }
}
