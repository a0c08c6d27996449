package io.cubed.chunk;

/** Kernels on bool chunks: logical and bitwise functions and equality. */
final class BoolKernels {
    private BoolKernels() {}

    /** bitwise_invert and logical_not: the negation of every element. */
    static boolean[] unary(UnaryFunction f, boolean[] x) {
        if (f != UnaryFunction.BITWISE_INVERT && f != UnaryFunction.LOGICAL_NOT) {
            throw new AssertionError(f);
        }
        boolean[] out = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = !x[i];
        }
        return out;
    }

    /** The logical and bitwise functions and equal/not_equal on same-length bool arrays. */
    static boolean[] binary(BinaryFunction f, boolean[] a, boolean[] b) {
        int n = a.length;
        boolean[] out = new boolean[n];
        switch (f) {
            case BITWISE_AND:
            case LOGICAL_AND:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] && b[i];
                }
                return out;
            case BITWISE_OR:
            case LOGICAL_OR:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] || b[i];
                }
                return out;
            case BITWISE_XOR:
            case LOGICAL_XOR:
            case NOT_EQUAL:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] ^ b[i];
                }
                return out;
            case EQUAL:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] == b[i];
                }
                return out;
            default:
                throw new AssertionError(f);
        }
    }
}
