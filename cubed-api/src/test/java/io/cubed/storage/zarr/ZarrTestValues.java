package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * Test helpers shared by the Zarr fixture and interop tests, written independently of the code under test: dtype
 * strings, fill values, little-endian decoding, sub-regions and element-wise comparison with a useful message.
 */
final class ZarrTestValues {
    private ZarrTestValues() {}

    /** The Array API type of a NumPy type string such as {@code "<f8"}, {@code ">i4"} or {@code "|b1"}. */
    static DType dtypeOf(String numpy) {
        String kindSize = numpy.substring(1);
        switch (kindSize) {
            case "b1":
                return DType.BOOL;
            case "i1":
                return DType.INT8;
            case "i2":
                return DType.INT16;
            case "i4":
                return DType.INT32;
            case "i8":
                return DType.INT64;
            case "u1":
                return DType.UINT8;
            case "u2":
                return DType.UINT16;
            case "u4":
                return DType.UINT32;
            case "u8":
                return DType.UINT64;
            case "f4":
                return DType.FLOAT32;
            case "f8":
                return DType.FLOAT64;
            case "c8":
                return DType.COMPLEX64;
            case "c16":
                return DType.COMPLEX128;
            default:
                throw new IllegalArgumentException("not an Array API dtype: " + numpy);
        }
    }

    /**
     * The fill value the manifest gives as Java-parsable text: null, a boolean, a decimal integer string (unsigned
     * 64-bit values above Long.MAX_VALUE allowed), a float string or a [re, im] pair of float strings.
     */
    static Scalar fillOf(Object manifestFill, DType dtype) {
        if (manifestFill == null) {
            return null;
        }
        switch (dtype.kind()) {
            case BOOL:
                return Scalar.ofBoolean((Boolean) manifestFill);
            case SIGNED:
                return Scalar.ofLong(Long.parseLong((String) manifestFill));
            case UNSIGNED:
                return Scalar.ofLong(Long.parseUnsignedLong((String) manifestFill));
            case FLOAT:
                return Scalar.ofDouble(Double.parseDouble((String) manifestFill));
            default:
                List<?> pair = (List<?>) manifestFill;
                return Scalar.ofComplex(
                        Double.parseDouble((String) pair.get(0)), Double.parseDouble((String) pair.get(1)));
        }
    }

    /** Decodes C-order little-endian element bytes (bool one byte, complex as real/imag pairs) into a chunk. */
    static Chunk decodeLittleEndian(byte[] raw, DType dtype, int[] shape) {
        Chunk c = Chunk.allocate(dtype, shape);
        assertThat((long) raw.length)
                .as("bytes of a %s chunk of %s", dtype, Arrays.toString(shape))
                .isEqualTo(c.nbytes());
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        switch (dtype) {
            case BOOL -> {
                for (int i = 0; i < raw.length; i++) {
                    c.booleans()[i] = raw[i] != 0;
                }
            }
            case INT8, UINT8 -> b.get(c.bytes());
            case INT16, UINT16 -> b.asShortBuffer().get(c.shorts());
            case INT32, UINT32 -> b.asIntBuffer().get(c.ints());
            case INT64, UINT64 -> b.asLongBuffer().get(c.longs());
            case FLOAT32, COMPLEX64 -> b.asFloatBuffer().get(c.floats());
            case FLOAT64, COMPLEX128 -> b.asDoubleBuffer().get(c.doubles());
        }
        return c;
    }

    /** The box of {@code whole} at {@code offset} of {@code shape}, copied. */
    static Chunk region(Chunk whole, long[] offset, int[] shape) {
        Chunk out = Chunk.allocate(whole.dtype(), shape);
        int[] off = new int[offset.length];
        for (int i = 0; i < off.length; i++) {
            off[i] = Math.toIntExact(offset[i]);
        }
        Chunk.copyRegion(whole, off, out, new int[shape.length], shape);
        return out;
    }

    /** Asserts same dtype, shape and element bits (NaN equal to NaN), naming the first differing element. */
    static void assertSameValues(Chunk actual, Chunk expected, String what) {
        assertThat(actual.dtype()).as("dtype of %s", what).isEqualTo(expected.dtype());
        assertThat(actual.shape()).as("shape of %s", what).isEqualTo(expected.shape());
        if (actual.contentEquals(expected)) {
            return;
        }
        for (int i = 0; i < actual.size(); i++) {
            if (!elementString(actual, i).equals(elementString(expected, i))) {
                throw new AssertionError(what + ": element " + Arrays.toString(unravel(i, actual.shape())) + " is "
                        + elementString(actual, i) + " but expected " + elementString(expected, i));
            }
        }
        throw new AssertionError(what + ": contents differ (NaN payload or -0.0)");
    }

    private static String elementString(Chunk c, int flat) {
        switch (c.dtype().kind()) {
            case BOOL:
                return Boolean.toString(c.booleans()[flat]);
            case SIGNED:
                return Long.toString(c.getLong(flat));
            case UNSIGNED:
                return Long.toUnsignedString(c.getLong(flat));
            case FLOAT:
                return Double.toString(c.getDouble(flat));
            default:
                return "(" + c.getDouble(flat) + ", " + c.getImag(flat) + ")";
        }
    }

    static int[] unravel(int flat, int[] shape) {
        int[] idx = new int[shape.length];
        for (int a = shape.length - 1; a >= 0; a--) {
            idx[a] = flat % shape[a];
            flat /= shape[a];
        }
        return idx;
    }

    static long[] longs(Object jsonList) {
        List<?> l = (List<?>) jsonList;
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) l.get(i)).longValue();
        }
        return out;
    }

    static int[] ints(Object jsonList) {
        long[] l = longs(jsonList);
        int[] out = new int[l.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.toIntExact(l[i]);
        }
        return out;
    }

    static int[] toInts(long[] a) {
        int[] out = new int[a.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.toIntExact(a[i]);
        }
        return out;
    }
}
