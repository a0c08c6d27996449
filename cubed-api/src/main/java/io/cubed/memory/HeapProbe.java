package io.cubed.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Measures the peak <em>live</em> heap of one task: the most memory the task's objects held at once, not what it
 * allocated (allocation also counts garbage).
 *
 * <p>How: while a thread measures ({@link #begin()} to {@link Measurement#close()}), every {@link #checkpoint()} runs
 * a full garbage collection and counts the bytes of the live objects (HotSpot's class histogram of live objects; on
 * JVMs without it, the heap in use after {@code System.gc()}). The storage
 * layer calls {@code checkpoint()} where a task holds the most buffers at once: after decoding a chunk (the stored
 * bytes, the decompressed bytes and the typed chunk are all reachable there) and after encoding one (the chunk, its
 * bytes and the compressed bytes). The task's peak is the largest such reading minus the reading at {@code begin()}
 * (the baseline: everything that was live before the task, including the JVM's own data, which is what Cubed calls
 * reserved memory). The measurement is exact at the checkpoints and sees nothing between them, so it is a lower bound
 * of the true peak whose gap is the task's short-lived temporaries away from chunk reads and writes.
 *
 * <p>A task whose slot keeps store requests in flight (reads of the next tasks' chunks, writes of the last tasks'
 * chunks, on the store client's threads) is measured {@linkplain #begin(long, LongSupplier) against the slot's
 * baseline}: the live heap before the slot started any request, so that what its requests hold at a checkpoint counts
 * in the task's peak (the histogram counts every thread's objects) rather than in its baseline; the measurement also
 * notes what the slot's requests held at the peak.
 *
 * <p>Costs: a full collection per checkpoint (milliseconds on a small live set), so only a few tasks per operation are
 * measured, each alone: other threads allocating at the same time would be counted as the task's. Executors that
 * measure (the in-process executor with {@code measureMemory}) run measured tasks exclusively. Outside a measurement,
 * {@code checkpoint()} is one read of a volatile counter.
 *
 * <p>Refused ({@link IllegalStateException} from {@code begin()}) on JVMs started with {@code -XX:+DisableExplicitGC}
 * or {@code -XX:+ExplicitGCInvokesConcurrent}, where {@code System.gc()} does not give a completed full collection.
 */
public final class HeapProbe {
    private static final ThreadLocal<Measurement> CURRENT = new ThreadLocal<>();
    private static final AtomicInteger ACTIVE = new AtomicInteger();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final com.sun.management.ThreadMXBean ALLOCATION = threadAllocationBean();

    private HeapProbe() {}

    /** One task's measurement on the current thread; close it when the task ends. */
    public static final class Measurement implements AutoCloseable {
        private final long baseline;
        private final LongSupplier requestBytes;
        private long peak;
        private long requestBytesAtPeak = -1;
        private int checkpoints;
        private long probeAllocated;
        private boolean closed;

        private Measurement(long baseline, LongSupplier requestBytes) {
            this.baseline = baseline;
            this.peak = baseline;
            this.requestBytes = requestBytes;
        }

        /** Live heap at the start of the measurement, in bytes. */
        public long baselineBytes() {
            return baseline;
        }

        /** The largest live heap seen at a checkpoint, above the baseline, in bytes (0 without checkpoints). */
        public long peakBytes() {
            return Math.max(0, peak - baseline);
        }

        /**
         * Bytes the probe itself allocated on this thread (the histograms it reads), to subtract from a per-thread
         * allocation figure of the task; -1 where the JVM cannot tell.
         */
        public long probeAllocatedBytes() {
            return ALLOCATION == null ? -1 : probeAllocated;
        }

        /**
         * What the task slot's store requests held, in bytes, at the checkpoint of the peak (as the slot counts them:
         * a read its value's bound until it completes, then its length; a write its bytes); -1 without a slot or
         * before the first checkpoint above the baseline.
         */
        public long requestBytesAtPeak() {
            return requestBytesAtPeak;
        }

        /** How many checkpoints the task passed. */
        public int checkpoints() {
            return checkpoints;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                CURRENT.remove();
                ACTIVE.decrementAndGet();
            }
        }
    }

    /** Starts measuring the current thread's task: collects garbage and takes the live heap as the baseline. */
    public static Measurement begin() {
        checkCanBegin();
        return start(liveHeap(), null);
    }

    /**
     * Starts measuring the current thread's task against {@code baselineBytes}, a {@link #liveHeap()} taken earlier:
     * for a task whose slot keeps store requests in flight, the live heap before the slot started any, so that the
     * buffers its requests hold (on the store client's threads) count in the peak. {@code requestBytes} tells what the
     * slot's requests hold now, read at every checkpoint ({@link Measurement#requestBytesAtPeak}); null for none.
     */
    public static Measurement begin(long baselineBytes, LongSupplier requestBytes) {
        checkCanBegin();
        return start(baselineBytes, requestBytes);
    }

    private static void checkCanBegin() {
        if (CURRENT.get() != null) {
            throw new IllegalStateException("a heap measurement is already running on thread "
                    + Thread.currentThread().getName());
        }
        checkExplicitGcCollects();
    }

    private static Measurement start(long baseline, LongSupplier requestBytes) {
        Measurement m = new Measurement(baseline, requestBytes);
        CURRENT.set(m);
        ACTIVE.incrementAndGet();
        return m;
    }

    /**
     * A point of high memory use in a task: when the current thread measures, records the live heap now. Callers keep
     * the buffers they want counted reachable until after this call (e.g. with {@link
     * java.lang.ref.Reference#reachabilityFence}).
     */
    public static void checkpoint() {
        if (ACTIVE.get() == 0) {
            return;
        }
        Measurement m = CURRENT.get();
        if (m == null) {
            return;
        }
        long before = threadAllocated();
        long held = m.requestBytes == null ? -1 : m.requestBytes.getAsLong();
        long live = liveHeap();
        m.probeAllocated += threadAllocated() - before;
        m.checkpoints++;
        if (live > m.peak) {
            m.peak = live;
            m.requestBytesAtPeak = held;
        }
    }

    /** True while the current thread measures. */
    public static boolean measuring() {
        return ACTIVE.get() != 0 && CURRENT.get() != null;
    }

    /**
     * The live heap now: in use after a full collection. Also the JVM's baseline at rest, our counterpart of Cubed's
     * {@code measure_reserved_mem}.
     */
    public static long liveHeap() {
        long histogram = histogramTotal();
        if (histogram >= 0) {
            return histogram;
        }
        System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    /**
     * The bytes of all live objects, from HotSpot's class histogram of live objects (which runs a full collection
     * first), or -1 where the JVM has no such diagnostic command. Exact to the object, unlike the heap's "used" figure,
     * which G1 counts in whole regions for large arrays (a 2.1 MB array fills three 1 MB regions).
     */
    private static long histogramTotal() {
        try {
            javax.management.MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Object out = server.invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram",
                    new Object[] {new String[0]},
                    new String[] {String[].class.getName()});
            String text = String.valueOf(out);
            int total = text.lastIndexOf("Total");
            if (total < 0) {
                return -1;
            }
            String[] fields = text.substring(total).trim().split("\\s+");
            return Long.parseLong(fields[2]);
        } catch (javax.management.JMException | RuntimeException e) {
            return -1;
        }
    }

    private static com.sun.management.ThreadMXBean threadAllocationBean() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean b
                && b.isThreadAllocatedMemorySupported()
                && b.isThreadAllocatedMemoryEnabled()) {
            return b;
        }
        return null;
    }

    private static long threadAllocated() {
        return ALLOCATION == null ? 0 : ALLOCATION.getCurrentThreadAllocatedBytes();
    }

    private static void checkExplicitGcCollects() {
        java.util.List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (String flag : new String[] {"-XX:+DisableExplicitGC", "-XX:+ExplicitGCInvokesConcurrent"}) {
            if (args.contains(flag)) {
                throw new IllegalStateException("cannot measure task memory: the JVM runs with " + flag
                        + ", so System.gc() does not complete a full collection; remove the flag to measure");
            }
        }
    }
}
