package io.cubed.storage.zarr.blosc;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when {@link ByteShuffle} switches from its scalar loops to {@link VectorByteShuffle}: once the JIT has
 * compiled the Vector API code and it is measured faster than the scalar loops, on a background thread started once
 * the scalar loops have shuffled {@link ByteShuffle#WARMUP_AFTER_BYTES} of 8-byte elements (or at once, {@link
 * BloscCodec#warmUp()}).
 *
 * <p>Why: until C2 compiles a method that uses the Vector API, its vector operations run in the API's Java fallback,
 * about 20 × slower than the scalar loops (found by JFR: the first one to five seconds of every fresh JVM — each
 * command-line run, each new Spark executor — decoded Blosc chunks at a tenth of the speed, and on the bench's warm-up
 * inputs the vector methods were not yet compiled when the timed run began). The scalar loops compile within
 * milliseconds. So chunks are shuffled with the scalar loops while this thread runs both versions on a scratch block
 * until the vector one is faster (and gives the same bytes) three times in a row; if that does not happen within
 * {@link #DEADLINE_NANOS} (a JVM whose Vector API is not intrinsified, such as a C1-only or interpreted one), the
 * scalar loops stay.
 */
final class ShuffleWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(ShuffleWarmup.class);

    /** Scratch block: 64 kB, 8192 elements of 8 bytes. */
    static final int BLOCK_BYTES = 64 * 1024;

    /** Calls of the vector code that make it hot enough for the JIT (its loop runs 2048 times per call). */
    static final int WARM_CALLS = 100;

    /** Elements of the small block the vector code is first called on, and how many times. */
    static final int SMALL_ELEMENTS = 32;

    static final int SMALL_CALLS = 12_000;

    /** How long the vector code has to become faster than the scalar loops. */
    static final long DEADLINE_NANOS = 30_000_000_000L;

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile boolean ready;

    private ShuffleWarmup() {}

    /** Whether the vector shuffle is ready; starts the warm-up thread on the first call. */
    static boolean vectorReady() {
        if (ready) {
            return true;
        }
        start();
        return false;
    }

    /** Whether the vector shuffle is ready (without starting anything). */
    static boolean ready() {
        return ready;
    }

    /** Starts the warm-up thread, once. */
    static void start() {
        if (STARTED.compareAndSet(false, true)) {
            Thread t = new Thread(ShuffleWarmup::run, "cubed-shuffle-warmup");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            t.start();
        }
    }

    /** Whether the warm-up thread has been started. */
    static boolean started() {
        return STARTED.get();
    }

    private static void run() {
        try {
            ready = calibrate(DEADLINE_NANOS);
            if (!ready) {
                LOG.info("the Vector API byte shuffle was not faster than the scalar loops within "
                        + DEADLINE_NANOS / 1_000_000_000L + " s: Blosc keeps the scalar loops");
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("the Vector API byte shuffle failed its warm-up: Blosc keeps the scalar loops", e);
        }
    }

    /**
     * Runs the scalar loops until their time stops improving, then the vector ones until they beat it three times in
     * a row with the same result; false when {@code deadlineNanos} passes first or a result differs.
     */
    static boolean calibrate(long deadlineNanos) {
        long end = System.nanoTime() + deadlineNanos;
        int n = BLOCK_BYTES / 8;
        byte[] src = new byte[BLOCK_BYTES];
        new Random(42).nextBytes(src);
        byte[] shuffled = new byte[BLOCK_BYTES];
        byte[] back = new byte[BLOCK_BYTES];
        long scalar = Long.MAX_VALUE;
        int stale = 0;
        while (stale < 3 && System.nanoTime() < end) {
            long best = Long.MAX_VALUE;
            for (int k = 0; k < 20; k++) {
                long t0 = System.nanoTime();
                ByteShuffle.shuffle8From(0, n, src, 0, shuffled, 0);
                ByteShuffle.unshuffle8From(0, n, shuffled, 0, back, 0);
                best = Math.min(best, System.nanoTime() - t0);
            }
            stale = best < scalar * 0.95 ? 0 : stale + 1;
            scalar = Math.min(scalar, best);
        }
        byte[] expected = shuffled.clone();
        // Many calls on a small block first: the JIT compiles a method after enough calls or enough loop iterations,
        // and each iteration of the vector code is slow until then, so short calls reach C2 sooner (about 1 s
        // against 2.2-2.5 s with whole blocks alone, on the AMD machine type).
        byte[] small = Arrays.copyOf(src, SMALL_ELEMENTS * 8);
        byte[] smallOut = new byte[small.length];
        for (int c = 0; c < SMALL_CALLS && System.nanoTime() < end; c++) {
            VectorByteShuffle.shuffle8(SMALL_ELEMENTS, small, 0, smallOut, 0);
            VectorByteShuffle.unshuffle8(SMALL_ELEMENTS, smallOut, 0, small, 0);
        }
        int faster = 0;
        for (int attempt = 0; System.nanoTime() < end; attempt++) {
            long t0 = System.nanoTime();
            VectorByteShuffle.shuffle8(n, src, 0, shuffled, 0);
            VectorByteShuffle.unshuffle8(n, shuffled, 0, back, 0);
            long t = System.nanoTime() - t0;
            faster = t < scalar ? faster + 1 : 0;
            if (faster >= 3) {
                return Arrays.equals(shuffled, expected) && Arrays.equals(back, src);
            }
            if (attempt >= WARM_CALLS && faster == 0) {
                // The calls have made the methods hot; the compiler works on its own thread: wait without burning a
                // core the tasks need.
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }
}
