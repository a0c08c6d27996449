package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;

/**
 * The input chunks one task reads, per input: either listed (one coordinate array per chunk, what {@link
 * KeyFunction#inputKeys} returns) or, for a single input, a box of chunk coordinates whose keys are computed one at a
 * time in C order. A box holds the same keys in a fixed amount of memory, whatever the number of chunks: a copy stage
 * of a rechunk that reads many small chunks per task ({@link RechunkKeyFunction}) holds {@link #BOX_BYTES} bytes of
 * keys instead of a list as long as its fan-in ({@link RechunkStage#keyBytes}).
 */
public abstract sealed class TaskKeys permits TaskKeys.Listed, TaskKeys.Box {
    private TaskKeys() {}

    /**
     * Bytes a box of keys holds, beyond its dimension-dependent part {@link #boxBytes}: the box object (a 16-byte
     * header and one 8-byte reference), the header of its bounds array and the header of the key being read (16 bytes
     * each). Counted without compressed references, so an upper bound on any heap.
     */
    static final int BOX_BYTES = 16 + 8 + 16 + 16;

    /**
     * Bytes a box of keys of {@code ndim} axes holds while a task reads: {@link #BOX_BYTES} plus its first and last
     * chunk coordinates ({@code 16 · ndim}) and the coordinates of the key being read ({@code 8 · ndim}).
     */
    static long boxBytes(int ndim) {
        return BOX_BYTES + 24L * ndim;
    }

    /** The keys listed per input: {@code keys[input][k][axis]}. */
    public static TaskKeys listed(long[][][] keys) {
        return new Listed(keys);
    }

    /** One input's chunks from {@code first} to {@code last} (both included, per axis), in C order. */
    public static TaskKeys box(long[] first, long[] last) {
        return new Box(first, last);
    }

    /** Number of inputs. */
    public abstract int inputs();

    /** Number of chunks input {@code input} contributes. */
    public abstract int count(int input);

    /**
     * The chunk coordinates of input {@code input}'s {@code k}-th chunk; callers must not modify them (a box returns
     * a new array, a list its own).
     */
    abstract long[] keyAt(int input, int k);

    static final class Listed extends TaskKeys {
        private final long[][][] keys;

        Listed(long[][][] keys) {
            this.keys = keys;
        }

        @Override
        public int inputs() {
            return keys.length;
        }

        @Override
        public int count(int input) {
            return keys[input].length;
        }

        @Override
        long[] keyAt(int input, int k) {
            return keys[input][k];
        }
    }

    static final class Box extends TaskKeys {
        /** First chunk coordinates then last ones, {@code 2 · ndim} values. */
        private final long[] bounds;

        Box(long[] first, long[] last) {
            if (first.length != last.length) {
                throw new InvalidArgumentException(
                        "a box of keys needs first and last coordinates of the same rank, got " + first.length + " and "
                                + last.length);
            }
            int nd = first.length;
            bounds = new long[2 * nd];
            long n = 1;
            for (int i = 0; i < nd; i++) {
                if (last[i] < first[i]) {
                    throw new InvalidArgumentException("a box of keys needs last >= first on every axis; axis " + i
                            + " has " + first[i] + ".." + last[i]);
                }
                bounds[i] = first[i];
                bounds[nd + i] = last[i];
                n = Math.multiplyExact(n, last[i] - first[i] + 1);
            }
            Math.toIntExact(n);
        }

        @Override
        public int inputs() {
            return 1;
        }

        @Override
        public int count(int input) {
            check(input);
            int nd = bounds.length / 2;
            long n = 1;
            for (int i = 0; i < nd; i++) {
                n *= bounds[nd + i] - bounds[i] + 1;
            }
            return (int) n;
        }

        @Override
        long[] keyAt(int input, int k) {
            check(input);
            if (k < 0 || k >= count(0)) {
                throw new InvalidArgumentException("key " + k + " is outside a box of " + count(0) + " keys");
            }
            int nd = bounds.length / 2;
            long[] key = new long[nd];
            long rest = k;
            for (int i = nd - 1; i >= 0; i--) {
                long along = bounds[nd + i] - bounds[i] + 1;
                key[i] = bounds[i] + rest % along;
                rest /= along;
            }
            return key;
        }

        private static void check(int input) {
            if (input != 0) {
                throw new InvalidArgumentException("a box of keys has one input, not input " + input);
            }
        }
    }
}
