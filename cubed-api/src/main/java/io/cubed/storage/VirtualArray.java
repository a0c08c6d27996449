package io.cubed.storage;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Elementwise;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import java.util.Arrays;

/**
 * An array that is never stored: each chunk is generated inside the task that reads it, from a few numbers that
 * travel with the task ({@link #full}, {@link #arange}, {@link #linspace}, {@link #eye}) or from a small in-memory
 * array ({@link #inMemory}). Read-only.
 */
public abstract class VirtualArray implements ChunkStore {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final DType dtype;
    private final ChunkGrid grid;

    VirtualArray(String name, DType dtype, ChunkGrid grid) {
        this.name = name;
        this.dtype = dtype;
        this.grid = grid;
    }

    /** Every element {@code value} (also {@code zeros}, {@code ones}, {@code empty}). */
    public static VirtualArray full(ChunkGrid grid, DType dtype, Scalar value) {
        return new Full(grid, dtype, value);
    }

    /** The 1-d array {@code start + i·step} for {@code i < length}, as numpy's {@code arange}. */
    public static VirtualArray arange(double start, double step, long length, int chunk, DType dtype) {
        return new Arange(start, step, ChunkGrid.of(new long[] {length}, new int[] {chunk}), dtype);
    }

    /** The 1-d int64 array {@code start + i·step} for {@code i < length}, exact (numpy's arange of integers). */
    public static VirtualArray arange(long start, long step, long length, int chunk) {
        return new LongArange(start, step, ChunkGrid.of(new long[] {length}, new int[] {chunk}));
    }

    /**
     * {@code num} evenly spaced values from {@code start} to {@code stop} (included when {@code endpoint}), as numpy's
     * {@code linspace}.
     */
    public static VirtualArray linspace(double start, double stop, long num, boolean endpoint, int chunk, DType dtype) {
        return new Linspace(start, stop, num, endpoint, ChunkGrid.of(new long[] {num}, new int[] {chunk}), dtype);
    }

    /** The {@code rows × cols} array with ones on diagonal {@code k} (0 main, positive above), zeros elsewhere. */
    public static VirtualArray eye(long rows, long cols, long k, int[] chunks, DType dtype) {
        return new Eye(k, ChunkGrid.of(new long[] {rows, cols}, chunks), dtype);
    }

    /**
     * The sample frequencies of a discrete Fourier transform of length {@code n} with sample spacing {@code d}
     * ({@code fft.fftfreq}: {@code 0, 1, …, ⌈n/2⌉ − 1, −⌊n/2⌋, …, −1}, each divided by {@code n·d}), or with
     * {@code real} the {@code n/2 + 1} non-negative ones ({@code fft.rfftfreq}).
     */
    public static VirtualArray fftFrequencies(long n, double d, boolean real, int chunk, DType dtype) {
        long length = real ? n / 2 + 1 : n;
        return new FftFrequencies(n, d, real, ChunkGrid.of(new long[] {length}, new int[] {chunk}), dtype);
    }

    /** The whole array {@code data} (of the grid's shape), cut into the grid's chunks as tasks read it. */
    public static VirtualArray inMemory(Chunk data, ChunkGrid grid) {
        if (!Arrays.equals(toLongs(data.shape()), grid.shape())) {
            throw new InvalidArgumentException("data of shape " + Arrays.toString(data.shape())
                    + " does not match the grid's shape " + Arrays.toString(grid.shape()));
        }
        return new InMemory(data, grid);
    }

