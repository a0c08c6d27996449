package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.AxisMap;
import io.cubed.primitive.Triangle;
import io.cubed.storage.RandomArray;
import io.cubed.storage.VirtualArray;
import java.util.ArrayList;
import java.util.List;

/**
 * Creation functions of the Array API. Each returns a virtual array: its chunks are generated inside the tasks that
 * read them, so creating one writes nothing and reads nothing. Chunks are given per axis, {@code -1} for a whole axis.
 */
public final class Creation {
    private Creation() {}

    /** An array of zeros ({@code zeros}). */
    public static CubedArray zeros(long[] shape, int[] chunks, DType dtype, Spec spec) {
        return full(shape, Scalar.zero(), chunks, dtype, spec);
    }

    /** An array of ones ({@code ones}). */
    public static CubedArray ones(long[] shape, int[] chunks, DType dtype, Spec spec) {
        return full(shape, dtype == DType.BOOL ? Scalar.ofBoolean(true) : Scalar.ofLong(1), chunks, dtype, spec);
    }

    /** An uninitialized array ({@code empty}); Cubed fills it with zeros. */
    public static CubedArray empty(long[] shape, int[] chunks, DType dtype, Spec spec) {
        return zeros(shape, chunks, dtype, spec);
    }

    /**
     * An array whose every element is {@code value} converted to {@code dtype} ({@code full}); an integer value must
     * fit an integer {@code dtype} ({@code full(..., Scalar.ofLong(1000), ..., INT8, ...)} is refused, as NumPy 2
     * refuses it).
     */
    public static CubedArray full(long[] shape, Scalar value, int[] chunks, DType dtype, Spec spec) {
        DTypes.checkScalarFits("full", value, dtype);
        ChunkGrid grid = Chunking.grid(shape, chunks, "full");
        return virtual(VirtualArray.full(grid, dtype, value), spec);
    }

    /**
     * Evenly spaced values {@code start, start + step, …} below {@code stop} (above, for a negative step), in chunks
     * of {@code chunk} elements ({@code arange}).
     */
    public static CubedArray arange(double start, double stop, double step, int chunk, DType dtype, Spec spec) {
        if (step == 0 || Double.isNaN(step)) {
            throw new InvalidArgumentException("arange: step must be a non-zero number, got " + step);
        }
        long length = (long) Math.max(0, Math.ceil((stop - start) / step));
        ChunkGrid grid = Chunking.grid(new long[] {length}, new int[] {chunk}, "arange");
        return virtual(VirtualArray.arange(start, step, length, grid.chunkShape(0), dtype), spec);
    }

    /** {@code num} evenly spaced values from {@code start} to {@code stop}, which is included when {@code endpoint}. */
    public static CubedArray linspace(
            double start, double stop, long num, boolean endpoint, int chunk, DType dtype, Spec spec) {
        if (num < 0) {
            throw new InvalidArgumentException("linspace: num must not be negative, got " + num);
        }
        ChunkGrid grid = Chunking.grid(new long[] {num}, new int[] {chunk}, "linspace");
        return virtual(VirtualArray.linspace(start, stop, num, endpoint, grid.chunkShape(0), dtype), spec);
    }

    /** A {@code rows × cols} array with ones on diagonal {@code k} (0 the main one, positive above) ({@code eye}). */
    public static CubedArray eye(long rows, long cols, long k, int[] chunks, DType dtype, Spec spec) {
        ChunkGrid grid = Chunking.grid(new long[] {rows, cols}, chunks, "eye");
        return virtual(VirtualArray.eye(rows, cols, k, grid.chunkShape(), dtype), spec);
    }

    /** Zeros with the shape, chunks, dtype and spec of {@code x} ({@code zeros_like}). */
    public static CubedArray zerosLike(CubedArray x) {
        return zeros(x.shape(), x.chunkShape(), x.dtype(), x.spec());
    }

    /** Ones with the shape, chunks, dtype and spec of {@code x} ({@code ones_like}). */
    public static CubedArray onesLike(CubedArray x) {
        return ones(x.shape(), x.chunkShape(), x.dtype(), x.spec());
    }

    /** An uninitialized array like {@code x} ({@code empty_like}); zeros. */
    public static CubedArray emptyLike(CubedArray x) {
        return zerosLike(x);
    }

    /** {@code value} everywhere, with the shape, chunks, dtype and spec of {@code x} ({@code full_like}). */
    public static CubedArray fullLike(CubedArray x, Scalar value) {
        ElementwiseOps.checkScalarFits("full_like", x, value, x.dtype());
        return full(x.shape(), value, x.chunkShape(), x.dtype(), x.spec());
    }

    // NumPy-like forms: the standard's default data types (float64 for zeros, ones, empty and floating arange; int64
    // for
    // integer arange; the scalar's kind for full) and the default spec (Spec.defaults()) when none is given.

