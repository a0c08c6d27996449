package io.cubed.storage;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Direct buffers of {@link #BYTES} bytes through which chunks go to and from local files a slice at a time. A file
 * channel reads into and writes from a direct buffer as it is; given a heap array, the JDK first copies it through a
 * temporary direct buffer of its own, one more pass over every byte. Elements converted straight into (or out of) a
 * slice therefore cross memory once on our side, and the slice stays in the CPU's cache between the conversion and the
 * system call. The buffers are shared by all threads through a small pool ({@link #take}, {@link #giveBack}): a few
 * megabytes outside the heap at most, within the runtime's {@code reservedMem}.
 */
public final class DirectSlices {
    /** Bytes of one slice: a multiple of every element size, so a slice never splits an element. */
    public static final int BYTES = 256 * 1024;

    /**
     * Buffers kept for reuse: a thread holds one at a time, and executors run a thread or two per core (or more threads
     * than cores where tasks wait on I/O): 4 MB at least, so that 16 threads never allocate one per chunk.
     */
    static final int KEPT = Math.max(16, 2 * Runtime.getRuntime().availableProcessors());

    private static final ConcurrentLinkedQueue<ByteBuffer> POOL = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger POOLED = new AtomicInteger();

    private DirectSlices() {}

    /** A cleared big-endian direct buffer of {@link #BYTES} bytes, from the pool or new. */
    public static ByteBuffer take() {
        ByteBuffer b = POOL.poll();
        if (b == null) {
            return ByteBuffer.allocateDirect(BYTES);
        }
        POOLED.decrementAndGet();
        b.clear();
        return b.order(ByteOrder.BIG_ENDIAN);
    }

    /** Hands {@code b} (from {@link #take}) back for reuse; beyond {@link #KEPT} buffers it is left to the collector. */
    public static void giveBack(ByteBuffer b) {
        if (b == null || !b.isDirect() || b.capacity() != BYTES) {
            return;
        }
        if (POOLED.incrementAndGet() <= KEPT) {
            POOL.offer(b);
        } else {
            POOLED.decrementAndGet();
        }
    }
}