    private static long[] toLongs(int[] a) {
        long[] l = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            l[i] = a[i];
        }
        return l;
    }

    @Override
    public String url() {
        return "virtual:" + name;
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    @Override
    public ChunkGrid grid() {
        return grid;
    }

    @Override
    public Scalar fillValue() {
        return Scalar.zero();
    }

    @Override
    public Chunk readChunk(long... chunkCoords) {
        grid.checkCoords(chunkCoords);
        return generate(grid.chunkOffset(chunkCoords), grid.chunkShapeAt(chunkCoords));
    }

    /** The elements of the box at element {@code offset} with {@code shape}. */
    abstract Chunk generate(long[] offset, int[] shape);

    @Override
    public void writeChunk(Chunk chunk, long... chunkCoords) {
        throw new InvalidArgumentException(url() + " is a virtual array and cannot be written");
    }

    @Override
    public boolean chunkExists(long... chunkCoords) {
        grid.checkCoords(chunkCoords);
        return true;
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape) {
        return ChunkStores.readRegion(this, offset, shape);
    }

    @Override
    public BufferCopies bufferCopies() {
        return new BufferCopies(0, 0);
    }

    @Override
    public boolean isVirtual() {
        return true;
    }

    private static final class Full extends VirtualArray {
        private static final long serialVersionUID = 1L;
        private final Scalar value;

        Full(ChunkGrid grid, DType dtype, Scalar value) {
            super("full(" + value + ")", dtype, grid);
            this.value = value;
        }

        @Override
        public Scalar fillValue() {
            return value;
        }

        @Override
        Chunk generate(long[] offset, int[] shape) {
            return Chunk.full(dtype(), value, shape);
        }
    }

    private static final class Arange extends VirtualArray {
        private static final long serialVersionUID = 1L;
        private final double start;
        private final double step;

        Arange(double start, double step, ChunkGrid grid, DType dtype) {
            super("arange(" + start + ", step " + step + ")", dtype, grid);
            this.start = start;
            this.step = step;
        }

        @Override
        Chunk generate(long[] offset, int[] shape) {
            Chunk c = Chunk.allocate(dtype(), shape);
            for (int i = 0; i < shape[0]; i++) {
                set(c, i, start + (offset[0] + i) * step);
            }
            return c;
        }
    }

    private static final class LongArange extends VirtualArray {
        private static final long serialVersionUID = 1L;
        private final long start;
        private final long step;

        LongArange(long start, long step, ChunkGrid grid) {
            super("arange(" + start + ", step " + step + ")", DType.INT64, grid);
            this.start = start;
            this.step = step;
        }

        @Override
        Chunk generate(long[] offset, int[] shape) {
            Chunk c = Chunk.allocate(DType.INT64, shape);
            long[] v = c.longs();
            for (int i = 0; i < shape[0]; i++) {
                v[i] = start + (offset[0] + i) * step;
            }
            return c;
        }
    }

    private static final class Linspace extends VirtualArray {
        private static final long serialVersionUID = 1L;
        private final double start;
        private final double stop;
        private final long num;
        private final boolean endpoint;

        Linspace(double start, double stop, long num, boolean endpoint, ChunkGrid grid, DType dtype) {
            super("linspace(" + start + ", " + stop + ", " + num + ")", dtype, grid);
            this.start = start;
            this.stop = stop;
            this.num = num;
            this.endpoint = endpoint;
        }

        /**
         * NumPy's linspace: element {@code j} is {@code j·step + start} with {@code step = (stop − start) / div}; when
         * that step is 0 (the difference underflows it, or is 0), {@code (j / div)·(stop − start) + start}; with no
         * step ({@code div} 0: one value with the endpoint), {@code j·(stop − start) + start}. The last value is
         * {@code stop} itself when the endpoint is included; an integer type takes the floor of each value.
         */
        @Override
        Chunk generate(long[] offset, int[] shape) {
            long div = endpoint ? num - 1 : num;
            double delta = stop - start;
            double step = div > 0 ? delta / div : Double.NaN;
            boolean floor = dtype().isInteger();
            Chunk c = Chunk.allocate(dtype(), shape);
            for (int i = 0; i < shape[0]; i++) {
                long j = offset[0] + i;
                double v;
                if (endpoint && j == num - 1 && num > 1) {
                    v = stop;
                } else if (div <= 0) {
                    v = j * delta + start;
                } else if (step == 0) {
                    v = ((double) j / div) * delta + start;
                } else {
                    v = j * step + start;
                }
                set(c, i, floor ? Math.floor(v) : v);
            }
            return c;
        }
    }

    private static final class FftFrequencies extends VirtualArray {
        private static final long serialVersionUID = 1L;
        private final long n;
        private final double d;
        private final boolean real;

        FftFrequencies(long n, double d, boolean real, ChunkGrid grid, DType dtype) {
            super((real ? "rfftfreq(" : "fftfreq(") + n + ", d=" + d + ")", dtype, grid);
            this.n = n;
            this.d = d;
            this.real = real;
        }

        @Override
        Chunk generate(long[] offset, int[] shape) {
            // As NumPy: the integer frequency times 1 / (n d), both in double, rounded once to the type.
            double unit = 1.0 / (n * d);
            // fftfreq wraps after the ⌈n/2⌉ non-negative frequencies; rfftfreq never wraps.
            long positive = real ? n : (n - 1) / 2 + 1;
            Chunk c = Chunk.allocate(dtype(), shape);
            for (int i = 0; i < shape[0]; i++) {
                long k = offset[0] + i;
                set(c, i, (k < positive ? k : k - n) * unit);
            }
            return c;
        }
    }

    private static final class Eye extends VirtualArray {
        private static final long serialVersionUID = 1L;
        private final long k;

        Eye(long k, ChunkGrid grid, DType dtype) {
            super("eye(k=" + k + ")", dtype, grid);
            this.k = k;
        }

        @Override
        Chunk generate(long[] offset, int[] shape) {
            Chunk c = Chunk.allocate(dtype(), shape);
            for (int r = 0; r < shape[0]; r++) {
                long col = offset[0] + r + k - offset[1];
                if (col >= 0 && col < shape[1]) {
                    set(c, r * shape[1] + (int) col, 1);
                }
            }
            return c;
        }
    }

    private static final class InMemory extends VirtualArray {
        private static final long serialVersionUID = 1L;
        private final Chunk data;

        InMemory(Chunk data, ChunkGrid grid) {
            super("in-memory", data.dtype(), grid);
            this.data = data;
        }

        /** The whole array travels with the tasks that read it. */
        @Override
        public long carriedBytes() {
            return (long) data.size() * data.dtype().itemSizeBytes();
        }

        @Override
        Chunk generate(long[] offset, int[] shape) {
            Chunk c = Chunk.allocate(dtype(), shape);
            int[] off = new int[offset.length];
            for (int i = 0; i < off.length; i++) {
                off[i] = (int) offset[i];
            }
            Chunk.copyRegion(data, off, c, new int[shape.length], shape);
            return c;
        }
    }

    /**
     * Stores {@code v} converted to the chunk's type at flat position {@code i} (numpy's casting of a double, as
     * {@code astype} casts: an integer type truncates, and takes NaN, infinities and values outside it as NumPy on
     * x86-64 does).
     */
    static void set(Chunk c, int i, double v) {
        switch (c.dtype()) {
            case BOOL -> c.booleans()[i] = v != 0;
            case INT8, UINT8 -> c.bytes()[i] = (byte) Elementwise.doubleToIntegerBits(v, c.dtype());
            case INT16, UINT16 -> c.shorts()[i] = (short) Elementwise.doubleToIntegerBits(v, c.dtype());
            case INT32, UINT32 -> c.ints()[i] = (int) Elementwise.doubleToIntegerBits(v, c.dtype());
            case INT64, UINT64 -> c.longs()[i] = Elementwise.doubleToIntegerBits(v, c.dtype());
            case FLOAT32 -> c.floats()[i] = (float) v;
            case FLOAT64 -> c.doubles()[i] = v;
            case COMPLEX64 -> c.floats()[2 * i] = (float) v;
            case COMPLEX128 -> c.doubles()[2 * i] = v;
        }
    }

    @Override
    public String toString() {
        return url() + " " + dtype + " " + grid;
    }
}
