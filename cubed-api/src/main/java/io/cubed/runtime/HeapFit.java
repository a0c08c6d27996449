package io.cubed.runtime;

import io.cubed.memory.HeapBound;
import java.lang.management.ManagementFactory;

/**
 * The heap of the in-process executor against the plan it runs: the bound a plan sets ({@link #bound}), and the heap an
 * earlier, larger computation in this JVM grew returned before a smaller one runs ({@link #fit}), so that the
 * process's memory follows the plan that runs (docs/benchmarks.md, "Resident memory").
 */
final class HeapFit {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LocalExecutor.class);

    private HeapFit() {}

    /**
     * The heap a computation of {@code plan} needs here, in bytes: the heap left after the last collections (each heap
     * pool's usage after its last collection: survivors, and the old generation as its last full collection left it)
     * plus, for each of {@code threads} threads, the plan's largest projected task with the collector's 20 % ({@link
     * HeapBound}).
     */
    static HeapBound bound(int threads, ExecutionPlan plan) {
        return HeapBound.of(heapAfterCollections(), threads, plan.largestTaskBytes());
    }

    /** Σ of each heap pool's usage after its last collection (its usage now where it has none), in bytes. */
    static long heapAfterCollections() {
        long sum = 0;
        for (java.lang.management.MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() != java.lang.management.MemoryType.HEAP || !p.isValid()) {
                continue;
            }
            java.lang.management.MemoryUsage after = p.getCollectionUsage();
            sum += after != null ? after.getUsed() : p.getUsage().getUsed();
        }
        return sum;
    }

    /**
     * Before a computation: when the JVM holds more heap than {@code plan} needs ({@link #bound}) and more than it
     * started with ({@code -Xms}, below which no collector shrinks it), a heap that an earlier, larger computation in
     * this JVM grew, a full collection returns the rest (the collector shrinks the heap after it to {@code
     * MaxHeapFreeRatio}), so that the process's memory follows the plan that runs rather than the largest one before
     * it. Skipped where {@code System.gc()} does not collect in full, and when the heap has not grown since the last
     * such collection left it: the collector shrinks a heap only to {@code MaxHeapFreeRatio} of what is live, so in a
     * JVM holding much besides the plan (a notebook's data, a test suite) the heap stays above the plan's bound, and
     * collecting again before every computation would return nothing and cost a full collection each time (in the
     * test suite's JVM, 7 a second, 130 ms each: most of the time of its small computations).
     */
    static void fit(int threads, ExecutionPlan plan) {
        if (plan.numTasks() == 0 || !ExplicitGc.FULL) {
            return;
        }
        java.lang.management.MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        java.lang.management.MemoryUsage heap = memory.getHeapMemoryUsage();
        HeapBound bound = bound(threads, plan);
        if (heap.getCommitted() > Math.max(heap.getInit(), bound.bytes())
                && heap.getCommitted() > COMMITTED_AFTER_FIT.get()) {
            System.gc();
            long after = memory.getHeapMemoryUsage().getCommitted();
            COMMITTED_AFTER_FIT.set(after);
            if (LOG.isDebugEnabled()) {
                LOG.debug(
                        "{}: heap {} committed over the plan's {}; after a full collection {}",
                        plan.computeId(),
                        io.cubed.memory.MemorySize.format(heap.getCommitted()),
                        bound,
                        io.cubed.memory.MemorySize.format(after));
            }
        }
    }

    /**
     * The heap committed right after {@link #fit}'s last collection (0 before the first): a heap no larger than that
     * has not grown since, and a collection would return nothing more.
     */
    private static final java.util.concurrent.atomic.AtomicLong COMMITTED_AFTER_FIT =
            new java.util.concurrent.atomic.AtomicLong();

    /** Whether {@code System.gc()} runs a full, stop-the-world collection in this JVM. */
    private static final class ExplicitGc {
        static final boolean FULL = full();

        private static boolean full() {
            try {
                com.sun.management.HotSpotDiagnosticMXBean hs =
                        ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
                return !Boolean.parseBoolean(hs.getVMOption("DisableExplicitGC").getValue())
                        && !Boolean.parseBoolean(
                                hs.getVMOption("ExplicitGCInvokesConcurrent").getValue());
            } catch (RuntimeException | LinkageError e) {
                return false;
            }
        }
    }
}
