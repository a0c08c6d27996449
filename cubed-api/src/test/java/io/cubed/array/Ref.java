package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import java.util.function.Function;

/** Plain-Java reference arrays for the array tests: a shape and every element as a double, in C order. */
final class Ref {
    final int[] shape;
    final double[] data;

    Ref(int[] shape, double[] data) {
        this.shape = shape.clone();
        this.data = data;
    }

    /** Elements {@code offset, offset + 1, …}. */
    static Ref iotaFrom(double offset, int... shape) {
        double[] d = new double[Chunk.elementCount(shape)];
        for (int i = 0; i < d.length; i++) {
            d[i] = offset + i;
        }
        return new Ref(shape, d);
    }

    /** Elements {@code 0, 1, 2, …}. */
    static Ref iota(int... shape) {
        return iotaFrom(0, shape);
    }

    /** The same elements as a chunk of {@code dtype}. */
    Chunk chunk(DType dtype) {
        Chunk c = Chunk.allocate(dtype, shape);
        for (int i = 0; i < data.length; i++) {
            switch (dtype) {
                case FLOAT64 -> c.doubles()[i] = data[i];
                case FLOAT32 -> c.floats()[i] = (float) data[i];
                case INT64 -> c.longs()[i] = (long) data[i];
                case INT32 -> c.ints()[i] = (int) data[i];
                case INT16 -> c.shorts()[i] = (short) data[i];
                case INT8, UINT8 -> c.bytes()[i] = (byte) data[i];
                case BOOL -> c.booleans()[i] = data[i] != 0;
                default -> throw new AssertionError(dtype);
            }
        }
        return c;
    }

    int size() {
        return data.length;
    }

    /** The element at {@code index}. */
    double at(int... index) {
        int flat = 0;
        for (int a = 0; a < shape.length; a++) {
            flat = flat * shape[a] + index[a];
        }
        return data[flat];
    }

    /** The multi-index of C-order position {@code flat} in {@code shape}. */
    static int[] unravel(int flat, int[] shape) {
        int[] idx = new int[shape.length];
        for (int a = shape.length - 1; a >= 0; a--) {
            idx[a] = shape[a] == 0 ? 0 : flat % shape[a];
            flat = shape[a] == 0 ? 0 : flat / shape[a];
        }
        return idx;
    }

    /**
     * The array of {@code outShape} whose element at each index is {@code source.apply(index)}, computed with a plain
     * loop over every output element.
     */
    static Ref build(int[] outShape, Function<int[], Double> source) {
        double[] d = new double[Chunk.elementCount(outShape)];
        for (int i = 0; i < d.length; i++) {
            d[i] = source.apply(unravel(i, outShape));
        }
        return new Ref(outShape, d);
    }
}
