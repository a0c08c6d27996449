package io.cubed.runtime;

import io.cubed.memory.HeapBound;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * For {@link HeapFitTest}, in a JVM of its own: one computation whose two tasks hold 200 MB each at once, then one of
 * 10 MB tasks; prints {@code heap} with the committed heap before and after the second, its bound, and the resident
 * set before and after it, in bytes.
 */
final class HeapFitMain {
    private HeapFitMain() {}

    static volatile Object sink;

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("repeat")) {
            repeat();
            return;
        }
        LocalExecutor executor = new LocalExecutor(2, 1);
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
        TaskFunction large = i -> {
            long[][] held = new long[25][];
            for (int k = 0; k < held.length; k++) {
                held[k] = new long[1_000_000]; // 8 MB each, 200 MB in all
                java.util.Arrays.fill(held[k], k);
            }
            try {
                together.await(); // both tasks hold theirs at once
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            sink = held;
            return TaskIo.NONE;
        };
        executor.execute(
                new ExecutionPlan("large", List.of(new Stage("op-001", "large", 2, large, 250_000_000L, List.of()))),
                List.of());
        sink = null;
        long committedBefore =
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        long rssBefore = HeapBound.residentBytes();
        ExecutionPlan small = new ExecutionPlan(
                "small", List.of(new Stage("op-001", "small", 4, i -> TaskIo.NONE, 10_000_000L, List.of())));
        long bound = executor.heapBound(small).bytes();
        executor.execute(small, List.of());
        long committedAfter =
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        // G1 uncommits the regions it gave up on a thread of its own, shortly after the collection.
        long rssAfter = HeapBound.residentBytes();
        for (int k = 0; k < 50 && rssBefore - rssAfter < committedBefore - committedAfter - 50_000_000L; k++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            rssAfter = HeapBound.residentBytes();
        }
        System.out.println(
                "heap " + committedBefore + " " + committedAfter + " " + bound + " " + rssBefore + " " + rssAfter);
    }

    /**
     * 300 MB held live (as a notebook's data would be), the heap grown beyond it by garbage, then 20 computations of 1
     * MB tasks; prints {@code full} with the full collections during those 20 and the committed heap after them.
     */
    static void repeat() {
        long[][] live = new long[30][];
        for (int k = 0; k < live.length; k++) {
            live[k] = new long[1_250_000]; // 10 MB each
        }
        sink = live;
        for (int k = 0; k < 60; k++) {
            sink2 = new long[1_250_000];
        }
        LocalExecutor executor = new LocalExecutor(2, 1);
        ExecutionPlan small = new ExecutionPlan(
                "small", List.of(new Stage("op-001", "small", 4, i -> TaskIo.NONE, 1_000_000L, List.of())));
        long before = fullCollections();
        for (int k = 0; k < 20; k++) {
            executor.execute(small, List.of());
        }
        long committed =
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        System.out.println("full " + (fullCollections() - before) + " " + committed + " " + live.length);
    }

    static volatile Object sink2;

    /** Full collections so far: G1's "G1 Old Generation" counts them (System.gc() included). */
    private static long fullCollections() {
        long n = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().equals("G1 Old Generation")) {
                n += gc.getCollectionCount();
            }
        }
        return n;
    }
}