    /** float64 zeros with the default spec. */
    public static CubedArray zeros(long[] shape, int[] chunks) {
        return zeros(shape, chunks, DType.FLOAT64, Spec.defaults());
    }

    /** float64 zeros. */
    public static CubedArray zeros(long[] shape, int[] chunks, Spec spec) {
        return zeros(shape, chunks, DType.FLOAT64, spec);
    }

    /** float64 ones with the default spec. */
    public static CubedArray ones(long[] shape, int[] chunks) {
        return ones(shape, chunks, DType.FLOAT64, Spec.defaults());
    }

    /** float64 ones. */
    public static CubedArray ones(long[] shape, int[] chunks, Spec spec) {
        return ones(shape, chunks, DType.FLOAT64, spec);
    }

    /** A float64 uninitialized array (zeros) with the default spec. */
    public static CubedArray empty(long[] shape, int[] chunks) {
        return empty(shape, chunks, DType.FLOAT64, Spec.defaults());
    }

    /** A float64 uninitialized array (zeros). */
    public static CubedArray empty(long[] shape, int[] chunks, Spec spec) {
        return empty(shape, chunks, DType.FLOAT64, spec);
    }

    /**
     * {@code value} everywhere, typed as the standard types a Python scalar: bool, int64 for an integer, float64 for a
     * real, complex128 for a complex number.
     */
    public static CubedArray full(long[] shape, Scalar value, int[] chunks, Spec spec) {
        return full(shape, value, chunks, defaultType(value), spec);
    }

    /** {@link #full(long[], Scalar, int[], Spec)} with the default spec. */
    public static CubedArray full(long[] shape, Scalar value, int[] chunks) {
        return full(shape, value, chunks, Spec.defaults());
    }

    /** int64 values {@code start, start + step, …} below {@code stop} (above, for a negative step), as NumPy's arange of integers. */
    public static CubedArray arange(long start, long stop, long step, int chunk, Spec spec) {
        if (step == 0) {
            throw new InvalidArgumentException("arange: step must not be 0");
        }
        long length = step > 0
                ? Math.max(0, Math.floorDiv(stop - start + step - 1, step))
                : Math.max(0, Math.floorDiv(start - stop - step - 1, -step));
        ChunkGrid grid = Chunking.grid(new long[] {length}, new int[] {chunk}, "arange");
        return virtual(VirtualArray.arange(start, step, length, grid.chunkShape(0)), spec);
    }

    /** int64 {@code 0, 1, …, stop − 1} in chunks of {@code chunk}, with the default spec. */
    public static CubedArray arange(long stop, int chunk) {
        return arange(0, stop, 1, chunk, Spec.defaults());
    }

    /** float64 values {@code start, start + step, …} below {@code stop}. */
    public static CubedArray arange(double start, double stop, double step, int chunk, Spec spec) {
        return arange(start, stop, step, chunk, DType.FLOAT64, spec);
    }

    /** float64 {@code num} evenly spaced values from {@code start} to {@code stop} (included). */
    public static CubedArray linspace(double start, double stop, long num, int chunk, Spec spec) {
        return linspace(start, stop, num, true, chunk, DType.FLOAT64, spec);
    }

    /** Zeros like {@code x} but of type {@code dtype} ({@code zeros_like(x, dtype=...)}). */
    public static CubedArray zerosLike(CubedArray x, DType dtype) {
        return zeros(x.shape(), x.chunkShape(), dtype, x.spec());
    }

    /** Ones like {@code x} but of type {@code dtype}. */
    public static CubedArray onesLike(CubedArray x, DType dtype) {
        return ones(x.shape(), x.chunkShape(), dtype, x.spec());
    }

    /** An uninitialized array (zeros) like {@code x} but of type {@code dtype}. */
    public static CubedArray emptyLike(CubedArray x, DType dtype) {
        return zerosLike(x, dtype);
    }

    /** {@code value} everywhere, like {@code x} but of type {@code dtype}. */
    public static CubedArray fullLike(CubedArray x, Scalar value, DType dtype) {
        ElementwiseOps.checkScalarFits("full_like", x, value, dtype);
        return full(x.shape(), value, x.chunkShape(), dtype, x.spec());
    }

    /** The standard's default type of a Python scalar of {@code value}'s kind. */
    static DType defaultType(Scalar value) {
        switch (value.form()) {
            case BOOL:
                return DType.BOOL;
            case INTEGER:
                return DType.INT64;
            case REAL:
                return DType.FLOAT64;
            default:
                return DType.COMPLEX128;
        }
    }

