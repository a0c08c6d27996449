package io.cubed.spark.internal;

import java.lang.management.ManagementFactory;

/** Reads the bytes the current thread has allocated on the heap (HotSpot's {@code com.sun.management} bean). */
final class ThreadAllocation {
    private static final com.sun.management.ThreadMXBean BEAN = bean();

    private ThreadAllocation() {}

    private static com.sun.management.ThreadMXBean bean() {
        java.lang.management.ThreadMXBean b = ManagementFactory.getThreadMXBean();
        if (!(b instanceof com.sun.management.ThreadMXBean)) {
            return null;
        }
        com.sun.management.ThreadMXBean sun = (com.sun.management.ThreadMXBean) b;
        if (!sun.isThreadAllocatedMemorySupported()) {
            return null;
        }
        if (!sun.isThreadAllocatedMemoryEnabled()) {
            sun.setThreadAllocatedMemoryEnabled(true);
        }
        return sun;
    }

    /** Bytes allocated by the current thread so far, or -1 where the JVM cannot tell. */
    static long currentThread() {
        return BEAN == null ? -1 : BEAN.getCurrentThreadAllocatedBytes();
    }
}
