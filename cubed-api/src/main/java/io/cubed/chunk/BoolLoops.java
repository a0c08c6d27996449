package io.cubed.chunk;

/**
 * Loops on bool arrays: negation, the logical and bitwise functions (the same on bool) and equality, one method per
 * operation, shared by the functions of {@link UnaryFunction} and {@link BinaryFunction} that mean the same on bool.
 */
final class BoolLoops {
    private BoolLoops() {}

    /** {@code bitwise_invert} and {@code logical_not}. */
    static boolean[] not(boolean[] x) {
        boolean[] out = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = !x[i];
        }
        return out;
    }

    /** {@code bitwise_and} and {@code logical_and}. */
    static boolean[] and(boolean[] a, boolean[] b) {
        boolean[] out = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] && b[i];
        }
        return out;
    }

    /** {@code bitwise_or} and {@code logical_or}. */
    static boolean[] or(boolean[] a, boolean[] b) {
        boolean[] out = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] || b[i];
        }
        return out;
    }

    /** {@code bitwise_xor}, {@code logical_xor} and {@code not_equal}. */
    static boolean[] xor(boolean[] a, boolean[] b) {
        boolean[] out = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] ^ b[i];
        }
        return out;
    }

    /** {@code equal}. */
    static boolean[] equal(boolean[] a, boolean[] b) {
        boolean[] out = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] == b[i];
        }
        return out;
    }
}
