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

    /** Calls of the vector code on the whole scratch input that make it hot enough for the JIT. */
    static final int WARM_CALLS = 100;

    /**
     * Calls of the vector code on a small input first: the JIT compiles a method after enough calls or enough loop
     * iterations, and each iteration is slow until then, so short calls reach C2 sooner (about 1 s against 2.2-2.5 s
     * with whole blocks alone for the byte shuffle, on the AMD machine type).
     */
    static final int SMALL_CALLS = 12_000;

    /** The trial runs of one kernel on scratch data of its own (made by the warm-up thread, used by it alone). */
    public interface Trial {
        /** Runs the scalar loops once on the scratch input. */
        void scalar();

        /** Runs the vector code once on a small part of the scratch input (a few vectors' worth). */
        void vectorSmall();

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
     * Runs the scalar loops until their time stops improving, then the vector code until it beats them three times in
     * a row with the same result; false when {@code deadlineNanos} passes first or a result differs. Does not change
     * what {@link #ready()} says (the warm-up thread sets it from this).
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
        for (int c = 0; c < SMALL_CALLS && System.nanoTime() < end; c++) {
            t.vectorSmall();
        }
        int faster = 0;
        for (int attempt = 0; System.nanoTime() < end; attempt++) {
            long t0 = System.nanoTime();
            t.vector();
            long took = System.nanoTime() - t0;
            faster = took < scalar ? faster + 1 : 0;
            if (faster >= 3) {
                return t.same();
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
