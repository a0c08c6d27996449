package io.cubed.chunk;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when a kernel written with the JDK's Vector API takes over from its scalar loops: once the JIT has compiled
 * the vector code and it is measured faster than the scalar loops with the same results, on a background thread
 * started after the scalar loops have done {@code startAfter} units of work (or at once, {@link #start()}).
 *
 * <p>Why: until C2 compiles a method that uses the Vector API, its vector operations run in the API's Java fallback,
 * about 20 × slower than the scalar loops (found by JFR on Blosc's byte shuffle: the first one to five seconds of
 * every fresh JVM — each command-line run, each new Spark executor — decoded chunks at a tenth of the speed). The
 * scalar loops compile within milliseconds. So the work runs on the scalar loops while this thread runs both versions
 * on scratch data until the vector one is faster, three times in a row; if that does not happen within {@link
 * #DEADLINE_NANOS} (a JVM whose Vector API is not intrinsified, such as a C1-only or interpreted one), the scalar
 * loops stay. A short command never pays for the warm-up (its thread takes most of a second of a core and the JIT
 * more); past {@code startAfter} the vector code repays it within a second or two.
 *
 * <p>Each kernel has one instance, held in a static field of the class that calls it; the vector code is only
 * loaded once {@link #enabled()} has found the module ({@code --add-modules jdk.incubator.vector}).
 */
public final class VectorWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(VectorWarmup.class);

    /** How long the vector code has to become faster than the scalar loops. */
    public static final long DEADLINE_NANOS = 30_000_000_000L;

    /**
     * Calls of the vector code on a small input first: the JIT compiles a method after enough calls or enough loop
     * iterations, and each iteration is slow until then, so short calls reach C2 sooner (about 1 s against 2.2-2.5 s
     * with whole blocks alone for the byte shuffle, on the AMD machine type).
     */
    static final int SMALL_CALLS = 12_000;

    /**
     * Small calls made back to back before the warm-up paces itself ({@link #REST_PER_RUN}): more than the JIT needs
     * with {@code bin/cubed}'s and the Spark templates' {@code CompileThresholdScaling} of 0.05 for the vector classes
     * (C2 after 250 calls instead of {@code Tier4InvocationThreshold}'s 5000), so that their compilation is asked for at
     * once.
     */
    static final int EAGER_SMALL_CALLS = 1_000;

    /**
     * Past its first {@link #EAGER_SMALL_CALLS}, the warm-up rests this many times as long as its calls ran: a quarter
     * of a core. Until C2 has compiled the vector code its calls run in the Vector API's fallback, which allocates for
     * every vector operation: back to back, the byte shuffle's warm-up took 1.3-1.7 s of a core and allocated about 1
     * GB on the Intel 2-core machine type while the tasks kept both cores busy, and G1 grew its heap to keep up (a 1.2
     * GB copy peaked at 667-707 MB against 188 MB without the warm-up), while the compilation it waited for was queued
     * behind the JVM's other work on the compiler thread, not sped up by more calls.
     */
    static final int REST_PER_RUN = 3;

    /**
     * A small call counts as compiled when the fastest of three takes at most this many times the scalar loops' time
     * for its share of the scratch input ({@link Trial#smallShare()}): a compiled call on a few vectors' worth is mostly
     * call overhead, a call in the fallback a hundred times slower. Measured on the Intel machine type: the byte
     * shuffle's seven small calls 0.5-0.8 µs compiled and 81 µs in the fallback, where the scalar loops' share is 0.23
     * µs (the limit 7.3 µs); CF decoding's two 0.2-0.9 µs compiled, with a share of 0.03-0.05 µs (the limit 1.0-1.7
     * µs at 8 times, which single calls passed over now and then). Whole runs start only then: in the fallback one
     * allocates megabytes.
     */
    static final int COMPILED_SMALL_FACTOR = 32;

    /** The trial runs of one kernel on scratch data of its own (made by the warm-up thread, used by it alone). */
    public interface Trial {
        /** Runs the scalar loops once on the scratch input. */
        void scalar();

        /** Runs the vector code once on a small part of the scratch input (a few vectors' worth). */
        void vectorSmall();

        /** The part of the scratch input {@link #vectorSmall()} covers (its elements over the whole input's). */
        double smallShare();

        /** Runs the vector code once on the scratch input. */
        void vector();

        /** Whether the last {@link #vector()} run gave exactly what the scalar loops gave. */
        boolean same();
    }

    /** Guards {@link #running}. */
    private static final Object RUNNING = new Object();

    /** Warm-up threads started and not yet ended, of every kernel. */
    private static int running;

    private final String kernel;
    private final boolean enabled;
    private final boolean eager;
    private final long startAfter;
    private final Supplier<Trial> trial;
    private final AtomicBoolean started = new AtomicBoolean();
    private final LongAdder scalarWork = new LongAdder();
    private volatile boolean ready;

    /**
     * @param kernel what the kernel does, for the log and the warm-up thread's name
     * @param property a system property that turns the vector code off ({@code false}) or on from the first call
     *     ({@code eager}, without waiting for the warm-up), for comparisons and diagnosis
     * @param available whether the vector code beats scalar code on this machine's vector shape (asked only when the
     *     JVM has the Vector API module; a {@link LinkageError} counts as no)
     * @param startAfter units of work (the caller's: bytes, elements) the scalar loops do before the warm-up starts
     * @param trial makes the scratch data and the runs the warm-up times
     */
    public VectorWarmup(
            String kernel, String property, BooleanSupplier available, long startAfter, Supplier<Trial> trial) {
        this.kernel = kernel;
        this.enabled = enabled(property, available);
        this.eager = enabled && "eager".equalsIgnoreCase(System.getProperty(property));
        this.startAfter = startAfter;
        this.trial = trial;
    }

    private static boolean enabled(String property, BooleanSupplier available) {
        if ("false".equalsIgnoreCase(System.getProperty(property))) {
            return false;
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return false;
        }
        try {
            return available.getAsBoolean();
        } catch (LinkageError e) {
            return false;
        }
    }

    /** Whether the JVM can run the vector code at all (the module, the property, the machine's vector shape). */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Whether a call about to do {@code work} units goes through the vector code: once the warm-up has found it
     * compiled and faster (or at once with the property set to {@code eager}). Scalar calls are counted, and the
     * warm-up starts once they have done {@code startAfter} units.
     */
    public boolean useVector(long work) {
        if (!enabled) {
            return false;
        }
        if (eager || ready) {
            return true;
        }
        if (!started.get()) {
            scalarWork.add(work);
            if (due(scalarWork.sum())) {
                start();
            }
        }
        return false;
    }

    /** Whether {@code scalarWork} units done by the scalar loops call for the warm-up. */
    public boolean due(long scalarWork) {
        return scalarWork >= startAfter;
    }

    /** Whether the vector code is in use. */
    public boolean ready() {
        return ready;
    }

    /** Whether the warm-up thread has been started. */
    public boolean started() {
        return started.get();
    }

    /** Starts the warm-up thread, once, when the vector code is enabled and not used from the first call already. */
    public void start() {
        if (enabled && !eager && started.compareAndSet(false, true)) {
            synchronized (RUNNING) {
                running++;
            }
            Thread t = new Thread(this::run, "cubed-vector-warmup-" + kernel.replace(' ', '-'));
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            t.start();
        }
    }

    private void run() {
        try {
            long t0 = System.nanoTime();
            ready = calibrate(DEADLINE_NANOS);
            if (ready) {
                LOG.info(
                        "the Vector API {} is in use (warm after {} ms)", kernel, (System.nanoTime() - t0) / 1_000_000);
            } else {
                LOG.info(
                        "the Vector API {} was not faster than the scalar loops within {} s: the scalar loops stay",
                        kernel,
                        DEADLINE_NANOS / 1_000_000_000L);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("the Vector API {} failed its warm-up: the scalar loops stay", kernel, e);
        } finally {
            synchronized (RUNNING) {
                running--;
                RUNNING.notifyAll();
            }
        }
    }

    /**
     * Waits until no warm-up thread of any kernel runs, at most {@link #DEADLINE_NANOS} (their own limit); whether none
     * runs. For measurements of a task's live heap, which count every thread's objects: a warm-up's scratch data is not
     * the task's.
     */
    public static boolean awaitIdle() {
        long end = System.nanoTime() + DEADLINE_NANOS;
        synchronized (RUNNING) {
            while (running > 0) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    RUNNING.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Runs the scalar loops until their time stops improving, then the vector code on the small input, {@link
     * #SMALL_CALLS} times, and then on the whole input, once a small call runs at compiled speed, until it beats the
     * scalar loops three times in a row with the same result; false when {@code deadlineNanos} passes first, a result
     * differs or the thread is interrupted. Past the first {@link #EAGER_SMALL_CALLS}, the calls that do not beat the
     * scalar loops are paced to a quarter of a core ({@link #REST_PER_RUN}). Does not change what {@link #ready()} says
     * (the warm-up thread sets it from this).
     */
    public boolean calibrate(long deadlineNanos) {
        long end = System.nanoTime() + deadlineNanos;
        Trial t = trial.get();
        long scalar = Long.MAX_VALUE;
        int stale = 0;
        while (stale < 3 && System.nanoTime() < end) {
            long best = Long.MAX_VALUE;
            for (int k = 0; k < 20; k++) {
                long t0 = System.nanoTime();
                t.scalar();
                best = Math.min(best, System.nanoTime() - t0);
            }
            stale = best < scalar * 0.95 ? 0 : stale + 1;
            scalar = Math.min(scalar, best);
        }
        Pacer pacer = new Pacer();
        for (int c = 0; c < SMALL_CALLS && System.nanoTime() < end; c++) {
            long t0 = System.nanoTime();
            t.vectorSmall();
            if (c >= EAGER_SMALL_CALLS && !pacer.ran(System.nanoTime() - t0)) {
                return false;
            }
        }
        double compiledSmall = COMPILED_SMALL_FACTOR * scalar * t.smallShare();
        int faster = 0;
        while (System.nanoTime() < end) {
            long small = Long.MAX_VALUE;
            long spent = 0;
            for (int k = 0; k < 3; k++) {
                long t0 = System.nanoTime();
                t.vectorSmall();
                long d = System.nanoTime() - t0;
                small = Math.min(small, d);
                spent += d;
            }
            if (small > compiledSmall) {
                faster = 0;
                if (!pacer.ran(spent)) {
                    return false;
                }
                continue;
            }
            long t0 = System.nanoTime();
            t.vector();
            long took = System.nanoTime() - t0;
            faster = took < scalar ? faster + 1 : 0;
            if (faster >= 3) {
                return t.same();
            }
            if (faster == 0 && !pacer.ran(took)) {
                return false;
            }
        }
        return false;
    }

    /** Rests {@link #REST_PER_RUN} times as long as the calls it is told of ran, once they add up to a millisecond. */
    private static final class Pacer {
        private long ran;

        /** Counts a call of {@code nanos}; false when the thread was interrupted while resting. */
        boolean ran(long nanos) {
            ran += nanos;
            if (ran < 1_000_000) {
                return true;
            }
            long until = System.nanoTime() + REST_PER_RUN * ran;
            ran = 0;
            for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                java.util.concurrent.locks.LockSupport.parkNanos(left); // may return early: rest again what is left
                if (Thread.currentThread().isInterrupted()) {
                    return false;
                }
            }
            return true;
        }
    }
}