    /**
     * Coordinate arrays from the 1-d {@code arrays} ({@code meshgrid}), all of one dtype: with {@link MeshIndexing#IJ}
     * output {@code i} has shape {@code (n0, n1, …)} and varies along axis {@code i}; with {@link MeshIndexing#XY} the
     * first two axes are swapped. Each output axis has the chunks of the input along it (as Cubed), and every output
     * chunk reads one input chunk.
     */
    public static List<CubedArray> meshgrid(MeshIndexing indexing, CubedArray... arrays) {
        int n = arrays.length;
        for (CubedArray a : arrays) {
            if (a.ndim() != 1) {
                throw new InvalidArgumentException(
                        "meshgrid: " + Layout.describe(a) + " is not one-dimensional; meshgrid takes 1-d arrays");
            }
            if (a.dtype() != arrays[0].dtype()) {
                throw new InvalidArgumentException("meshgrid: " + a.name() + " is " + a.dtype() + " but "
                        + arrays[0].name() + " is " + arrays[0].dtype() + "; the inputs must have one dtype");
            }
        }
        int[] axisOf = new int[n];
        for (int i = 0; i < n; i++) {
            axisOf[i] = i;
        }
        if (indexing == MeshIndexing.XY && n > 1) {
            axisOf[0] = 1;
            axisOf[1] = 0;
        }
        long[] shape = new long[n];
        int[] chunks = new int[n];
        for (int i = 0; i < n; i++) {
            shape[axisOf[i]] = arrays[i].shape()[0];
            chunks[axisOf[i]] = arrays[i].chunkShape()[0];
        }
        ChunkGrid grid = ChunkGrid.of(shape, chunks);
        List<CubedArray> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CubedArray a = arrays[i];
            out.add(Layout.single(
                    "meshgrid",
                    a,
                    grid,
                    new int[] {axisOf[i]},
                    new AxisMap[] {AxisMap.identity(a.shape()[0])},
                    new long[1],
                    null));
        }
        return out;
    }

    /** {@link #meshgrid(MeshIndexing, CubedArray...)} with Cartesian ({@code "xy"}) indexing. */
    public static List<CubedArray> meshgrid(CubedArray... arrays) {
        return meshgrid(MeshIndexing.XY, arrays);
    }

    /**
     * The lower triangle of the last two axes of {@code x} ({@code tril}): elements with {@code col − row ≤ k} are kept,
     * the others are zero ({@code k} 0: the main diagonal, positive above). Chunks are {@code x}'s; chunks entirely
     * above the diagonal read nothing.
     */
    public static CubedArray tril(CubedArray x, long k) {
        return triangle("tril", x, true, k);
    }

    /** {@link #tril(CubedArray, long)} with {@code k = 0}. */
    public static CubedArray tril(CubedArray x) {
        return tril(x, 0);
    }

    /** The upper triangle ({@code triu}): elements with {@code col − row ≥ k} are kept, the others are zero. */
    public static CubedArray triu(CubedArray x, long k) {
        return triangle("triu", x, false, k);
    }

    /** {@link #triu(CubedArray, long)} with {@code k = 0}. */
    public static CubedArray triu(CubedArray x) {
        return triu(x, 0);
    }

    private static CubedArray triangle(String name, CubedArray x, boolean lower, long k) {
        if (x.ndim() < 2) {
            throw new InvalidArgumentException(
                    name + ": " + Layout.describe(x) + " has " + x.ndim() + " axes; it needs at least 2");
        }
        Triangle f = new Triangle(x.dtype(), x.chunks(), lower, k);
        OpNode op = OpNode.blockwise(
                name, List.of(x.node()), f, f, new int[] {1}, 0, List.of(x.dtype()), List.of(x.chunks()));
        return CubedArray.of(op.outputs().get(0), x.spec());
    }

    /**
     * Uniform random numbers in {@code [0, 1)} of {@code dtype} (float64 or float32) ({@code random.random}), as a
     * virtual array: element {@code i} (flat C-order index) depends only on {@code seed} and {@code i} (see
     * {@link RandomArray}), so values are the same for any chunking, executor or retry.
     */
    public static CubedArray random(long[] shape, int[] chunks, DType dtype, long seed, Spec spec) {
        return virtual(RandomArray.uniform(Chunking.grid(shape, chunks, "random"), dtype, seed), spec);
    }

    /** {@link #random(long[], int[], DType, long, Spec)} of float64. */
    public static CubedArray random(long[] shape, int[] chunks, long seed, Spec spec) {
        return random(shape, chunks, DType.FLOAT64, seed, spec);
    }

    /**
     * Random integers uniform in {@code [low, high)} of an integer {@code dtype} that holds both bounds, as a virtual
     * array whose element {@code i} depends only on {@code seed} and its flat index {@code i}.
     */
    public static CubedArray randomIntegers(
            long[] shape, int[] chunks, long low, long high, DType dtype, long seed, Spec spec) {
        ChunkGrid grid = Chunking.grid(shape, chunks, "random integers");
        return virtual(RandomArray.integers(grid, dtype, low, high, seed), spec);
    }

    private static CubedArray virtual(VirtualArray v, Spec spec) {
        return CubedArray.of(ArrayNode.source(v), spec);
    }
}
