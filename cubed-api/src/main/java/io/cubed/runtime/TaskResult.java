package io.cubed.runtime;

import java.io.Serializable;

/**
 * What one task reports back to the driver (never array data): which task, how many attempts it took, when it ran
 * (epoch milliseconds), the bytes it read and wrote, the bytes its thread allocated on the JVM heap while it ran (an
 * upper bound of the memory it needed, garbage included; -1 where the JVM cannot measure it), and, for tasks whose
 * memory was measured, the peak live heap above the baseline ({@link io.cubed.memory.HeapProbe}; -1 when not
 * measured).
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
        long peakLiveBytes)
        implements Serializable {
    /** True when the task's peak live heap was measured. */
    public boolean memoryMeasured() {
        return peakLiveBytes >= 0;
    }
}
