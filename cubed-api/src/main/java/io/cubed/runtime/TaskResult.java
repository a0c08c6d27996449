package io.cubed.runtime;

import java.io.Serializable;

/**
 * What one task reports back to the driver (never array data): which task, how many attempts it took, when it ran
 * (epoch milliseconds), the bytes it read and wrote, the bytes its thread allocated on the JVM heap while it ran (an
 * upper bound of the memory it needed, garbage included; -1 where the JVM cannot measure it), and, for tasks whose
 * memory was measured, the peak live heap above the baseline ({@link io.cubed.memory.HeapProbe}; -1 when not
 * measured). A task that met data no retry can mend (a corrupt chunk) reports it in {@code failure} instead of throwing,
 * so that an executor which retries thrown failures (Spark) fails the stage at once; it is null for every task that ran
 * to its end, the only ones callbacks see. A measured task whose slot kept store requests in flight ({@link
 * io.cubed.storage.ChunkIo}) reports them in {@code requests}; it is null otherwise.
 */
public record TaskResult(
        String stageId,
        long taskIndex,
        int attempts,
        long startMillis,
        long endMillis,
        long bytesRead,
        long bytesWritten,
        long allocatedBytes,
        long peakLiveBytes,
        String failure,
        SlotRequests requests)
        implements Serializable {
    /**
     * The store requests of a measured task's slot while the task ran: the most in flight at once, the most bytes they
     * held (as the slot counts them: a read its value's bound until it completes, then its length; a write its bytes),
     * and the bytes they held at the checkpoint of the task's measured peak, which that peak includes.
     */
    public record SlotRequests(int maxInFlight, long maxHeldBytes, long heldAtPeakBytes) implements Serializable {}

    /** The result of a task that ran to its end. */
    public TaskResult(
            String stageId,
            long taskIndex,
            int attempts,
            long startMillis,
            long endMillis,
            long bytesRead,
            long bytesWritten,
            long allocatedBytes,
            long peakLiveBytes) {
        this(
                stageId,
                taskIndex,
                attempts,
                startMillis,
                endMillis,
                bytesRead,
                bytesWritten,
                allocatedBytes,
                peakLiveBytes,
                null,
                null);
    }

    /** The result of task {@code taskIndex}, in attempt {@code attempt}, that met corrupt data: {@code message}. */
    public static TaskResult corrupt(String stageId, long taskIndex, int attempt, String message) {
        long now = System.currentTimeMillis();
        return new TaskResult(stageId, taskIndex, attempt, now, now, 0, 0, -1, -1, message, null);
    }

    /** True when the task failed on data no retry can mend ({@link #failure} says why). */
    public boolean failed() {
        return failure != null;
    }

    /** True when the task's peak live heap was measured. */
    public boolean memoryMeasured() {
        return peakLiveBytes >= 0;
    }
}
