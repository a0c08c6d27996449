package io.cubed.storage.zarr.blosc;

import io.cubed.chunk.VectorWarmup;
import java.util.Arrays;
import java.util.Random;

/**
 * When {@link ByteShuffle} switches from its scalar loops to {@link VectorByteShuffle}: a {@link VectorWarmup} that
 * times both on a scratch block of 64 kB (8192 elements of 8 bytes), shuffled and unshuffled as bytes and as {@code
 * float64} values (which {@link BloscDecoder} and {@link BloscEncoder} take straight from chunks' arrays), started
 * once the scalar
 * loops have shuffled {@link ByteShuffle#WARMUP_AFTER_BYTES} of 8-byte elements (or at once, {@link
 * BloscCodec#warmUp()}).
 */
final class ShuffleWarmup {
    /** Scratch block: 64 kB, 8192 elements of 8 bytes. */
    static final int BLOCK_BYTES = 64 * 1024;

    /** Elements of the small block the vector code is first called on. */
    static final int SMALL_ELEMENTS = 32;

    /** How long the vector code has to become faster than the scalar loops. */
    static final long DEADLINE_NANOS = VectorWarmup.DEADLINE_NANOS;

    static final VectorWarmup WARMUP = new VectorWarmup(
            "byte shuffle",
            ByteShuffle.VECTOR_PROPERTY,
            () -> VectorByteShuffle.AVAILABLE,
            ByteShuffle.WARMUP_AFTER_BYTES,
            ShuffleTrial::new);

    private ShuffleWarmup() {}

    /** Whether the vector shuffle is ready; starts the warm-up thread on the first call. */
    static boolean vectorReady() {
        if (WARMUP.ready()) {
            return true;
        }
        start();
        return false;
    }

    /** Whether the vector shuffle is ready (without starting anything). */
    static boolean ready() {
        return WARMUP.ready();
    }

    /** Starts the warm-up thread, once. */
    static void start() {
        WARMUP.start();
    }

    /** Whether the warm-up thread has been started. */
    static boolean started() {
        return WARMUP.started();
    }

    /** Times the scalar and vector shuffles as the warm-up does; true when the vector one qualifies in time. */
    static boolean calibrate(long deadlineNanos) {
        return WARMUP.calibrate(deadlineNanos);
    }

    /** A random block shuffled and unshuffled by the scalar loops and by the vector code. */
    private static final class ShuffleTrial implements VectorWarmup.Trial {
        private final int n = BLOCK_BYTES / 8;
        private final byte[] src = new byte[BLOCK_BYTES];
        private final byte[] shuffled = new byte[BLOCK_BYTES];
        private final byte[] back = new byte[BLOCK_BYTES];
        private final byte[] small;
        private final byte[] smallOut = new byte[SMALL_ELEMENTS * 8];
        private final double[] smallDoubles = new double[SMALL_ELEMENTS];
        private final double[] values = new double[BLOCK_BYTES / 8];
        private final double[] srcValues = new double[BLOCK_BYTES / 8];
        private final byte[] shuffledValues = new byte[BLOCK_BYTES];
        private final byte[] smallShuffled = new byte[SMALL_ELEMENTS * 8];

        ShuffleTrial() {
            new Random(42).nextBytes(src);
            small = Arrays.copyOf(src, SMALL_ELEMENTS * 8);
            for (int i = 0; i < srcValues.length; i++) {
                srcValues[i] = Double.longBitsToDouble(LittleEndian.getLong(src, 8 * i));
            }
        }

        @Override
        public void scalar() {
            ByteShuffle.shuffle8Scalar(n, src, 0, shuffled, 0);
            ByteShuffle.unshuffle8Scalar(n, shuffled, 0, back, 0);
            ByteShuffle.unshuffle8ToDoublesScalar(n, shuffled, 0, values, 0);
            ByteShuffle.shuffle8FromDoublesScalar(n, srcValues, 0, shuffledValues, 0);
        }

        @Override
        public void vectorSmall() {
            VectorByteShuffle.shuffle8(SMALL_ELEMENTS, small, 0, smallOut, 0);
            VectorByteShuffle.unshuffle8(SMALL_ELEMENTS, smallOut, 0, small, 0);
            // Decoders also unshuffle straight into float64 values, with a method of its own.
            VectorByteShuffle.unshuffle8ToDoubles(SMALL_ELEMENTS, smallOut, 0, smallDoubles, 0);
            VectorByteShuffle.shuffle8FromDoubles(SMALL_ELEMENTS, smallDoubles, 0, smallShuffled, 0);
            // And blocks whose elements end inside a vector step (the scalar tail): compiled with it in their
            // profile, the methods are not deoptimized (and run in the Vector API's slow fallback until compiled
            // again) the first time a block takes it.
            int tail = SMALL_ELEMENTS - 3;
            VectorByteShuffle.unshuffle8(tail, smallOut, 0, small, 0);
            VectorByteShuffle.unshuffle8ToDoubles(tail, smallOut, 0, smallDoubles, 0);
            VectorByteShuffle.shuffle8FromDoubles(tail, smallDoubles, 0, smallShuffled, 0);
        }

        @Override
        public double smallShare() {
            return (double) SMALL_ELEMENTS / n;
        }

        @Override
        public void vector() {
            VectorByteShuffle.shuffle8(n, src, 0, shuffled, 0);
            VectorByteShuffle.unshuffle8(n, shuffled, 0, back, 0);
            VectorByteShuffle.unshuffle8ToDoubles(n, shuffled, 0, values, 0);
            VectorByteShuffle.shuffle8FromDoubles(n, srcValues, 0, shuffledValues, 0);
        }

        @Override
        public boolean same() {
            byte[] expected = new byte[BLOCK_BYTES];
            ByteShuffle.shuffle8Scalar(n, src, 0, expected, 0);
            boolean sameValues = true;
            for (int i = 0; i < n; i++) {
                sameValues &= Double.doubleToRawLongBits(values[i]) == LittleEndian.getLong(src, 8 * i);
            }
            return Arrays.equals(shuffled, expected)
                    && Arrays.equals(back, src)
                    && sameValues
                    && Arrays.equals(shuffledValues, expected);
        }
    }
}
