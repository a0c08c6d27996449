package io.cubed.chunk;

import io.cubed.dtype.DType;

/**
 * Run by {@link ElementwiseBlocksTest} in a JVM with a small heap: elementwise calls on 32 MB int8 chunks, each
 * result checked against a plain loop, then "blocks ok".
 */
public final class ElementwiseBlocksMain {
    static final int ELEMENTS = 32 << 20;

    private ElementwiseBlocksMain() {}

    public static void main(String[] args) {
        Chunk a = Chunk.allocate(DType.INT8, 4096, ELEMENTS / 4096);
        Chunk b = Chunk.allocate(DType.INT8, 4096, ELEMENTS / 4096);
        byte[] x = a.bytes();
        byte[] y = b.bytes();
        for (int i = 0; i < ELEMENTS; i++) {
            x[i] = (byte) (i * 37);
            y[i] = (byte) (i % 9 - 4);
        }
        byte[] neg = Elementwise.unary(UnaryFunction.NEGATIVE, a).bytes();
        for (int i = 0; i < ELEMENTS; i++) {
            check(neg[i] == (byte) -x[i], "negative", i);
        }
        neg = null;
        byte[] q = Elementwise.binary(BinaryFunction.FLOOR_DIVIDE, a, b).bytes();
        for (int i = 0; i < ELEMENTS; i++) {
            check(q[i] == (y[i] == 0 ? 0 : (byte) Math.floorDiv(x[i], y[i])), "floor_divide", i);
        }
        q = null;
        short[] w = Elementwise.astype(a, DType.INT16).shorts();
        for (int i = 0; i < ELEMENTS; i++) {
            check(w[i] == x[i], "astype", i);
        }
        System.out.println("blocks ok");
    }

    private static void check(boolean ok, String what, int i) {
        if (!ok) {
            throw new AssertionError(what + " wrong at element " + i);
        }
    }
}
