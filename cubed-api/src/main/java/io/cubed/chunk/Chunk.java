package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.dtype.FloatBits;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * One chunk of an array in memory: a data type, a shape in elements and one Java primitive array holding the elements
 * in C order (see {@link DType} for which array each type uses).
 *
 * <p>A chunk is a working buffer owned by one task: {@link #data()} and the typed accessors return the backing array
 * itself, without copying, so kernels run at the speed of a plain loop. The shape is immutable.
 */
public final class Chunk implements Serializable {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final int[] shape;
    private final int size;
    private final Object data;

    private Chunk(DType dtype, int[] shape, Object data) {
        this.dtype = dtype;
        this.shape = shape.clone();
        this.size = elementCount(this.shape);
        this.data = data;
        int expected = Math.multiplyExact(size, dtype.slotsPerElement());
        if (data.getClass() != dtype.arrayClass()) {
            throw new InvalidArgumentException(
                    "a " + dtype + " chunk needs a " + dtype.arrayClass().getSimpleName() + " but got a "
                            + data.getClass().getSimpleName());
        }
        if (java.lang.reflect.Array.getLength(data) != expected) {
            throw new InvalidArgumentException("a " + dtype + " chunk of shape " + Arrays.toString(shape) + " needs "
                    + expected + " array slots but got " + java.lang.reflect.Array.getLength(data));
        }
    }

    /** A chunk of zeros (false for bool). */
    public static Chunk allocate(DType dtype, int... shape) {
        return new Chunk(dtype, shape, dtype.newArray(elementCount(shape)));
    }

    /**
     * A chunk for a task that holds it until the task ends and writes every element before reading any (a rechunk
     * region's output chunks, into which the task reads every input chunk that overlaps them; the output chunk that a
     * fused elementwise chain's tiles are copied into): inside a task its array
     * may be one the thread's previous task of the same operation used ({@link ArrayRecycler}), not cleared. Its
     * elements are unspecified until written (with {@code -Dcubed.recycler.poison=true}, as the tests run, NaN or
     * garbage).
     */
    public static Chunk allocateForTaskToOverwrite(DType dtype, int... shape) {
        return new Chunk(
                dtype,
                shape,
                ArrayRecycler.array(
                        dtype.arrayClass(), Math.multiplyExact(elementCount(shape), dtype.slotsPerElement())));
    }

    /** A chunk whose every element is {@code value} converted to {@code dtype}. */
    public static Chunk full(DType dtype, Scalar value, int... shape) {
        Chunk c = allocate(dtype, shape);
        c.fill(value);
        return c;
    }

    /** Wraps {@code data} (not copied), which must be the array type of {@code dtype} with the right length. */
    public static Chunk wrap(DType dtype, int[] shape, Object data) {
        return new Chunk(dtype, shape, data);
    }

    /** Number of elements of a chunk of {@code shape}: the product of its lengths, 1 for a 0-d chunk. */
    public static int elementCount(int... shape) {
        long n = 1;
        for (int s : shape) {
            if (s < 0) {
                throw new InvalidArgumentException("chunk shape " + Arrays.toString(shape) + " has a negative length");
            }
            n *= s;
            if (n > Integer.MAX_VALUE - 8) {
                throw new InvalidArgumentException("chunk shape " + Arrays.toString(shape) + " has more than "
                        + (Integer.MAX_VALUE - 8) + " elements; use smaller chunks");
            }
        }
        return (int) n;
    }

    public DType dtype() {
        return dtype;
    }

    /** The shape in elements (a copy). */
    public int[] shape() {
        return shape.clone();
    }

    public int shape(int axis) {
        return shape[axis];
    }

    public int ndim() {
        return shape.length;
    }

    /** Number of elements. */
    public int size() {
        return size;
    }

    /** Size of the elements in bytes: {@code size() * dtype().itemSizeBytes()}. */
    public long nbytes() {
        return (long) size * dtype.itemSizeBytes();
    }

    /** The backing primitive array (not a copy). */
    public Object data() {
        return data;
    }

    public double[] doubles() {
        return (double[]) data;
    }

    public float[] floats() {
        return (float[]) data;
    }

    public long[] longs() {
        return (long[]) data;
    }

    public int[] ints() {
        return (int[]) data;
    }

    public short[] shorts() {
        return (short[]) data;
    }

    public byte[] bytes() {
        return (byte[]) data;
    }

    public boolean[] booleans() {
        return (boolean[]) data;
    }

    /** The C-order flat index of the element at {@code index}, checking bounds. */
    public int flatIndex(int... index) {
        if (index.length != shape.length) {
            throw new InvalidArgumentException("index " + Arrays.toString(index) + " has rank " + index.length
                    + " but the chunk has rank " + shape.length);
        }
        int flat = 0;
        for (int i = 0; i < shape.length; i++) {
            if (index[i] < 0 || index[i] >= shape[i]) {
                throw new InvalidArgumentException(
                        "index " + Arrays.toString(index) + " is outside chunk shape " + Arrays.toString(shape));
            }
            flat = flat * shape[i] + index[i];
        }
        return flat;
    }

    /** The element at {@code index} (one coordinate per axis, none for a 0-d chunk) as a {@link Scalar}. */
    public Scalar get(int... index) {
        return getScalar(flatIndex(index));
    }

    /**
     * A new {@code double[]} of every element in C order, converted as {@link #getDouble} does (complex types give
     * their real parts; use {@link #doubles()} for the interleaved values).
     */
    public double[] toDoubleArray() {
        if (dtype == DType.FLOAT64) {
            return doubles().clone();
        }
        double[] out = new double[size];
        for (int i = 0; i < size; i++) {
            out[i] = getDouble(i);
        }
        return out;
    }

    /** A new {@code long[]} of every element in C order, converted as {@link #getLong} does. */
    public long[] toLongArray() {
        if (dtype == DType.INT64 || dtype == DType.UINT64) {
            return longs().clone();
        }
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = getLong(i);
        }
        return out;
    }

    /** The element at C-order position {@code flat} as a {@link Scalar} of this chunk's type. */
    public Scalar getScalar(int flat) {
        switch (dtype.kind()) {
            case BOOL:
                return Scalar.ofBoolean(booleans()[flat]);
            case SIGNED:
            case UNSIGNED:
                return dtype == DType.UINT64 ? Scalar.ofUnsignedLong(getLong(flat)) : Scalar.ofLong(getLong(flat));
            case FLOAT:
                return Scalar.ofDouble(getDouble(flat));
            default:
                return Scalar.ofComplex(getDouble(flat), getImag(flat));
        }
    }

    /**
     * The element at C-order position {@code flat} as a long: unsigned types are widened without sign (uint64 keeps its
     * bits), floats are truncated, bool is 0 or 1, complex gives its truncated real part.
     */
    public long getLong(int flat) {
        switch (dtype) {
            case BOOL:
                return booleans()[flat] ? 1 : 0;
            case INT8:
                return bytes()[flat];
            case UINT8:
                return Byte.toUnsignedLong(bytes()[flat]);
            case INT16:
                return shorts()[flat];
            case UINT16:
                return Short.toUnsignedLong(shorts()[flat]);
            case INT32:
                return ints()[flat];
            case UINT32:
                return Integer.toUnsignedLong(ints()[flat]);
            case INT64:
            case UINT64:
                return longs()[flat];
            case FLOAT32:
                return (long) floats()[flat];
            case FLOAT64:
                return (long) doubles()[flat];
            case COMPLEX64:
                return (long) floats()[2 * flat];
            case COMPLEX128:
                return (long) doubles()[2 * flat];
        }
        throw new AssertionError(dtype);
    }

    /** The element at C-order position {@code flat} as a double (the real part for complex; uint64 as unsigned). */
    public double getDouble(int flat) {
        switch (dtype) {
            case FLOAT32:
                return floats()[flat];
            case FLOAT64:
                return doubles()[flat];
            case COMPLEX64:
                return floats()[2 * flat];
            case COMPLEX128:
                return doubles()[2 * flat];
            case UINT64:
                long v = longs()[flat];
                return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
            default:
                return getLong(flat);
        }
    }

    /** The imaginary part of the element at C-order position {@code flat}; 0 for non-complex types. */
    public double getImag(int flat) {
        switch (dtype) {
            case COMPLEX64:
                return floats()[2 * flat + 1];
            case COMPLEX128:
                return doubles()[2 * flat + 1];
            default:
                return 0;
        }
    }

    /**
     * Sets every element to {@code value} converted to this chunk's type: an integer keeps its bits (wrapped to the
     * type's width), a float or complex value (its real part) becomes an integer as {@code astype} converts it
     * ({@link Casting#doubleToIntegerBits}: NaN, infinities and values outside the type as NumPy on x86-64).
     */
    public void fill(Scalar value) {
        long bits = dtype.isInteger() && (value.form() == Scalar.Form.REAL || value.form() == Scalar.Form.COMPLEX)
                ? Casting.doubleToIntegerBits(value.doubleValue(), dtype)
                : value.longValue();
        switch (dtype) {
            case BOOL:
                Arrays.fill(booleans(), value.booleanValue());
                break;
            case INT8:
            case UINT8:
                Arrays.fill(bytes(), (byte) bits);
                break;
            case INT16:
            case UINT16:
                Arrays.fill(shorts(), (short) bits);
                break;
            case INT32:
            case UINT32:
                Arrays.fill(ints(), (int) bits);
                break;
            case INT64:
            case UINT64:
                Arrays.fill(longs(), bits);
                break;
            case FLOAT32:
                // FloatBits, not a (float) cast, which quiets a signalling NaN fill value.
                Arrays.fill(floats(), FloatBits.narrow(value.doubleValue()));
                break;
            case FLOAT64:
                Arrays.fill(doubles(), value.doubleValue());
                break;
            case COMPLEX64:
                float[] f = floats();
                float re = FloatBits.narrow(value.realPart());
                float im = FloatBits.narrow(value.imagPart());
                for (int i = 0; i < f.length; i += 2) {
                    f[i] = re;
                    f[i + 1] = im;
                }
                break;
            case COMPLEX128:
                double[] d = doubles();
                for (int i = 0; i < d.length; i += 2) {
                    d[i] = value.realPart();
                    d[i + 1] = value.imagPart();
                }
                break;
        }
    }

    /** True when every element equals {@code value} converted to this chunk's type, comparing bits (NaN equals NaN). */
    public boolean isAll(Scalar value) {
        Chunk probe = full(dtype, value, 1);
        switch (dtype) {
            case BOOL:
                return allEqual(booleans(), probe.booleans()[0]);
            case INT8:
            case UINT8:
                byte b = probe.bytes()[0];
                for (byte x : bytes()) {
                    if (x != b) {
                        return false;
                    }
                }
                return true;
            case INT16:
            case UINT16:
                short s = probe.shorts()[0];
                for (short x : shorts()) {
                    if (x != s) {
                        return false;
                    }
                }
                return true;
            case INT32:
            case UINT32:
                int iv = probe.ints()[0];
                for (int x : ints()) {
                    if (x != iv) {
                        return false;
                    }
                }
                return true;
            case INT64:
            case UINT64:
                long lv = probe.longs()[0];
                for (long x : longs()) {
                    if (x != lv) {
                        return false;
                    }
                }
                return true;
            case FLOAT32:
            case COMPLEX64:
                float[] pf = probe.floats();
                float[] f = floats();
                for (int i = 0; i < f.length; i++) {
                    if (Float.floatToIntBits(f[i]) != Float.floatToIntBits(pf[i % pf.length])) {
                        return false;
                    }
                }
                return true;
            case FLOAT64:
            case COMPLEX128:
                double[] pd = probe.doubles();
                double[] d = doubles();
                for (int i = 0; i < d.length; i++) {
                    if (Double.doubleToLongBits(d[i]) != Double.doubleToLongBits(pd[i % pd.length])) {
                        return false;
                    }
                }
                return true;
        }
        throw new AssertionError(dtype);
    }

    private static boolean allEqual(boolean[] values, boolean v) {
        for (boolean x : values) {
            if (x != v) {
                return false;
            }
        }
        return true;
    }

    /** True when both chunks have the same type, shape and element bits (NaN equals NaN). */
    public boolean contentEquals(Chunk other) {
        if (dtype != other.dtype || !Arrays.equals(shape, other.shape)) {
            return false;
        }
        switch (dtype) {
            case BOOL:
                return Arrays.equals(booleans(), other.booleans());
            case INT8:
            case UINT8:
                return Arrays.equals(bytes(), other.bytes());
            case INT16:
            case UINT16:
                return Arrays.equals(shorts(), other.shorts());
            case INT32:
            case UINT32:
                return Arrays.equals(ints(), other.ints());
            case INT64:
            case UINT64:
                return Arrays.equals(longs(), other.longs());
            case FLOAT32:
            case COMPLEX64:
                return Arrays.equals(floats(), other.floats());
            default:
                return Arrays.equals(doubles(), other.doubles());
        }
    }

    /**
     * Copies the box of {@code extent} elements starting at {@code srcOffset} in {@code src} to {@code dstOffset} in
     * {@code dst}. Both chunks must have the same type and rank; runs along the last axis are copied with
     * {@link System#arraycopy}.
     */
    public static void copyRegion(Chunk src, int[] srcOffset, Chunk dst, int[] dstOffset, int[] extent) {
        if (src.dtype != dst.dtype) {
            throw new InvalidArgumentException("cannot copy a " + src.dtype + " chunk into a " + dst.dtype + " chunk");
        }
        int nd = src.shape.length;
        if (dst.shape.length != nd || srcOffset.length != nd || dstOffset.length != nd || extent.length != nd) {
            throw new InvalidArgumentException("copyRegion needs offsets and extent of the chunks' rank " + nd);
        }
        for (int i = 0; i < nd; i++) {
            if (extent[i] == 0) {
                return;
            }
            if (srcOffset[i] < 0
                    || srcOffset[i] + extent[i] > src.shape[i]
                    || dstOffset[i] < 0
                    || dstOffset[i] + extent[i] > dst.shape[i]) {
                throw new InvalidArgumentException("region of extent " + Arrays.toString(extent) + " at "
                        + Arrays.toString(srcOffset) + " -> " + Arrays.toString(dstOffset)
                        + " does not fit chunk shapes " + Arrays.toString(src.shape) + " -> "
                        + Arrays.toString(dst.shape));
            }
        }
        int slots = src.dtype.slotsPerElement();
        if (nd == 0) {
            System.arraycopy(src.data, 0, dst.data, 0, slots);
            return;
        }
        // Strides in elements, C order.
        int[] srcStride = strides(src.shape);
        int[] dstStride = strides(dst.shape);
        int run = extent[nd - 1] * slots;
        int[] pos = new int[nd - 1];
        while (true) {
            int s = srcOffset[nd - 1];
            int d = dstOffset[nd - 1];
            for (int i = 0; i < nd - 1; i++) {
                s += (srcOffset[i] + pos[i]) * srcStride[i];
                d += (dstOffset[i] + pos[i]) * dstStride[i];
            }
            System.arraycopy(src.data, s * slots, dst.data, d * slots, run);
            if (!nextIndex(pos, extent, nd - 1)) {
                return;
            }
        }
    }

    /**
     * Moves {@code index}, a position over the first {@code axes} axes of a box of {@code extent} (C order: the last of
     * them fastest), to the next position; returns false, with {@code index} back at zeros, when it was the last. The
     * step of every loop over a box's rows.
     */
    public static boolean nextIndex(int[] index, int[] extent, int axes) {
        for (int axis = axes - 1; axis >= 0; axis--) {
            if (++index[axis] < extent[axis]) {
                return true;
            }
            index[axis] = 0;
        }
        return false;
    }

    /** C-order strides in elements of an array of {@code shape}. */
    public static int[] strides(int[] shape) {
        int[] stride = new int[shape.length];
        int s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            stride[i] = s;
            s *= shape[i];
        }
        return stride;
    }

    @Override
    public String toString() {
        return "Chunk{" + dtype + ", shape=" + Arrays.toString(shape) + "}";
    }
}
