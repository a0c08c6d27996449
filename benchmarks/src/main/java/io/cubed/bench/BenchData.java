package io.cubed.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

/** Deterministic float64 test chunks that look like a gridded physical field: a smooth pattern plus small noise. */
public final class BenchData {
    /** Rows of a benchmark chunk. */
    public static final int ROWS = 1024;
    /** Columns of a benchmark chunk. */
    public static final int COLS = 1024;
    /** Elements of a benchmark chunk: 1,048,576 doubles. */
    public static final int ELEMENTS = ROWS * COLS;
    /** Uncompressed bytes of a benchmark chunk: 8 MiB (8,388,608 bytes). */
    public static final int CHUNK_BYTES = ELEMENTS * Double.BYTES;

    private BenchData() {}

    /**
     * A {@link #ROWS} x {@link #COLS} field in row-major order, like a temperature map in kelvin: a few smooth waves
     * around 280 whose phase depends on {@code seed}, plus Gaussian noise of standard deviation 0.01 from a {@link
     * Random} seeded with {@code seed}, so equal seeds give equal data on every JVM.
     */
    public static double[] field(long seed) {
        Random noise = new Random(seed);
        double phase = (seed % 97) * 0.1;
        double[] out = new double[ELEMENTS];
        for (int r = 0; r < ROWS; r++) {
            double y = 2 * Math.PI * r / ROWS;
            for (int c = 0; c < COLS; c++) {
                double x = 2 * Math.PI * c / COLS;
                double smooth = 280.0
                        + 15.0 * Math.sin(x + phase) * Math.cos(2 * y)
                        + 4.0 * Math.sin(3 * x - y + phase)
                        + 0.5 * Math.cos(7 * y + 5 * x);
                out[r * COLS + c] = smooth + 0.01 * noise.nextGaussian();
            }
        }
        return out;
    }

    /** The little-endian bytes of {@code values}, as Zarr stores a {@code <f8} chunk before compression. */
    public static byte[] littleEndian(double[] values) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buf.asDoubleBuffer().put(values);
        return buf.array();
    }
}
