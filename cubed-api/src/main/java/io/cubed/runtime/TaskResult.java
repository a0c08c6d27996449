package io.cubed.runtime;

import java.io.Serializable;

/**
 * What one task reports back to the driver (never array data): which task, how many attempts it took, when it ran
 * (epoch milliseconds), the bytes it read and wrote, and the bytes its thread allocated on the JVM heap while it ran
 * (an upper bound of the memory it needed; -1 where the JVM cannot measure it).
 */
public record TaskResult(
        String stageId,
        long taskIndex,
        int attempts,
        long startMillis,
        long endMillis,
        long bytesRead,
        long bytesWritten,
        long allocatedBytes)
        implements Serializable {}
