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
        return switch (numpy.substring(1)) {
            case "b1" -> DType.BOOL;
            case "i1" -> DType.INT8;
            case "i2" -> DType.INT16;
            case "i4" -> DType.INT32;
            case "i8" -> DType.INT64;
            case "u1" -> DType.UINT8;
            case "u2" -> DType.UINT16;
            case "u4" -> DType.UINT32;
            case "u8" -> DType.UINT64;
            case "f4" -> DType.FLOAT32;
            case "f8" -> DType.FLOAT64;
            case "c8" -> DType.COMPLEX64;
            case "c16" -> DType.COMPLEX128;
            default -> throw new IllegalArgumentException("not an Array API dtype: " + numpy);
        };
    }

    /**
     * The fill value the manifest gives as Java-parsable text: null, a boolean, a decimal integer string (unsigned
     * 64-bit values above Long.MAX_VALUE allowed), a float string or a [re, im] pair of float strings.
     */
    static Scalar fillOf(Object manifestFill, DType dtype) {
        if (manifestFill == null) {
            return null;
        }
        return switch (dtype.kind()) {
            case BOOL -> Scalar.ofBoolean((Boolean) manifestFill);
            case SIGNED -> Scalar.ofLong(Long.parseLong((String) manifestFill));
            case UNSIGNED -> Scalar.ofUnsignedLong(Long.parseUnsignedLong((String) manifestFill));
            case FLOAT -> Scalar.ofDouble(Double.parseDouble((String) manifestFill));
            case COMPLEX -> Scalar.ofComplex(
                    Double.parseDouble((String) ((List<?>) manifestFill).get(0)),
                    Double.parseDouble((String) ((List<?>) manifestFill).get(1)));
        };
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
        return switch (c.dtype().kind()) {
            case BOOL -> Boolean.toString(c.booleans()[flat]);
            case SIGNED -> Long.toString(c.getLong(flat));
            case UNSIGNED -> Long.toUnsignedString(c.getLong(flat));
            case FLOAT -> Double.toString(c.getDouble(flat));
            case COMPLEX -> "(" + c.getDouble(flat) + ", " + c.getImag(flat) + ")";
        };
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
